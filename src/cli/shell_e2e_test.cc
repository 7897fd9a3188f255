// Runs the built `shoal` binary ($SHOAL_BINARY_DIR/shoal) and checks its output contract:
// stdout, stderr and exit status for -c, -f and stdin input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

class ShellE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = testing::BinaryDir() + "/shoal";
    if (!fs::exists(binary_))
      FAIL() << "shoal binary not found at " << binary_ << " (build target shoal)";
    fs::create_directories(dir_.Join("wh"));
  }

  // Runs shoal with `args` on the test's warehouse, feeding `input` on stdin.
  Outcome Shoal(const std::vector<std::string>& args, const std::string& input = "") {
    std::ofstream(dir_.Join("stdin.txt"), std::ios::binary) << input;
    std::string cmd = testing::ShellQuote(binary_);
    for (const std::string& a : args) {
      cmd += ' ';
      cmd += testing::ShellQuote(a);
    }
    cmd += " < " + testing::ShellQuote(dir_.Join("stdin.txt")) + " 2> " +
           testing::ShellQuote(dir_.Join("stderr.txt"));
    Outcome r;
    r.code = testing::RunCommand(cmd, &r.out);
    r.err = testing::ReadFileText(dir_.Join("stderr.txt"));
    return r;
  }
  std::string Warehouse() { return dir_.Join("wh"); }

  testing::TempDir dir_;
  std::string binary_;
};

