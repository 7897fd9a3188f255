#include "sql/parser/lexer.h"

#include <gtest/gtest.h>

namespace shoal::sql {
namespace {

std::vector<Token> LexOk(std::string_view text) {
  auto r = Lex(text);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : std::vector<Token>{};
}

std::string LexError(std::string_view text) {
  auto r = Lex(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(SqlLexer, SplitsWordsOperatorsAndLiterals) {
  auto t = LexOk("SELECT a1, _b FROM t WHERE x>=1.5e3 AND y<>'s'");
  ASSERT_EQ(t.size(), 15u);
  EXPECT_EQ(t[0].type, TokenType::kWord);
  EXPECT_EQ(t[0].text, "SELECT");
  EXPECT_TRUE(t[0].IsKeyword("SELECT"));
  EXPECT_EQ(t[1].text, "a1");
  EXPECT_TRUE(t[2].IsOperator(","));
  EXPECT_EQ(t[3].text, "_b");
  EXPECT_TRUE(t[8].IsOperator(">="));
  EXPECT_EQ(t[9].type, TokenType::kFloat);
  EXPECT_EQ(t[9].text, "1.5e3");
  EXPECT_TRUE(t[12].IsOperator("<>"));
  EXPECT_EQ(t[13].type, TokenType::kString);
  EXPECT_EQ(t[13].text, "s");
  EXPECT_EQ(t[14].type, TokenType::kEnd);
  EXPECT_EQ(t[14].offset, 46u);
  EXPECT_EQ(t[13].offset, 43u);
}

TEST(SqlLexer, KeywordsMatchCaseInsensitively) {
  auto t = LexOk("select SeLeCt");
  EXPECT_TRUE(t[0].IsKeyword("SELECT"));
  EXPECT_TRUE(t[1].IsKeyword("SELECT"));
  EXPECT_EQ(t[1].text, "SeLeCt");  // case kept
  EXPECT_FALSE(t[0].IsKeyword("SELECTX"));
}

TEST(SqlLexer, ClassifiesNumbers) {
  auto t = LexOk("12345678901234567890123 1.5 .5 1. 1e3 1E-2 2.5e+10 7 e");
  EXPECT_EQ(t[0].type, TokenType::kInteger);
  EXPECT_EQ(t[0].text, "12345678901234567890123");
  EXPECT_EQ(t[1].type, TokenType::kDecimal);
  EXPECT_EQ(t[2].type, TokenType::kDecimal);
  EXPECT_EQ(t[2].text, ".5");
  EXPECT_EQ(t[3].type, TokenType::kDecimal);
  EXPECT_EQ(t[3].text, "1.");
  EXPECT_EQ(t[4].type, TokenType::kFloat);
  EXPECT_EQ(t[5].type, TokenType::kFloat);
  EXPECT_EQ(t[5].text, "1E-2");
  EXPECT_EQ(t[6].type, TokenType::kFloat);
  EXPECT_EQ(t[7].type, TokenType::kInteger);
  EXPECT_EQ(t[8].type, TokenType::kWord);
}

TEST(SqlLexer, NumberSuffixesTypeTheNumber) {
  auto t = LexOk("10L 3s 4Y 1.5D 2d 1e3D 1.5F 2BD 1.50bd");
  const char* suffixes[] = {"L", "S", "Y", "D", "D", "D", "F", "BD", "BD"};
  const char* texts[] = {"10", "3", "4", "1.5", "2", "1e3", "1.5", "2", "1.50"};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(t[i].suffix, suffixes[i]) << i;
    EXPECT_EQ(t[i].text, texts[i]) << i;
  }
  // Glued letters that are no suffix, or L/S/Y on a non-integer, are errors, never an alias.
  EXPECT_EQ(LexError("SELECT 10X"), "invalid numeric literal at or near \"10X\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT 7e"), "invalid numeric literal at or near \"7e\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT 1.5L"), "invalid numeric literal at or near \"1.5L\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT 1LL"), "invalid numeric literal at or near \"1LL\" (line 1, column 8)");
}

TEST(SqlLexer, BackslashEscapesInStrings) {
  auto t = LexOk(R"('a\tb' 'it\'s' "q\"q" '\\' '\u00e9' '\U0001F600' '\101' '\%\_' '\q' '\0')");
  EXPECT_EQ(t[0].text, "a\tb");
  EXPECT_EQ(t[1].text, "it's");
  EXPECT_EQ(t[2].text, "q\"q");
  EXPECT_EQ(t[3].text, "\\");
  EXPECT_EQ(t[4].text, "\xC3\xA9");
  EXPECT_EQ(t[5].text, "\xF0\x9F\x98\x80");
  EXPECT_EQ(t[6].text, "A");
  EXPECT_EQ(t[7].text, "\\%\\_");  // kept for LIKE
  EXPECT_EQ(t[8].text, "q");
  EXPECT_EQ(t[9].text, std::string(1, '\0'));
  EXPECT_EQ(LexError(R"(SELECT '\uD800')"), "invalid unicode escape in string literal at or near \"\\uD800\" (line 1, column 9)");
  EXPECT_EQ(LexError(R"(SELECT '\u12')"), "invalid unicode escape in string literal at or near \"\\u12'\" (line 1, column 9)");
  // A backslash-escaped quote does not end the statement for the shell either.
  EXPECT_FALSE(IsCompleteStatement(R"(SELECT 'a\';)"));
  EXPECT_TRUE(IsCompleteStatement(R"(SELECT 'a\'';)"));
}

