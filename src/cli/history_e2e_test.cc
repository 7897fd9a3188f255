// Elle-style history test (issue #9): several `shoal` processes run random read-modify-write
// transactions on a list-append table `t (k INT, v STRING)` — each key's v is a list of unique
// elements ",e1,e2,..." — mixing SELECT, UPDATE v = v || ..., MERGE, DELETE+INSERT moves,
// blind INSERTs of new keys and OPTIMIZE, and log what each transaction read, appended and how
// its COMMIT ended. The history checker (test/support/history_checker.h) then verifies the
// history against the table's isolation level. doc/reliability.md ("History checker").
//
// Size: SHOAL_HISTORY_TXNS transactions per process (default 30; 10 under sanitizers),
// SHOAL_HISTORY_PROCS processes (default 4), SHOAL_HISTORY_KEYS keys (default 8),
// SHOAL_HISTORY_KILL_PERCENT: the chance that a COMMIT's process is killed right after sending it
// (outcome unknown; default 3). A failing run writes its history to $SHOAL_HISTORY_DIR (default:
// the build dir)/history-<level>.txt.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/file_system.h"
#include "io/s3_file_system.h"
#include "support/history_checker.h"
#include "support/s3_test_server.h"
#include "support/shell_text.h"
#include "support/testdata.h"
#include "table/protocol_validator.h"

extern char** environ;

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;
using testing::History;
using testing::HistoryOp;
using testing::HistoryTxn;

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  int n = std::atoi(v);
  return n >= 0 ? n : fallback;
}

