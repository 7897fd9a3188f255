// Hash joins that spill under memory_limit (doc/memory.md, "Spilling"), with 1 and 2 threads:
// every join kind under a small limit gives the rows it gives under 2 GB (pseudo-random keys
// with duplicates and NULLs, over several seeds); skewed keys; partitions split again; one key
// too big for the limit and disabled spilling fail with OutOfMemoryException naming the join;
// no spill file is left, also after an error or an interrupt.
#include <string>
#include <vector>

#include "support/spill_test_fixture.h"

namespace shoal {
namespace {

class JoinSpillTest : public testing::SpillTest {
 protected:
  // Probe side `a` (k, w) and build side `b` (k, v, s) as a WITH clause: keys pseudo-random by
  // `seed`, about 3 build rows per key, NULL keys on both sides, probe keys without a match.
  static std::string With(int seed, int probe_rows = 120000, int build_rows = 160000) {
    const std::string s = std::to_string(seed);
    return "WITH a AS (SELECT CASE WHEN i % 13 = " + std::to_string(seed % 13) +
           " THEN NULL ELSE (i * 104729 + " + s + ") % 75000 END AS k, i AS w FROM range(" +
           std::to_string(probe_rows) + ") r(i)), b AS (SELECT CASE WHEN j % 17 = " + std::to_string(seed % 17) +
           " THEN NULL ELSE (j * 7919 + " + s + " * 31) % 50000 END AS k, j AS v, 'b' || CAST(j AS VARCHAR) AS s "
           "FROM range(" + std::to_string(build_rows) + ") r(j)) ";
  }
  std::string Explain(const std::string& sql) {
    std::string text;
    for (const auto& line : Run("EXPLAIN " + sql)) text += line + "\n";
    return text;
  }
};

using testing::Rows;

TEST_P(JoinSpillTest, EveryJoinKindGivesTheUnspilledAnswer) {
  const std::vector<std::string> queries = {
      "SELECT a.w, b.v, b.s FROM a JOIN b ON a.k = b.k",
      "SELECT a.w, b.v FROM a LEFT JOIN b ON a.k = b.k",
      "SELECT a.w, b.v FROM a RIGHT JOIN b ON a.k = b.k",
      "SELECT a.w, a.k, b.v, b.k FROM a FULL JOIN b ON a.k = b.k",
      "SELECT a.w FROM a LEFT SEMI JOIN b ON a.k = b.k",
      "SELECT a.w FROM a LEFT ANTI JOIN b ON a.k = b.k",
      // Residual predicates on inner, outer, semi and anti joins.
      "SELECT a.w, b.v FROM a JOIN b ON a.k = b.k AND (a.w + b.v) % 3 <> 0",
      "SELECT a.w, b.v FROM a FULL JOIN b ON a.k = b.k AND b.v % 4 <> a.w % 4",
      "SELECT a.w FROM a LEFT SEMI JOIN b ON a.k = b.k AND b.v > a.w",
      "SELECT a.w FROM a LEFT ANTI JOIN b ON a.k = b.k AND b.v > a.w",
      // Correlated subqueries: EXISTS in the select list and under OR (mark join), NOT EXISTS
      // (anti), a scalar subquery (single join); uncorrelated ones become literals.
      "SELECT a.w, EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 2 = 0) FROM a",
      "SELECT a.w FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 3 <> 0) OR a.w % 10 = 0",
      "SELECT a.w FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 5 <> 0)",
      "SELECT a.w, (SELECT b.s FROM b WHERE b.v = a.w * 2) FROM a",
      // String and two-column keys.
      "SELECT a.w, b.v FROM a JOIN b ON CAST(a.k AS VARCHAR) = CAST(b.k AS VARCHAR) AND a.w % 2 = b.v % 2",
  };
  for (int seed : {1, 2}) {
    for (const auto& q : queries) ExpectSpillsWithSameAnswer(With(seed) + q, "6MB");
  }
}

TEST_P(JoinSpillTest, TheSubqueryJoinKindsArePlannedAsExpected) {
  // The queries above reach the join kinds they are meant to (a plan change would hide one).
  const std::string w = With(1);
  EXPECT_NE(Explain(w + "SELECT a.w, EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 2 = 0) FROM a").find("MARK"),
            std::string::npos);
  EXPECT_NE(Explain(w + "SELECT a.w FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 3 <> 0) OR "
                        "a.w % 10 = 0")
                .find("MARK"),
            std::string::npos);
  EXPECT_NE(Explain(w + "SELECT a.w, (SELECT b.s FROM b WHERE b.v = a.w * 2) FROM a").find("SINGLE"),
            std::string::npos);
  EXPECT_NE(Explain(w + "SELECT a.w FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.v % 5 <> 0)")
                .find("ANTI"),
            std::string::npos);
}

TEST_P(JoinSpillTest, SemiAndAntiJoinsThatHashTheirOutputSide) {
  // The output side is much smaller than the other: it is the build side that spills.
  const std::string w = With(3, 1200000, 160000);
  const std::string semi = w + "SELECT b.v, b.s FROM b LEFT SEMI JOIN a ON a.k = b.k";
  const std::string anti = w + "SELECT b.v, b.s FROM b LEFT ANTI JOIN a ON a.k = b.k AND a.w % 7 = 0";
  EXPECT_NE(Explain(semi).find("build side is the output"), std::string::npos) << Explain(semi);
  ExpectSpillsWithSameAnswer(semi, "6MB");
  ExpectSpillsWithSameAnswer(anti, "6MB");
}

TEST_P(JoinSpillTest, SkewedKeysThatFit) {
  // A quarter of the build rows share one key: its partition is large but fits on its own.
  ExpectSpillsWithSameAnswer(
      "SELECT a.i, b.j FROM range(200000) a(i) LEFT JOIN (SELECT CASE WHEN j % 4 = 0 THEN 7 ELSE j END AS k, j "
      "FROM range(160000) r(j)) b ON a.i = b.k",
      "8MB");
}

TEST_P(JoinSpillTest, KnownTotalsThroughAWholeResult) {
  // Checked by arithmetic, through Connection::Query (not streamed): 400000 x 400000 on a
  // permuted key, every row matching once.
  Run("SET memory_limit = '8MB'");
  const int64_t before = Spilled();
  EXPECT_EQ(Run("SELECT count(*), sum(a.i), sum(b.v) FROM range(400000) a(i) JOIN (SELECT (j * 7919) % 400000 AS k, "
                "j AS v, 'x' || CAST(j AS VARCHAR) AS s FROM range(400000) r(j)) b ON a.i = b.k"),
            std::vector<std::string>{"400000|79999800000|79999800000"});
  EXPECT_GT(Spilled(), before);
  EXPECT_EQ(TempFiles(), 0);
  EXPECT_EQ(db_->impl().memory->reserved(), 0);
}

TEST_P(JoinSpillTest, PartitionsThatDoNotFitAreSplitAgain) {
  // Under 3 MB a sixteenth of 1.2M build rows does not fit: partitions are split with a new
  // hash seed, which takes more files than the 16 build and 16 probe files of one level.
  Run("SET memory_limit = '3MB'");
  const int64_t files = db_->impl().spill->files_created();
  EXPECT_EQ(Run("SELECT count(*), sum(a.i), count(b.v), sum(b.v) FROM range(1000000) a(i) LEFT JOIN "
                "(SELECT (j * 7919) % 1200000 AS k, j AS v FROM range(1200000) r(j)) b ON a.i = b.k"),
            std::vector<std::string>{"1000000|499999500000|1000000|" + std::to_string([] {
              int64_t s = 0;  // the v of every key below 1000000: j with (j * 7919) % 1200000 < 1000000
              for (int64_t j = 0; j < 1200000; ++j) s += (j * 7919) % 1200000 < 1000000 ? j : 0;
              return s;
            }())});
  EXPECT_GT(db_->impl().spill->files_created() - files, 32);
  EXPECT_EQ(TempFiles(), 0);
  EXPECT_EQ(db_->impl().memory->reserved(), 0);
}

TEST_P(JoinSpillTest, OneKeyTooBigForTheLimitFailsNamingTheJoin) {
  Run("SET memory_limit = '3MB'");
  auto r = con_->Query(
      "SELECT count(*) FROM range(2, 900000) a(i) JOIN (SELECT 1 AS k, repeat('x', 20) AS s FROM range(300000) r(j)) b "
      "ON a.i = b.k");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("HashJoin build side"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("one join key"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(TempFiles(), 0);
  EXPECT_EQ(db_->impl().spill->files_open(), 0);
  EXPECT_EQ(db_->impl().memory->reserved(), 0);
  EXPECT_EQ(Run("SELECT 1"), std::vector<std::string>{"1"});
}

TEST_P(JoinSpillTest, DisabledSpillingFailsNamingTheJoin) {
  ExpectFailsWithSpillingDisabled(With(1) + "SELECT count(*), sum(b.v) FROM a JOIN b ON a.k = b.k", "6MB",
                                  "HashJoin build side needs ");
}

TEST_P(JoinSpillTest, ProbeSideTableScanWithRuntimeFilters) {
  // A Delta table on the probe side: the scan would take a runtime filter from the build side.
  Run("CREATE TABLE t AS SELECT i AS k, i % 100 AS g FROM range(300000) r(i)");
  ExpectSpillsWithSameAnswer(
      "SELECT t.g, b.v FROM t JOIN (SELECT (j * 7919) % 600000 AS k, j AS v, repeat('y', 10) AS s "
      "FROM range(200000) r(j)) b ON t.k = b.k",
      "6MB");
}

TEST_P(JoinSpillTest, AFailedSpillingJoinLeavesNoFiles) {
  // The join spills; the division fails (ANSI mode) on a row of a spilled partition.
  ExpectFailsAfterSpilling(With(1) + "SELECT sum(100 / (b.v - 150000)) FROM a JOIN b ON a.k = b.k", "6MB",
                           "ivision by zero");
}

TEST_P(JoinSpillTest, ACancelledSpillingJoinLeavesNoFiles) {
  // Interrupted once it has spilled something (the build, the probe pass or a round).
  ExpectInterruptedAfterSpilling("SELECT count(*), sum(b.v) FROM range(6000000) a(i) JOIN (SELECT (j * 7919) % 6000000 "
                                 "AS k, j AS v FROM range(6000000) r(j)) b ON a.i = b.k",
                                 "8MB");
}

INSTANTIATE_TEST_SUITE_P(Threads, JoinSpillTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace shoal
