#include <gtest/gtest.h>

#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

// Parses an expression, checks that its printed form re-parses to the same print, and
// returns the print.
std::string Print(std::string_view text) {
  auto r = ParseExpression(text);
  if (!r.ok()) {
    ADD_FAILURE() << text << ": " << r.status().ToString();
    return "<error>";
  }
  std::string printed = (*r)->ToString();
  auto again = ParseExpression(printed);
  if (!again.ok()) {
    ADD_FAILURE() << "re-parse of " << printed << ": " << again.status().ToString();
    return printed;
  }
  EXPECT_EQ((*again)->ToString(), printed) << "round trip of " << text;
  return printed;
}

ExprPtr ParseOk(std::string_view text) {
  auto r = ParseExpression(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

TEST(SqlParserExpr, ArithmeticPrecedence) {
  EXPECT_EQ(Print("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(Print("1 * 2 + 3"), "((1 * 2) + 3)");
  EXPECT_EQ(Print("1 - 2 - 3"), "((1 - 2) - 3)");  // left-associative
  EXPECT_EQ(Print("8 / 4 % 3 * 2"), "(((8 / 4) % 3) * 2)");
  EXPECT_EQ(Print("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(Print("a || b + c"), "(a || (b + c))");
  EXPECT_EQ(Print("a + b || c"), "((a + b) || c)");
  EXPECT_EQ(Print("-(2 * 3) + 10 // 3"), "((- (2 * 3)) + (10 // 3))");
}

TEST(SqlParserExpr, LogicalPrecedence) {
  EXPECT_EQ(Print("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(Print("a AND b OR c"), "((a AND b) OR c)");
  EXPECT_EQ(Print("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(Print("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(Print("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(Print("a = 1 OR b <> 2 AND c >= 3"), "((a = 1) OR ((b <> 2) AND (c >= 3)))");
  EXPECT_EQ(Print("a + 1 < b * 2"), "((a + 1) < (b * 2))");
}

TEST(SqlParserExpr, ComparisonOperatorsAndAliases) {
  EXPECT_EQ(Print("a == b"), "(a = b)");
  EXPECT_EQ(Print("a != b"), "(a <> b)");
  EXPECT_EQ(Print("a <= b"), "(a <= b)");
  EXPECT_EQ(Print("a > b"), "(a > b)");
  EXPECT_EQ(Print("a IS DISTINCT FROM b + 1"), "(a IS DISTINCT FROM (b + 1))");
  EXPECT_EQ(Print("a IS NOT DISTINCT FROM b"), "(a IS NOT DISTINCT FROM b)");
  EXPECT_EQ(Print("a IS TRUE"), "(a IS NOT DISTINCT FROM TRUE)");
  EXPECT_EQ(Print("a IS NOT FALSE"), "(a IS DISTINCT FROM FALSE)");
}

TEST(SqlParserExpr, UnaryMinusBindsTighterThanMultiplyAndFoldsIntoLiterals) {
  EXPECT_EQ(Print("-a * b"), "((- a) * b)");
  EXPECT_EQ(Print("-2 * 3"), "(-2 * 3)");
  EXPECT_EQ(Print("- -1"), "(- -1)");
  EXPECT_EQ(Print("+a"), "(+ a)");
  EXPECT_EQ(Print("1 - -2"), "(1 - -2)");
  auto e = ParseOk("-9223372036854775808");
  ASSERT_EQ(e->kind, ExprKind::kConstant);
  EXPECT_EQ(e->As<ConstantExpression>().text, "-9223372036854775808");
  EXPECT_EQ(e->As<ConstantExpression>().literal_kind, LiteralKind::kInteger);
}

TEST(SqlParserExpr, CastBindsTighterThanUnaryMinus) {
  EXPECT_EQ(Print("-a::INT"), "(- CAST(a AS INT))");
  EXPECT_EQ(Print("a::STRING || 'x'"), "(CAST(a AS STRING) || 'x')");
  EXPECT_EQ(Print("CAST(a + 1 AS BIGINT)"), "CAST((a + 1) AS BIGINT)");
  EXPECT_EQ(Print("TRY_CAST(s AS DATE)"), "TRY_CAST(s AS DATE)");
  auto e = ParseOk("x::DECIMAL(12, 3)");
  ASSERT_EQ(e->kind, ExprKind::kCast);
  const auto& c = e->As<CastExpression>();
  EXPECT_FALSE(c.try_cast);
  EXPECT_EQ(c.type.name, "DECIMAL");
  EXPECT_EQ(c.type.params, (std::vector<int64_t>{12, 3}));
}

TEST(SqlParserExpr, PredicatesBindLikeComparisons) {
  EXPECT_EQ(Print("a BETWEEN 1 AND 2 AND b"), "((a BETWEEN 1 AND 2) AND b)");
  EXPECT_EQ(Print("a NOT BETWEEN b + 1 AND c * 2"), "(a NOT BETWEEN (b + 1) AND (c * 2))");
  EXPECT_EQ(Print("a IN (1, 2, 3) OR b NOT IN ('x')"), "((a IN (1, 2, 3)) OR (b NOT IN ('x')))");
  EXPECT_EQ(Print("a LIKE 'x%' ESCAPE '\\\\'"), "(a LIKE 'x%' ESCAPE '\\\\')");  // '\\' is one backslash
  EXPECT_EQ(Print("a LIKE 'x\\%' ESCAPE '/'"), "(a LIKE 'x\\%' ESCAPE '/')");  // \% stays as written
  EXPECT_EQ(Print("a NOT LIKE b"), "(a NOT LIKE b)");
  EXPECT_EQ(Print("a ILIKE 'X'"), "(a ILIKE 'X')");
  EXPECT_EQ(Print("a NOT ILIKE 'X'"), "(a NOT ILIKE 'X')");
  // RLIKE / REGEXP are calls of rlike; they bind like comparisons.
  EXPECT_EQ(Print("a RLIKE 'x+' AND b"), "(rlike(a, 'x+') AND b)");
  EXPECT_EQ(Print("a || 'b' regexp c"), "rlike((a || 'b'), c)");
  EXPECT_EQ(Print("a NOT RLIKE 'x'"), "(NOT rlike(a, 'x'))");
  EXPECT_EQ(Print("regexp(a, 'x')"), "regexp(a, 'x')");  // the function name stays a name
  EXPECT_EQ(Print("a IS NULL AND b IS NOT NULL"), "((a IS NULL) AND (b IS NOT NULL))");
  EXPECT_EQ(Print("a + 1 IS NULL"), "((a + 1) IS NULL)");
  EXPECT_EQ(Print("NOT a IN (1)"), "(NOT (a IN (1)))");
}

TEST(SqlParserExpr, InFieldsAndSubqueries) {
  auto e = ParseOk("x NOT IN (1, y)");
  ASSERT_EQ(e->kind, ExprKind::kIn);
  const auto& in = e->As<InExpression>();
  EXPECT_TRUE(in.negated);
  EXPECT_EQ(in.values.size(), 2u);
  EXPECT_EQ(in.subquery, nullptr);
  auto s = ParseOk("x IN (SELECT a FROM t)");
  ASSERT_EQ(s->kind, ExprKind::kIn);
  EXPECT_TRUE(s->As<InExpression>().values.empty());
  ASSERT_NE(s->As<InExpression>().subquery, nullptr);
  EXPECT_EQ(Print("x IN (SELECT a FROM t)"), "(x IN (SELECT a FROM t))");
  // A parenthesized subquery as the first of several values is a scalar subquery.
  EXPECT_EQ(Print("x IN ((SELECT 1), 2)"), "(x IN ((SELECT 1), 2))");
}

TEST(SqlParserExpr, Literals) {
  auto check = [](std::string_view text, LiteralKind kind, std::string_view value) {
    auto e = ParseOk(text);
    ASSERT_NE(e, nullptr);
    ASSERT_EQ(e->kind, ExprKind::kConstant) << text;
    EXPECT_EQ(e->As<ConstantExpression>().literal_kind, kind) << text;
    EXPECT_EQ(e->As<ConstantExpression>().text, value) << text;
  };
  check("123456789012345678901234567890", LiteralKind::kInteger, "123456789012345678901234567890");
  check("1.50", LiteralKind::kDecimal, "1.50");
  check("1e3", LiteralKind::kFloat, "1e3");
  check("-1.5E-3", LiteralKind::kFloat, "-1.5E-3");
  check("'a''b'", LiteralKind::kString, "a'b");
  check("NULL", LiteralKind::kNull, "");
  check("true", LiteralKind::kBoolean, "true");
  check("FALSE", LiteralKind::kBoolean, "false");
  check("DATE '2024-01-01'", LiteralKind::kDate, "2024-01-01");
  check("timestamp '2024-01-01 10:00:00'", LiteralKind::kTimestamp, "2024-01-01 10:00:00");
  check("TIMESTAMP_NTZ '2024-01-01'", LiteralKind::kTimestampNtz, "2024-01-01");
  EXPECT_EQ(Print("'it''s'"), "'it''s'");
  check("X'414243'", LiteralKind::kBinary, "414243");
  EXPECT_EQ(Print("x'0aFF'"), "X'0aFF'");
  EXPECT_FALSE(ParseExpression("X'414'").ok());
  EXPECT_FALSE(ParseExpression("X'4G'").ok());
}

TEST(SqlParserExpr, IntervalLiterals) {
  auto e = ParseOk("INTERVAL 3 DAYS");
  ASSERT_EQ(e->kind, ExprKind::kConstant);
  const auto& c = e->As<ConstantExpression>();
  EXPECT_EQ(c.literal_kind, LiteralKind::kInterval);
  EXPECT_EQ(c.text, "3");
  EXPECT_EQ(c.interval_unit, "DAY");
  EXPECT_EQ(Print("INTERVAL '1' day"), "INTERVAL '1' DAY");
  EXPECT_EQ(Print("INTERVAL 2 hours"), "INTERVAL '2' HOUR");
  EXPECT_EQ(Print("INTERVAL '1 day'"), "INTERVAL '1 day'");
  EXPECT_EQ(Print("d + INTERVAL 1 MONTH"), "(d + INTERVAL '1' MONTH)");
  // A column named interval still works.
  EXPECT_EQ(Print("interval + 1"), "(interval + 1)");
  EXPECT_FALSE(ParseExpression("INTERVAL 3").ok());  // a number needs a unit
}

TEST(SqlParserExpr, ColumnRefsStarsAndQuotedNames) {
  auto e = ParseOk("t.c.field");
  ASSERT_EQ(e->kind, ExprKind::kColumnRef);
  EXPECT_EQ(e->As<ColumnRefExpression>().parts, (std::vector<std::string>{"t", "c", "field"}));
  auto q = ParseOk("`My Col`");
  ASSERT_EQ(q->kind, ExprKind::kColumnRef);
  EXPECT_EQ(q->As<ColumnRefExpression>().parts[0], "My Col");
  EXPECT_EQ(Print("`My Col`"), "`My Col`");
  EXPECT_EQ(Print("`select`"), "`select`");  // reserved words are re-quoted
  EXPECT_EQ(Print("\"My Col\""), "'My Col'");  // Spark: a double-quoted string is a literal
  EXPECT_EQ(Print("MixedCase"), "MixedCase");   // case preserved
  auto star = ParseOk("s.t.*");
  ASSERT_EQ(star->kind, ExprKind::kStar);
  EXPECT_EQ(star->As<StarExpression>().qualifier, (std::vector<std::string>{"s", "t"}));
  EXPECT_EQ(Print("*"), "*");
}

TEST(SqlParserExpr, FunctionCalls) {
  auto e = ParseOk("count(DISTINCT a, b)");
  ASSERT_EQ(e->kind, ExprKind::kFunction);
  const auto& f = e->As<FunctionExpression>();
  EXPECT_EQ(f.name, "count");
  EXPECT_TRUE(f.distinct);
  EXPECT_EQ(f.args.size(), 2u);
  EXPECT_EQ(f.arg_names, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(Print("count(*)"), "count(*)");
  EXPECT_EQ(Print("now()"), "now()");
  EXPECT_EQ(Print("coalesce(a, b, 1)"), "coalesce(a, b, 1)");
  EXPECT_EQ(Print("left(s, 2) || right(s, 1)"), "(left(s, 2) || right(s, 1))");
  EXPECT_EQ(Print("f(a => 1, 2)"), "f(a => 1, 2)");
  // In a scalar call `a = 1` is a comparison, not a named argument.
  EXPECT_EQ(Print("f(a = 1)"), "f((a = 1))");
  EXPECT_EQ(Print("array(1, 2)"), "array(1, 2)");
  EXPECT_EQ(Print("map('a', 1)"), "map('a', 1)");
  EXPECT_EQ(Print("named_struct('a', 1)"), "named_struct('a', 1)");
  EXPECT_EQ(Print("struct(a, b)"), "struct(a, b)");
  EXPECT_EQ(Print("position('l' IN 'hello')"), "position('l', 'hello')");
  EXPECT_EQ(Print("position(a || b IN c)"), "position((a || b), c)");
  EXPECT_EQ(Print("position('l', s)"), "position('l', s)");
  // Quoted function names that collide with keywords or special forms stay quoted.
  EXPECT_EQ(Print("`cast`(1)"), "`cast`(1)");
  EXPECT_EQ(Print("`select`(1)"), "`select`(1)");
  EXPECT_EQ(Print("`my fn`(1)"), "`my fn`(1)");
  EXPECT_EQ(Print("f(`from` => 1)"), "f(`from` => 1)");
  // FILTER (WHERE ...) on an aggregate call.
  EXPECT_EQ(Print("count(*) FILTER (WHERE a > 1)"), "count(*) FILTER (WHERE (a > 1))");
}

TEST(SqlParserExpr, CaseExpressions) {
  EXPECT_EQ(Print("CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END"),
            "CASE WHEN (a > 1) THEN 'x' WHEN (a > 0) THEN 'y' ELSE 'z' END");
  auto e = ParseOk("CASE a WHEN 1 THEN 2 END");
  ASSERT_EQ(e->kind, ExprKind::kCase);
  const auto& c = e->As<CaseExpression>();
  ASSERT_NE(c.operand, nullptr);
  EXPECT_EQ(c.whens.size(), 1u);
  EXPECT_EQ(c.else_expr, nullptr);
  EXPECT_FALSE(ParseExpression("CASE END").ok());
}

TEST(SqlParserExpr, NestedLiteralsSubscriptsAndFields) {
  EXPECT_EQ(Print("[1, 2, 3]"), "[1, 2, 3]");
  EXPECT_EQ(Print("[]"), "[]");
  EXPECT_EQ(Print("{'a': 1, 'b': 'x'}"), "{'a': 1, 'b': 'x'}");
  EXPECT_EQ(Print("{a: [1], b: {c: 2}}"), "{'a': [1], 'b': {'c': 2}}");
  EXPECT_EQ(Print("a[1]"), "a[1]");
  EXPECT_EQ(Print("a[1][2].f.g"), "a[1][2].f.g");
  EXPECT_EQ(Print("(s).f"), "(s).f");
  EXPECT_EQ(Print("f(x).g"), "f(x).g");
  EXPECT_EQ(Print("(-1)[0]"), "(-1)[0]");
  EXPECT_EQ(Print("[1, 2][1]"), "([1, 2])[1]");
  auto e = ParseOk("a[1].f");
  ASSERT_EQ(e->kind, ExprKind::kFieldAccess);
  EXPECT_EQ(e->As<FieldAccessExpression>().field, "f");
  EXPECT_EQ(e->As<FieldAccessExpression>().base->kind, ExprKind::kSubscript);
}

TEST(SqlParserExpr, ExtractExistsAndScalarSubqueries) {
  auto e = ParseOk("extract(year FROM d)");
  ASSERT_EQ(e->kind, ExprKind::kExtract);
  EXPECT_EQ(e->As<ExtractExpression>().field, "YEAR");
  EXPECT_EQ(Print("EXTRACT(month FROM d + 1)"), "EXTRACT(MONTH FROM (d + 1))");
  EXPECT_EQ(Print("NOT EXISTS (SELECT 1 FROM t)"), "(NOT EXISTS (SELECT 1 FROM t))");
  EXPECT_EQ(Print("(SELECT max(a) FROM t) + 1"), "((SELECT max(a) FROM t) + 1)");
  EXPECT_EQ(Print("((SELECT 1) + 1)"), "((SELECT 1) + 1)");
  EXPECT_EQ(Print("((SELECT 1) UNION (SELECT 2))"), "(SELECT 1 UNION SELECT 2)");
  EXPECT_EQ(Print("((SELECT 1 LIMIT 1) UNION SELECT 2)"), "((SELECT 1 LIMIT 1) UNION SELECT 2)");
}

TEST(SqlParserExpr, RecordsPositions) {
  auto e = ParseOk("a +\n  f(b)");
  ASSERT_EQ(e->kind, ExprKind::kBinary);
  const auto& b = e->As<BinaryExpression>();
  EXPECT_EQ(b.position, 0u);
  EXPECT_EQ(b.right->position, 6u);
  EXPECT_EQ(b.right->As<FunctionExpression>().args[0]->position, 8u);
}

TEST(SqlParserExpr, TracksHeight) {
  auto e = ParseOk("a + (b * (c - 1))");
  EXPECT_EQ(e->height, 4);
  auto leaf = ParseOk("a");
  EXPECT_EQ(leaf->height, 1);
}

}  // namespace
}  // namespace shoal::sql

namespace shoal::sql {
namespace {

TEST(SqlParserExpr, LambdasPrintAndReparse) {
  EXPECT_EQ(Print("transform(a, x -> x + 1)"), "transform(a, (x) -> (x + 1))");
  EXPECT_EQ(Print("filter(a, (x, i) -> x > i)"), "filter(a, (x, i) -> (x > i))");
  EXPECT_EQ(Print("transform(a, x -> transform(x, y -> y * x))"),
            "transform(a, (x) -> transform(x, (y) -> (y * x)))");
  // exists(...) without a query is the higher-order function, printed quoted.
  EXPECT_EQ(Print("exists(a, x -> x IS NULL)"), "`exists`(a, (x) -> (x IS NULL))");
  // (a, b) not followed by -> stays a parse of its own (not a lambda).
  EXPECT_FALSE(ParseExpression("(a, b)").ok());
}

TEST(SqlParserExpr, WithinGroupPrintsAndReparses) {
  EXPECT_EQ(Print("percentile_cont(0.5) WITHIN GROUP (ORDER BY x)"),
            "percentile_cont(0.5) WITHIN GROUP (ORDER BY x)");
  EXPECT_EQ(Print("percentile_disc(0.25) WITHIN GROUP (ORDER BY x DESC)"),
            "percentile_disc(0.25) WITHIN GROUP (ORDER BY x DESC)");
}

}  // namespace
}  // namespace shoal::sql
