#include <gtest/gtest.h>

#include "sql/parser/parse_round_trip_test.h"
#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

using parse_test::Print;

QueryPtr Query(std::string_view text) {
  auto r = ParseStatement(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  if (!r.ok()) return nullptr;
  EXPECT_EQ((*r)->kind, StatementKind::kSelect);
  return std::move((*r)->As<SelectStatement>().query);
}

TEST(SqlParserSelect, SelectClausesIntoFields) {
  auto q = Query("SELECT DISTINCT a, b + 1 AS c, d e FROM t WHERE a > 1 GROUP BY a, b HAVING count(*) > 1 "
                 "ORDER BY a DESC NULLS FIRST, b NULLS LAST, c ASC LIMIT 10 OFFSET 5");
  ASSERT_NE(q, nullptr);
  ASSERT_EQ(q->kind, QueryKind::kSelect);
  const auto& s = q->As<SelectNode>();
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.select_list.size(), 3u);
  EXPECT_EQ(s.select_list[0].alias, "");
  EXPECT_EQ(s.select_list[1].alias, "c");
  EXPECT_EQ(s.select_list[2].alias, "e");
  ASSERT_NE(s.from, nullptr);
  EXPECT_EQ(s.from->kind, TableRefKind::kBaseTable);
  EXPECT_EQ(s.from->As<BaseTableRef>().name.parts, (std::vector<std::string>{"t"}));
  ASSERT_NE(s.where, nullptr);
  EXPECT_EQ(s.group_by.size(), 2u);
  ASSERT_NE(s.having, nullptr);
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_TRUE(s.order_by[0].descending);
  EXPECT_EQ(s.order_by[0].nulls, NullsOrder::kFirst);
  EXPECT_FALSE(s.order_by[1].descending);
  EXPECT_EQ(s.order_by[1].nulls, NullsOrder::kLast);
  EXPECT_EQ(s.order_by[2].nulls, NullsOrder::kDefault);
  EXPECT_EQ(s.limit->ToString(), "10");
  EXPECT_EQ(s.offset->ToString(), "5");
}

TEST(SqlParserSelect, SelectWithoutFromAndStars) {
  EXPECT_EQ(Print("select 1"), "SELECT 1");
  EXPECT_EQ(Print("SELECT *, t.* FROM t"), "SELECT *, t.* FROM t");
  EXPECT_EQ(Print("SELECT ALL a FROM t"), "SELECT a FROM t");
  EXPECT_EQ(Print("SELECT a AS `from` FROM t"), "SELECT a AS `from` FROM t");
}

TEST(SqlParserSelect, ValuesAsQueryAndFromItem) {
  auto q = Query("VALUES (1, 'a'), (2, 'b')");
  ASSERT_EQ(q->kind, QueryKind::kValues);
  EXPECT_EQ(q->As<ValuesNode>().rows.size(), 2u);
  EXPECT_EQ(Print("SELECT * FROM (VALUES (1), (2)) v(x)"), "SELECT * FROM (VALUES (1), (2)) AS v(x)");
  EXPECT_EQ(Print("SELECT * FROM VALUES (1, 2) AS t(a, b)"), "SELECT * FROM (VALUES (1, 2)) AS t(a, b)");
  EXPECT_FALSE(ParseStatement("VALUES (1, 2), (3)").ok());
}

TEST(SqlParserSelect, SetOperationsAreLeftAssociativeWithModifiersOnTheWhole) {
  auto q = Query("SELECT 1 UNION SELECT 2 EXCEPT ALL SELECT 3 ORDER BY 1 LIMIT 5");
  ASSERT_EQ(q->kind, QueryKind::kSetOperation);
  const auto& top = q->As<SetOperationNode>();
  EXPECT_EQ(top.op, SetOpKind::kExcept);
  EXPECT_TRUE(top.all);
  EXPECT_EQ(top.order_by.size(), 1u);
  ASSERT_NE(top.limit, nullptr);
  ASSERT_EQ(top.left->kind, QueryKind::kSetOperation);
  EXPECT_EQ(top.left->As<SetOperationNode>().op, SetOpKind::kUnion);
  EXPECT_FALSE(top.left->As<SetOperationNode>().all);
  EXPECT_TRUE(top.right->order_by.empty());
  EXPECT_EQ(Print("SELECT 1 INTERSECT SELECT 2 UNION DISTINCT SELECT 3"),
            "SELECT 1 INTERSECT SELECT 2 UNION SELECT 3");
  EXPECT_EQ(Print("SELECT 1 UNION (SELECT 2 UNION SELECT 3)"), "SELECT 1 UNION (SELECT 2 UNION SELECT 3)");
  EXPECT_EQ(Print("(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2) LIMIT 3"),
            "(SELECT a FROM t ORDER BY a ASC LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2) LIMIT 3");
  EXPECT_EQ(Print("VALUES (1) UNION VALUES (2)"), "VALUES (1) UNION VALUES (2)");
}

