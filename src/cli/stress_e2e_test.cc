// Runs many `shoal` processes against one Delta table at the same time and checks the final
// table against what each process was told (the concurrency issues' stress acceptance):
//  - AppendAndCounterStress (also on S3, x 12): 8 processes x 50 blind appends and 4 processes x 50
//    `UPDATE t SET c = c + 1 WHERE id = k` commits, each retried on conflict until it commits;
//    every acknowledged append is present exactly once, no append reported failed is present,
//    and each counter equals its acknowledged increments. Once per isolation level.
//  - RowLevelStress: 4 processes x 100 UPDATE/DELETE/MERGE commits on disjoint random row sets
//    of the same 4 files while another process runs OPTIMIZE in a loop. Row-level concurrency
//    on: no transaction aborts and the final table is exactly the expected one. Off
//    (`shoal.rowLevelConcurrency=false`): conflicts are reported, and the final table is the
//    effect of exactly the acknowledged statements.
//
// Each worker feeds its statements to one shell (`-f`), with `SELECT 'ack <i>'` after each: the
// shell stops at the first failing statement, so the markers on stdout say which statements
// committed, and stderr names the failure. After a conflict a new shell runs the rest.
//
// Size: SHOAL_STRESS_SCALE (default 1 = the issues' full size) multiplies every per-process
// statement count; CI runs the default. doc/benchmarks.md ("Commits per second") has the
// command for larger runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/s3_file_system.h"
#include "support/s3_test_server.h"
#include "support/shell_text.h"
#include "support/stress_row_ops.h"
#include "support/testdata.h"

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;

// Statement count per process: `full` times SHOAL_STRESS_SCALE (at least 1).
int Scaled(int full) {
  double scale = 1.0;
  if (const char* env = std::getenv("SHOAL_STRESS_SCALE")) {
    double f = std::atof(env);
    if (f > 0) scale = f;
  }
  return std::max(1, static_cast<int>(full * scale + 0.5));
}

