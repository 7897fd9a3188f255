// Operators that spill under memory_limit (doc/memory.md, "Spilling"), with 1 and 2 threads:
// each query runs under a tiny limit (spilling) and a large one (not spilling) and must give the
// same rows; spill files were written and are gone afterwards; with spilling disabled the same
// query fails with OutOfMemoryException naming the operator; a failed spilling statement leaves
// no file behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/spill_test_fixture.h"

namespace shoal {
namespace {

using testing::SpillTest;

TEST_P(SpillTest, HashAggregateManyGroupsEveryCommonAggregate) {
  ExpectSpillsWithSameAnswer(
      "SELECT i % 60000 AS g, count(*), sum(i), min(i), max(i), avg(i), count(DISTINCT i % 7), "
      "sum(DISTINCT i % 5), count_if(i % 3 = 0), bool_and(i >= 0) FROM range(480000) r(i) GROUP BY g",
      "8MB");
}

TEST_P(SpillTest, HashAggregateStringKeysAndNulls) {
  ExpectSpillsWithSameAnswer(
      "SELECT CASE WHEN i % 11 = 0 THEN NULL ELSE 'key-' || CAST(i % 40009 AS VARCHAR) END AS g, "
      "i % 2 AS h, count(*), count(s), min(s), max(s), sum(length(s)) FROM (SELECT i, CASE WHEN i % 5 = 0 "
      "THEN NULL ELSE repeat('x', CAST(i % 17 AS INT)) || CAST(i AS VARCHAR) END AS s FROM range(300000) r(i)) t "
      "GROUP BY g, h",
      "8MB");
}

TEST_P(SpillTest, HashAggregateBufferedAggregates) {
  ExpectSpillsWithSameAnswer(
      "SELECT i % 30000 AS g, median(i), percentile(i, 0.25), array_sort(collect_list(i)), "
      "array_sort(collect_set(i % 4)), length(string_agg(CAST(i AS VARCHAR), ',')), mode(i % 2) "
      "FROM range(240000) r(i) GROUP BY g",
      "8MB");
}

TEST_P(SpillTest, HashAggregateSkewOneHugeGroup) {
  ExpectSpillsWithSameAnswer(
      "SELECT CASE WHEN i % 2 = 0 THEN -1 ELSE i END AS g, count(*), sum(i), max(i) FROM range(600000) r(i) "
      "GROUP BY g",
      "8MB");
}

TEST_P(SpillTest, HashAggregateKnownTotals) {
  // Checked against arithmetic, not only against the unspilled run: 400000 groups of 2 rows.
  Run("SET memory_limit = '8MB'");
  const int64_t before = Spilled();
  EXPECT_EQ(Run("SELECT count(*), sum(c), sum(s), min(c), max(c) FROM (SELECT i % 400000 AS g, count(*) AS c, "
                "sum(i) AS s FROM range(800000) r(i) GROUP BY g) t"),
            std::vector<std::string>{"400000|800000|319999600000|2|2"});
  EXPECT_GT(Spilled(), before);
  EXPECT_EQ(TempFiles(), 0);
}

TEST_P(SpillTest, HashAggregatePartitionsThatDoNotFitAreSplitAgain) {
  // Under 3 MB a sixteenth of 800000 groups does not fit: partitions are split recursively.
  Run("SET memory_limit = '3MB'");
  EXPECT_EQ(Run("SELECT count(*), sum(c), sum(s), min(c), max(c) FROM (SELECT i % 800000 AS g, count(*) AS c, "
                "sum(i) AS s FROM range(1600000) r(i) GROUP BY g) t"),
            std::vector<std::string>{"800000|1600000|1279999200000|2|2"});
  EXPECT_EQ(TempFiles(), 0);
}

TEST_P(SpillTest, OneGroupTooBigForTheLimitFailsNamingTheOperator) {
  Run("SET memory_limit = '3MB'");
  auto r = con_->Query("SELECT g, length(string_agg(s, ',')) FROM (SELECT i % 2 AS g, repeat('x', 100) AS s "
                       "FROM range(200000) r(i)) t GROUP BY g");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("HashAggregate"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(TempFiles(), 0);
  EXPECT_EQ(db_->impl().memory->reserved(), 0);
}

TEST_P(SpillTest, SortWithTiesKeepsTheStableOrder) {
  // Three rows per key: ties come out in input order, as the in-memory sort's.
  ExpectSpillsWithSameAnswer("SELECT i, (i * 7919) % 100000 AS k FROM range(300000) r(i) ORDER BY k DESC", "16MB",
                             true);
}

TEST_P(SpillTest, SortStringsNullsAndNaN) {
  const std::string rows =
      "(SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || CAST((i * 31) % 5003 AS VARCHAR) END AS s, "
      "CASE WHEN i % 11 = 0 THEN CAST('NaN' AS DOUBLE) WHEN i % 13 = 0 THEN NULL "
      "ELSE CAST((i * 17) % 1009 AS DOUBLE) / 8 END AS d FROM range(250000) r(i)) t";
  ExpectSpillsWithSameAnswer("SELECT s, d, i FROM " + rows + " ORDER BY s NULLS FIRST, d DESC NULLS LAST", "16MB",
                             true);
  ExpectSpillsWithSameAnswer("SELECT s, d, i FROM " + rows + " ORDER BY d NULLS FIRST, s DESC NULLS LAST, i DESC",
                             "16MB", true);
}

TEST_P(SpillTest, SortMergesManyRunsInPasses) {
  // Under 1.5 MB each run holds a few thousand rows: more than 64 runs, merged in passes.
  Run("SET memory_limit = '1.5MB'");
  const int64_t before = Spilled();
  // 1000003 is prime, so k runs over 0 .. 1000002 once each: sorted, row r is r.
  const auto rows = Streamed("SELECT (i * 7919) % 1000003 AS k FROM range(1000003) r(i) ORDER BY k");
  ASSERT_EQ(rows.size(), 1000003u);
  for (size_t r = 0; r < rows.size(); ++r) ASSERT_EQ(rows[r], std::to_string(r));
  EXPECT_GT(Spilled(), before);
  EXPECT_EQ(TempFiles(), 0);
}

TEST_P(SpillTest, DisabledSpillingFailsNamingTheOperatorAndTheDatabaseStaysUsable) {
  Run("SET memory_limit = '8MB'");
  Run("SET temp_directory = ''");
  auto r = con_->Query("SELECT count(*) FROM (SELECT i % 400000 AS g, count(*) FROM range(800000) r(i) GROUP BY g) t");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
  EXPECT_EQ(r.status().ToString().rfind("OutOfMemoryException: HashAggregate needs ", 0), 0u) << r.status().ToString();
  EXPECT_EQ(db_->impl().memory->reserved(), 0);
  EXPECT_EQ(Run("SELECT 1"), std::vector<std::string>{"1"});
  Run("RESET temp_directory");
  EXPECT_EQ(Run("SELECT count(*) FROM (SELECT i % 400000 AS g, count(*) FROM range(800000) r(i) GROUP BY g) t"),
            std::vector<std::string>{"400000"});
}

TEST_P(SpillTest, AFailedSpillingStatementLeavesNoFiles) {
  // The aggregate spills, then the division fails (ANSI mode) on the rows it hands out.
  ExpectFailsAfterSpilling("SELECT sum(c / (c - 2)) FROM (SELECT i % 400000 AS g, count(*) AS c FROM range(800000) r(i) "
                           "GROUP BY g) t",
                           "8MB", "ivision by zero");
}

TEST_P(SpillTest, ACancelledSpillingStatementLeavesNoFiles) {
  // Interrupted once it has spilled something (the sink phase, or the partitions' merge).
  ExpectInterruptedAfterSpilling("SELECT count(*), sum(c) FROM (SELECT i % 4000000 AS g, count(*) AS c FROM "
                                 "range(8000000) r(i) GROUP BY g) t",
                                 "8MB");
}

TEST_P(SpillTest, TheDatabaseRemovesItsTempDirectoryWhenClosed) {
  Run("SET memory_limit = '8MB'");
  Run("SELECT count(*) FROM (SELECT i % 400000 AS g, count(*) FROM range(800000) r(i) GROUP BY g) t");
  EXPECT_TRUE(std::filesystem::exists(dir_.path() + "/.tmp"));
  con_.reset();
  db_.reset();
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/.tmp"));
}

INSTANTIATE_TEST_SUITE_P(Threads, SpillTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace shoal
