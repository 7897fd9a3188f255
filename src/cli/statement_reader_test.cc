#include "cli/statement_reader.h"

#include <gtest/gtest.h>

#include "cli/dot_command.h"

namespace shoal::cli {
namespace {

// Feeds `lines` and returns the units in order (plus Finish()).
std::vector<InputUnit> ReadAll(const std::vector<std::string>& lines) {
  StatementReader r;
  std::vector<InputUnit> units;
  for (const std::string& l : lines) {
    if (auto u = r.AddLine(l)) units.push_back(*u);
  }
  if (auto u = r.Finish()) units.push_back(*u);
  return units;
}

TEST(StatementReader, CompletesAtSemicolonAcrossLines) {
  StatementReader r;
  EXPECT_FALSE(r.AddLine("SELECT 1").has_value());
  EXPECT_TRUE(r.in_statement());
  auto u = r.AddLine("  + 1;");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->kind, InputUnit::Kind::kSql);
  EXPECT_EQ(u->text, "SELECT 1\n  + 1;");
  EXPECT_EQ(u->first_line, 1);
  EXPECT_FALSE(r.in_statement());
}

TEST(StatementReader, IgnoresSemicolonsInStringsAndComments) {
  auto units = ReadAll({"SELECT 'a;", "b' -- c;", ", \"x;y\" /* ; */", ";"});
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].text, "SELECT 'a;\nb' -- c;\n, \"x;y\" /* ; */\n;");
}

TEST(StatementReader, KeepsSeveralStatementsOnOneLineTogether) {
  auto units = ReadAll({"SELECT 1; SELECT 2;"});
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].text, "SELECT 1; SELECT 2;");
}

TEST(StatementReader, RecognizesDotCommandsOnlyOutsideStatements) {
  auto units = ReadAll({".mode csv  ", "SELECT", ".5;", "  .timer on"});
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(units[0].kind, InputUnit::Kind::kDotCommand);
  EXPECT_EQ(units[0].text, ".mode csv");
  EXPECT_EQ(units[1].kind, InputUnit::Kind::kSql);
  EXPECT_EQ(units[1].text, "SELECT\n.5;");
  EXPECT_EQ(units[1].first_line, 2);
  EXPECT_EQ(units[2].kind, InputUnit::Kind::kDotCommand);
  EXPECT_EQ(units[2].first_line, 4);
}

TEST(StatementReader, SkipsBlankAndCommentLinesBetweenStatements) {
  auto units = ReadAll({"", "   ", "-- note", "SELECT 1;", ""});
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].first_line, 4);
}

TEST(StatementReader, FinishReturnsUnterminatedStatement) {
  auto units = ReadAll({"SELECT 1;", "SELECT 2"});
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[1].text, "SELECT 2");
}

TEST(StatementReader, ClearDropsPartialStatement) {
  StatementReader r;
  EXPECT_FALSE(r.AddLine("SELECT 'unterminated").has_value());
  r.Clear();
  EXPECT_FALSE(r.in_statement());
  auto u = r.AddLine("SELECT 2;");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->text, "SELECT 2;");
}

TEST(DotCommand, ParsesEveryCommand) {
  EXPECT_EQ(ParseDotCommand(".help")->kind, DotCommand::Kind::kHelp);
  EXPECT_EQ(ParseDotCommand(".tables")->kind, DotCommand::Kind::kTables);
  EXPECT_EQ(ParseDotCommand(".exit")->kind, DotCommand::Kind::kExit);
  EXPECT_EQ(ParseDotCommand(".quit")->kind, DotCommand::Kind::kExit);
  auto mode = ParseDotCommand(".mode  jsonl");
  ASSERT_TRUE(mode.ok());
  EXPECT_EQ(mode->kind, DotCommand::Kind::kMode);
  EXPECT_EQ(mode->format, OutputFormat::kJsonl);
  EXPECT_TRUE(ParseDotCommand(".timer on")->on);
  EXPECT_FALSE(ParseDotCommand(".timer off")->on);
  EXPECT_EQ(ParseDotCommand(".mode markdown")->format, OutputFormat::kMarkdown);
  EXPECT_EQ(ParseDotCommand(".mode line")->format, OutputFormat::kLine);
  EXPECT_EQ(ParseDotCommand(".mode box")->format, OutputFormat::kBox);
  EXPECT_EQ(ParseDotCommand(".maxrows 7")->number, 7);
  EXPECT_EQ(ParseDotCommand(".maxwidth 120")->kind, DotCommand::Kind::kMaxWidth);
  EXPECT_EQ(ParseDotCommand(".nullvalue  (null) x ")->text, "(null) x");
  EXPECT_EQ(ParseDotCommand(".print hello  world")->text, "hello  world");
  EXPECT_EQ(ParseDotCommand(".read 'my file.sql'")->text, "my file.sql");
  EXPECT_EQ(ParseDotCommand(".output")->text, "");
  EXPECT_EQ(ParseDotCommand(".output out.csv")->text, "out.csv");
  EXPECT_EQ(ParseDotCommand(".schema")->kind, DotCommand::Kind::kSchema);
  EXPECT_EQ(ParseDotCommand(".schema t")->text, "t");
  for (const char* on : {".bail on", ".changes on", ".echo on", ".headers on", ".progress on"}) {
    EXPECT_TRUE(ParseDotCommand(on)->on) << on;
  }
}

TEST(DotCommand, UnknownCommandSuggestsTheClosestName) {
  EXPECT_NE(ParseDotCommand(".shema t").status().message().find("did you mean .schema?"), std::string::npos);
  EXPECT_NE(ParseDotCommand(".tabels").status().message().find("did you mean .tables?"), std::string::npos);
  EXPECT_NE(ParseDotCommand(".outptu x").status().message().find("did you mean .output?"), std::string::npos);
}

TEST(DotCommand, HelpListsEveryCommand) {
  const std::string help = DotHelpText();
  for (const char* name : {".bail", ".cd", ".changes", ".echo", ".exit", ".headers", ".help", ".maxrows",
                           ".maxwidth", ".mode", ".nullvalue", ".once", ".open", ".output", ".print",
                           ".progress", ".quit", ".read", ".schema", ".tables", ".timer"}) {
    const bool listed = help.find(std::string(name) + " ") != std::string::npos ||
                        help.find(std::string(name) + ",") != std::string::npos;
    EXPECT_TRUE(listed) << name;
  }
}

TEST(DotCommand, RejectsUnknownCommandsAndBadArguments) {
  for (const char* bad : {".bogus", ".mode", ".mode xml", ".timer", ".timer maybe", ".tables x", "mode",
                          ".maxrows -1", ".maxrows x", ".read", ".open a b", ".once"}) {
    auto r = ParseDotCommand(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_NE(ParseDotCommand(".bogus").status().message().find(".bogus"), std::string::npos);
}

}  // namespace
}  // namespace shoal::cli
