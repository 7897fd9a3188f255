// Randomized checks of the aggregates' fast paths (UpdateOneGroup, the int64 DECIMAL sum with
// int128 spill, typed min/max loops, string picks) against per-row Update and brute force.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "columnar/value.h"
#include "expr/aggregate_functions.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT

// Finalized values of one aggregate fed `batches` three ways: (a) UpdateOneGroup per batch,
// (b) Update with all ids 0, (c) Update into two partial states (even / odd batches) merged
// by Combine. Returns the three results as text, one per group 0.
std::vector<std::string> ThreeWays(const std::string& name, const std::vector<VectorPtr>& batches) {
  TypePtr type = batches[0]->type();
  auto b = ResolveAggregate(name, {type});
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  if (!b.ok()) return {};
  auto one = b->Create(), rows = b->Create(), even = b->Create(), odd = b->Create();
  for (auto* a : {one.get(), rows.get(), even.get(), odd.get()}) a->Resize(1);
  for (size_t k = 0; k < batches.size(); ++k) {
    std::vector<const Vector*> args{batches[k].get()};
    int64_t n = batches[k]->size();
    std::vector<uint32_t> zeros(static_cast<size_t>(n), 0);
    EXPECT_TRUE(one->UpdateOneGroup(0, args, n).ok());
    EXPECT_TRUE(rows->Update(zeros.data(), args, n).ok());
    EXPECT_TRUE((k % 2 ? odd : even)->Update(zeros.data(), args, n).ok());
  }
  uint32_t map0 = 0;
  EXPECT_TRUE(even->Combine(*odd, &map0).ok());
  std::vector<std::string> out;
  for (auto* a : {one.get(), rows.get(), even.get()}) {
    auto v = a->Finalize();
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    if (!v.ok()) return {};
    out.push_back(Value::FromVector(**v, 0).ToString());
  }
  return out;
}

// Random batches of `type` (including an empty and an all-NULL batch) from `gen(rng)`.
template <typename Gen>
std::vector<VectorPtr> RandomBatches(std::mt19937& rng, TypePtr type, Gen gen, bool nulls) {
  std::vector<VectorPtr> batches;
  for (int k = 0; k < 12; ++k) {
    auto v = Vector::Make(type);
    int n = k == 3 ? 0 : static_cast<int>(rng() % 300);
    for (int i = 0; i < n; ++i) {
      if (k == 5 || (nulls && rng() % 7 == 0)) v->AppendNull();
      else gen(v.get());
    }
    batches.push_back(v);
  }
  return batches;
}

TEST(AggregateFastPaths, OneGroupAndPartialsAgreeWithPerRowUpdate) {
  std::mt19937 rng(11);
  for (bool nulls : {false, true}) {
    auto dec = RandomBatches(rng, Decimal(15, 2), [&](Vector* v) {
      v->Append<int64_t>(static_cast<int64_t>(rng() % 2000000) - 1000000);
    }, nulls);
    auto wide = RandomBatches(rng, Decimal(31, 4), [&](Vector* v) {  // a DECIMAL(15,2) product
      v->Append<int128_t>((static_cast<int128_t>(rng()) << 40) - (static_cast<int128_t>(rng()) << 39));
    }, nulls);
    auto big = RandomBatches(rng, Int64(), [&](Vector* v) { v->Append<int64_t>(static_cast<int64_t>(rng()) - 2000000000); }, nulls);
    auto dbl = RandomBatches(rng, Float64(), [&](Vector* v) {
      int r = static_cast<int>(rng() % 50);
      v->Append<double>(r == 0 ? std::nan("") : (r == 1 ? -0.0 : static_cast<double>(rng() % 1000) / 8));
    }, nulls);
    auto date = RandomBatches(rng, Date(), [&](Vector* v) { v->Append<int32_t>(static_cast<int32_t>(rng() % 9000) - 100); }, nulls);
    auto str = RandomBatches(rng, String(), [&](Vector* v) {
      std::string s(rng() % 6, 'a');
      for (char& c : s) c = static_cast<char>("ab\x7f\x80\xff"[rng() % 5]);
      v->AppendString(s);
    }, nulls);
    auto boo = RandomBatches(rng, Boolean(), [&](Vector* v) { v->Append<uint8_t>(rng() % 10 != 0); }, nulls);
    struct Case {
      const char* name;
      std::vector<VectorPtr>* batches;
    };
    std::vector<Case> cases = {
        {"count", &dec}, {"sum", &dec}, {"avg", &dec}, {"min", &dec}, {"max", &dec},
        {"sum", &big},   {"min", &big}, {"first", &big}, {"sum", &dbl}, {"avg", &dbl},
        {"min", &dbl},   {"max", &dbl}, {"min", &date}, {"max", &date}, {"first", &date},
        {"min", &str},   {"max", &str}, {"first", &str}, {"count", &str}, {"bool_and", &boo},
        {"bool_or", &boo}, {"sum", &wide}, {"avg", &wide},
    };
    for (const auto& c : cases) {
      auto r = ThreeWays(c.name, *c.batches);
      ASSERT_EQ(r.size(), 3u) << c.name;
      EXPECT_EQ(r[0], r[1]) << c.name << " on " << (*c.batches)[0]->type()->ToString() << " nulls=" << nulls;
      EXPECT_EQ(r[1], r[2]) << c.name << " on " << (*c.batches)[0]->type()->ToString() << " nulls=" << nulls;
    }
  }
}

