// Runs the built `shoal` binary with dot commands on stdin and -f, checking each command's
// effect on the output, and that piped, -c and -f output holds no control characters.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/table_renderer.h"
#include "support/shell_text.h"
#include "support/testdata.h"

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

class ShellDotCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = testing::BinaryDir() + "/shoal";
    if (!fs::exists(binary_)) FAIL() << "shoal binary not found at " << binary_ << " (build target shoal)";
    fs::create_directories(dir_.Join("wh"));
    fs::create_directories(dir_.Join("wh2"));
  }
  // Runs shoal on the warehouse with `args`, `input` on stdin, from the test's directory, with
  // the environment assignments `env` ("NAME=value ...") before the command.
  Outcome Shoal(const std::string& input, const std::vector<std::string>& args = {}, const std::string& env = "") {
    std::ofstream(dir_.Join("stdin.txt"), std::ios::binary) << input;
    std::string cmd = "cd " + testing::ShellQuote(dir_.path()) + " && " + env + " " + testing::ShellQuote(binary_) + " " +
                      testing::ShellQuote(dir_.Join("wh"));
    for (const std::string& a : args) {
      cmd += ' ';
      cmd += testing::ShellQuote(a);
    }
    cmd += " < " + testing::ShellQuote(dir_.Join("stdin.txt")) + " 2> " + testing::ShellQuote(dir_.Join("stderr.txt"));
    Outcome r;
    r.code = testing::RunCommand(cmd, &r.out);
    r.err = testing::ReadFileText(dir_.Join("stderr.txt"));
    return r;
  }
  testing::TempDir dir_;
  std::string binary_;
};

const char kTable[] = "CREATE TABLE t AS SELECT id, CASE WHEN id = 1 THEN NULL ELSE id * 10 END AS v "
                      "FROM range(0, 3) AS r(id);\n";

TEST_F(ShellDotCommands, ModesMarkdownLineAndBox) {
  Outcome r = Shoal(".mode csv\n" + std::string(kTable) +
                    ".mode markdown\nSELECT id, v, 'a|b' AS s FROM t ORDER BY id;\n"
                    ".mode line\nSELECT id, v FROM t WHERE id < 2 ORDER BY id;\n"
                    ".mode box\nSELECT 1 AS x;\n");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string markdown = "| id | v | s |\n| ---: | ---: | --- |\n| 0 | 0 | a\\|b |\n| 1 | NULL | a\\|b |\n"
                               "| 2 | 20 | a\\|b |\n";
  const std::string line = "id = 0\n v = 0\n\nid = 1\n v = NULL\n";
  EXPECT_NE(r.out.find(markdown + line), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("│ INT │"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("┌"), std::string::npos) << r.out;
}

TEST_F(ShellDotCommands, HeadersNullValueAndChanges) {
  Outcome r = Shoal(".mode csv\n" + std::string(kTable) +
                    ".headers off\n.nullvalue <null>\nSELECT * FROM t ORDER BY id;\n"
                    ".changes on\nINSERT INTO t VALUES (5, 50), (6, 60);\nDELETE FROM t WHERE id > 4;\n");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "0,0\n1,<null>\n2,20\nchanges: 2\nchanges: 2\n");
}

TEST_F(ShellDotCommands, MaxRowsAndMaxWidthShapeTheTable) {
  Outcome r = Shoal(".maxrows 4\nSELECT id FROM range(0, 10) AS r(id);\n"
                    ".maxwidth 30\nSELECT repeat('x', 60) AS wide;\n");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("10 rows (4 shown)"), std::string::npos) << r.out;
  size_t wide = r.out.find("wide");
  ASSERT_NE(wide, std::string::npos);
  size_t start = r.out.rfind('\n', wide) + 1;
  size_t end = r.out.find('\n', wide);
  EXPECT_EQ(DisplayWidth(r.out.substr(start, end - start)), 30) << r.out;
}

