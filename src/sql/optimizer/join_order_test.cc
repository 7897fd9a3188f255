// Plan shapes of the join rules, read from EXPLAIN over real Delta tables: join ordering (a
// filtered dimension joins first, the build side is the small input, cross products last), OR
// factoring (TPC-H Q19's shape becomes a hash join with implied filters in both scans),
// transitive constants, outer-to-inner conversion, and estimated rows in EXPLAIN / EXPLAIN
// ANALYZE.
#include <gtest/gtest.h>

#include "support/sql_table_fixture.h"

namespace shoal::sql {
namespace {

class JoinOrderTest : public testing::SqlTableTest {
 protected:
  struct Line {
    int depth;
    std::string text;
  };
  std::vector<Line> Explain(const std::string& sql) {
    std::vector<Line> out;
    for (const auto& l : Q("EXPLAIN " + sql)) {
      size_t sp = l.find_first_not_of(' ');
      out.push_back({static_cast<int>(sp / 2), l.substr(sp)});
    }
    return out;
  }
  static std::string Text(const std::vector<Line>& plan) {
    std::string s;
    for (const auto& l : plan) s += std::string(l.depth * 2, ' ') + l.text + "\n";
    return s;
  }
  // Index of the first line containing `needle`, or -1.
  static int Find(const std::vector<Line>& plan, const std::string& needle, int from = 0) {
    for (int i = from; i < static_cast<int>(plan.size()); ++i) {
      if (plan[i].text.find(needle) != std::string::npos) return i;
    }
    return -1;
  }
  // The two children of the join at line `j`: (probe line, build line).
  static std::pair<int, int> Children(const std::vector<Line>& plan, int j) {
    int probe = -1, build = -1;
    for (int i = j + 1; i < static_cast<int>(plan.size()) && plan[i].depth > plan[j].depth; ++i) {
      if (plan[i].depth != plan[j].depth + 1) continue;
      (probe < 0 ? probe : build) = i;
    }
    return {probe, build};
  }
  // Whether line `inner` is in the subtree of line `outer`.
  static bool Under(const std::vector<Line>& plan, int inner, int outer) {
    if (inner <= outer) return false;
    for (int i = outer + 1; i <= inner; ++i) {
      if (plan[i].depth <= plan[outer].depth) return false;
    }
    return true;
  }