TEST(SqlLexer, DoubleQuotesAreStringsUnlessAskedForIdentifiers) {
  auto t = LexOk(R"("a ""b""")");
  EXPECT_EQ(t[0].type, TokenType::kString);
  EXPECT_EQ(t[0].text, "a \"b\"");
  LexOptions ansi;
  ansi.double_quoted_identifiers = true;
  auto q = Lex(R"("a ""b""")", ansi);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ((*q)[0].type, TokenType::kQuotedIdentifier);
  EXPECT_EQ((*q)[0].text, "a \"b\"");
  EXPECT_FALSE(Lex("SELECT \"\"", ansi).ok());  // zero-length identifier
}

TEST(SqlLexer, UnescapesStringsAndQuotedIdentifiers) {
  auto t = LexOk(R"('it''s' "a ""b""" `c``d` '')");
  EXPECT_EQ(t[0].type, TokenType::kString);
  EXPECT_EQ(t[0].text, "it's");
  EXPECT_EQ(t[0].length, 7u);
  EXPECT_EQ(t[1].type, TokenType::kString);  // Spark: "..." is a string literal
  EXPECT_EQ(t[1].text, "a \"b\"");
  EXPECT_EQ(t[2].type, TokenType::kQuotedIdentifier);
  EXPECT_EQ(t[2].text, "c`d");
  EXPECT_EQ(t[3].type, TokenType::kString);
  EXPECT_EQ(t[3].text, "");
}

TEST(SqlLexer, SkipsLineAndNestedBlockComments) {
  auto t = LexOk("a -- comment\n/* x /* nested */ still comment */ b");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].text, "a");
  EXPECT_EQ(t[1].text, "b");
}

TEST(SqlLexer, LexesAllOperators) {
  auto t = LexOk(":: == => <> != <= >= || ( ) [ ] { } , ; . : + - * / % = < >");
  std::vector<std::string> ops;
  for (const auto& tok : t) {
    if (tok.type == TokenType::kOperator) ops.push_back(tok.text);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"::", "==", "=>", "<>", "!=", "<=", ">=", "||", "(",
                                           ")", "[", "]", "{", "}", ",", ";", ".", ":", "+", "-",
                                           "*", "/", "%", "=", "<", ">"}));
}

TEST(SqlLexer, ReportsUnterminatedStringWithPosition) {
  EXPECT_EQ(LexError("SELECT 'abc"),
            "unterminated quoted string at or near \"'abc\" (line 1, column 8)");
}

TEST(SqlLexer, ReportsUnterminatedQuotedIdentifierAndComment) {
  EXPECT_EQ(LexError("SELECT\n  \"ab"), "unterminated quoted string at or near \"\"ab\" (line 2, column 3)");
  EXPECT_EQ(LexError("SELECT `x"), "unterminated quoted identifier at or near \"`x\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT 1 /* x /* y */"),
            "unterminated comment at or near \"/*\" (line 1, column 10)");
}

TEST(SqlLexer, RejectsUnknownCharacterAndEmptyQuotedIdentifier) {
  EXPECT_EQ(LexError("SELECT #"), "syntax error at or near \"#\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT ``"), "zero-length quoted identifier at or near \"``\" (line 1, column 8)");
}

TEST(SqlLexer, LocatesOffsets) {
  std::string text = "ab\ncd\n\nef";
  EXPECT_EQ(LocateOffset(text, 0).line, 1);
  EXPECT_EQ(LocateOffset(text, 0).column, 1);
  EXPECT_EQ(LocateOffset(text, 4).line, 2);
  EXPECT_EQ(LocateOffset(text, 4).column, 2);
  EXPECT_EQ(LocateOffset(text, 7).line, 4);
  EXPECT_EQ(LocateOffset(text, 7).column, 1);
  EXPECT_EQ(LocateOffset(text, 1000).line, 4);  // clamped
}

TEST(SqlLexer, IsCompleteStatementNeedsSemicolonOutsideQuotesAndComments) {
  EXPECT_FALSE(IsCompleteStatement(""));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1;"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1;  \n"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1; -- trailing comment"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1; /* c */"));
  EXPECT_FALSE(IsCompleteStatement("SELECT ';"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 'a;'"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 'a;''b';"));
  EXPECT_FALSE(IsCompleteStatement("SELECT \"x;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT `x;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1 -- ;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1 /* ; */"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1 /* /* */ ; */"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1; SELECT 2"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1; SELECT 2;"));
}

TEST(SqlLexer, ReservedKeywords) {
  EXPECT_TRUE(IsReservedKeyword("select"));
  EXPECT_TRUE(IsReservedKeyword("FROM"));
  EXPECT_TRUE(IsReservedKeyword("Where"));
  EXPECT_FALSE(IsReservedKeyword("version"));
  EXPECT_FALSE(IsReservedKeyword("date"));
  EXPECT_FALSE(IsReservedKeyword("a_very_long_identifier_name"));
}

}  // namespace
}  // namespace shoal::sql
