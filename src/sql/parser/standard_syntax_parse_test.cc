// Parser tests for the standard-SQL forms the TPC-H specification prints: substring/trim with
// keywords, interval qualifiers with a precision, CHAR/VARCHAR types, FETCH FIRST / OFFSET ROWS,
// SEMI/ANTI/NATURAL joins, views and WITH RECURSIVE.
#include <gtest/gtest.h>

#include "sql/parser/parse_round_trip_test.h"
#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

using parse_test::Print;

std::string ErrorOf(std::string_view text) {
  auto r = ParseStatement(text);
  if (r.ok()) return "<parsed>";
  return r.status().ToString();
}

TEST(SqlParserStandard, SubstringFromForIsTheCommaCall) {
  EXPECT_EQ(Print("SELECT substring(c_phone from 1 for 2)"), "SELECT substring(c_phone, 1, 2)");
  EXPECT_EQ(Print("SELECT SUBSTRING(s FROM 3)"), "SELECT substring(s, 3)");
  EXPECT_EQ(Print("SELECT substring(s FOR 2)"), "SELECT substring(s, 1, 2)");
  EXPECT_EQ(Print("SELECT substring(a || b FROM x + 1 FOR 2 * y)"),
            "SELECT substring((a || b), (x + 1), (2 * y))");
  // The comma form and substr stay ordinary calls.
  EXPECT_EQ(Print("SELECT substring(s, 1, 2), substr(s, 2)"), "SELECT substring(s, 1, 2), substr(s, 2)");
  EXPECT_NE(ErrorOf("SELECT substring(s FROM)").find("ParserException"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT substring(s FROM 1 FOR 2").find("ParserException"), std::string::npos);
}

// The keyword forms are tried first; a comma-form call nested deeply must not be re-parsed at
// every level (that would take 2^depth steps).
TEST(SqlParserStandard, NestedCommaFormCallsParseInLinearTime) {
  for (const char* fn : {"substring", "trim", "position"}) {
    std::string sql = "SELECT ";
    for (int i = 0; i < 200; ++i) sql += std::string(fn) + "(";
    sql += "s";
    for (int i = 0; i < 200; ++i) sql += ", 'x')";
    auto r = ParseStatement(sql);
    ASSERT_TRUE(r.ok()) << fn << ": " << r.status().ToString();
    std::string keyword = "SELECT ";
    for (int i = 0; i < 200; ++i) keyword += std::string(fn) + "(";
    keyword += "s";
    for (int i = 0; i < 200; ++i) keyword += std::string(fn[0] == 's' ? " FROM 1)" : fn[0] == 'p' ? " IN 'x')" : ")");
    EXPECT_TRUE(ParseStatement(keyword).ok()) << fn;
  }
}

TEST(SqlParserStandard, TrimWithSideAndCharacters) {
  EXPECT_EQ(Print("SELECT trim(BOTH 'x' FROM s)"), "SELECT trim(s, 'x')");
  EXPECT_EQ(Print("SELECT trim(LEADING 'x' FROM s)"), "SELECT ltrim(s, 'x')");
  EXPECT_EQ(Print("SELECT trim(TRAILING FROM s)"), "SELECT rtrim(s)");
  EXPECT_EQ(Print("SELECT trim('x' FROM s)"), "SELECT trim(s, 'x')");
  EXPECT_EQ(Print("SELECT trim(s), trim(s, 'ab')"), "SELECT trim(s), trim(s, 'ab')");
  EXPECT_NE(ErrorOf("SELECT trim(LEADING 'x' s)").find("ParserException"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT overlay(s PLACING 'x' FROM 2)").find("overlay"), std::string::npos);
  EXPECT_EQ(Print("SELECT position('a' IN s)"), "SELECT position('a', s)");
  EXPECT_EQ(Print("SELECT position(a = b, c), position(x || y IN z)"),
            "SELECT position((a = b), c), position((x || y), z)");
}

TEST(SqlParserStandard, IntervalQualifierWithLeadingPrecision) {
  EXPECT_EQ(Print("SELECT DATE '1998-12-01' - interval '90' day (3)"),
            "SELECT (DATE '1998-12-01' - INTERVAL '90' DAY)");
  EXPECT_EQ(Print("SELECT interval '3' month, interval '1' year"), "SELECT INTERVAL '3' MONTH, INTERVAL '1' YEAR");
  EXPECT_NE(ErrorOf("SELECT interval '1000' day (3)").find("precision"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT interval '1' day (0)").find("precision"), std::string::npos);
}

TEST(SqlParserStandard, CharacterTypesAreStrings) {
  auto r = ParseStatement(
      "CREATE TABLE lineitem (l_orderkey BIGINT NOT NULL, l_quantity DECIMAL(15,2) NOT NULL, "
      "l_linenumber INTEGER NOT NULL, l_shipdate DATE NOT NULL, l_returnflag CHAR(1) NOT NULL, "
      "l_shipmode CHAR(10) NOT NULL, l_comment VARCHAR(44) NOT NULL, x CHARACTER VARYING(5), "
      "y CHARACTER(3), z CHAR VARYING(7), w CHAR)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& c = (*r)->As<CreateTableStatement>();
  ASSERT_EQ(c.columns.size(), 11u);
  EXPECT_EQ(c.columns[1].type.name, "DECIMAL");
  EXPECT_EQ(c.columns[1].type.params, (std::vector<int64_t>{15, 2}));
  EXPECT_EQ(c.columns[2].type.name, "INT");
  for (size_t i = 4; i < 11; ++i) EXPECT_EQ(c.columns[i].type.name, "STRING") << i;
  EXPECT_EQ(c.columns[5].type.params, (std::vector<int64_t>{10}));
  EXPECT_EQ(c.columns[7].type.params, (std::vector<int64_t>{5}));
  EXPECT_TRUE(c.columns[10].type.params.empty());
  EXPECT_EQ(Print("SELECT CAST(x AS CHAR(3)), CAST(y AS CHARACTER VARYING(4))"),
            "SELECT CAST(x AS VARCHAR(3)), CAST(y AS VARCHAR(4))");
  EXPECT_NE(ErrorOf("SELECT CAST(x AS CHAR(0))").find("length"), std::string::npos);
}

TEST(SqlParserStandard, FetchFirstAndOffsetRows) {
  EXPECT_EQ(Print("SELECT a FROM t ORDER BY a FETCH FIRST 10 ROWS ONLY"), "SELECT a FROM t ORDER BY a ASC LIMIT 10");
  EXPECT_EQ(Print("SELECT a FROM t FETCH NEXT 1 ROW ONLY"), "SELECT a FROM t LIMIT 1");
  EXPECT_EQ(Print("SELECT a FROM t FETCH FIRST ROW ONLY"), "SELECT a FROM t LIMIT 1");
  EXPECT_EQ(Print("SELECT a FROM t OFFSET 5 ROWS FETCH FIRST 2 ROWS ONLY"), "SELECT a FROM t LIMIT 2 OFFSET 5");
  EXPECT_EQ(Print("SELECT a FROM t ORDER BY a OFFSET 1 ROW"), "SELECT a FROM t ORDER BY a ASC OFFSET 1");
  // FETCH is not taken as an alias before FIRST/NEXT, but stays a name elsewhere.
  EXPECT_EQ(Print("SELECT 1 FETCH FIRST 1 ROWS ONLY"), "SELECT 1 LIMIT 1");
  EXPECT_EQ(Print("SELECT fetch FROM t fetch"), "SELECT fetch FROM t AS fetch");
  EXPECT_NE(ErrorOf("SELECT a FROM t FETCH FIRST 3 ROWS WITH TIES").find("WITH TIES"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT a FROM t FETCH FIRST 3 ROWS").find("ParserException"), std::string::npos);
}

TEST(SqlParserStandard, SemiAntiAndNaturalJoins) {
  auto r = ParseStatement("SELECT * FROM a LEFT SEMI JOIN b ON a.k = b.k ANTI JOIN c USING (k)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& from = *(*r)->As<SelectStatement>().query->As<SelectNode>().from;
  ASSERT_EQ(from.kind, TableRefKind::kJoin);
  EXPECT_EQ(from.As<JoinRef>().type, JoinType::kAnti);
  EXPECT_EQ(from.As<JoinRef>().left->As<JoinRef>().type, JoinType::kSemi);
  EXPECT_EQ(Print("SELECT * FROM a SEMI JOIN b ON a.k = b.k"), "SELECT * FROM a SEMI JOIN b ON (a.k = b.k)");
  EXPECT_EQ(Print("SELECT * FROM a LEFT ANTI JOIN b USING (k)"), "SELECT * FROM a ANTI JOIN b USING (k)");
  EXPECT_EQ(Print("SELECT * FROM a NATURAL JOIN b"), "SELECT * FROM a NATURAL INNER JOIN b");
  EXPECT_EQ(Print("SELECT * FROM a NATURAL LEFT OUTER JOIN b NATURAL FULL JOIN c"),
            "SELECT * FROM a NATURAL LEFT JOIN b NATURAL FULL JOIN c");
  EXPECT_NE(ErrorOf("SELECT * FROM a NATURAL JOIN b ON a.k = b.k").find("NATURAL"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM a NATURAL CROSS JOIN b").find("NATURAL"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM a SEMI JOIN b").find("ParserException"), std::string::npos);
  // `a semi` and `a anti` are not aliases when JOIN follows; elsewhere they are names.
  EXPECT_EQ(Print("SELECT semi FROM t AS anti"), "SELECT semi FROM t AS anti");
}

TEST(SqlParserStandard, TableSampleBeforeTheAlias) {
  EXPECT_EQ(Print("SELECT * FROM t TABLESAMPLE (2.5 PERCENT) s"), "SELECT * FROM t TABLESAMPLE (2.5 PERCENT) AS s");
  EXPECT_EQ(Print("SELECT * FROM t TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (7)"),
            "SELECT * FROM t TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (7)");
  EXPECT_EQ(Print("SELECT * FROM (SELECT 1) TABLESAMPLE (3 ROWS) AS x(a)"),
            "SELECT * FROM (SELECT 1) TABLESAMPLE (3 ROWS) AS x(a)");
  // Without a parenthesis it is an alias, as before.
  EXPECT_EQ(Print("SELECT * FROM t tablesample"), "SELECT * FROM t AS tablesample");
  EXPECT_NE(ErrorOf("SELECT * FROM t TABLESAMPLE (100M)").find("ParserException"), std::string::npos);
}

TEST(SqlParserStandard, CreateAndDropView) {
  auto r = ParseStatement(
      "create view revenue0 (supplier_no, total_revenue) as\n"
      "  select l_suppkey, sum(l_extendedprice * (1 - l_discount)) from lineitem group by l_suppkey ;");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ((*r)->kind, StatementKind::kCreateView);
  const auto& v = (*r)->As<CreateViewStatement>();
  EXPECT_EQ(v.name.ToString(), "revenue0");
  EXPECT_EQ(v.columns, (std::vector<std::string>{"supplier_no", "total_revenue"}));
  EXPECT_EQ(v.query_text, "select l_suppkey, sum(l_extendedprice * (1 - l_discount)) from lineitem group by l_suppkey");
  EXPECT_FALSE(v.or_replace);
  EXPECT_EQ(Print("CREATE OR REPLACE VIEW v AS SELECT 1"), "CREATE OR REPLACE VIEW v AS SELECT 1");
  EXPECT_EQ(Print("CREATE VIEW IF NOT EXISTS v (a) AS WITH x AS (SELECT 1) SELECT * FROM x"),
            "CREATE VIEW IF NOT EXISTS v (a) AS WITH x AS (SELECT 1) SELECT * FROM x");
  EXPECT_EQ(Print("DROP VIEW v"), "DROP VIEW v");
  EXPECT_EQ(Print("drop view if exists v"), "DROP VIEW IF EXISTS v");
  EXPECT_NE(ErrorOf("CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1").find("cannot be combined"),
            std::string::npos);
  EXPECT_EQ(Print("CREATE TEMPORARY VIEW v AS SELECT 1"), "CREATE TEMPORARY VIEW v AS SELECT 1");
  EXPECT_EQ(Print("create or replace temp view v (a) as select 1"), "CREATE OR REPLACE TEMPORARY VIEW v (a) AS SELECT 1");
  EXPECT_NE(ErrorOf("CREATE GLOBAL TEMPORARY VIEW v AS SELECT 1").find("GLOBAL TEMPORARY VIEW"), std::string::npos);
  EXPECT_NE(ErrorOf("CREATE VIEW v SELECT 1").find("ParserException"), std::string::npos);
  // Statement lists: the query text stops at the ';'.
  auto list = ParseStatements("create view r as select 1 as x; select * from r; drop view r");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0]->As<CreateViewStatement>().query_text, "select 1 as x");
  EXPECT_EQ((*list)[2]->kind, StatementKind::kDropView);
}

TEST(SqlParserStandard, WithRecursiveMarksItsCtes) {
  auto r = ParseStatement(
      "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5), u AS (SELECT 2) "
      "SELECT * FROM t");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& q = *(*r)->As<SelectStatement>().query;
  ASSERT_EQ(q.ctes.size(), 2u);
  EXPECT_TRUE(q.ctes[0].recursive);
  EXPECT_TRUE(q.ctes[1].recursive);
  EXPECT_EQ(Print("WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n FROM t) SELECT n FROM t"),
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n FROM t) SELECT n FROM t");
}

}  // namespace
}  // namespace shoal::sql
