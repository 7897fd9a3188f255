#include "parquet/row_ranges.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace shoal::parquet {
namespace {

std::set<int64_t> RowsOf(const RowRanges& r) {
  std::set<int64_t> s;
  for (const RowRange& x : r.ranges()) {
    for (int64_t i = x.begin; i < x.end; ++i) s.insert(i);
  }
  return s;
}

// Sorted, disjoint, non-adjacent, non-empty.
void ExpectNormalized(const RowRanges& r) {
  for (size_t i = 0; i < r.ranges().size(); ++i) {
    EXPECT_LT(r.ranges()[i].begin, r.ranges()[i].end);
    if (i > 0) {
      EXPECT_LT(r.ranges()[i - 1].end, r.ranges()[i].begin);
    }
  }
}

RowRanges Random(std::mt19937& rng, int64_t n) {
  std::vector<RowRange> v;
  int k = static_cast<int>(rng() % 6);
  for (int i = 0; i < k; ++i) {
    int64_t a = rng() % n, b = rng() % n;
    v.push_back({std::min(a, b), std::max(a, b) + static_cast<int64_t>(rng() % 2)});
  }
  return RowRanges::FromIntervals(v);
}

TEST(RowRanges, AllAndOfAndEmpty) {
  EXPECT_EQ(RowRanges::All(10).Count(), 10);
  EXPECT_TRUE(RowRanges::All(0).empty());
  EXPECT_TRUE(RowRanges::Of(5, 5).empty());
  EXPECT_EQ(RowRanges::Of(3, 7).ToString(), "[3, 7)");
  EXPECT_EQ(RowRanges().ToString(), "{}");
}

TEST(RowRanges, FromIntervalsMergesOverlappingAndAdjacent) {
  auto r = RowRanges::FromIntervals({{10, 20}, {0, 5}, {5, 8}, {15, 25}, {30, 30}, {40, 41}});
  EXPECT_EQ(r.ToString(), "[0, 8) [10, 25) [40, 41)");
  EXPECT_EQ(r.Count(), 8 + 15 + 1);
}

TEST(RowRanges, ContainsAndOverlaps) {
  auto r = RowRanges::FromIntervals({{0, 5}, {10, 20}});
  EXPECT_TRUE(r.Contains(0));
  EXPECT_TRUE(r.Contains(4));
  EXPECT_FALSE(r.Contains(5));
  EXPECT_FALSE(r.Contains(9));
  EXPECT_TRUE(r.Contains(19));
  EXPECT_FALSE(r.Contains(20));
  EXPECT_FALSE(r.Contains(-1));
  EXPECT_TRUE(r.Overlaps(4, 11));
  EXPECT_FALSE(r.Overlaps(5, 10));
  EXPECT_FALSE(r.Overlaps(7, 7));
}

TEST(RowRanges, IntersectAndUnionMatchSetSemantics) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    RowRanges a = Random(rng, 50), b = Random(rng, 50);
    auto sa = RowsOf(a), sb = RowsOf(b);
    RowRanges i = RowRanges::Intersect(a, b), u = RowRanges::Union(a, b);
    ExpectNormalized(i);
    ExpectNormalized(u);
    std::set<int64_t> si, su = sa;
    for (int64_t x : sa) {
      if (sb.count(x)) si.insert(x);
    }
    su.insert(sb.begin(), sb.end());
    ASSERT_EQ(RowsOf(i), si) << a.ToString() << " & " << b.ToString();
    ASSERT_EQ(RowsOf(u), su) << a.ToString() << " | " << b.ToString();
    EXPECT_EQ(i.Count(), static_cast<int64_t>(si.size()));
    for (int64_t x = -1; x <= 51; ++x) EXPECT_EQ(a.Contains(x), sa.count(x) > 0);
  }
}

TEST(RowRanges, FromPagesKeepsSelectedPagesAndMergesNeighbours) {
  std::vector<PageLocation> locs = {{100, 10, 0}, {110, 10, 10}, {120, 10, 25}, {130, 10, 40}};
  auto r = RowRanges::FromPages(locs, {true, true, false, true}, 50);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ToString(), "[0, 25) [40, 50)");
  auto none = RowRanges::FromPages(locs, {false, false, false, false}, 50);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(RowRanges, FromPagesRejectsInconsistentIndexes) {
  std::vector<PageLocation> locs = {{100, 10, 0}, {110, 10, 10}};
  EXPECT_FALSE(RowRanges::FromPages(locs, {true}, 20).ok());                  // size mismatch
  EXPECT_FALSE(RowRanges::FromPages(locs, {true, true}, 10).ok());            // page past the end
  EXPECT_FALSE(RowRanges::FromPages({{0, 1, 5}}, {true}, 10).ok());           // not starting at 0
  EXPECT_FALSE(RowRanges::FromPages({{0, 1, 0}, {1, 1, 0}}, {true, true}, 10).ok());  // not increasing
  EXPECT_FALSE(RowRanges::FromPages({}, {}, 10).ok());
  EXPECT_TRUE(RowRanges::FromPages({}, {}, 0).ok());
}

}  // namespace
}  // namespace shoal::parquet
