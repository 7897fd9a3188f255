// The shell on a warehouse on S3 (the local server of scripts/s3-server.sh): statements run,
// `--stats` adds an `s3_stats` line counting the statement's requests, and a missing bucket or
// wrong keys are one named error line with exit status 1 and no secret in it.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "support/s3_test_server.h"
#include "support/shell_text.h"
#include "support/testdata.h"

namespace shoal::cli {
namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

class ShellS3E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    SHOAL_REQUIRE_S3(server);
    server_ = server;
    binary_ = testing::BinaryDir() + "/shoal";
  }
  Outcome Shoal(const std::vector<std::string>& args, const std::string& access_key = "") {
    // Appends, not "literal" + std::string: GCC 12 reports a false -Wrestrict on those.
    std::string cmd = "AWS_ENDPOINT_URL=";
    cmd.append(testing::ShellQuote(server_.endpoint));
    cmd.append(" AWS_ACCESS_KEY_ID=").append(testing::ShellQuote(access_key.empty() ? server_.access_key : access_key));
    cmd.append(" AWS_SECRET_ACCESS_KEY=").append(testing::ShellQuote(server_.secret_key));
    cmd.append(" ").append(testing::ShellQuote(binary_));
    for (const std::string& a : args) cmd.append(" ").append(testing::ShellQuote(a));
    cmd.append(" < /dev/null 2> ").append(testing::ShellQuote(dir_.Join("stderr.txt")));
    Outcome r;
    r.code = testing::RunCommand(cmd, &r.out);
    r.err = testing::ReadFileText(dir_.Join("stderr.txt"));
    return r;
  }

  testing::S3TestServer server_;
  testing::TempDir dir_;
  std::string binary_;
};

TEST_F(ShellS3E2E, WarehouseOnS3WithStats) {
  const std::string wh = server_.UniquePath("shell-wh");
  Outcome r = Shoal({wh, "--format", "csv", "--stats", "-c",
                     "CREATE TABLE t AS SELECT i FROM range(10) r(i); SELECT sum(i) FROM t; DROP TABLE t"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("45"), std::string::npos) << r.out;
  std::regex s3_line(
      "s3_stats \\{\"requests\":\\{\"GET\":\\d+,\"HEAD\":\\d+,\"PUT\":\\d+,\"LIST\":\\d+,\"DELETE\":\\d+\\},"
      "\"bytes_in\":\\{.*\\},\"bytes_out\":\\{.*\\},\"retries\":\\d+,\"connections\":\\d+\\}");
  int s3_lines = 0;
  std::stringstream ss(r.err);
  for (std::string l; std::getline(ss, l);) {
    if (l.rfind("s3_stats ", 0) == 0) {
      ++s3_lines;
      EXPECT_TRUE(std::regex_match(l, s3_line)) << l;
    }
  }
  EXPECT_EQ(s3_lines, 3) << r.err;
  EXPECT_EQ(r.err.find(server_.secret_key), std::string::npos);
}

TEST_F(ShellS3E2E, FourWriterProcessesAppendWithoutLosingACommit) {
  const std::string wh = server_.UniquePath("procs-wh");
  ASSERT_EQ(Shoal({wh, "-c", "CREATE TABLE log (writer INT, seq INT)"}).code, 0);
  constexpr int kProcesses = 4, kCommits = 8;
  // All writers start together in the background; each commits kCommits single-row INSERTs.
  std::string script;
  for (int w = 0; w < kProcesses; ++w) {
    std::string sql;
    for (int i = 0; i < kCommits; ++i) sql += "INSERT INTO log VALUES (" + std::to_string(w) + ", " + std::to_string(i) + ");";
    std::string cmd = "AWS_ENDPOINT_URL=";
    cmd.append(testing::ShellQuote(server_.endpoint)).append(" AWS_ACCESS_KEY_ID=").append(testing::ShellQuote(server_.access_key));
    cmd.append(" AWS_SECRET_ACCESS_KEY=").append(testing::ShellQuote(server_.secret_key)).append(" ");
    cmd.append(testing::ShellQuote(binary_)).append(" ").append(testing::ShellQuote(wh)).append(" -c ");
    cmd.append(testing::ShellQuote(sql)).append(" > /dev/null 2>> ").append(testing::ShellQuote(dir_.Join("writers.err")));
    script.append("( ").append(cmd).append(" || echo failed >> ").append(testing::ShellQuote(dir_.Join("writers.err")));
    script.append(" ) & ");
  }
  script += "wait";
  std::string ignored;
  ASSERT_EQ(testing::RunCommand(script, &ignored), 0);
  EXPECT_EQ(testing::ReadFileText(dir_.Join("writers.err")), "");
  const int n = kProcesses * kCommits;
  Outcome rows = Shoal({wh, "--format", "csv", "-c", "SELECT count(*), count(DISTINCT writer * 100 + seq) FROM log"});
  EXPECT_EQ(rows.code, 0) << rows.err;
  EXPECT_EQ(rows.out, "count(*),count(DISTINCT ((writer * 100) + seq))\n" + std::to_string(n) + "," + std::to_string(n) + "\n");
  // One commit per INSERT: versions 0..n, each once.
  Outcome history = Shoal({wh, "--format", "csv", "-c", "DESCRIBE HISTORY log"});
  EXPECT_EQ(history.code, 0) << history.err;
  std::set<int> versions;
  int lines = 0;
  std::stringstream ss(history.out);
  std::string line;
  std::getline(ss, line);  // header
  while (std::getline(ss, line)) {
    ++lines;
    versions.insert(std::stoi(line.substr(0, line.find(','))));
  }
  EXPECT_EQ(lines, n + 1);
  EXPECT_EQ(versions.size(), static_cast<size_t>(n + 1));
  EXPECT_EQ(*versions.rbegin(), n);
}

TEST_F(ShellS3E2E, MissingBucketAndWrongKeyAreOneNamedErrorLine) {
  Outcome missing = Shoal({"s3://shoal-no-such-bucket/wh", "-c", "SELECT 1"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("IOException: "), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("NoSuchBucket"), std::string::npos) << missing.err;
  Outcome denied = Shoal({server_.UniquePath("wh"), "-c", "SELECT 1"}, "NOT-A-KEY");
  EXPECT_EQ(denied.code, 1);
  EXPECT_NE(denied.err.find("InvalidAccessKeyId"), std::string::npos) << denied.err;
  EXPECT_EQ(denied.err.find(server_.secret_key), std::string::npos) << denied.err;
  EXPECT_EQ(std::count(denied.err.begin(), denied.err.end(), '\n'), 1) << denied.err;
}

}  // namespace
}  // namespace shoal::cli