TEST(AggregateFastPaths, DecimalSumSpillsPastInt64Exactly) {
  // 18-digit values: a few rows overflow an int64 sum; the int128 result must be exact, grouped
  // and ungrouped, through Combine.
  std::mt19937_64 rng(5);
  const int64_t kMax18 = 999999999999999999LL;
  const int kGroups = 3;
  auto v = Vector::Make(Decimal(18, 3));
  std::vector<uint32_t> ids;
  int128_t expect[kGroups] = {0, 0, 0};
  int128_t total = 0;
  for (int i = 0; i < 5000; ++i) {
    int64_t x = (i % 10 == 9) ? -static_cast<int64_t>(rng() % kMax18) : kMax18 - static_cast<int64_t>(rng() % 1000);
    uint32_t g = static_cast<uint32_t>(rng() % kGroups);
    v->Append<int64_t>(x);
    ids.push_back(g);
    expect[g] += x;
    total += x;
  }
  auto b = ResolveAggregate("sum", {v->type()});
  ASSERT_TRUE(b.ok());
  std::vector<const Vector*> args{v.get()};
  auto grouped = b->Create(), other = b->Create(), global = b->Create();
  grouped->Resize(kGroups);
  other->Resize(kGroups);
  global->Resize(1);
  const int64_t half = v->size() / 2;
  auto lo = v->Slice(0, half), hi = v->Slice(half, v->size() - half);
  std::vector<const Vector*> lo_args{lo.get()}, hi_args{hi.get()};
  ASSERT_TRUE(grouped->Update(ids.data(), lo_args, half).ok());
  ASSERT_TRUE(other->Update(ids.data() + half, hi_args, v->size() - half).ok());
  std::vector<uint32_t> identity = {0, 1, 2};
  ASSERT_TRUE(grouped->Combine(*other, identity.data()).ok());
  ASSERT_TRUE(global->UpdateOneGroup(0, args, v->size()).ok());
  auto g = grouped->Finalize();
  auto t = global->Finalize();
  ASSERT_TRUE(g.ok() && t.ok());
  for (int k = 0; k < kGroups; ++k) {
    EXPECT_EQ((*g)->Get<int128_t>(k), expect[k]) << "group " << k;
  }
  EXPECT_EQ((*t)->Get<int128_t>(0), total);
  EXPECT_GT(total, int128_t{std::numeric_limits<int64_t>::max()});
}

TEST(AggregateFastPaths, WideDecimalSumOverflowIsOutOfRange) {
  auto v = Vector::Make(Decimal(38, 0));
  int128_t big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;
  for (int i = 0; i < 20; ++i) v->Append<int128_t>(big * 9);
  auto b = ResolveAggregate("sum", {v->type()});
  ASSERT_TRUE(b.ok());
  auto agg = b->Create();
  agg->Resize(1);
  std::vector<const Vector*> args{v.get()};
  Status st = agg->UpdateOneGroup(0, args, v->size());
  EXPECT_TRUE(st.code() == StatusCode::kOutOfRange) << st.ToString();
}

// 6e37 + 6e37 fits an int128 but not 38 digits: the bound is checked when the sum is read.
TEST(AggregateFastPaths, WideDecimalSumBeyondThirtyEightDigitsIsOutOfRangeWhenRead) {
  auto v = Vector::Make(Decimal(38, 0));
  int128_t big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;
  v->Append<int128_t>(big * 6);
  v->Append<int128_t>(big * 6);
  auto b = ResolveAggregate("sum", {v->type()});
  ASSERT_TRUE(b.ok());
  for (bool grouped : {false, true}) {
    auto agg = b->Create();
    agg->Resize(1);
    std::vector<const Vector*> args{v.get()};
    std::vector<uint32_t> ids(2, 0);
    ASSERT_TRUE((grouped ? agg->Update(ids.data(), args, 2) : agg->UpdateOneGroup(0, args, 2)).ok());
    auto out = agg->Finalize();
    EXPECT_TRUE(out.status().code() == StatusCode::kOutOfRange) << out.status().ToString();
    auto other = b->Create();
    other->Resize(1);
    uint32_t map = 0;
    EXPECT_TRUE(other->Combine(*agg, &map).code() == StatusCode::kOutOfRange);
  }
}

