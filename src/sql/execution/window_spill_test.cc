// Window operators with PARTITION BY that spill under memory_limit (doc/memory.md, "Spilling"),
// with 1 and 2 threads: every window function family under a small limit gives the rows it gives
// under 2 GB (pseudo-random partition keys with NULLs, ORDER BY keys with ties, NULL arguments);
// skewed partitions; partitions split again; one partition bigger than the limit (without
// PARTITION BY, or one PARTITION BY value) evaluated streaming for the functions that allow it,
// and failing with OutOfMemoryException naming Window for the others, as with disabled spilling;
// no spill file is left, also after an error or an interrupt.
#include <string>
#include <vector>

#include "support/spill_test_fixture.h"

namespace shoal {
namespace {

class WindowSpillTest : public testing::SpillTest {
 protected:
  // `t` (i, g, x, v, s) as a WITH clause: about 400 partitions g by `seed` (NULL for one in 97
  // rows), ORDER BY keys x with ties (about 2.4 rows a value), NULL arguments v (one in 11).
  static std::string With(int seed, int rows = 100000) {
    const std::string s = std::to_string(seed);
    return "WITH t AS (SELECT i, CASE WHEN i % 17 = " + std::to_string(seed % 17) +
           " THEN NULL ELSE (i * 104729 + " + s + ") % 401 END AS g, (i * 7919 + " + s +
           ") % 41000 AS x, CASE WHEN i % 11 = 3 THEN NULL ELSE (i * 31) % 1000 END AS v, "
           "'s' || CAST(i % 977 AS VARCHAR) AS s FROM range(" + std::to_string(rows) + ") r(i)) ";
  }
};

TEST_P(WindowSpillTest, EveryWindowFunctionGivesTheUnspilledAnswer) {
  const std::string w = "OVER (PARTITION BY g ORDER BY x)";
  const std::vector<std::string> queries = {
      // Ranking and distribution.
      "SELECT i, row_number() " + w + ", rank() " + w + ", dense_rank() " + w + " FROM t",
      "SELECT i, percent_rank() " + w + ", cume_dist() " + w + ", ntile(7) " + w + " FROM t",
      // Aggregates with each frame kind: the whole partition, RANGE to the current row's peers,
      // running ROWS, a sliding ROWS frame, ROWS to the end, RANGE with offsets, DISTINCT.
      "SELECT i, sum(v) OVER (PARTITION BY g), count(*) OVER (PARTITION BY g), max(s) OVER (PARTITION BY g) FROM t",
      "SELECT i, sum(v) " + w + ", count(v) " + w + ", min(s) " + w + " FROM t",
      "SELECT i, sum(v) OVER (PARTITION BY g ORDER BY x, i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
      "avg(v) OVER (PARTITION BY g ORDER BY x, i ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING) FROM t",
      "SELECT i, max(v) OVER (PARTITION BY g ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
      "sum(v) OVER (PARTITION BY g ORDER BY x RANGE BETWEEN 500 PRECEDING AND 200 FOLLOWING) FROM t",
      "SELECT i, count(DISTINCT v) OVER (PARTITION BY g) FROM t",
      // Offsets and values.
      "SELECT i, lag(v) " + w + ", lead(s, 2, 'none') " + w + ", lag(x, 3) " + w + " FROM t",
      "SELECT i, first_value(s) " + w + ", last_value(v) " + w + ", nth_value(v, 3) " + w + " FROM t",
      "SELECT i, first_value(v) OVER (PARTITION BY g ORDER BY x ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), "
      "last_value(s) OVER (PARTITION BY g ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t",
      // DESC, NULLS LAST, two partition keys (one a string).
      "SELECT i, row_number() OVER (PARTITION BY g, s ORDER BY x DESC NULLS LAST, i), "
      "sum(v) OVER (PARTITION BY s ORDER BY v DESC NULLS LAST) FROM t",
  };
  for (int seed : {1, 2}) {
    for (const auto& q : queries) ExpectSpillsWithSameAnswer(With(seed) + q, "4MB");
  }
}

TEST_P(WindowSpillTest, SeveralWindowOperatorsInOneQuery) {
  // Different PARTITION BY: one Window operator each, each spilling on its own.
  ExpectSpillsWithSameAnswer(With(3) +
                                 "SELECT i, row_number() OVER (PARTITION BY g ORDER BY x, i), sum(v) OVER "
                                 "(PARTITION BY x % 97), rank() OVER (PARTITION BY s ORDER BY v) FROM t",
                             "4MB");
}

TEST_P(WindowSpillTest, SkewedPartitionsThatFit) {
  // A tenth of the rows in one partition: its hash partition is large but fits on its own.
  ExpectSpillsWithSameAnswer(
      "SELECT i, row_number() OVER (PARTITION BY g ORDER BY i), sum(i) OVER (PARTITION BY g ORDER BY i ROWS "
      "BETWEEN 5 PRECEDING AND CURRENT ROW) FROM (SELECT i, CASE WHEN i % 10 = 0 THEN -1 ELSE i % 3001 END AS g "
      "FROM range(300000) r(i)) t",
      "12MB");
}

TEST_P(WindowSpillTest, KnownTotalsThroughAWholeResult) {
  // 300000 rows in 1000 partitions of 300: row_number sums to 1000 * 300 * 301 / 2; lag(i, 1, 0)
  // to every i but each partition's last (i >= 299000).
  Run("SET memory_limit = '8MB'");
  const int64_t before = Spilled();
  EXPECT_EQ(Run("SELECT count(*), sum(rn), sum(lg) FROM (SELECT row_number() OVER (PARTITION BY i % 1000 ORDER BY i) "
                "AS rn, lag(i, 1, 0) OVER (PARTITION BY i % 1000 ORDER BY i) AS lg FROM range(300000) r(i)) t"),
            std::vector<std::string>{"300000|45150000|" + std::to_string(int64_t{298999} * 299000 / 2)});
  EXPECT_GT(Spilled(), before);
  ExpectNothingLeft();
}

TEST_P(WindowSpillTest, PartitionsThatDoNotFitAreSplitAgain) {
  // Under 3 MB a sixteenth of 600000 rows does not fit: hash partitions are split 16 ways again,
  // which takes more files than the first level's (16 a worker, and the output's).
  Run("SET memory_limit = '3MB'");
  const int64_t files = db_->impl().spill->files_created();
  EXPECT_EQ(Run("SELECT count(*), sum(rn), max(rn) FROM (SELECT row_number() OVER (PARTITION BY i % 20000 ORDER BY "
                "i DESC) AS rn FROM range(600000) r(i)) t"),
            std::vector<std::string>{"600000|" + std::to_string(int64_t{20000} * 30 * 31 / 2) + "|30"});
  EXPECT_GT(db_->impl().spill->files_created() - files, 16 * GetParam() + 1 + 16);
  ExpectNothingLeft();
}

TEST_P(WindowSpillTest, WithoutPartitionByTheStreamableFunctionsSpill) {
  // One partition of everything: sorted into runs and evaluated block by block, carrying ranks
  // and running aggregates; ties in x cross block boundaries.
  const std::vector<std::string> queries = {
      "SELECT i, row_number() OVER (ORDER BY x, i), rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x DESC) "
      "FROM t",
      "SELECT i, sum(v) OVER (ORDER BY x, i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), sum(v) OVER (ORDER "
      "BY x), avg(v) OVER (ORDER BY x, i ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING), max(s) OVER (ORDER BY x, i ROWS "
      "BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), count(*) OVER (ORDER BY x, i ROWS BETWEEN UNBOUNDED PRECEDING "
      "AND 2 FOLLOWING) FROM t",
      "SELECT i, lag(v) OVER (ORDER BY x, i), lead(s, 2, 'none') OVER (ORDER BY x, i), first_value(v) OVER (ORDER "
      "BY x, i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), last_value(s) OVER (ORDER BY x, i ROWS BETWEEN CURRENT ROW "
      "AND 3 FOLLOWING), nth_value(v, 2) OVER (ORDER BY x, i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t",
      // Peer groups of 2000 rows: longer than a block's step under this limit (about 1700 rows).
      "SELECT i, rank() OVER (ORDER BY x % 50), dense_rank() OVER (ORDER BY x % 50), sum(v) OVER (ORDER BY x % 50) "
      "FROM t",
      // Rows without ORDER BY keep their input order (a tie-break of the input's order).
      "SELECT i, row_number() OVER (), sum(v) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t",
  };
  for (const auto& q : queries) ExpectSpillsWithSameAnswer(With(4) + q, "4MB");
}

TEST_P(WindowSpillTest, OnePartitionTooBigForTheLimitIsStreamed) {
  // Two PARTITION BY values of 200000 rows each under 3 MB: no hash split helps, so each is
  // evaluated streaming; checked by arithmetic and against the unspilled answer.
  Run("SET memory_limit = '3MB'");
  const int64_t before = Spilled();
  EXPECT_EQ(Run("SELECT count(*), sum(rn), sum(s) FROM (SELECT row_number() OVER (PARTITION BY i % 2 ORDER BY i) "
                "AS rn, sum(i) OVER (PARTITION BY i % 2 ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s "
                "FROM range(400000) r(i)) t"),
            std::vector<std::string>{"400000|" + std::to_string(int64_t{2} * 200000 * 200001 / 2) + "|" +
                                     std::to_string(int64_t{2} * 399999 * 400000 / 2 - 399998 - 399999)});
  EXPECT_GT(Spilled(), before);
  ExpectNothingLeft();
  ExpectSpillsWithSameAnswer(With(5) +
                                 "SELECT i, g, row_number() OVER (PARTITION BY g IS NULL ORDER BY x, i), sum(v) OVER "
                                 "(PARTITION BY g IS NULL ORDER BY x), lag(s, 3) OVER (PARTITION BY g IS NULL ORDER "
                                 "BY x, i) FROM t",
                             "4MB");
}

TEST_P(WindowSpillTest, OnePartitionTooBigForAWholePartitionFunctionFailsNamingWindow) {
  Run("SET memory_limit = '3MB'");
  auto r = con_->Query(
      "SELECT count(*), sum(p) FROM (SELECT percent_rank() OVER (PARTITION BY i % 2 ORDER BY i) AS p "
      "FROM range(400000) r(i)) t");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
  EXPECT_EQ(r.status().ToString().rfind("OutOfMemoryException: Window needs ", 0), 0u) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("one PARTITION BY key"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("percent_rank() OVER"), std::string::npos) << r.status().ToString();
  ExpectNothingLeft();
  EXPECT_EQ(Run("SELECT 1"), std::vector<std::string>{"1"});
}

TEST_P(WindowSpillTest, NoPartitionByWithAWholePartitionFunctionFailsNamingWindow) {
  // sum(i) OVER () needs every row at once: not spilled (doc/memory.md), a named error.
  Run("SET memory_limit = '3MB'");
  auto r = con_->Query("SELECT count(*), sum(t) FROM (SELECT sum(i) OVER () AS t FROM range(400000) r(i)) q");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
  EXPECT_EQ(r.status().ToString().rfind("OutOfMemoryException: Window needs ", 0), 0u) << r.status().ToString();
  ExpectNothingLeft();
  EXPECT_EQ(Run("SELECT 1"), std::vector<std::string>{"1"});
}

TEST_P(WindowSpillTest, DisabledSpillingFailsNamingWindow) {
  ExpectFailsWithSpillingDisabled(
      With(1) + "SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY g ORDER BY x, i) AS rn FROM t) q",
      "4MB", "Window needs ");
}

TEST_P(WindowSpillTest, AFailedSpillingWindowLeavesNoFiles) {
  // The window spills; the division above it fails (ANSI mode) on one row of its output.
  ExpectFailsAfterSpilling(With(1) + "SELECT sum(100 / (rn - 40)) FROM (SELECT row_number() OVER (PARTITION BY g "
                                     "ORDER BY x) AS rn FROM t) q",
                           "4MB", "ivision by zero");
}

TEST_P(WindowSpillTest, ACancelledSpillingWindowLeavesNoFiles) {
  // Interrupted once it has spilled something (while routing rows or evaluating partitions).
  ExpectInterruptedAfterSpilling("SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY i % 100000 "
                                 "ORDER BY i DESC) AS rn FROM range(6000000) r(i)) t",
                                 "8MB");
  // And while sorting or streaming one partition too big for the limit.
  ExpectInterruptedAfterSpilling("SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (ORDER BY i DESC) AS rn "
                                 "FROM range(6000000) r(i)) t",
                                 "8MB");
}

INSTANTIATE_TEST_SUITE_P(Threads, WindowSpillTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace shoal
