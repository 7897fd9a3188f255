#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sql/parser/lexer.h"
#include "sql/parser/parser.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

std::string ErrorOf(std::string_view text) {
  auto r = ParseStatements(text);
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kParser);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);  // one line
  return r.status().message();
}

TEST(SqlParserError, NamesTokenLineAndColumn) {
  EXPECT_EQ(ErrorOf("SELECT * FORM t"), "syntax error at or near \"FORM\" (line 1, column 10)");
  EXPECT_EQ(ErrorOf("SELECT a,\n  FROM t"), "syntax error at or near \"FROM\" (line 2, column 3)");
  EXPECT_EQ(ErrorOf("SELECT (1 + 2"), "syntax error at end of input (line 1, column 14)");
  EXPECT_EQ(ErrorOf("SELEC 1"), "syntax error at or near \"SELEC\" (line 1, column 1)");
  EXPECT_EQ(ErrorOf("SELECT 1; DROP t"), "syntax error at or near \"t\" (line 1, column 16)");
  EXPECT_EQ(ErrorOf("SELECT 'x' 2"), "syntax error at or near \"2\" (line 1, column 12)");
  EXPECT_EQ(ErrorOf("SELECT 1 'multi\nline'"), "syntax error at or near \"'multi\" (line 1, column 10)");
}

TEST(SqlParserError, LexerErrorsCarryPositions) {
  EXPECT_EQ(ErrorOf("SELECT 'abc"), "unterminated quoted string at or near \"'abc\" (line 1, column 8)");
  EXPECT_EQ(ErrorOf("SELECT \"abc"), "unterminated quoted string at or near \"\"abc\" (line 1, column 8)");
  EXPECT_EQ(ErrorOf("SELECT `abc"), "unterminated quoted identifier at or near \"`abc\" (line 1, column 8)");
  EXPECT_EQ(ErrorOf("SELECT 1 /* x"), "unterminated comment at or near \"/*\" (line 1, column 10)");
}

TEST(SqlParserError, TypeErrors) {
  EXPECT_EQ(ErrorOf("SELECT CAST(a AS DECIMAL(39, 2))"),
            "DECIMAL precision must be between 1 and 38 at or near \"39\" (line 1, column 26)");
  EXPECT_EQ(ErrorOf("SELECT CAST(a AS DECIMAL(10, 11))"),
            "DECIMAL scale must be between 0 and the precision at or near \"11\" (line 1, column 30)");
  EXPECT_EQ(ErrorOf("SELECT CAST(a AS WIDGET)"), "unknown type at or near \"WIDGET\" (line 1, column 18)");
  auto t = ParseTypeName("MAP<STRING, ARRAY<DECIMAL(38, 0)>>");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->ToString(), "MAP<STRING, ARRAY<DECIMAL(38, 0)>>");
  EXPECT_FALSE(ParseTypeName("ARRAY<INT").ok());
  EXPECT_FALSE(ParseTypeName("DECIMAL(99999999999999999999)").ok());
}

TEST(SqlParserError, ReservedWordsNeedQuotes) {
  EXPECT_FALSE(ParseStatement("SELECT select FROM t").ok());
  EXPECT_FALSE(ParseStatement("CREATE TABLE from (a INT)").ok());
  EXPECT_TRUE(ParseStatement("SELECT `select` FROM `from`").ok());
  // Non-reserved keywords are ordinary names.
  EXPECT_TRUE(ParseStatement("SELECT version, date, timestamp, history FROM t").ok());
}

