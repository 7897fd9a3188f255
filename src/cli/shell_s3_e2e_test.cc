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
  // `env`: more "NAME=value" assignments for the process.
  Outcome Shoal(const std::vector<std::string>& args, const std::string& access_key = "", const std::string& env = "") {
    // Appends, not "literal" + std::string: GCC 12 reports a false -Wrestrict on those.
    std::string cmd = env.empty() ? std::string() : env + " ";
    cmd.append("AWS_ENDPOINT_URL=");
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
      "s3_stats \\{\"requests\":\\{\"GET\":\\d+,\"GET_RANGE\":\\d+,\"HEAD\":\\d+,\"PUT\":\\d+,\"LIST\":\\d+,\"DELETE\":\\d+\\},"
      "\"bytes_in\":\\{.*\\},\"bytes_out\":\\{.*\\},\"retries\":\\d+,\"connections\":\\d+,\"round_trips\":\\d+\\}");
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

TEST_F(ShellS3E2E, EightWriterProcessesAppendWithoutLosingACommit) {
  const std::string wh = server_.UniquePath("procs-wh");
  ASSERT_EQ(Shoal({wh, "-c", "CREATE TABLE log (writer INT, seq INT)"}).code, 0);
  constexpr int kProcesses = 8, kCommits = 4;
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

// The `s3_stats` field `name` of the statement's stats line number `index` (0-based).
int64_t S3StatOf(const std::string& err, int index, const std::string& name) {
  std::stringstream ss(err);
  int seen = 0;
  for (std::string l; std::getline(ss, l);) {
    if (l.rfind("s3_stats ", 0) != 0 || seen++ != index) continue;
    std::smatch m;
    if (std::regex_search(l, m, std::regex("\"" + name + "\":(\\d+)"))) return std::stoll(m[1]);
  }
  return -1;
}

// The latency read path (doc/object_storage.md): a point query on a LocalSorted table with a
// checkpoint and a few commits after it, on a server 50 ms away, waits for at most
// kMaxRoundTrips dependent round trips — the name lookup with `_last_checkpoint` and the log
// listing; the checkpoint with the commits after it; each data file's footer and page index (the
// whole file when small); the pages of all columns holding the surviving rows — however many
// columns and files it reads, whether or not its files are small enough to be read whole (the
// split of rows between files depends on the writer's threads). 50 ms, not 20: a scan thread
// that starts late on a loaded machine must not look like one more round trip.
TEST_F(ShellS3E2E, PointQueryOnLocalSortedTableNeedsFewRoundTrips) {
  const std::string wh = server_.UniquePath("latency-wh");
  std::vector<std::string> setup = {
      "CREATE TABLE t (k BIGINT, a BIGINT, b STRING, c DOUBLE, d STRING) TBLPROPERTIES ("
      "'shoal.localSort.columns' = 'k', 'delta.checkpointInterval' = '4')",
      "INSERT INTO t SELECT i, i * 2, 'b' || i, i / 4.0, repeat('d', i % 50) FROM range(0, 600000) r(i)"};
  for (int i = 1; i <= 5; ++i) {  // checkpoint at version 4, then commits 5 and 6
    setup.push_back("INSERT INTO t VALUES (" + std::to_string(1000000 + i) + ", 0, 'x', 0, 'y')");
  }
  for (const std::string& sql : setup) ASSERT_EQ(Shoal({wh, "-c", sql}).code, 0) << sql;
  constexpr int64_t kLatencyMs = 50;
  Outcome r = Shoal({wh, "--format", "csv", "--stats", "-c", "SELECT a, b, c, d FROM t WHERE k = 123457"}, "",
                    "SHOAL_S3_INJECT_LATENCY_MS=" + std::to_string(kLatencyMs));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "a,b,c,d\n246914,b123457,30864.25," + std::string(123457 % 50, 'd') + "\n");
  const int64_t round_trips = S3StatOf(r.err, 0, "round_trips");
  constexpr int64_t kMaxRoundTrips = 4;
  EXPECT_GT(round_trips, 0) << r.err;
  EXPECT_LE(round_trips, kMaxRoundTrips) << r.err;
  // The injected latency is real: the statement took at least its round trips' worth.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex("\"elapsed_ms\":(\\d+)"))) << r.err;
  EXPECT_GE(std::stoll(m[1]), round_trips * kLatencyMs) << r.err;
  // One scan thread for both files: their footers still come in one round trip (opened ahead);
  // the thread reads the files' row groups in turn, so the second file's pages come one round
  // trip after the first's (5; without opening ahead its footer would add a sixth).
  Outcome one = Shoal({wh, "--threads", "1", "--format", "csv", "--stats", "-c", "SELECT a, b, c, d FROM t WHERE k = 123457"},
                      "", "SHOAL_S3_INJECT_LATENCY_MS=" + std::to_string(kLatencyMs));
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(one.out, r.out);
  EXPECT_LE(S3StatOf(one.err, 0, "round_trips"), kMaxRoundTrips + 1) << one.err;
  ASSERT_TRUE(std::regex_search(one.err, m, std::regex("\"files_read\":(\\d+)"))) << one.err;
  EXPECT_GE(std::stoll(m[1]), 2) << "the point's key range spans both files the insert wrote: " << one.err;
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
