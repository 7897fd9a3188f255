#include "sql/binder/binder.h"

#include <gtest/gtest.h>

#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

Result<LogicalPtr> Bind(const std::string& sql) {
  ASSIGN_OR_RETURN(StatementPtr s, ParseStatement(sql));
  if (s->kind != StatementKind::kSelect) return Status::Internal("not a SELECT");
  Binder binder(nullptr);
  return binder.BindQuery(*s->As<SelectStatement>().query);
}

std::string Error(const std::string& sql) {
  auto r = Bind(sql);
  return r.ok() ? "OK" : r.status().ToString();
}

std::vector<std::string> Columns(const std::string& sql) {
  auto r = Bind(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  std::vector<std::string> out;
  if (!r.ok()) return out;
  for (const auto& f : (*r)->columns) out.push_back(f.name + ":" + f.type->ToString());
  return out;
}

TEST(Binder, ResolvesNamesCaseInsensitivelyThroughAliases) {
  EXPECT_EQ(Columns("SELECT R.I, i + 1 AS j FROM range(3) AS r(i)"),
            (std::vector<std::string>{"I:BIGINT", "j:BIGINT"}));
}

TEST(Binder, ExpandsStarAndQualifiedStar) {
  EXPECT_EQ(Columns("SELECT * FROM range(2) AS a(x), range(2) AS b(y)"),
            (std::vector<std::string>{"x:BIGINT", "y:BIGINT"}));
  EXPECT_EQ(Columns("SELECT b.* FROM range(2) AS a(x), range(2) AS b(y)"), (std::vector<std::string>{"y:BIGINT"}));
}

TEST(Binder, UsingJoinMergesTheColumnForStar) {
  EXPECT_EQ(Columns("SELECT * FROM (VALUES (1, 2)) AS t(a, b) JOIN (VALUES (1, 3)) AS u(a, c) USING (a)"),
            (std::vector<std::string>{"a:INT", "b:INT", "c:INT"}));
}

TEST(Binder, UnknownColumnListsCandidates) {
  EXPECT_EQ(Error("SELECT nope FROM range(3) AS r(i)"),
            "BinderException: Referenced column \"nope\" not found. Candidates: i");
}

TEST(Binder, AmbiguousColumnIsAnError) {
  EXPECT_NE(Error("SELECT x FROM range(2) AS a(x), range(2) AS b(x)").find("Ambiguous"), std::string::npos);
}

TEST(Binder, UnknownTableAndFunctionAreNamed) {
  EXPECT_NE(Error("SELECT * FROM no_such_table").find("Table with name no_such_table does not exist"),
            std::string::npos);
  std::string e = Error("SELECT no_such_function(1)");
  EXPECT_EQ(e.rfind("BinderException: Function with name \"no_such_function\" does not exist. Candidates:", 0), 0u)
      << e;
}

TEST(Binder, NonAggregatedColumnOutsideGroupByIsAnError) {
  std::string e = Error("SELECT sum(i), i FROM range(3) AS r(i)");
  EXPECT_NE(e.find("must appear in the GROUP BY clause"), std::string::npos) << e;
  EXPECT_EQ(Error("SELECT i % 3 AS k, count(*) FROM range(9) AS r(i) GROUP BY i % 3"), "OK");
}

TEST(Binder, GroupByAcceptsAliasesAndOrdinals) {
  EXPECT_EQ(Columns("SELECT i % 3 AS k, sum(i) AS s FROM range(10) AS r(i) GROUP BY k"),
            (std::vector<std::string>{"k:BIGINT", "s:BIGINT"}));
  EXPECT_EQ(Columns("SELECT i % 3 AS k, sum(i) AS s FROM range(10) AS r(i) GROUP BY 1"),
            (std::vector<std::string>{"k:BIGINT", "s:BIGINT"}));
  EXPECT_NE(Error("SELECT i FROM range(3) AS r(i) GROUP BY 2").find("out of range"), std::string::npos);
}

TEST(Binder, AggregatesAreRejectedInWhere) {
  EXPECT_NE(Error("SELECT 1 FROM range(3) WHERE sum(range) > 1").find("WHERE"), std::string::npos);
}

TEST(Binder, TypeofIsResolvedAtBindTime) {
  auto r = Bind("SELECT typeof(1.5)");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->columns[0].type->ToString(), "STRING");
}

TEST(Binder, CtesAreVisibleAndNotRecursive) {
  EXPECT_EQ(Columns("WITH t(a) AS (SELECT 1), u AS (SELECT a + 1 AS b FROM t) SELECT * FROM u"),
            (std::vector<std::string>{"b:INT"}));
  EXPECT_NE(Error("WITH t AS (SELECT * FROM t) SELECT * FROM t").find("does not exist"), std::string::npos);
}

TEST(Binder, SetOperationsUnifyTypes) {
  EXPECT_EQ(Columns("SELECT 1 AS a UNION ALL SELECT 2::BIGINT"), (std::vector<std::string>{"a:BIGINT"}));
  EXPECT_NE(Error("SELECT 1 UNION SELECT 1, 2").find("same number"), std::string::npos);
}

TEST(Binder, ValuesGetCommonColumnTypes) {
  EXPECT_EQ(Columns("VALUES (1, 'a'), (3000000000, NULL)"), (std::vector<std::string>{"col1:BIGINT", "col2:STRING"}));
}

TEST(Binder, OrderByHiddenColumnsAreProjectedAway) {
  EXPECT_EQ(Columns("SELECT i FROM range(3) AS r(i) ORDER BY -i"), (std::vector<std::string>{"i:BIGINT"}));
  EXPECT_NE(Error("SELECT DISTINCT i % 2 FROM range(3) AS r(i) ORDER BY i").find("DISTINCT"), std::string::npos);
}

}  // namespace
}  // namespace shoal::sql
