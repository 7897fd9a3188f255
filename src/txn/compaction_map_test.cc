#include "txn/compaction_map.h"

#include <gtest/gtest.h>

#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using testing_support::Rows;

TEST(CompactionMap, TagRoundTrips) {
  std::vector<CompactionSource> s{{"a.parquet", "", 10}, {"b%20c.parquet", "uabc@4", 7}};
  auto parsed = ParseCompactedFrom(SerializeCompactedFrom(s));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, s);
}

TEST(CompactionMap, MalformedTagIsCorruption) {
  EXPECT_TRUE(ParseCompactedFrom("{").status().IsCorruption());
  EXPECT_TRUE(ParseCompactedFrom("{}").status().IsCorruption());
  EXPECT_TRUE(ParseCompactedFrom("[{\"path\":\"a\"}]").status().IsCorruption());
  EXPECT_TRUE(ParseCompactedFrom("[{\"path\":\"a\",\"liveRows\":-1}]").status().IsCorruption());
}

TEST(CompactionMap, FindsPlacementAfterEarlierSources) {
  delta::AddFile out;
  out.path = "out.parquet";
  out.tags = delta::StringMap{{kCompactedFromTag, SerializeCompactedFrom({{"a", "", 10}, {"b", "", 5}})}};
  auto p = FindCompactionPlacement({out}, "b");
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->has_value());
  EXPECT_EQ((*p)->out_start, 10);
  EXPECT_EQ((*p)->output.path, "out.parquet");
  auto none = FindCompactionPlacement({out}, "c");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// Brute force: compact the live rows in order and look the positions up.
TEST(CompactionMap, TranslationMatchesBruteForceCompaction) {
  const uint64_t physical = 300;
  delta::DeletionVector dv_at;
  for (uint64_t r = 0; r < physical; ++r) {
    if (r % 7 == 0 || (r > 100 && r < 120)) dv_at.Add(r);
  }
  std::vector<int64_t> out_pos(physical, -1);
  int64_t next = 42;  // the source starts at 42 in the output
  for (uint64_t r = 0; r < physical; ++r) {
    if (!dv_at.Contains(r)) out_pos[r] = next++;
  }
  CompactionPlacement placement;
  placement.source = {"src", "x", next - 42};
  placement.out_start = 42;
  delta::DeletionVector rows, expected;
  for (uint64_t r = 0; r < physical; r += 5) {
    if (dv_at.Contains(r)) continue;
    rows.Add(r);
    expected.Add(out_pos[r]);
  }
  auto mapped = TranslateThroughCompaction(rows, dv_at, placement);
  ASSERT_TRUE(mapped.ok()) << mapped.status().ToString();
  EXPECT_EQ(*mapped, expected);
}

TEST(CompactionMap, RowAlreadyDeletedOrPastTheEndIsRejected) {
  CompactionPlacement placement;
  placement.source = {"src", "", 10};
  EXPECT_FALSE(TranslateThroughCompaction(Rows({3}), Rows({3}), placement).ok());
  EXPECT_FALSE(TranslateThroughCompaction(Rows({10}), {}, placement).ok());
  EXPECT_TRUE(TranslateThroughCompaction(Rows({9}), {}, placement).ok());
}

}  // namespace
}  // namespace shoal::txn