TEST_F(ShellE2E, JsonlAcceptanceLine) {
  Outcome r = Shoal({Warehouse(), "-c", "SELECT 1 + 1 AS two", "--format", "jsonl"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"two\":2}\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(ShellE2E, SyntaxErrorIsOneParserLineAndExitOne) {
  Outcome r = Shoal({Warehouse(), "-c", "SELECT 1 +* FROM"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("ParserException: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("line 1"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ShellE2E, UnknownColumnIsBinderError) {
  Outcome r = Shoal({Warehouse(), "-c", "SELECT no_such_column"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind("BinderException: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("no_such_column"), std::string::npos) << r.err;
}

TEST_F(ShellE2E, StatementsAfterAFailureDoNotRun) {
  Outcome r = Shoal({Warehouse(), "--format", "csv", "-c",
                     "SELECT 1 AS a; SELECT nope; SELECT 3 AS c", "-c", "SELECT 4 AS d"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "a\n1\n");
  EXPECT_EQ(r.err.rfind("BinderException: ", 0), 0u) << r.err;
}

TEST_F(ShellE2E, StatementsAfterAFailureDoNotChangeTables) {
  Outcome t = Shoal({Warehouse(), "--format", "csv", "-c", "CREATE TABLE t (a INT); SELECT nope",
                     "-c", "INSERT INTO t VALUES (1)"});
  EXPECT_EQ(t.code, 1);
  Outcome count = Shoal({Warehouse(), "--format", "csv", "-c", "SELECT count(*) AS n FROM t"});
  EXPECT_EQ(count.out, "n\n0\n") << count.err;
}

TEST_F(ShellE2E, RunsEveryDashCInOrder) {
  Outcome r = Shoal({Warehouse(), "--format", "jsonl", "-c", "SELECT 1 AS a; SELECT 2 AS b", "-c",
                     "SELECT 3 AS c"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");
}

TEST_F(ShellE2E, StatsLinePerStatement) {
  Outcome r =
      Shoal({Warehouse(), "--stats", "--format", "csv", "-c", "SELECT 1 AS a; SELECT 2 AS b"});
  EXPECT_EQ(r.code, 0) << r.err;
  std::regex line(
      "stats "
      "\\{\"files_total\":\\d+,\"files_read\":\\d+,\"row_groups_total\":\\d+,\"row_groups_read\":"
      "\\d+,"
      "\"pages_total\":\\d+,\"pages_read\":\\d+,\"bytes_read\":\\d+,\"rows_scanned\":\\d+,"
      "\"rows_returned\":\\d+,\"files_pruned_partition\":\\d+,\"files_pruned_stats\":\\d+,"
      "\"row_groups_pruned_stats\":\\d+,\"row_groups_pruned_dictionary\":\\d+,\"row_groups_pruned_"
      "bloom\":\\d+,"
      "\"pages_pruned_index\":\\d+,\"rows_pruned_index\":\\d+,\"rows_deleted_dv\":\\d+,"
      "\"rows_prewhere_filtered\":\\d+,\"pages_skipped_prewhere\":\\d+,\"elapsed_ms\":\\d+\\}");
  std::stringstream ss(r.err);
  std::string l;
  int n = 0;
  while (std::getline(ss, l)) {
    EXPECT_TRUE(std::regex_match(l, line)) << l;
    ++n;
  }
  EXPECT_EQ(n, 2) << r.err;
}

TEST_F(ShellE2E, CsvQuotesAndWritesNullEmpty) {
  Outcome r = Shoal({Warehouse(), "--format", "csv", "-c",
                     "SELECT 'a,b' AS s, 'say \"hi\"' AS t, NULL AS n, '' AS e, 7 AS i"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "s,t,n,e,i\n\"a,b\",\"say \"\"hi\"\"\",,\"\",7\n");
}

TEST_F(ShellE2E, JsonIsOneArrayOverATable) {
  Outcome r = Shoal({Warehouse(), "--format", "json", "-c",
                     "CREATE TABLE t (a INT, s STRING); INSERT INTO t VALUES (1, 'x'), (2, NULL);"
                     "SELECT a, s FROM t ORDER BY a"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "[{\"a\":1,\"s\":\"x\"},{\"a\":2,\"s\":null}]\n");
  Outcome empty = Shoal({Warehouse(), "--format", "json", "-c", "SELECT a FROM t WHERE a > 5"});
  EXPECT_EQ(empty.out, "[]\n") << empty.err;
}

TEST_F(ShellE2E, TableFormatIsTheDefault) {
  Outcome r = Shoal({Warehouse(), "-c", "SELECT 42 AS answer"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("┌"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("answer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("42 │"), std::string::npos) << r.out;
}

TEST_F(ShellE2E, RunsFileWithDotCommands) {
  std::ofstream(dir_.Join("script.sql"))
      << "-- a script\n.mode jsonl\nSELECT 1\n  AS a;\nSELECT 'x;y' AS b;\n";
  Outcome r = Shoal({Warehouse(), "-f", dir_.Join("script.sql")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"a\":1}\n{\"b\":\"x;y\"}\n");
}

TEST_F(ShellE2E, MissingFileIsAnIOError) {
  Outcome r = Shoal({Warehouse(), "-f", dir_.Join("absent.sql")});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind("IOException: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("absent.sql"), std::string::npos);
}

TEST_F(ShellE2E, ReadsStatementsFromStdinWhenNotATerminal) {
  Outcome r =
      Shoal({Warehouse(), "--format", "csv"}, "SELECT 1 AS a;\n.mode jsonl\nSELECT 2\nAS b");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "a\n1\n{\"b\":2}\n");

  Outcome bad = Shoal({Warehouse(), "--format", "csv"}, "SELECT nope;\nSELECT 2 AS b;\n");
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err.rfind("BinderException: ", 0), 0u) << bad.err;
}

TEST_F(ShellE2E, TablesPersistAcrossInvocations) {
  ASSERT_EQ(Shoal({Warehouse(), "-c", "CREATE TABLE p (a BIGINT); INSERT INTO p VALUES (5)"}).code,
            0);
  Outcome r = Shoal({Warehouse(), "--format", "csv", "-c", "SELECT a FROM p"});
  EXPECT_EQ(r.out, "a\n5\n") << r.err;
}

TEST_F(ShellE2E, CommitConflictIsPrintedWithTheDeltaErrorName) {
  Outcome r =
      Shoal({Warehouse(), "-c",
             "CREATE TABLE c (x INT) TBLPROPERTIES ('delta.isolationLevel' = 'Serializable');"
             "BEGIN; SELECT count(*) FROM c WHERE x = 1; INSERT INTO c VALUES (5); PREPARE "
             "TRANSACTION 'p1';"
             "INSERT INTO c VALUES (1); COMMIT PREPARED 'p1'"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind("ConcurrentAppendException: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ShellE2E, VersionHelpAndUsageErrors) {
  Outcome v = Shoal({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("shoal ", 0), 0u) << v.out;
  Outcome h = Shoal({"--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--format"), std::string::npos);
  Outcome bad = Shoal({"--nope"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.err.rfind("InvalidInputException: ", 0), 0u) << bad.err;
  EXPECT_NE(bad.err.find("--nope"), std::string::npos);
}

}  // namespace
}  // namespace shoal::cli