std::string LastLine(const std::string& text) {
  std::stringstream ss(text);
  std::string line, last;
  while (std::getline(ss, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

// Called after statement i's attempt number `attempt` (0-based) was reported as a conflict:
// the text of the next attempt, or nullopt to give the statement up.
using RetryPolicy = std::function<std::optional<std::string>(size_t i, int attempt)>;

// Runs a list of statements through `shoal` processes and records which were acknowledged.
// Thread-safety: one thread per worker; workers share nothing but the warehouse.
class ShellWorker {
 public:
  ShellWorker(std::string binary, std::string warehouse, std::string scratch)
      : binary_(std::move(binary)),
        warehouse_(std::move(warehouse)),
        scratch_(std::move(scratch)) {}

  void Run(std::vector<std::string> statements, const RetryPolicy& retry) {
    size_t first = texts_.size();
    for (std::string& s : statements) {
      texts_.push_back(std::move(s));
      acked_.push_back(false);
    }
    size_t next = first;
    int attempt = 0;
    while (next < texts_.size() && error_.empty()) {
      std::string script;
      for (size_t i = next; i < texts_.size(); ++i) {
        script += texts_[i] + ";\nSELECT 'ack " + std::to_string(i) + "' AS m;\n";
      }
      std::ofstream(scratch_ + ".sql", std::ios::binary) << script;
      std::string cmd = testing::ShellQuote(binary_) + " " + testing::ShellQuote(warehouse_) +
                        " --threads 1 --format jsonl -f " + testing::ShellQuote(scratch_ + ".sql") +
                        " < /dev/null 2> " + testing::ShellQuote(scratch_ + ".err");
      std::string out;
      int rc = testing::RunCommand(cmd, &out);
      ++processes_;
      std::stringstream ss(out);
      std::string line;
      while (std::getline(ss, line)) {
        if (line.rfind("{\"m\":\"ack ", 0) != 0) continue;
        size_t i = std::strtoull(line.c_str() + 10, nullptr, 10);
        if (i != next) {
          error_ = "ack " + std::to_string(i) + " out of order, expected " + std::to_string(next);
          return;
        }
        acked_[next++] = true;
        attempt = 0;
      }
      if (rc == 0) {
        if (next != texts_.size())
          error_ = "shell exited 0 before acknowledging statement " + std::to_string(next);
        break;
      }
      std::string err = LastLine(testing::ReadFileText(scratch_ + ".err"));
      if (rc != 1 || next >= texts_.size() || !testing::IsConflictError(err)) {
        error_ = "exit " + std::to_string(rc) + " at statement '" +
                 (next < texts_.size() ? texts_[next] : std::string("<none>")) + "': " + err;
        break;
      }
      ++conflicts_;
      failed_.push_back(texts_[next]);
      std::string kind = err.substr(0, err.find(':'));
      if (err.find("without a row mapping") != std::string::npos)
        kind += " (without a row mapping)";
      ++conflict_kinds_[kind];
      if (first_conflict_.empty()) first_conflict_ = texts_[next] + " -> " + err;
      if (std::optional<std::string> again = retry(next, attempt)) {
        texts_[next] = std::move(*again);
        ++attempt;
      } else {
        ++next;
        attempt = 0;
      }
    }
  }

  // The statements as last attempted, and whether each was acknowledged.
  const std::vector<std::string>& texts() const { return texts_; }
  const std::vector<bool>& acked() const { return acked_; }
  // Texts of the attempts the shell reported as conflicts.
  const std::vector<std::string>& failed() const { return failed_; }
  int conflicts() const { return conflicts_; }
  // Conflicts by error name, and the first one (statement -> error line).
  const std::map<std::string, int>& conflict_kinds() const { return conflict_kinds_; }
  const std::string& first_conflict() const { return first_conflict_; }
  int processes() const { return processes_; }
  // The first failure that was not a conflict; empty when none.
  const std::string& error() const { return error_; }

 private:
  std::string binary_, warehouse_, scratch_;
  std::vector<std::string> texts_;
  std::vector<bool> acked_;
  std::vector<std::string> failed_;
  int conflicts_ = 0;
  std::map<std::string, int> conflict_kinds_;
  std::string first_conflict_;
  int processes_ = 0;
  std::string error_;
};

class StressE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = testing::BinaryDir() + "/shoal";
    if (!fs::exists(binary_))
      FAIL() << "shoal binary not found at " << binary_ << " (build target shoal)";
    warehouse_ = dir_.Join("wh");
    fs::create_directories(warehouse_);
  }
  void TearDown() override {
    if (s3_) (void)s3_->DeleteRecursive(warehouse_);
  }
  // The warehouse on the local S3 server instead (the shells find it through AWS_*).
  void UseS3(const testing::S3TestServer& server) {
    server.ExportToEnvironment();
    warehouse_ = server.UniquePath("stress");
    s3_ = std::make_shared<io::S3FileSystem>(server.Options());
  }

  const std::string& Warehouse() const { return warehouse_; }

  std::unique_ptr<ShellWorker> NewWorker(const std::string& name) {
    return std::make_unique<ShellWorker>(binary_, Warehouse(), dir_.Join(name));
  }

  // Runs `sql` in one shell; returns its CSV output, failing the test on an error.
  std::string Sql(const std::string& sql) {
    std::string cmd = testing::ShellQuote(binary_) + " " + testing::ShellQuote(Warehouse()) +
                      " --format csv -c " + testing::ShellQuote(sql) + " < /dev/null 2> " +
                      testing::ShellQuote(dir_.Join("sql.err"));
    std::string out;
    int rc = testing::RunCommand(cmd, &out);
    EXPECT_EQ(rc, 0) << sql << ": " << testing::ReadFileText(dir_.Join("sql.err"));
    return out;
  }

  // Reads `SELECT a, b ... ORDER BY a` CSV output (two BIGINT columns) as pairs.
  std::vector<std::pair<int64_t, int64_t>> Pairs(const std::string& sql) {
    std::stringstream ss(Sql(sql));
    std::string line;
    std::getline(ss, line);  // header
    std::vector<std::pair<int64_t, int64_t>> rows;
    while (std::getline(ss, line)) {
      size_t comma = line.find(',');
      if (comma == std::string::npos) {
        ADD_FAILURE() << "unexpected row '" << line << "'";
        continue;
      }
      rows.emplace_back(std::stoll(line.substr(0, comma)), std::stoll(line.substr(comma + 1)));
    }
    return rows;
  }

  // `ops`: statements per process.
  void AppendAndCounterStress(const std::string& isolation, int ops = Scaled(50));
  void RowLevelStress(bool row_level);

  testing::TempDir dir_;
  std::string binary_;
  std::string warehouse_;
  std::shared_ptr<io::S3FileSystem> s3_;  // set when the warehouse is on S3
};

// ---------------------------------------------------------------------------------------------
// Blind appends and read-modify-write counters.

constexpr int64_t kCounters = 4;

// A unique id per append attempt, so a retried append never collides with its failed attempt.
int64_t AppendId(int worker, size_t stmt, int attempt) {
  return 1000000 + worker * 100000 + static_cast<int64_t>(stmt) * 100 + attempt;
}

std::string AppendSql(int worker, size_t stmt, int attempt) {
  return "INSERT INTO t VALUES (" + std::to_string(AppendId(worker, stmt, attempt)) + ", -1)";
}

void StressE2E::AppendAndCounterStress(const std::string& isolation, int ops) {
  const int appenders = 8, appends = ops, incrementers = 4, increments = ops;
  Sql("CREATE TABLE t (id BIGINT, c BIGINT) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
      "'delta.isolationLevel' = '" +
      isolation + "')");
  Sql("INSERT INTO t VALUES (1, 0), (2, 0), (3, 0), (4, 0)");

  std::vector<std::unique_ptr<ShellWorker>> workers;
  std::vector<std::thread> threads;
  for (int w = 0; w < appenders; ++w) {
    workers.push_back(NewWorker("append" + std::to_string(w)));
    ShellWorker* worker = workers.back().get();
    threads.emplace_back([worker, w, appends] {
      std::vector<std::string> stmts;
      for (int i = 0; i < appends; ++i) stmts.push_back(AppendSql(w, static_cast<size_t>(i), 0));
      worker->Run(std::move(stmts), [w](size_t i, int attempt) -> std::optional<std::string> {
        if (attempt + 1 >= 100) return std::nullopt;
        return AppendSql(w, i, attempt + 1);
      });
    });
  }
  std::vector<std::vector<int64_t>> keys(incrementers);
  for (int w = 0; w < incrementers; ++w) {
    std::mt19937_64 rng(1234 + w);
    for (int i = 0; i < increments; ++i)
      keys[w].push_back(1 + static_cast<int64_t>(rng() % kCounters));
    workers.push_back(NewWorker("counter" + std::to_string(w)));
    ShellWorker* worker = workers.back().get();
    std::vector<std::string> stmts;
    for (int64_t k : keys[w])
      stmts.push_back("UPDATE t SET c = c + 1 WHERE id = " + std::to_string(k));
    threads.emplace_back([worker, stmts] {
      worker->Run(stmts, [&stmts](size_t i, int attempt) -> std::optional<std::string> {
        if (attempt + 1 >= 1000) return std::nullopt;  // a livelock: the check below fails
        return stmts[i];
      });
    });
  }
  for (std::thread& t : threads) t.join();

  int append_conflicts = 0, counter_conflicts = 0, processes = 0;
  for (size_t w = 0; w < workers.size(); ++w) {
    ASSERT_EQ(workers[w]->error(), "") << "worker " << w;
    (w < appenders ? append_conflicts : counter_conflicts) += workers[w]->conflicts();
    processes += workers[w]->processes();
  }
  std::printf(
      "[ stress   ] %s: %d append conflicts, %d counter conflicts (retried), %d shell processes\n",
      isolation.c_str(), append_conflicts, counter_conflicts, processes);

  // Oracle: the acknowledged appends once each, and the acknowledged increments per counter.
  std::map<int64_t, int64_t> expected;
  for (int64_t k = 1; k <= kCounters; ++k) expected[k] = 0;
  std::set<int64_t> failed_ids;
  for (int w = 0; w < appenders; ++w) {
    const ShellWorker& worker = *workers[static_cast<size_t>(w)];
    for (size_t i = 0; i < worker.texts().size(); ++i) {
      if (!worker.acked()[i]) continue;
      int64_t id = std::stoll(worker.texts()[i].substr(worker.texts()[i].find('(') + 1));
      EXPECT_TRUE(expected.emplace(id, -1).second) << id;
    }
    for (const std::string& f : worker.failed())
      failed_ids.insert(std::stoll(f.substr(f.find('(') + 1)));
  }
  for (int w = 0; w < incrementers; ++w) {
    const ShellWorker& worker = *workers[static_cast<size_t>(appenders + w)];
    for (size_t i = 0; i < worker.texts().size(); ++i) {
      EXPECT_TRUE(worker.acked()[i]) << "counter worker " << w << " gave up statement " << i;
      if (worker.acked()[i]) ++expected[keys[static_cast<size_t>(w)][i]];
    }
  }
  EXPECT_EQ(expected.size(), static_cast<size_t>(kCounters + appenders * appends));

  std::vector<std::pair<int64_t, int64_t>> rows = Pairs("SELECT id, c FROM t ORDER BY id, c");
  std::vector<std::pair<int64_t, int64_t>> want(expected.begin(), expected.end());
  for (const auto& [id, c] : rows)
    EXPECT_EQ(failed_ids.count(id), 0u) << "append reported failed is present: " << id;
  ASSERT_EQ(rows.size(), want.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i], want[i]) << "row " << i;
  }
}

