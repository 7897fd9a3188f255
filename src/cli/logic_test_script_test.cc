#include "cli/logic_test_script.h"

#include <gtest/gtest.h>

namespace shoal::cli {
namespace {

using Kind = LogicTestRecord::Kind;

LogicTestScript Parse(const std::string& text) {
  auto s = ParseLogicTest(text, "t.test", {"shoal"});
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : LogicTestScript{};
}

TEST(LogicTestScript, ParsesStatementsAndQueries) {
  LogicTestScript s = Parse(
      "# a comment\n"
      "statement ok\n"
      "CREATE TABLE t (a INT)\n"
      "\n"
      "query IT rowsort\n"
      "SELECT a,\n"
      "  b FROM t\n"
      "----\n"
      "1\tx\n"
      "2\t(empty)\n"
      "\n"
      "query I\n"
      "SELECT 1 WHERE false\n"
      "----\n");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].kind, Kind::kStatementOk);
  EXPECT_EQ(s.records[0].line, 2);
  EXPECT_EQ(s.records[0].sql, "CREATE TABLE t (a INT)");
  EXPECT_EQ(s.records[1].kind, Kind::kQuery);
  EXPECT_EQ(s.records[1].types, "IT");
  EXPECT_EQ(s.records[1].sort, SortMode::kRowSort);
  EXPECT_EQ(s.records[1].sql, "SELECT a,\n  b FROM t");
  EXPECT_EQ(s.records[1].expected, (std::vector<std::string>{"1\tx", "2\t(empty)"}));
  EXPECT_EQ(s.records[1].line, 5);
  EXPECT_TRUE(s.records[2].expected.empty());
}

TEST(LogicTestScript, ParsesStatementErrorForms) {
  LogicTestScript s = Parse(
      "statement error\n"
      "SELECT nope\n"
      "\n"
      "statement error\n"
      "SELECT nope\n"
      "----\n"
      "BinderException: nope\n"
      "\n"
      "statement error ParserException: syntax\n"
      "SELEC\n"
      "\n"
      "statement error con2\n"
      "INSERT INTO t VALUES (1)\n"
      "----\n"
      "ConcurrentAppendException\n");
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records[0].expected_error, "");
  EXPECT_EQ(s.records[1].expected_error, "BinderException: nope");
  EXPECT_EQ(s.records[2].expected_error, "ParserException: syntax");
  EXPECT_EQ(s.records[2].connection, "");
  EXPECT_EQ(s.records[3].connection, "con2");
  EXPECT_EQ(s.records[3].expected_error, "ConcurrentAppendException");
}

TEST(LogicTestScript, LastHeaderTokenNamesTheConnection) {
  LogicTestScript s = Parse(
      "statement ok con1\nBEGIN\n\n"
      "query I nosort con2\nSELECT 1\n----\n1\n\n"
      "query I con3\nSELECT 1\n----\n1\n\n"
      "restart\n");
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records[0].connection, "con1");
  EXPECT_EQ(s.records[1].connection, "con2");
  EXPECT_EQ(s.records[1].sort, SortMode::kNoSort);
  EXPECT_EQ(s.records[2].connection, "con3");
  EXPECT_EQ(s.records[3].kind, Kind::kRestart);
}

TEST(LogicTestScript, UnrollsNestedLoopsWithSubstitution) {
  LogicTestScript s = Parse(
      "loop i 0 2\n"
      "loop j 5 7\n"
      "query I\n"
      "SELECT ${i} * ${j}\n"
      "----\n"
      "${i}${j}\n"
      "\n"
      "endloop\n"
      "endloop\n");
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records[0].sql, "SELECT 0 * 5");
  EXPECT_EQ(s.records[1].sql, "SELECT 0 * 6");
  EXPECT_EQ(s.records[3].sql, "SELECT 1 * 6");
  EXPECT_EQ(s.records[3].expected[0], "16");
}

TEST(LogicTestScript, SkipModeHaltAndRequire) {
  LogicTestScript s = Parse(
      "statement ok\nA\n\n"
      "mode skip\n\n"
      "statement ok\nB\n\n"
      "mode unskip\n\n"
      "require shoal\n\n"
      "statement ok\nC\n\n"
      "halt\n\n"
      "statement ok\nD\n");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].sql, "A");
  EXPECT_EQ(s.records[1].sql, "C");
  EXPECT_EQ(s.skipped, 1);

  LogicTestScript r = Parse("require spatial\n\nstatement ok\nA\n");
  EXPECT_TRUE(r.records.empty());
  EXPECT_NE(r.skip_reason.find("spatial"), std::string::npos);
}

TEST(LogicTestScript, RejectsMalformedScriptsWithFileAndLine) {
  struct Case {
    const char* text;
    const char* mention;
  } cases[] = {
      {"statement ok\n\n", "t.test:1:"},
      {"\nbogus\n", "t.test:2:"},
      {"query I\nSELECT 1\n", "----"},
      {"statement ok\nSELECT 1\n----\n1\n", "statement ok"},
      {"loop i 0\n", "loop"},
      {"loop i 0 3\nstatement ok\nA\n", "endloop"},
      {"endloop\n", "endloop"},
      {"statement maybe\nA\n", "maybe"},
      {"mode fast\n", "fast"},
      {"query\nSELECT 1\n----\n1\n", "types"},
  };
  for (const Case& c : cases) {
    auto r = ParseLogicTest(c.text, "t.test", {});
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_NE(r.status().message().find(c.mention), std::string::npos) << r.status().message();
  }
}

TEST(LogicTestScript, HandlesCrlfLineEndings) {
  LogicTestScript s = Parse("query I\r\nSELECT 1\r\n----\r\n1\r\n");
  ASSERT_EQ(s.records.size(), 1u);
  EXPECT_EQ(s.records[0].expected, std::vector<std::string>{"1"});
}

TEST(SubstituteVariables, ReplacesKnownAndKeepsUnknown) {
  std::map<std::string, std::string> vars{{"TESTDATA", "/d"}, {"TEMP", "/t"}};
  EXPECT_EQ(SubstituteVariables("'${TESTDATA}/x' ${TEMP}${TEMP} ${OTHER} ${", vars),
            "'/d/x' /t/t ${OTHER} ${");
}

}  // namespace
}  // namespace shoal::cli