TEST(AggregateFastPaths, BigintSumOverflowIsOutOfRangeInBothPaths) {
  auto v = Vector::Make(Int64());
  v->Append<int64_t>(std::numeric_limits<int64_t>::max());
  v->Append<int64_t>(1);
  auto b = ResolveAggregate("sum", {v->type()});
  ASSERT_TRUE(b.ok());
  std::vector<const Vector*> args{v.get()};
  auto one = b->Create(), rows = b->Create();
  one->Resize(1);
  rows->Resize(1);
  uint32_t ids[2] = {0, 0};
  EXPECT_TRUE(one->UpdateOneGroup(0, args, 2).code() == StatusCode::kOutOfRange);
  EXPECT_TRUE(rows->Update(ids, args, 2).code() == StatusCode::kOutOfRange);
}

TEST(AggregateFastPaths, GroupedStringAndDoublePicksMatchBruteForce) {
  std::mt19937 rng(3);
  const int kGroups = 40;  // the last groups get only NULLs or nothing
  auto s = Vector::Make(String());
  auto d = Vector::Make(Float64());
  std::vector<uint32_t> ids;
  std::vector<std::optional<std::string>> smin(kGroups), smax(kGroups);
  std::vector<std::optional<double>> dmin(kGroups), dmax(kGroups);
  // NaN is greater than every number and equal to itself.
  auto less = [](double a, double b) { return std::isnan(a) ? false : (std::isnan(b) ? true : a < b); };
  for (int i = 0; i < 20000; ++i) {
    uint32_t g = static_cast<uint32_t>(rng() % (kGroups - 1));
    ids.push_back(g);
    if (g == kGroups - 2 || rng() % 9 == 0) {
      s->AppendNull();
      d->AppendNull();
      continue;
    }
    std::string x(rng() % 12, 'x');
    for (char& c : x) c = static_cast<char>(rng() % 256);
    s->AppendString(x);
    if (!smin[g] || x < *smin[g]) smin[g] = x;
    if (!smax[g] || x > *smax[g]) smax[g] = x;
    double y = rng() % 97 == 0 ? std::nan("") : static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
    d->Append<double>(y);
    if (!dmin[g] || less(y, *dmin[g])) dmin[g] = y;
    if (!dmax[g] || less(*dmax[g], y)) dmax[g] = y;
  }
  auto run = [&](const char* name, const VectorPtr& v) {
    auto b = ResolveAggregate(name, {v->type()});
    EXPECT_TRUE(b.ok());
    auto agg = b->Create();
    agg->Resize(kGroups);
    std::vector<const Vector*> args{v.get()};
    EXPECT_TRUE(agg->Update(ids.data(), args, v->size()).ok());
    return *agg->Finalize();
  };
  auto mn = run("min", s), mx = run("max", s), dn = run("min", d), dx = run("max", d);
  for (int g = 0; g < kGroups; ++g) {
    EXPECT_EQ(mn->IsNull(g), !smin[g].has_value()) << g;
    EXPECT_EQ(mx->IsNull(g), !smax[g].has_value()) << g;
    if (smin[g]) {
      EXPECT_EQ(std::string(mn->GetString(g)), *smin[g]) << g;
    }
    if (smax[g]) {
      EXPECT_EQ(std::string(mx->GetString(g)), *smax[g]) << g;
    }
    EXPECT_EQ(dn->IsNull(g), !dmin[g].has_value()) << g;
    if (dmin[g]) {
      EXPECT_EQ(std::isnan(dn->Get<double>(g)), std::isnan(*dmin[g])) << g;
      if (!std::isnan(*dmin[g])) {
        EXPECT_EQ(dn->Get<double>(g), *dmin[g]) << g;
      }
    }
    if (dmax[g]) {
      EXPECT_EQ(std::isnan(dx->Get<double>(g)), std::isnan(*dmax[g])) << g;
      if (!std::isnan(*dmax[g])) {
        EXPECT_EQ(dx->Get<double>(g), *dmax[g]) << g;
      }
    }
  }
}

}  // namespace
}  // namespace shoal::expr