TEST_F(StressE2E, AppendAndCounterStressWriteSerializable) {
  AppendAndCounterStress("WriteSerializable");
}

TEST_F(StressE2E, AppendAndCounterStressSerializable) { AppendAndCounterStress("Serializable"); }

// The same on S3 (commits are conditional PUTs): 8 appending and 4 incrementing processes lose
// and duplicate nothing. Fewer statements per process: each waits for the network.
TEST_F(StressE2E, AppendAndCounterStressOnS3) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server);
  AppendAndCounterStress("WriteSerializable", Scaled(12));
}

// ---------------------------------------------------------------------------------------------
// Row-level DML on disjoint rows of the same files, with OPTIMIZE in a loop.

using testing::GenerateOps;
using testing::InitialRows;
using testing::kDmlWorkers;
using testing::kFiles;
using testing::kRowsPerFile;
using testing::RowOp;

void StressE2E::RowLevelStress(bool row_level) {
  const int commits = Scaled(100);
  std::string props = "'delta.enableDeletionVectors' = 'true'";
  if (!row_level) props += ", 'shoal.rowLevelConcurrency' = 'false'";
  Sql("CREATE TABLE t (id BIGINT, v BIGINT) TBLPROPERTIES (" + props + ")");
  std::map<int64_t, int64_t> expected = InitialRows();
  for (int64_t f = 0; f < kFiles; ++f) {  // one INSERT per file
    std::string values;
    for (int64_t id = f * kRowsPerFile; id < (f + 1) * kRowsPerFile; ++id) {
      values +=
          (values.empty() ? "(" : ", (") + std::to_string(id) + ", " + std::to_string(id) + ")";
    }
    Sql("INSERT INTO t VALUES " + values);
  }

  std::vector<std::vector<RowOp>> ops;
  std::vector<std::unique_ptr<ShellWorker>> workers;
  std::vector<std::thread> threads;
  std::atomic<int> running{kDmlWorkers};
  for (int w = 0; w < kDmlWorkers; ++w) {
    ops.push_back(GenerateOps(w, commits));
    workers.push_back(NewWorker("dml" + std::to_string(w)));
  }
  for (int w = 0; w < kDmlWorkers; ++w) {
    std::vector<std::string> stmts;
    for (const RowOp& op : ops[static_cast<size_t>(w)]) stmts.push_back(op.Sql());
    ShellWorker* worker = workers[static_cast<size_t>(w)].get();
    threads.emplace_back([worker, stmts, &running] {
      worker->Run(stmts, [](size_t, int) { return std::nullopt; });  // a conflict is final
      --running;
    });
  }
  std::unique_ptr<ShellWorker> optimizer = NewWorker("optimize");
  std::thread optimize_thread([&] {
    while (running.load() > 0 && optimizer->error().empty()) {
      optimizer->Run({"OPTIMIZE t"}, [](size_t, int) { return std::nullopt; });
    }
  });
  for (std::thread& t : threads) t.join();
  optimize_thread.join();

  int dml_conflicts = 0, acked = 0;
  for (int w = 0; w < kDmlWorkers; ++w) {
    const ShellWorker& worker = *workers[static_cast<size_t>(w)];
    ASSERT_EQ(worker.error(), "") << "worker " << w;
    dml_conflicts += worker.conflicts();
    for (size_t i = 0; i < worker.texts().size(); ++i) {
      if (worker.acked()[i]) ++acked;
    }
  }
  ASSERT_EQ(optimizer->error(), "");
  int optimizes = static_cast<int>(optimizer->texts().size());
  std::printf(
      "[ stress   ] row level %s: %d DML commits acknowledged, %d DML conflicts, %d OPTIMIZE runs, "
      "%d OPTIMIZE conflicts\n",
      row_level ? "on" : "off", acked, dml_conflicts, optimizes, optimizer->conflicts());
  std::map<std::string, int> kinds = optimizer->conflict_kinds();
  std::string first = optimizer->first_conflict();
  for (const auto& worker : workers) {
    for (const auto& [name, n] : worker->conflict_kinds()) kinds[name] += n;
    if (first.empty()) first = worker->first_conflict();
  }
  for (const auto& [name, n] : kinds) std::printf("[ stress   ]   %d x %s\n", n, name.c_str());
  if (row_level) {
    EXPECT_EQ(dml_conflicts, 0) << "row-level concurrency: disjoint rows must not conflict; first: "
                                << first;
    EXPECT_EQ(optimizer->conflicts(), 0)
        << "OPTIMIZE must not abort against row-level DML; first: " << first;
  } else {
    EXPECT_GT(dml_conflicts, 0) << "file-level concurrency: DML on the same files should conflict";
  }
  EXPECT_GT(optimizes, 0);

  // Oracle: each worker's acknowledged ops, in its order, on its own rows.
  for (int w = 0; w < kDmlWorkers; ++w) {
    const ShellWorker& worker = *workers[static_cast<size_t>(w)];
    for (size_t i = 0; i < worker.texts().size(); ++i) {
      if (worker.acked()[i]) ops[static_cast<size_t>(w)][i].Apply(&expected);
    }
  }
  std::vector<std::pair<int64_t, int64_t>> rows = Pairs("SELECT id, v FROM t ORDER BY id, v");
  std::vector<std::pair<int64_t, int64_t>> want(expected.begin(), expected.end());
  ASSERT_EQ(rows.size(), want.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < rows.size() && mismatches < 20; ++i) {
    if (rows[i] != want[i]) {
      ++mismatches;
      ADD_FAILURE() << "row " << i << ": got (" << rows[i].first << ", " << rows[i].second
                    << "), want (" << want[i].first << ", " << want[i].second << ")";
    }
  }
}

TEST_F(StressE2E, RowLevelDmlWithOptimizeNeverAborts) { RowLevelStress(true); }

TEST_F(StressE2E, FileLevelDmlWithOptimizeReportsConflictsAndLosesNoRow) { RowLevelStress(false); }

}  // namespace
}  // namespace shoal::cli
