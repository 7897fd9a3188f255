// Real-process crash test (issue #9): `shoal` writer processes are killed with SIGKILL at random
// moments while they append, checkpoint (every 3 commits) and OPTIMIZE, with reader processes
// querying the table throughout. Afterwards the table must open, hold every acknowledged row
// exactly once (unacknowledged rows at most once), pass the protocol validator, reference no
// missing data file, and accept new commits. Readers must never fail.
//
// Size: SHOAL_CRASH_ROUNDS rounds (default 12) of two writers each; every round kills both.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/file_system.h"
#include "io/s3_file_system.h"
#include "support/s3_test_server.h"
#include "support/shell_text.h"
#include "support/testdata.h"
#include "table/protocol_validator.h"

extern char** environ;

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;

// A `shoal` process reading statements from a pipe, its stdout captured through another.
class ShellProcess {
 public:
  ShellProcess(const std::string& binary, const std::string& warehouse) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::vector<std::string> args = {binary, "--format", "csv", "--threads", "1", warehouse};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, binary.c_str(), &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    in_ = in[1];
    out_ = out[0];
  }
  ~ShellProcess() {
    Kill();
    if (in_ >= 0) close(in_);
    if (out_ >= 0) close(out_);
  }
  bool ok() const { return pid_ > 0; }

  // Queues statements on the process's stdin (all of them fit the pipe buffer).
  void Send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = write(in_, text.data() + done, text.size() - done);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }
  void CloseInput() {
    if (in_ >= 0) close(in_);
    in_ = -1;
  }
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  // Appends what the process wrote to stdout since the last call, waiting up to `wait_ms` for
  // something to arrive; returns false at end of output.
  bool Poll(int wait_ms) {
    struct pollfd pfd = {out_, POLLIN, 0};
    if (poll(&pfd, 1, wait_ms) <= 0) return true;
    char buf[4096];
    ssize_t n = read(out_, buf, sizeof buf);
    if (n <= 0) return false;
    output_.append(buf, static_cast<size_t>(n));
    return true;
  }
  // Everything the process wrote to stdout (drains the pipe; call after Kill()).
  const std::string& Output() {
    for (int i = 0; i < 10000 && Poll(100);) ++i;  // a dead writer's pipe ends at once
    return output_;
  }
  const std::string& output_so_far() const { return output_; }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  std::string output_;
};

// The keys acknowledged in a writer's output: one `ack-<k>` line per committed INSERT.
std::set<int64_t> Acks(const std::string& output) {
  std::set<int64_t> acks;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("ack-", 0) == 0) acks.insert(std::stoll(line.substr(4)));
  }
  return acks;
}

class CrashE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = testing::BinaryDir() + "/shoal";
    if (!fs::exists(binary_))
      FAIL() << "shoal binary not found at " << binary_ << " (build target shoal)";
    warehouse_ = dir_.Join("wh");
    fs::create_directories(warehouse_);
    signal(SIGPIPE, SIG_IGN);
  }
  void TearDown() override {
    if (on_s3_) (void)fs_->DeleteRecursive(warehouse_);
  }
  // The warehouse on the local S3 server instead (the shells find it through AWS_*).
  void UseS3(const testing::S3TestServer& server) {
    server.ExportToEnvironment();
    warehouse_ = server.UniquePath("crash");
    fs_ = std::make_shared<io::S3FileSystem>(server.Options());
    on_s3_ = true;
  }
  const std::string& Warehouse() const { return warehouse_; }
  void SigkilledWritersLoseNoAcknowledgedCommit(int default_rounds);
  // Runs one statement in a fresh process; returns the exit code, output and errors in *out.
  int Run(const std::string& sql, std::string* out) {
    return testing::RunCommand(testing::ShellQuote(binary_) + " --format csv " +
                                   testing::ShellQuote(Warehouse()) + " -c " +
                                   testing::ShellQuote(sql) + " 2>&1",
                               out);
  }

  testing::TempDir dir_;
  std::string binary_;
  std::string warehouse_;
  std::shared_ptr<io::FileSystem> fs_ = io::LocalFileSystem();
  bool on_s3_ = false;
};

TEST_F(CrashE2E, SigkilledWritersLoseNoAcknowledgedCommit) { SigkilledWritersLoseNoAcknowledgedCommit(12); }

// On S3 a commit is a conditional PUT: a writer killed before, during or after it leaves the
// object there whole or not at all. Fewer rounds: every statement waits for the network.
TEST_F(CrashE2E, SigkilledWritersOnS3LoseNoAcknowledgedCommit) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server);
  SigkilledWritersLoseNoAcknowledgedCommit(4);
}