std::string LastLine(const std::string& text) {
  std::stringstream ss(text);
  std::string line, last;
  while (std::getline(ss, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

// One statement's result as the client saw it.
struct StatementResult {
  enum class Status { kOk, kFailed, kLost } status = Status::kOk;  // kLost: timeout or killed
  std::vector<nlohmann::json> rows;
  std::string error;  // kFailed: the shell's last stderr line
};

// An interactive `shoal --format jsonl` process: each statement is followed by a marker SELECT,
// and its rows are the JSON lines before the marker. The shell exits after a failing statement.
// Thread-safety: one thread per session.
class ShellSession {
 public:
  ShellSession(const std::string& binary, const std::string& warehouse,
               const std::string& stderr_path)
      : stderr_path_(stderr_path) {
    int in[2], out[2];
    if (pipe(in) != 0) return;
    if (pipe(out) != 0) {
      close(in[0]);
      close(in[1]);
      return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::vector<std::string> args = {binary, "--format", "jsonl", "--threads", "1", warehouse};
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
  ~ShellSession() {
    Kill();
    if (in_ >= 0) close(in_);
    if (out_ >= 0) close(out_);
  }
  bool alive() const { return pid_ > 0; }

  // Runs one statement (no trailing ';'); waits at most `timeout_ms` for its result.
  StatementResult Exec(const std::string& sql, int timeout_ms) {
    SendStatement(sql);
    return Await(timeout_ms);
  }
  // Sends a statement and its marker without waiting (see Await).
  void SendStatement(const std::string& sql) {
    ++marker_;
    std::string text = sql + ";\nSELECT '#" + std::to_string(marker_) + "' AS m;\n";
    size_t done = 0;
    while (done < text.size() && in_ >= 0) {
      ssize_t n = write(in_, text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  }
  StatementResult Await(int timeout_ms) {
    StatementResult r;
    const std::string marker = "{\"m\":\"#" + std::to_string(marker_) + "\"}";
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t nl;
      while ((nl = buffer_.find('\n')) != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (line == marker) return r;
        nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (row.is_discarded()) {
          r.status = StatementResult::Status::kFailed;
          r.error = "unparsable output line: " + line;
          Kill();
          return r;
        }
        r.rows.push_back(std::move(row));
      }
      int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      deadline - std::chrono::steady_clock::now())
                                      .count());
      if (left <= 0 || pid_ <= 0) {
        Kill();
        r.status = StatementResult::Status::kLost;
        r.error = "timeout";
        return r;
      }
      pollfd p = {out_, POLLIN, 0};
      int ready = poll(&p, 1, left);
      if (ready <= 0) continue;
      char buf[65536];
      ssize_t n = read(out_, buf, sizeof buf);
      if (n > 0) {
        buffer_.append(buf, static_cast<size_t>(n));
        continue;
      }
      // EOF: the shell stopped after a failing statement.
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
      r.status = StatementResult::Status::kFailed;
      r.error = LastLine(testing::ReadFileText(stderr_path_));
      if (r.error.empty())
        r.error = "shell exited (status " + std::to_string(status) + ") without an error";
      return r;
    }
  }
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  std::string stderr_path_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  int64_t marker_ = 0;
  std::string buffer_;
};

#ifdef SHOAL_SANITIZED
constexpr int kDefaultTxns = 10;  // sanitizers slow the shells down 5-20x
#else
constexpr int kDefaultTxns = 30;
#endif

struct Knobs {
  int procs = std::max(1, EnvInt("SHOAL_HISTORY_PROCS", 4));
  int txns = EnvInt("SHOAL_HISTORY_TXNS", kDefaultTxns);
  int keys = std::max(1, EnvInt("SHOAL_HISTORY_KEYS", 8));
  int kill_percent = EnvInt("SHOAL_HISTORY_KILL_PERCENT", 3);
};

// Key of process p's i-th blind insert (new keys live above the base keys 1..keys).
int64_t NewKey(int p, int i) { return 1000 + static_cast<int64_t>(p) * 10000 + i; }

// Runs one process's transactions, appending them to its own history part.
// Thread-safety: one thread per worker; elements come from a shared atomic counter.
class HistoryWorker {
 public:
  HistoryWorker(int process, const Knobs& knobs, std::string binary, std::string warehouse,
                std::string scratch, std::atomic<int64_t>* next_element,
                std::atomic<int64_t>* next_txn)
      : p_(process),
        knobs_(knobs),
        binary_(std::move(binary)),
        warehouse_(std::move(warehouse)),
        scratch_(std::move(scratch)),
        next_element_(next_element),
        next_txn_(next_txn),
        rng_(20261129u + static_cast<unsigned>(process)) {}

  void Run() {
    for (int i = 0; i < knobs_.txns && errors_.empty(); ++i) {
      uint64_t dice = rng_() % 100;
      if (dice < 8)
        Optimize();
      else if (dice < 20)
        BlindInsert();
      else
        ReadModifyWrite();
    }
    session_.reset();
  }

  std::vector<HistoryTxn>& txns() { return txns_; }
  const std::vector<std::string>& errors() const { return errors_; }
  int optimize_ok() const { return optimize_ok_; }
  int optimize_conflicts() const { return optimize_conflicts_; }
  // The first OPTIMIZE conflict's message ("" when none).
  const std::string& optimize_conflict() const { return optimize_conflict_; }
  int statements() const { return statements_; }

 private:
  static constexpr int kTimeoutMs = 120000;

  ShellSession& Session() {
    if (!session_ || !session_->alive()) {
      session_ = std::make_unique<ShellSession>(binary_, warehouse_, scratch_ + ".err");
    }
    return *session_;
  }

  StatementResult Exec(HistoryTxn* txn, const std::string& sql) {
    ++statements_;
    if (txn) txn->label += sql + "; ";
    return Session().Exec(sql, kTimeoutMs);
  }

  void Fail(const std::string& what) {
    errors_.push_back("process " + std::to_string(p_) + ": " + what);
  }

  // Ends `txn` after a statement that did not succeed; true when it did succeed.
  bool Settle(HistoryTxn* txn, const StatementResult& r, bool is_commit) {
    if (r.status == StatementResult::Status::kOk) return true;
    if (r.status == StatementResult::Status::kLost) {
      txn->outcome = is_commit ? HistoryTxn::Outcome::kUnknown : HistoryTxn::Outcome::kAborted;
    } else if (testing::IsConflictError(r.error)) {
      txn->outcome = HistoryTxn::Outcome::kAborted;
    } else {
      Fail("unexpected error in T" + std::to_string(txn->id) + " [" + txn->label + "]: " + r.error);
      txn->outcome = HistoryTxn::Outcome::kUnknown;
    }
    session_.reset();
    return false;
  }

  HistoryTxn NewTxn() {
    HistoryTxn t;
    t.id = next_txn_->fetch_add(1);
    t.process = p_;
    return t;
  }
  int64_t NewElement() { return next_element_->fetch_add(1); }

  void Optimize() {
    StatementResult r = Exec(nullptr, "OPTIMIZE t");
    if (r.status == StatementResult::Status::kOk)
      ++optimize_ok_;
    else if (r.status == StatementResult::Status::kFailed && testing::IsConflictError(r.error)) {
      if (optimize_conflicts_++ == 0) optimize_conflict_ = r.error.substr(0, 300);
    } else {
      Fail("OPTIMIZE: " + r.error);
    }
    if (r.status != StatementResult::Status::kOk) session_.reset();
  }

  void BlindInsert() {
    HistoryTxn txn = NewTxn();
    txn.blind_append = true;
    int64_t k = NewKey(p_, inserts_++);
    int64_t e = NewElement();
    txn.ops.push_back(HistoryOp::Append(k, e));
    Settle(&txn,
           Exec(&txn,
                "INSERT INTO t VALUES (" + std::to_string(k) + ", '," + std::to_string(e) + "')"),
           true);
    txns_.push_back(std::move(txn));
  }

  // A random key: mostly a base key, sometimes a key some process may have inserted.
  int64_t PickKey() {
    if (rng_() % 5 == 0) {
      int p = static_cast<int>(rng_() % knobs_.procs);
      return NewKey(p, static_cast<int>(rng_() % (knobs_.txns / 8 + 2)));
    }
    return 1 + static_cast<int64_t>(rng_() % knobs_.keys);
  }

  // Records a read of `keys` from `r`'s rows; false (after Fail) on malformed output.
  bool RecordRead(HistoryTxn* txn, const std::vector<int64_t>& keys, const StatementResult& r) {
    std::map<int64_t, HistoryOp> reads;
    for (int64_t k : keys) reads[k] = HistoryOp::ReadAbsent(k);
    for (const nlohmann::json& row : r.rows) {
      std::vector<int64_t> list;
      if (!row.contains("k") || !row["k"].is_number_integer() || !row.contains("v") ||
          !row["v"].is_string() || !testing::ParseList(row["v"].get<std::string>(), &list) ||
          !reads.count(row["k"].get<int64_t>())) {
        Fail("unexpected row " + row.dump() + " for [" + txn->label + "]");
        return false;
      }
      reads[row["k"].get<int64_t>()].rows.push_back(std::move(list));
    }
    for (int64_t k : keys) txn->ops.push_back(reads[k]);
    return true;
  }

  void ReadModifyWrite() {
    HistoryTxn txn = NewTxn();
    auto finish = [&] { txns_.push_back(std::move(txn)); };
    if (!Settle(&txn, Exec(&txn, "BEGIN"), false)) return finish();
    std::vector<int64_t> keys;
    int n = 1 + static_cast<int>(rng_() % 3);
    while (static_cast<int>(keys.size()) < n) {
      int64_t k = PickKey();
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    if (rng_() % 4 == 0) {  // one statement reading all the keys
      std::string in;
      for (int64_t k : keys) in += (in.empty() ? "" : ", ") + std::to_string(k);
      StatementResult r = Exec(&txn, "SELECT k, v FROM t WHERE k IN (" + in + ")");
      if (!Settle(&txn, r, false) || !RecordRead(&txn, keys, r)) return finish();
    }
    for (int64_t k : keys) {
      std::string ks = std::to_string(k);
      bool base = k <= knobs_.keys;
      uint64_t action = rng_() % 7;
      // Keys that may not exist are read first; they are appended to only when present.
      bool read_first = !base || action <= 2 || action == 5;
      std::vector<int64_t> seen;
      bool present = base;
      if (read_first) {
        StatementResult r = Exec(&txn, "SELECT k, v FROM t WHERE k = " + ks);
        if (!Settle(&txn, r, false) || !RecordRead(&txn, {k}, r)) return finish();
        const HistoryOp& op = txn.ops.back();
        present = op.rows.size() == 1;
        if (present) seen = op.rows[0];
      }
      if (!present || action == 0) continue;  // read only
      int64_t e = NewElement();
      std::string es = std::to_string(e);
      std::string sql;
      switch (action) {
        case 1:
        case 3:
          sql = "UPDATE t SET v = v || '," + es + "' WHERE k = " + ks;
          break;
        case 2:
        case 4:
          sql = "MERGE INTO t USING (VALUES (" + ks + ")) AS s(k) ON t.k = s.k AND t.k = " + ks +
                " WHEN MATCHED THEN UPDATE SET v = t.v || '," + es + "'";
          break;
        case 5: {  // move: delete the row and insert it again with the list read plus e
          if (!read_first) break;
          StatementResult d = Exec(&txn, "DELETE FROM t WHERE k = " + ks);
          if (!Settle(&txn, d, false)) return finish();
          std::vector<int64_t> moved = seen;
          moved.push_back(e);
          sql = "INSERT INTO t VALUES (" + ks + ", '" + testing::FormatList(moved) + "')";
          break;
        }
        default: {  // two appends in one transaction (an intermediate version)
          StatementResult r = Exec(&txn, "UPDATE t SET v = v || '," + es + "' WHERE k = " + ks);
          if (!Settle(&txn, r, false)) return finish();
          txn.ops.push_back(HistoryOp::Append(k, e));
          e = NewElement();
          es = std::to_string(e);
          sql = "UPDATE t SET v = v || '," + es + "' WHERE k = " + ks;
          break;
        }
      }
      StatementResult w = Exec(&txn, sql);
      if (!Settle(&txn, w, false)) return finish();
      txn.ops.push_back(HistoryOp::Append(k, e));
      if (rng_() % 4 == 0) {  // read own writes
        StatementResult r = Exec(&txn, "SELECT k, v FROM t WHERE k = " + ks);
        if (!Settle(&txn, r, false) || !RecordRead(&txn, {k}, r)) return finish();
      }
    }
    ++statements_;
    txn.label += "COMMIT";
    ShellSession& s = Session();
    if (static_cast<int>(rng_() % 100) < knobs_.kill_percent) {
      s.SendStatement("COMMIT");
      std::this_thread::sleep_for(std::chrono::milliseconds(rng_() % 40));
      s.Kill();
      txn.outcome = HistoryTxn::Outcome::kUnknown;
      session_.reset();
      return finish();
    }
    Settle(&txn, s.Exec("COMMIT", kTimeoutMs), true);
    finish();
  }

  int p_;
  Knobs knobs_;
  std::string binary_, warehouse_, scratch_;
  std::atomic<int64_t>* next_element_;
  std::atomic<int64_t>* next_txn_;
  std::mt19937_64 rng_;
  std::unique_ptr<ShellSession> session_;
  std::vector<HistoryTxn> txns_;
  std::vector<std::string> errors_;
  int inserts_ = 0;
  int optimize_ok_ = 0, optimize_conflicts_ = 0, statements_ = 0;
  std::string optimize_conflict_;
};

class HistoryE2E : public ::testing::Test {
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
    warehouse_ = server.UniquePath("history");
    fs_ = std::make_shared<io::S3FileSystem>(server.Options());
    on_s3_ = true;
  }
  const std::string& Warehouse() const { return warehouse_; }

  // Runs `sql` in a fresh shell; returns its JSON rows (failing the test on an error).
  std::vector<nlohmann::json> Sql(const std::string& sql) {
    ShellSession s(binary_, Warehouse(), dir_.Join("sql.err"));
    StatementResult r = s.Exec(sql, 120000);
    EXPECT_EQ(r.status, StatementResult::Status::kOk) << sql << ": " << r.error;
    return r.rows;
  }

  void RunHistory(const std::string& isolation);

  testing::TempDir dir_;
  std::string binary_;
  std::string warehouse_;
  std::shared_ptr<io::FileSystem> fs_ = io::LocalFileSystem();
  bool on_s3_ = false;
};

void HistoryE2E::RunHistory(const std::string& isolation) {
  Knobs knobs;
  Sql("CREATE TABLE t (k INT, v STRING) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
      "'delta.isolationLevel' = '" +
      isolation + "')");
  History history;
  std::string values;
  for (int64_t k = 1; k <= knobs.keys; ++k) {
    values += (values.empty() ? "(" : ", (") + std::to_string(k) + ", '')";
    history.initial_keys.insert(k);
  }
  Sql("INSERT INTO t VALUES " + values);  // one file: row-level concurrency decides conflicts

  auto start = std::chrono::steady_clock::now();
  std::atomic<int64_t> next_element{1}, next_txn{1};
  std::vector<std::unique_ptr<HistoryWorker>> workers;
  for (int p = 0; p < knobs.procs; ++p) {
    workers.push_back(std::make_unique<HistoryWorker>(p, knobs, binary_, Warehouse(),
                                                      dir_.Join("p" + std::to_string(p)),
                                                      &next_element, &next_txn));
  }
  std::vector<std::thread> threads;
  for (auto& w : workers) threads.emplace_back([&w] { w->Run(); });
  for (std::thread& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  int optimize_ok = 0, optimize_conflicts = 0, statements = 0;
  std::string optimize_conflict;
  for (auto& w : workers) {
    if (optimize_conflict.empty()) optimize_conflict = w->optimize_conflict();
    for (const std::string& e : w->errors()) ADD_FAILURE() << e;
    for (HistoryTxn& t : w->txns()) history.txns.push_back(std::move(t));
    optimize_ok += w->optimize_ok();
    optimize_conflicts += w->optimize_conflicts();
    statements += w->statements();
  }

  for (const nlohmann::json& row : Sql("SELECT k, v FROM t ORDER BY k")) {
    std::vector<int64_t> list;
    ASSERT_TRUE(testing::ParseList(row["v"].get<std::string>(), &list)) << row.dump();
    history.final_rows[row["k"].get<int64_t>()].push_back(std::move(list));
  }

  testing::CheckedIsolation level = isolation == "Serializable"
                                        ? testing::CheckedIsolation::kSerializable
                                        : testing::CheckedIsolation::kWriteSerializable;
  testing::CheckReport report = testing::CheckHistory(history, level);
  std::printf(
      "[ history  ] %s: %d processes, %zu transactions, %d statements, OPTIMIZE ok=%d "
      "conflicts=%d, %.1f s\n"
      "[ history  ] %s\n",
      isolation.c_str(), knobs.procs, history.txns.size(), statements, optimize_ok,
      optimize_conflicts, seconds, report.Summary().c_str());
  // OPTIMIZE is not part of the history: its conflicts are allowed, but shown.
  if (!optimize_conflict.empty())
    std::printf("[ history  ] first OPTIMIZE conflict: %s\n", optimize_conflict.c_str());
  if (!report.valid()) {
    // Keep the history for minimizing: one transaction per line.
    const char* dir = std::getenv("SHOAL_HISTORY_DIR");
    std::string path = std::string(dir && *dir ? dir : testing::BinaryDir().c_str()) + "/history-" +
                       isolation + ".txt";
    std::ofstream out(path);
    for (const HistoryTxn& t : history.txns) {
      out << "T" << t.id << " p" << t.process << " "
          << (t.outcome == HistoryTxn::Outcome::kOk        ? "ok"
              : t.outcome == HistoryTxn::Outcome::kAborted ? "aborted"
                                                           : "unknown")
          << (t.blind_append ? " blind" : "") << ": " << t.label << "\n";
    }
    for (const auto& [k, rows] : history.final_rows) {
      for (const auto& list : rows)
        out << "final " << k << " = " << testing::FormatList(list) << "\n";
    }
    ADD_FAILURE() << report.Describe(30) << "\nhistory written to " << path;
  }
  EXPECT_GT(report.ok, 0);

  // The checker is not blind on this history: dropping an acknowledged transaction's element
  // from the final table is reported as a lost update.
  History broken = history;
  bool dropped = false;
  for (auto& [k, rows] : broken.final_rows) {
    if (dropped || rows.size() != 1 || rows[0].empty()) continue;
    int64_t last = rows[0].back();
    for (const HistoryTxn& t : broken.txns) {
      for (const HistoryOp& op : t.ops) {
        if (!dropped && op.kind == HistoryOp::Kind::kAppend && op.element == last &&
            t.outcome == HistoryTxn::Outcome::kOk) {
          rows[0].pop_back();
          dropped = true;
        }
      }
    }
  }
  if (dropped) {
    testing::CheckReport bad = testing::CheckHistory(broken, level);
    EXPECT_FALSE(bad.valid()) << "a dropped acknowledged element went unnoticed";
  }

  auto violations = table::ValidateTableLog(*fs_, Warehouse() + "/t");
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);
}

TEST_F(HistoryE2E, WriteSerializableHistoryHasNoAnomaly) { RunHistory("WriteSerializable"); }

TEST_F(HistoryE2E, SerializableHistoryHasNoAnomaly) { RunHistory("Serializable"); }

// The same histories with the warehouse on S3: commits are conditional PUTs, and a shell killed
// mid-transaction leaves no torn log entry and loses no acknowledged commit there either.
TEST_F(HistoryE2E, WriteSerializableHistoryOnS3HasNoAnomaly) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server);
  RunHistory("WriteSerializable");
}

TEST_F(HistoryE2E, SerializableHistoryOnS3HasNoAnomaly) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server);
  RunHistory("Serializable");
}

}  // namespace
}  // namespace shoal::cli
