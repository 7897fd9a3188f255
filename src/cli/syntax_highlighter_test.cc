#include "cli/syntax_highlighter.h"

#include <gtest/gtest.h>

namespace shoal::cli {
namespace {

std::string K(std::string_view s) { return std::string(kKeywordColor) + std::string(s) + std::string(kResetColor); }
std::string S(std::string_view s) { return std::string(kStringColor) + std::string(s) + std::string(kResetColor); }
std::string N(std::string_view s) { return std::string(kNumberColor) + std::string(s) + std::string(kResetColor); }
std::string C(std::string_view s) { return std::string(kCommentColor) + std::string(s) + std::string(kResetColor); }

TEST(SyntaxHighlighter, ColoursKeywordsStringsNumbersAndComments) {
  EXPECT_EQ(HighlightSql("select a, 'x''y', 4.5e3 from t -- note"),
            K("select") + " a, " + S("'x''y'") + ", " + N("4.5e3") + " " + K("from") + " t " + C("-- note"));
  EXPECT_EQ(HighlightSql("SELECT /* c */ 1"), K("SELECT") + " " + C("/* c */") + " " + N("1"));
}

TEST(SyntaxHighlighter, NamesThatContainKeywordsOrDigitsStayPlain) {
  EXPECT_EQ(HighlightSql("t1.from_x, `select`, selected"), "t1.from_x, `select`, selected");
}

TEST(SyntaxHighlighter, UnfinishedInputAndEarlierLines) {
  EXPECT_EQ(HighlightSql("SELECT 'abc"), K("SELECT") + " " + S("'abc"));
  // A string opened on an earlier line continues; a closed one does not.
  EXPECT_EQ(HighlightSql("still' AND", "SELECT 'one\n"), S("still'") + " " + K("AND"));
  EXPECT_EQ(HighlightSql("end */ 2", "/* open\n"), C("end */") + " " + N("2"));
  EXPECT_EQ(HighlightSql("", "SELECT\n"), "");
}

TEST(SyntaxHighlighter, ColourOnlyOnATerminalThatHasIt) {
  EXPECT_TRUE(ColorWanted(true, true, "xterm-256color", nullptr));
  EXPECT_TRUE(ColorWanted(true, true, "xterm", ""));
  EXPECT_FALSE(ColorWanted(true, true, "xterm", "1"));   // NO_COLOR
  EXPECT_FALSE(ColorWanted(true, true, "dumb", nullptr));
  EXPECT_FALSE(ColorWanted(true, true, nullptr, nullptr));
  EXPECT_FALSE(ColorWanted(false, true, "xterm", nullptr));
  EXPECT_FALSE(ColorWanted(true, false, "xterm", nullptr));
}

}  // namespace
}  // namespace shoal::cli
