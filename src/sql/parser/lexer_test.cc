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
  auto t = LexOk("12345678901234567890123 1.5 .5 1. 1e3 1E-2 2.5e+10 7e");
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
  // "7e" is the integer 7 followed by the word e.
  EXPECT_EQ(t[7].type, TokenType::kInteger);
  EXPECT_EQ(t[8].type, TokenType::kWord);
}

TEST(SqlLexer, UnescapesStringsAndQuotedIdentifiers) {
  auto t = LexOk(R"('it''s' "a ""b""" `c``d` '')");
  EXPECT_EQ(t[0].type, TokenType::kString);
  EXPECT_EQ(t[0].text, "it's");
  EXPECT_EQ(t[0].length, 7u);
  EXPECT_EQ(t[1].type, TokenType::kQuotedIdentifier);
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
  EXPECT_EQ(LexError("SELECT\n  \"ab"),
            "unterminated quoted identifier at or near \"\"ab\" (line 2, column 3)");
  EXPECT_EQ(LexError("SELECT `x"), "unterminated quoted identifier at or near \"`x\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT 1 /* x /* y */"),
            "unterminated comment at or near \"/*\" (line 1, column 10)");
}

TEST(SqlLexer, RejectsUnknownCharacterAndEmptyQuotedIdentifier) {
  EXPECT_EQ(LexError("SELECT #"), "syntax error at or near \"#\" (line 1, column 8)");
  EXPECT_EQ(LexError("SELECT \"\""), "zero-length quoted identifier at or near \"\"\"\" (line 1, column 8)");
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