  void MakeStar() {
    Q("CREATE TABLE fact AS SELECT i AS id, i % 1000 AS k1, i % 100 AS k2, i % 7 AS v FROM range(20000) r(i)");
    Q("CREATE TABLE d1 AS SELECT i AS id, i % 10 AS x FROM range(1000) r(i)");
    Q("CREATE TABLE d2 AS SELECT i AS id, i % 50 AS x FROM range(100) r(i)");
  }
};

TEST_F(JoinOrderTest, StarJoinJoinsTheFilteredDimensionFirstAndBuildsOnDimensions) {
  MakeStar();
  // FROM order puts the unfiltered dimension first; d2.x = 3 keeps 2 of d2's 100 rows.
  const std::string sql =
      "SELECT count(*) FROM d1, fact, d2 WHERE fact.k1 = d1.id AND fact.k2 = d2.id AND d2.x = 3";
  auto plan = Explain(sql);
  const std::string text = Text(plan);
  int top = Find(plan, "HashJoin");
  ASSERT_GE(top, 0) << text;
  int lower = Find(plan, "HashJoin", top + 1);
  ASSERT_GE(lower, 0) << text;
  int fact = Find(plan, "delta_scan(fact"), s1 = Find(plan, "delta_scan(d1"), s2 = Find(plan, "delta_scan(d2");
  // The lower join is fact ⋈ d2 (the filtered dimension), building on d2.
  EXPECT_TRUE(Under(plan, s2, lower)) << text;
  EXPECT_TRUE(Under(plan, fact, lower)) << text;
  EXPECT_FALSE(Under(plan, s1, lower)) << text;
  auto [probe, build] = Children(plan, lower);
  EXPECT_TRUE(build == s2 || Under(plan, s2, build)) << text;
  // The top join builds on the smaller of d1 and the (tiny) lower join's result.
  EXPECT_NE(plan[top].text.find("est="), std::string::npos) << text;
  EXPECT_EQ(Q(sql), Q("SELECT count(*) FROM fact WHERE k2 IN (3, 53)"));
}

TEST_F(JoinOrderTest, JoinOrderOffKeepsFromOrder) {
  MakeStar();
  const std::string sql =
      "SELECT count(*) FROM d1, fact, d2 WHERE fact.k1 = d1.id AND fact.k2 = d2.id AND d2.x = 3";
  auto on = Q(sql);
  Q("SET shoal.join_order = 'off'");
  auto plan = Explain(sql);
  // Left-deep in FROM order: d1 is the deepest probe input.
  int lower = Find(plan, "HashJoin", Find(plan, "HashJoin") + 1);
  ASSERT_GE(lower, 0) << Text(plan);
  EXPECT_TRUE(Under(plan, Find(plan, "delta_scan(d1"), lower)) << Text(plan);
  EXPECT_EQ(Q(sql), on);
  EXPECT_FALSE(conn_->Query("SET shoal.join_order = 'sometimes'").ok());
}

TEST_F(JoinOrderTest, Q19ShapeBecomesAHashJoinWithImpliedScanFilters) {
  Q("CREATE TABLE part AS SELECT i AS p_partkey, 'Brand#' || (i % 5)::VARCHAR AS p_brand, i % 50 AS p_size "
    "FROM range(2000) r(i)");
  Q("CREATE TABLE lineitem AS SELECT i AS l_orderkey, i % 2000 AS l_partkey, i % 50 AS l_quantity "
    "FROM range(30000) r(i)");
  const std::string sql =
      "SELECT count(*), sum(l_quantity) FROM lineitem, part WHERE "
      "(p_partkey = l_partkey AND p_brand = 'Brand#1' AND l_quantity >= 1 AND l_quantity <= 11 AND p_size < 5) OR "
      "(p_partkey = l_partkey AND p_brand = 'Brand#2' AND l_quantity >= 10 AND l_quantity <= 20 AND p_size < 10) OR "
      "(p_partkey = l_partkey AND p_brand = 'Brand#3' AND l_quantity >= 20 AND l_quantity <= 30 AND p_size < 15)";
  auto plan = Explain(sql);
  const std::string text = Text(plan);
  EXPECT_GE(Find(plan, "HashJoin"), 0) << text;
  EXPECT_LT(Find(plan, "NestedLoopJoin"), 0) << text;
  // Each table's scan gets the OR of its own conjuncts.
  int part = Find(plan, "delta_scan(part"), line = Find(plan, "delta_scan(lineitem");
  ASSERT_GE(part, 0);
  ASSERT_GE(line, 0);
  EXPECT_NE(plan[part].text.find("p_brand"), std::string::npos) << text;
  EXPECT_NE(plan[line].text.find("l_quantity"), std::string::npos) << text;
  Q("SET shoal.join_order = 'off'");
  auto unordered = Q(sql);
  Q("SET shoal.join_order = 'on'");
  EXPECT_EQ(Q(sql), unordered);
}

TEST_F(JoinOrderTest, KeyEqualToAConstantFiltersTheOtherSide) {
  Q("CREATE TABLE a AS SELECT i AS k, i AS v FROM range(1000) r(i)");
  Q("CREATE TABLE b AS SELECT i % 100 AS k, i AS w FROM range(5000) r(i)");
  const std::string sql = "SELECT count(*) FROM a, b WHERE a.k = b.k AND a.k = 7";
  auto plan = Explain(sql);
  int b = Find(plan, "delta_scan(b");
  ASSERT_GE(b, 0) << Text(plan);
  EXPECT_NE(plan[b].text.find("filters=[(k = 7"), std::string::npos) << Text(plan);
  int a = Find(plan, "delta_scan(a");
  ASSERT_GE(a, 0) << Text(plan);
  EXPECT_EQ(plan[a].text.find("), (k = 7"), std::string::npos) << "derived twice: " << Text(plan);
  // Both keys are constant: the join keeps all 50 rows of b.
  EXPECT_NE(plan[Find(plan, "HashJoin")].text.find("est=50"), std::string::npos) << Text(plan);
  EXPECT_EQ(Q(sql), (Lines{"50"}));
}

TEST_F(JoinOrderTest, TransitiveKeysJoinWithoutCrossProduct) {
  Q("CREATE TABLE a AS SELECT i AS k FROM range(300) r(i)");
  Q("CREATE TABLE b AS SELECT i AS k FROM range(200) r(i)");
  Q("CREATE TABLE c AS SELECT i AS k FROM range(100) r(i)");
  // a = b and b = c imply a = c: any order needs no cross product.
  const std::string sql = "SELECT count(*) FROM a, b, c WHERE a.k = b.k AND b.k = c.k";
  auto plan = Explain(sql);
  EXPECT_LT(Find(plan, "CrossProduct"), 0) << Text(plan);
  EXPECT_EQ(Q(sql), (Lines{"100"}));
}

TEST_F(JoinOrderTest, DisconnectedGraphCrossesComponentsLast) {
  Q("CREATE TABLE a AS SELECT i AS k FROM range(50) r(i)");
  Q("CREATE TABLE b AS SELECT i AS k FROM range(50) r(i)");
  Q("CREATE TABLE c AS SELECT i AS k FROM range(3) r(i)");
  const std::string sql = "SELECT count(*) FROM a, c, b WHERE a.k = b.k";
  auto plan = Explain(sql);
  int cross = Find(plan, "CrossProduct");
  ASSERT_GE(cross, 0) << Text(plan);
  EXPECT_TRUE(Under(plan, Find(plan, "HashJoin"), cross)) << Text(plan);
  EXPECT_EQ(Q(sql), (Lines{"150"}));
}

TEST_F(JoinOrderTest, NullRejectingFilterMakesLeftJoinInner) {
  Q("CREATE TABLE a AS SELECT i AS k FROM range(100) r(i)");
  Q("CREATE TABLE b AS SELECT i AS k, i % 10 AS v FROM range(50) r(i)");
  auto plan = Explain("SELECT count(*) FROM a LEFT JOIN b ON a.k = b.k WHERE b.v > 3");
  EXPECT_GE(Find(plan, "HashJoin INNER"), 0) << Text(plan);
  EXPECT_EQ(Q("SELECT count(*) FROM a LEFT JOIN b ON a.k = b.k WHERE b.v > 3"), (Lines{"30"}));
  // IS NULL keeps the padded rows: the join stays LEFT.
  plan = Explain("SELECT count(*) FROM a LEFT JOIN b ON a.k = b.k WHERE b.v IS NULL");
  EXPECT_GE(Find(plan, "HashJoin LEFT"), 0) << Text(plan);
  EXPECT_EQ(Q("SELECT count(*) FROM a LEFT JOIN b ON a.k = b.k WHERE b.v IS NULL"), (Lines{"50"}));
}

TEST_F(JoinOrderTest, LeftJoinWithALargeRightSideBuildsOnTheLeft) {
  Q("CREATE TABLE small AS SELECT i AS k FROM range(20) r(i)");
  Q("CREATE TABLE big AS SELECT i % 40 AS k, i AS v FROM range(4000) r(i)");
  const std::string sql = "SELECT small.k, count(big.v) FROM small LEFT JOIN big ON small.k = big.k GROUP BY small.k";
  auto plan = Explain(sql);
  int join = Find(plan, "HashJoin RIGHT");
  ASSERT_GE(join, 0) << Text(plan);
  auto [probe, build] = Children(plan, join);
  EXPECT_TRUE(Under(plan, Find(plan, "delta_scan(small"), build) || Find(plan, "delta_scan(small") == build)
      << Text(plan);
  auto rows = Q(sql + " ORDER BY 1");
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_EQ(rows[0], "0|100");
  Q("SET shoal.join_order = 'off'");
  EXPECT_EQ(Q(sql + " ORDER BY 1"), rows);
}

TEST_F(JoinOrderTest, ExplainAnalyzeShowsEstimatedAndActualRows) {
  Q("CREATE TABLE a AS SELECT i AS k, i % 10 AS v FROM range(1000) r(i)");
  auto lines = Q("EXPLAIN ANALYZE SELECT count(*) FROM a WHERE v = 3");
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  // v has 10 distinct values by its min/max: 1000 / 10 rows expected, 100 read.
  EXPECT_NE(all.find("[est=100 rows=100 "), std::string::npos) << all;
  auto plain = Explain("SELECT k FROM a WHERE k < 250");
  EXPECT_NE(Text(plain).find("[est=250]"), std::string::npos) << Text(plain);
}

}  // namespace
}  // namespace shoal::sql