TEST_F(ShellDotCommands, SchemaReadOutputOnceEchoPrintCd) {
  std::ofstream(dir_.Join("script.sql")) << ".print from script\nSELECT 7 AS seven;\n";
  fs::create_directories(dir_.Join("sub"));
  Outcome r = Shoal(".mode csv\n" + std::string(kTable) +
                    "CREATE TABLE p (a INT, `b c` STRING) PARTITIONED BY (a);\n"
                    ".schema\n.schema t\n.mode csv\n.read script.sql\n"
                    ".output out.csv\nSELECT 1 AS one;\nSELECT 2 AS two;\n.output\n"
                    ".once once.csv\nSELECT 3 AS three;\nSELECT 4 AS four;\n"
                    ".echo on\nSELECT 5 AS five;\n.echo off\n"
                    ".cd sub\n.once here.csv\nSELECT 6 AS six;\n");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "CREATE TABLE p (a int, `b c` string) PARTITIONED BY (a);\n"
            "CREATE TABLE t (id bigint, v bigint);\n"
            "CREATE TABLE t (id bigint, v bigint);\n"
            "from script\nseven\n7\n"
            "four\n4\n"
            "SELECT 5 AS five;\nfive\n5\n");
  EXPECT_EQ(testing::ReadFileText(dir_.Join("out.csv")), "one\n1\ntwo\n2\n");
  EXPECT_EQ(testing::ReadFileText(dir_.Join("once.csv")), "three\n3\n");
  EXPECT_EQ(testing::ReadFileText(dir_.Join("sub/here.csv")), "six\n6\n");
}

TEST_F(ShellDotCommands, OpenSwitchesWarehouse) {
  Outcome r = Shoal(std::string(kTable) + ".open " + dir_.Join("wh2") +
                    "\nCREATE TABLE only_here AS SELECT 1 AS x;\n.tables\n");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("only_here"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_.Join("wh2/only_here")));
  EXPECT_FALSE(fs::exists(dir_.Join("wh/only_here")));
}

TEST_F(ShellDotCommands, BailOffKeepsGoingButExitsOne) {
  Outcome r = Shoal(".mode csv\nSELECT nope;\nSELECT 1 AS after;\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");  // bail is on off a terminal
  r = Shoal(".bail off\n.mode csv\nSELECT nope;\nSELECT 1 AS after;\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "after\n1\n");
  EXPECT_NE(r.err.find("BinderException"), std::string::npos);
}

TEST_F(ShellDotCommands, UnknownCommandSuggestsAndHelpListsAll) {
  Outcome r = Shoal(".maxrow 3\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("did you mean .maxrows?"), std::string::npos) << r.err;
  r = Shoal(".help\n");
  EXPECT_EQ(r.code, 0);
  for (const char* name : {".schema", ".read", ".output", ".once", ".headers", ".nullvalue", ".maxrows", ".maxwidth",
                           ".open", ".changes", ".bail", ".echo", ".print", ".cd", ".progress", ".mode"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  }
}

TEST_F(ShellDotCommands, ReadmeListsWhatHelpPrints) {
  Outcome r = Shoal(".help\n");
  ASSERT_EQ(r.code, 0);
  const std::string readme = testing::ReadFileText(testing::SourceDir() + "/README.md");
  size_t start = 0;
  while (start < r.out.size()) {
    size_t end = r.out.find('\n', start);
    std::string line = r.out.substr(start, end - start);
    if (!line.empty() && line[0] == '.') {
      EXPECT_NE(readme.find(line + "\n"), std::string::npos) << line;
    }
    start = end + 1;
  }
}

// No escape sequence, carriage return or bell reaches a pipe: not from the progress bar, the
// table renderer, errors, the line editor or syntax highlighting (not even with a colour TERM
// and .highlight on).
TEST_F(ShellDotCommands, PipedAndScriptOutputHasNoControlCharacters) {
  const std::string sql = std::string(kTable) + "SELECT count(*) FROM range(0, 3000000) a WHERE id % 3 = 1;\n"
                          "SELECT * FROM t ORDER BY id;\nSELECT nope;\n";
  std::ofstream(dir_.Join("script.sql")) << ".bail off\n" << sql;
  std::vector<Outcome> runs = {Shoal(".bail off\n" + sql), Shoal("", {"-f", dir_.Join("script.sql")}),
                               Shoal("", {"-c", "SELECT 1 AS a; SELECT nope"}),
                               Shoal("", {"--summary", "-c", "SELECT * FROM t"}),
                               Shoal(".highlight on\n.bail off\n" + sql, {}, "TERM=xterm-256color"),
                               Shoal("", {"-c", "SELECT 'x' AS s; SELECT nope"}, "TERM=xterm-256color"),
                               Shoal("", {"-f", dir_.Join("script.sql")}, "TERM=xterm-256color COLORTERM=truecolor")};
  for (const Outcome& r : runs) {
    for (const std::string* s : {&r.out, &r.err}) {
      for (unsigned char c : *s) {
        EXPECT_TRUE(c >= 0x20 || c == '\n') << "control character " << int(c) << " in: " << *s;
      }
    }
  }
  EXPECT_NE(runs[3].err.find("read 1 of 1 row group in 1 of 1 file"), std::string::npos) << runs[3].err;
}

}  // namespace
}  // namespace shoal::cli