TEST(SqlParserSelect, ParenthesizedQueries) {
  EXPECT_EQ(Print("(SELECT 1)"), "SELECT 1");
  EXPECT_EQ(Print("((SELECT 1)) ORDER BY 1"), "SELECT 1 ORDER BY 1 ASC");
  // Outer modifiers never overwrite inner ones: the inner query becomes a subquery.
  EXPECT_EQ(Print("(SELECT a FROM t LIMIT 1) LIMIT 2"), "SELECT * FROM (SELECT a FROM t LIMIT 1) LIMIT 2");
}

TEST(SqlParserSelect, CommonTableExpressions) {
  auto q = Query("WITH a (x, y) AS (SELECT 1, 2), b AS (SELECT * FROM a) SELECT * FROM b");
  ASSERT_EQ(q->ctes.size(), 2u);
  EXPECT_EQ(q->ctes[0].name, "a");
  EXPECT_EQ(q->ctes[0].columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(q->ctes[1].name, "b");
  EXPECT_TRUE(q->ctes[1].columns.empty());
  EXPECT_EQ(Print("WITH a AS (SELECT 1) SELECT * FROM a UNION SELECT 2"),
            "WITH a AS (SELECT 1) SELECT * FROM a UNION SELECT 2");
  EXPECT_EQ(Print("SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a)"),
            "SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a)");
  EXPECT_EQ(Print("WITH RECURSIVE a AS (SELECT 1) SELECT 1"), "WITH RECURSIVE a AS (SELECT 1) SELECT 1");
}

TEST(SqlParserSelect, BaseTablesPathsAndTimeTravel) {
  auto q = Query("SELECT * FROM delta.`/data/t` VERSION AS OF 3 AS x");
  const auto& t = q->As<SelectNode>().from->As<BaseTableRef>();
  EXPECT_TRUE(t.name.IsPath());
  EXPECT_EQ(t.name.path, "/data/t");
  ASSERT_TRUE(t.time_travel.has_value());
  EXPECT_EQ(t.time_travel->kind, TimeTravel::Kind::kVersion);
  EXPECT_EQ(t.time_travel->value->ToString(), "3");
  EXPECT_EQ(t.alias, "x");

  auto q2 = Query("SELECT * FROM s.t FOR TIMESTAMP AS OF '2024-01-01' ts");
  const auto& t2 = q2->As<SelectNode>().from->As<BaseTableRef>();
  EXPECT_FALSE(t2.name.IsPath());
  EXPECT_EQ(t2.name.parts, (std::vector<std::string>{"s", "t"}));
  EXPECT_EQ(t2.time_travel->kind, TimeTravel::Kind::kTimestamp);
  EXPECT_EQ(t2.alias, "ts");

  // delta.x without quotes is an ordinary table in schema delta.
  auto q3 = Query("SELECT * FROM delta.events");
  EXPECT_FALSE(q3->As<SelectNode>().from->As<BaseTableRef>().name.IsPath());
  EXPECT_EQ(Print("SELECT * FROM delta.`events`"), "SELECT * FROM delta.`events`");
  // A table named version still works with an explicit alias.
  EXPECT_EQ(Print("SELECT * FROM version AS v"), "SELECT * FROM version AS v");
}

TEST(SqlParserSelect, TableFunctionsWithNamedArguments) {
  auto q = Query("SELECT * FROM read_parquet('a/*.parquet', union_by_name => true, hive = false) p(x)");
  const auto& f = q->As<SelectNode>().from->As<TableFunctionRef>();
  EXPECT_EQ(f.call->name, "read_parquet");
  ASSERT_EQ(f.call->args.size(), 3u);
  EXPECT_EQ(f.call->arg_names, (std::vector<std::string>{"", "union_by_name", "hive"}));
  EXPECT_EQ(f.alias, "p");
  EXPECT_EQ(f.column_aliases, (std::vector<std::string>{"x"}));
  EXPECT_EQ(Print("SELECT * FROM range(10)"), "SELECT * FROM range(10)");
  EXPECT_EQ(Print("SELECT * FROM parquet_metadata('f.parquet') AS m"),
            "SELECT * FROM parquet_metadata('f.parquet') AS m");
}

TEST(SqlParserSelect, JoinsIntoTrees) {
  auto q = Query("SELECT * FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c USING (y) FULL JOIN d ON TRUE");
  const auto& full = q->As<SelectNode>().from->As<JoinRef>();
  EXPECT_EQ(full.type, JoinType::kFull);
  const auto& left = full.left->As<JoinRef>();
  EXPECT_EQ(left.type, JoinType::kLeft);
  EXPECT_EQ(left.using_columns, (std::vector<std::string>{"y"}));
  EXPECT_EQ(left.condition, nullptr);
  const auto& inner = left.left->As<JoinRef>();
  EXPECT_EQ(inner.type, JoinType::kInner);
  ASSERT_NE(inner.condition, nullptr);

  EXPECT_EQ(Print("SELECT * FROM a RIGHT JOIN b ON a.x = b.x"), "SELECT * FROM a RIGHT JOIN b ON (a.x = b.x)");
  EXPECT_EQ(Print("SELECT * FROM a INNER JOIN b USING (k)"), "SELECT * FROM a INNER JOIN b USING (k)");
  EXPECT_EQ(Print("SELECT * FROM a CROSS JOIN b"), "SELECT * FROM a CROSS JOIN b");
  // Comma joins bind looser than JOIN.
  EXPECT_EQ(Print("SELECT * FROM a, b JOIN c ON b.x = c.x"),
            "SELECT * FROM a CROSS JOIN (b INNER JOIN c ON (b.x = c.x))");
  EXPECT_EQ(Print("SELECT * FROM a JOIN (b JOIN c ON p) ON q"),
            "SELECT * FROM a INNER JOIN (b INNER JOIN c ON p) ON q");
  // Spark: an inner JOIN without a condition is a cross join; the other joins need one.
  EXPECT_EQ(Print("SELECT * FROM a JOIN b"), "SELECT * FROM a INNER JOIN b");
  EXPECT_FALSE(ParseStatement("SELECT * FROM a LEFT JOIN b").ok());
}

TEST(SqlParserSelect, SubqueriesInFrom) {
  auto q = Query("SELECT * FROM (SELECT 1 AS x) AS s(y)");
  const auto& s = q->As<SelectNode>().from->As<SubqueryRef>();
  EXPECT_EQ(s.alias, "s");
  EXPECT_EQ(s.column_aliases, (std::vector<std::string>{"y"}));
  EXPECT_EQ(s.query->kind, QueryKind::kSelect);
  EXPECT_EQ(Print("SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u"), "SELECT * FROM (SELECT 1 UNION SELECT 2) AS u");
}

TEST(SqlParserSelect, ImplicitAliasesStopAtKeywords) {
  auto q = Query("SELECT a FROM t x WHERE x.a = 1");
  EXPECT_EQ(q->As<SelectNode>().from->alias, "x");
  ASSERT_NE(q->As<SelectNode>().where, nullptr);
  auto q2 = Query("SELECT a FROM t LIMIT 1");
  EXPECT_EQ(q2->As<SelectNode>().from->alias, "");
}

TEST(SqlParserSelect, RecordsQueryPositions) {
  auto q = Query("SELECT a\nFROM t");
  EXPECT_EQ(q->position, 0u);
  EXPECT_EQ(q->As<SelectNode>().from->position, 14u);
}

}  // namespace
}  // namespace shoal::sql