TEST(SqlParserError, DeepNestingIsAnErrorNotACrash) {
  const std::string too_deep = "expression nested too deeply";
  auto nested = [](int n, const std::string& open, const std::string& close) {
    std::string s = "SELECT ";
    for (int i = 0; i < n; ++i) s += open;
    s += "1";
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  EXPECT_TRUE(ParseStatement(nested(100, "(", ")")).ok());
  EXPECT_NE(ErrorOf(nested(20000, "(", ")")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "- ", "")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "NOT ", "")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "(SELECT ", ")")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "f(", ")")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "[", "]")).find(too_deep), std::string::npos);
  EXPECT_NE(ErrorOf(nested(20000, "CASE WHEN ", " THEN 1 END")).find(too_deep), std::string::npos);
  // Long left-deep chains are bounded by the tree height, so walkers never overflow.
  std::string chain = "SELECT 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  EXPECT_NE(ErrorOf(chain).find(too_deep), std::string::npos);
  std::string unions = "SELECT 1";
  for (int i = 0; i < 5000; ++i) unions += " UNION SELECT 1";
  EXPECT_NE(ErrorOf(unions).find(too_deep), std::string::npos);
  std::string joins = "SELECT * FROM t0";
  for (int i = 0; i < 5000; ++i) joins += ", t";
  EXPECT_NE(ErrorOf(joins).find(too_deep), std::string::npos);
  std::string subscripts = "SELECT a";
  for (int i = 0; i < 5000; ++i) subscripts += "[1]";
  EXPECT_NE(ErrorOf(subscripts).find(too_deep), std::string::npos);
  std::string types = "SELECT CAST(a AS ";
  for (int i = 0; i < 5000; ++i) types += "ARRAY<";
  EXPECT_NE(ErrorOf(types).find(too_deep), std::string::npos);
  std::string arrays = "SELECT CAST(a AS INT";
  for (int i = 0; i < 5000; ++i) arrays += "[]";
  EXPECT_NE(ErrorOf(arrays + ")").find(too_deep), std::string::npos);
  // Just under the limit still parses.
  std::string ok_chain = "SELECT 1";
  for (int i = 0; i < 500; ++i) ok_chain += " + 1";
  EXPECT_TRUE(ParseStatement(ok_chain).ok());
}

// Random token soup never crashes the parser, and whatever parses round-trips.
TEST(SqlParserError, RandomTokenSoupNeverCrashes) {
  const std::vector<std::string> pieces = {
      "SELECT", "FROM", "WHERE", "(", ")", ",", "a", "t", "1", "'s'", "+", "-", "*", "/", "=",
      "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "IS", "NULL", "CASE", "WHEN", "THEN", "ELSE",
      "END", "JOIN", "ON", "USING", "UNION", "ALL", "ORDER", "BY", "LIMIT", "GROUP", "AS", "[",
      "]", "{", "}", ":", "::", "INT", "ARRAY", "<", ">", "VALUES", "WITH", "MERGE", "INTO",
      "WHEN", "MATCHED", "INSERT", "UPDATE", "SET", "DELETE", "CREATE", "TABLE", "ALTER", "ADD",
      "COLUMN", "DROP", ";", ".", "EXISTS", "CAST", "INTERVAL", "DATE", "VERSION", "OF", "=>",
      "1.5", "1e3", "\"q\"", "`b`", "--", "/*", "*/", "'", "DISTINCT", "COPY", "TO", "OPTIMIZE",
      "SEMI", "ANTI", "NATURAL", "LEFT", "FETCH", "FIRST", "ROWS", "ONLY", "OFFSET", "VIEW",
      "RECURSIVE", "SUBSTRING", "TRIM", "FOR", "LEADING", "BOTH", "CHAR", "VARYING", "DAY"};
  std::mt19937 rng(12345);
  int parsed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string sql;
    int n = 1 + static_cast<int>(rng() % 25);
    for (int i = 0; i < n; ++i) {
      sql += pieces[rng() % pieces.size()];
      sql += ' ';
    }
    auto r = ParseStatements(sql);
    (void)IsCompleteStatement(sql);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kParser) << sql;
      continue;
    }
    ++parsed;
    for (const auto& stmt : *r) {
      std::string printed = stmt->ToString();
      auto again = ParseStatement(printed);
      ASSERT_TRUE(again.ok()) << sql << " -> " << printed << ": " << again.status().ToString();
      EXPECT_EQ((*again)->ToString(), printed) << sql;
    }
  }
  EXPECT_GT(parsed, 0);
}

// Random bytes never crash the lexer or parser.
TEST(SqlParserError, RandomBytesNeverCrash) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 5000; ++iter) {
    std::string s(rng() % 64, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    auto r = ParseStatements(s);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kParser);
    }
  }
}

// Every seed of the fuzz corpus parses and round-trips.
TEST(SqlParserError, FuzzCorpusSeedsParseAndRoundTrip) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(testing::SourceDir()) / "fuzz" / "corpus" / "sql_parser";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no corpus at " << dir;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    auto r = ParseStatements(buf.str());
    ASSERT_TRUE(r.ok()) << entry.path() << ": " << r.status().ToString();
    for (const auto& stmt : *r) {
      std::string printed = stmt->ToString();
      auto again = ParseStatement(printed);
      ASSERT_TRUE(again.ok()) << entry.path() << ": " << printed << ": " << again.status().ToString();
      EXPECT_EQ((*again)->ToString(), printed) << entry.path();
    }
    ++files;
  }
  EXPECT_GE(files, 20);
}

}  // namespace
}  // namespace shoal::sql
