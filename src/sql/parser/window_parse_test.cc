// Parsing of OVER clauses, frames, WINDOW, QUALIFY and ROLLUP / CUBE / GROUPING SETS, and
// their printing back to SQL that re-parses to the same tree.
#include <gtest/gtest.h>

#include "sql/parser/parse_round_trip_test.h"
#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

using parse_test::Print;

TEST(SqlParserWindow, OverClauseWithFrameRoundTrips) {
  EXPECT_EQ(Print("SELECT sum(x) OVER (PARTITION BY g ORDER BY o DESC ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t"),
            "SELECT sum(x) OVER (PARTITION BY g ORDER BY o DESC ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t");
  EXPECT_EQ(Print("SELECT count(*) OVER () FROM t"), "SELECT count(*) OVER () FROM t");
  EXPECT_EQ(Print("SELECT avg(x) OVER (ORDER BY o RANGE UNBOUNDED PRECEDING) FROM t"),
            "SELECT avg(x) OVER (ORDER BY o ASC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t");
}

TEST(SqlParserWindow, NamedWindowsAndQualify) {
  auto r = ParseStatement("SELECT rank() OVER w, lag(x) OVER (w ORDER BY o) FROM t WINDOW w AS (PARTITION BY g) "
                          "QUALIFY rank() OVER w = 1 ORDER BY 1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& s = (*r)->As<SelectStatement>().query->As<SelectNode>();
  ASSERT_EQ(s.windows.size(), 1u);
  EXPECT_EQ(s.windows[0].first, "w");
  ASSERT_NE(s.qualify, nullptr);
  const auto& f = s.select_list[1].expr->As<FunctionExpression>();
  ASSERT_NE(f.over, nullptr);
  EXPECT_EQ(f.over->base, "w");
  EXPECT_EQ(f.over->order_by.size(), 1u);
  Print("SELECT rank() OVER w FROM t WINDOW w AS (PARTITION BY g) QUALIFY rank() OVER w = 1");
}

TEST(SqlParserWindow, GroupingSetsRollupCube) {
  auto r = ParseStatement("SELECT a FROM t GROUP BY a, ROLLUP (b, (c, d)), CUBE (e), GROUPING SETS ((a, b), a, ())");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& s = (*r)->As<SelectStatement>().query->As<SelectNode>();
  ASSERT_EQ(s.group_by.size(), 1u);
  ASSERT_EQ(s.grouping_elements.size(), 3u);
  EXPECT_EQ(s.grouping_elements[0].kind, GroupingElement::Kind::kRollup);
  EXPECT_EQ(s.grouping_elements[0].items[1].size(), 2u);
  EXPECT_EQ(s.grouping_elements[2].items[2].size(), 0u);
  Print("SELECT a FROM t GROUP BY a, ROLLUP (b, (c, d)), CUBE (e), GROUPING SETS ((a, b), a, ())");
  // rollup / cube stay ordinary functions outside GROUP BY.
  Print("SELECT cube(2) FROM t");
}

TEST(SqlParserWindow, UnsupportedFrameKindsAreNamed) {
  auto r = ParseStatement("SELECT sum(x) OVER (ORDER BY o GROUPS 1 PRECEDING) FROM t");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("GROUPS"), std::string::npos);
  r = ParseStatement("SELECT sum(x) OVER (ORDER BY o ROWS 1 PRECEDING EXCLUDE CURRENT ROW) FROM t");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("EXCLUDE"), std::string::npos);
  r = ParseStatement("SELECT a FROM t GROUP BY ROLLUP (a, ())");
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace shoal::sql