void CrashE2E::SigkilledWritersLoseNoAcknowledgedCommit(int default_rounds) {
  std::string out;
  ASSERT_EQ(Run("CREATE TABLE t (k BIGINT, w INT) TBLPROPERTIES ('delta.checkpointInterval' = '3')",
                &out),
            0)
      << out;

  int rounds = default_rounds;
  if (const char* r = std::getenv("SHOAL_CRASH_ROUNDS")) rounds = std::max(1, std::atoi(r));
  constexpr int kWriters = 2;
  constexpr int kPerRound = 60;  // statements queued per writer per round; most rounds kill earlier

  std::atomic<bool> stop{false};
  std::atomic<int> reads{0};
  std::vector<std::string> reader_failures;
  std::thread reader([&] {
    while (!stop.load()) {
      std::string o;
      int code = Run("SELECT count(*) AS n, count(DISTINCT k) AS d FROM t", &o);
      if (code != 0) reader_failures.push_back(o);
      reads.fetch_add(1);
    }
  });
  // Stops and joins the reader on every exit path (a failed ASSERT returns early).
  struct JoinReader {
    std::atomic<bool>& stop;
    std::thread& t;
    ~JoinReader() {
      stop.store(true);
      if (t.joinable()) t.join();
    }
  } join_reader{stop, reader};

  std::mt19937_64 rng(20261129);
  std::set<int64_t> sent;
  std::set<int64_t> acked;
  int64_t next_key = 1;
  int killed_mid_stream = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::unique_ptr<ShellProcess>> writers;
    for (int w = 0; w < kWriters; ++w) {
      auto p = std::make_unique<ShellProcess>(binary_, Warehouse());
      ASSERT_TRUE(p->ok()) << "could not spawn " << binary_;
      std::string script;
      for (int i = 0; i < kPerRound; ++i) {
        int64_t k = next_key++;
        sent.insert(k);
        script += "INSERT INTO t VALUES (" + std::to_string(k) + ", " + std::to_string(w) + ");\n";
        script += "SELECT 'ack-" + std::to_string(k) + "' AS a;\n";
        if (w == 0 && i % 15 == 14) script += "OPTIMIZE t;\n";
      }
      p->Send(script);
      p->CloseInput();
      writers.push_back(std::move(p));
    }
    // Each writer dies at its own random moment: once it has acknowledged a random number of
    // commits, plus 0-40 ms, so kills land anywhere inside a commit, a checkpoint or an
    // OPTIMIZE however fast the build is.
    std::vector<size_t> target(kWriters);
    std::vector<int> extra_ms(kWriters);
    std::vector<std::optional<std::chrono::steady_clock::time_point>> kill_at(kWriters);
    std::vector<bool> done(kWriters, false);
    for (int w = 0; w < kWriters; ++w) {
      target[w] = 1 + rng() % 25;
      extra_ms[w] = static_cast<int>(rng() % 41);
    }
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::seconds(static_cast<int>(120 * testing::TimingScale()));
    int live = kWriters;
    while (live > 0) {
      auto now = std::chrono::steady_clock::now();
      ASSERT_LT(now, deadline) << "writers made no progress";
      for (int w = 0; w < kWriters; ++w) {
        if (done[w]) continue;
        bool open = writers[w]->Poll(2);
        if (!kill_at[w] && Acks(writers[w]->output_so_far()).size() >= target[w]) {
          kill_at[w] = std::chrono::steady_clock::now() + std::chrono::milliseconds(extra_ms[w]);
        }
        if (!open || (kill_at[w] && std::chrono::steady_clock::now() >= *kill_at[w])) {
          writers[w]->Kill();
          std::set<int64_t> a = Acks(writers[w]->Output());
          if (static_cast<int>(a.size()) < kPerRound) ++killed_mid_stream;
          acked.insert(a.begin(), a.end());
          done[w] = true;
          --live;
        }
      }
    }
  }
  stop.store(true);
  reader.join();  // before reading reader_failures

  EXPECT_TRUE(reader_failures.empty()) << reader_failures.size() << " reader failures; first:\n"
                                       << reader_failures.front();
  EXPECT_GT(reads.load(), 0);
  EXPECT_GT(killed_mid_stream, rounds) << "most writers should die mid-stream";
  EXPECT_GT(acked.size(), 0u);

  // The table opens and holds every acknowledged key exactly once, nothing it was not sent.
  ASSERT_EQ(Run("SELECT k FROM t ORDER BY k", &out), 0) << out;
  std::map<int64_t, int> present;
  {
    std::istringstream lines(out);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
      if (!line.empty()) ++present[std::stoll(line)];
    }
  }
  for (int64_t k : acked) {
    ASSERT_EQ(present.count(k), 1u) << "acknowledged key " << k << " was lost";
  }
  for (const auto& [k, n] : present) {
    EXPECT_EQ(n, 1) << "key " << k << " is present " << n << " times";
    EXPECT_TRUE(sent.count(k)) << "key " << k << " was never sent";
  }

  // The log is valid, and every referenced data file exists (a full read touches all of them).
  auto violations = table::ValidateTableLog(*fs_, Warehouse() + "/t");
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);
  ASSERT_EQ(Run("SELECT count(*), sum(k), max(w) FROM t", &out), 0) << out;

  // New commits are accepted.
  ASSERT_EQ(Run("INSERT INTO t VALUES (-1, 9)", &out), 0) << out;
  ASSERT_EQ(Run("SELECT count(*) AS n FROM t WHERE k = -1", &out), 0) << out;
  EXPECT_NE(out.find("\n1"), std::string::npos) << out;
  std::printf(
      "crash test: %d rounds, %zu keys sent, %zu acknowledged, %zu present, %d readers ran\n",
      rounds, sent.size(), acked.size(), present.size(), reads.load());
}

}  // namespace
}  // namespace shoal::cli
