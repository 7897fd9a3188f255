#include "table/zorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace shoal::table {
namespace {

namespace c = columnar;

c::VectorPtr Int64s(const std::vector<int64_t>& v) {
  auto out = c::Vector::Make(c::Int64(), static_cast<int64_t>(v.size()));
  for (int64_t x : v) out->Append<int64_t>(x);
  return out;
}

TEST(ZOrder, RangeIdsAreMonotoneAndNullsFirst) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> vals;
  for (int i = 0; i < 5000; ++i) vals.push_back(static_cast<int64_t>(rng() % 2001) - 1000);
  auto v = Int64s(vals);
  v->AppendNull();
  auto ids = ZOrderRangeIds(*v, 8);
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  ASSERT_EQ(ids->size(), vals.size() + 1);
  EXPECT_EQ(ids->back(), 0u);
  for (size_t i = 0; i < vals.size(); ++i) {
    EXPECT_LT((*ids)[i], 256u);
    EXPECT_GT((*ids)[i], 0u) << "a value shares NULL's id";
    for (size_t j = i + 1; j < std::min(vals.size(), i + 50); ++j) {
      if (vals[i] < vals[j]) {
        EXPECT_LE((*ids)[i], (*ids)[j]);
      }
      if (vals[i] == vals[j]) {
        EXPECT_EQ((*ids)[i], (*ids)[j]);
      }
    }
  }
}

TEST(ZOrder, TwoValuedColumnSplitsAtTheTopBit) {
  auto v = Int64s({5, 9, 5, 9});
  auto ids = ZOrderRangeIds(*v, 16);
  ASSERT_TRUE(ids.ok());
  EXPECT_LT((*ids)[0], 1u << 15);
  EXPECT_GE((*ids)[1], 1u << 15);
}

TEST(ZOrder, SkewedColumnStillSpreadsTheOtherValues) {
  // 90% one value: it gets a single id, the other 10% spread over many ids in value order.
  std::vector<int64_t> vals;
  for (int i = 0; i < 100000; ++i) vals.push_back(i % 10 == 0 ? 1 + i : 0);
  auto ids = ZOrderRangeIds(*Int64s(vals), 16);
  ASSERT_TRUE(ids.ok());
  std::set<uint32_t> heavy, others;
  for (size_t i = 0; i < vals.size(); ++i) (vals[i] == 0 ? heavy : others).insert((*ids)[i]);
  EXPECT_EQ(heavy.size(), 1u);
  EXPECT_GT(others.size(), 5000u);
  EXPECT_EQ(others.count(*heavy.begin()), 0u);
}

TEST(ZOrder, StringAndDoubleColumnsRankByValue) {
  auto s = c::Vector::Make(c::String(), 4);
  for (const char* x : {"pear", "apple", "zebra", "apple"}) s->AppendString(x);
  auto ids = ZOrderRangeIds(*s, 4);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ((*ids)[1], (*ids)[3]);
  EXPECT_LT((*ids)[1], (*ids)[0]);
  EXPECT_LT((*ids)[0], (*ids)[2]);
  auto d = c::Vector::Make(c::Float64(), 4);
  for (double x : {-2.5, 3.0, -0.0, -100.0}) d->Append<double>(x);
  auto dids = ZOrderRangeIds(*d, 4);
  ASSERT_TRUE(dids.ok());
  EXPECT_LT((*dids)[3], (*dids)[0]);
  EXPECT_LT((*dids)[0], (*dids)[2]);
  EXPECT_LT((*dids)[2], (*dids)[1]);
}

TEST(ZOrder, RejectsNestedTypes) {
  auto l = c::Vector::Make(c::List(c::Int64()), 0);
  EXPECT_FALSE(ZOrderRangeIds(*l, 4).ok());
  std::vector<const c::Vector*> cols = {l.get()};
  EXPECT_FALSE(ZOrderPermutation(cols).ok());
}

TEST(ZOrder, InterleavesColumnZeroFirstInEachBitGroup) {
  // 2 columns, 2 bits: x = 0b10, y = 0b01 -> x1 y1 x0 y0 = 1 0 0 1.
  auto z = InterleaveBits({{2u}, {1u}}, 2);
  ASSERT_EQ(z.size(), 1u);
  EXPECT_EQ(z[0], 0b1001u);
  // 3 columns, 16 bits: the top bit of column 2 lands at bit 45.
  auto z3 = InterleaveBits({{0u}, {0u}, {1u << 15}}, 16);
  EXPECT_EQ(z3[0], uint64_t{1} << 45);
}

TEST(ZOrder, PermutationVisitsGridQuadrantsInZOrder) {
  // A 4x4 grid given in row-major order: z-order visits each 2x2 quadrant before the next.
  std::vector<int64_t> xs, ys;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      xs.push_back(x);
      ys.push_back(y);
    }
  }
  auto xv = Int64s(xs), yv = Int64s(ys);
  std::vector<const c::Vector*> cols = {xv.get(), yv.get()};
  auto perm = ZOrderPermutation(cols);
  ASSERT_TRUE(perm.ok()) << perm.status().ToString();
  ASSERT_EQ(perm->size(), 16u);
  std::set<uint32_t> seen(perm->begin(), perm->end());
  EXPECT_EQ(seen.size(), 16u);
  for (int q = 0; q < 4; ++q) {
    std::set<std::pair<int, int>> quadrant;
    for (int k = 0; k < 4; ++k) {
      uint32_t r = (*perm)[static_cast<size_t>(q * 4 + k)];
      quadrant.insert({static_cast<int>(xs[r]) / 2, static_cast<int>(ys[r]) / 2});
    }
    EXPECT_EQ(quadrant.size(), 1u) << "rows " << q * 4 << ".." << q * 4 + 3 << " span quadrants";
  }
}

TEST(ZOrder, PermutationIsStableForEqualKeys) {
  auto v = Int64s({3, 1, 3, 1, 3});
  std::vector<const c::Vector*> cols = {v.get()};
  auto perm = ZOrderPermutation(cols);
  ASSERT_TRUE(perm.ok());
  EXPECT_EQ(*perm, (std::vector<uint32_t>{1, 3, 0, 2, 4}));
}

}  // namespace
}  // namespace shoal::table
