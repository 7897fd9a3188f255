// Mixed-load soak (issue #28; doc/reliability.md, "Mixed-load soak"): for SHOAL_SOAK_SECONDS,
// SHOAL_SOAK_WRITERS `shoal` processes run the history workload's random DML (UPDATE, MERGE,
// DELETE + INSERT, blind INSERT; 3% of COMMITs killed) on one table, SHOAL_SOAK_READERS processes
// run selective and full queries pinned to the latest version, and one maintenance process runs
// OPTIMIZE and VACUUM (a short retention that still keeps what readers read); checkpoints come
// from delta.checkpointInterval = 5. Every process runs under --memory-limit SHOAL_SOAK_MEMORY_MB.
//
// Afterwards: the history checker proves the writers' acknowledged history serializable (Write-
// Serializable); every reader answer equals the same question answered from its version's full
// rows, read in the same process, and again at the end for the versions still retained; every
// file of the latest version exists; each process's peak RSS stayed under its memory limit;
// after a final VACUUM no temporary file is left. Printed: commits/s, aborts by reason,
// queries/s, p50/p99 latency of both, bytes of garbage left for VACUUM.
//
// `make test` runs it for 20 s (10 s with 4 writers and 2 readers under sanitizers);
// `make soak` (part of `make reliability`) for 10 minutes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/file_system.h"
#include "io/s3_file_system.h"
#include "support/history_checker.h"
#include "support/history_worker.h"
#include "support/s3_test_server.h"
#include "support/shell_session.h"
#include "support/shell_warehouse_fixture.h"
#include "support/testdata.h"
#include "table/protocol_validator.h"

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::EnvInt;
using testing::History;
using testing::HistoryKnobs;
using testing::HistoryTxn;
using testing::HistoryWorker;
using testing::ShellSession;
using testing::StatementResult;

#ifdef SHOAL_SANITIZED
constexpr int kDefaultSeconds = 10, kDefaultWriters = 4, kDefaultReaders = 2;
#else
constexpr int kDefaultSeconds = 20, kDefaultWriters = 8, kDefaultReaders = 4;
#endif
constexpr int kTimeoutMs = 120000;

struct SoakKnobs {
  int seconds = std::max(1, EnvInt("SHOAL_SOAK_SECONDS", kDefaultSeconds));
  int writers = std::max(1, EnvInt("SHOAL_SOAK_WRITERS", kDefaultWriters));
  int readers = EnvInt("SHOAL_SOAK_READERS", kDefaultReaders);
  int keys = std::max(1, EnvInt("SHOAL_SOAK_KEYS", 32));
  int memory_mb = std::max(64, EnvInt("SHOAL_SOAK_MEMORY_MB", 256));
  // VACUUM's retention: half the run, 10 to 60 s. Reads older than it may lose their files.
  int retention_s() const { return std::clamp(seconds / 2, 10, 60); }
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// What a reader asked at one version and what it got, as a canonical text.
struct ReaderRecord {
  int64_t version = 0;
  std::string query;   // over `t VERSION AS OF <version>`
  std::string answer;  // canonical text of the rows
  int kind = 0;        // 0: one key, 1: a key range, 2: full aggregate
  int64_t lo = 0, hi = 0;
  Clock::time_point at;
};

// The rows of `SELECT k, v FROM t VERSION AS OF n` by key; a multimap, so a duplicated row shows.
using FullRows = std::multimap<int64_t, std::string>;

std::string Canonical(const std::vector<std::pair<int64_t, std::string>>& rows) {
  std::vector<std::pair<int64_t, std::string>> sorted = rows;
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const auto& [k, v] : sorted) out += std::to_string(k) + "=" + v + ";";
  return out;
}

// The answer the record's question has on `full`.
std::string Expected(const ReaderRecord& r, const FullRows& full) {
  std::vector<std::pair<int64_t, std::string>> rows;
  if (r.kind == 2) {
    int64_t count = 0, total_len = 0;
    for (const auto& [k, v] : full) {
      ++count;
      total_len += static_cast<int64_t>(v.size());
    }
    return "count=" + std::to_string(count) + ";len=" + std::to_string(total_len);
  }
  for (auto it = full.lower_bound(r.lo); it != full.end() && it->first <= r.hi; ++it) rows.emplace_back(*it);
  return Canonical(rows);
}

// Runs `sql` (rows of k, v or c, s) and gives the canonical answer of a record's kind.
bool Answer(const StatementResult& res, int kind, std::string* out) {
  if (res.status != StatementResult::Status::kOk) return false;
  if (kind == 2) {
    if (res.rows.size() != 1) return false;
    const auto& row = res.rows[0];
    int64_t len = row["s"].is_null() ? 0 : row["s"].get<int64_t>();
    *out = "count=" + std::to_string(row["c"].get<int64_t>()) + ";len=" + std::to_string(len);
    return true;
  }
  std::vector<std::pair<int64_t, std::string>> rows;
  for (const auto& row : res.rows) rows.emplace_back(row["k"].get<int64_t>(), row["v"].get<std::string>());
  *out = Canonical(rows);
  return true;
}

bool ReadFull(ShellSession& s, int64_t version, FullRows* out, std::string* error) {
  StatementResult res = s.Exec("SELECT k, v FROM t VERSION AS OF " + std::to_string(version), kTimeoutMs);
  if (res.status != StatementResult::Status::kOk) {
    *error = res.error;
    return false;
  }
  out->clear();
  for (const auto& row : res.rows) out->emplace(row["k"].get<int64_t>(), row["v"].get<std::string>());
  return true;
}

// One reader process: latest version, a question at it, the full rows at it, compare.
class Reader {
 public:
  Reader(int id, const SoakKnobs& knobs, std::string binary, std::string warehouse, std::string scratch,
         std::vector<std::string> shell_args)
      : id_(id),
        knobs_(knobs),
        binary_(std::move(binary)),
        warehouse_(std::move(warehouse)),
        scratch_(std::move(scratch)),
        shell_args_(std::move(shell_args)),
        rng_(20261207u + static_cast<unsigned>(id)) {}

  void Run(Clock::time_point deadline) {
    while (Clock::now() < deadline && errors_.empty()) Once();
    Drop();
  }
  const std::vector<ReaderRecord>& records() const { return records_; }
  const std::vector<double>& query_ms() const { return query_ms_; }
  const std::vector<std::string>& errors() const { return errors_; }
  int64_t peak_rss_kb() const { return peak_rss_kb_; }

 private:
  ShellSession& Session() {
    if (!session_ || !session_->alive())
      session_ = std::make_unique<ShellSession>(binary_, warehouse_, scratch_ + ".err", shell_args_);
    return *session_;
  }
  void Drop() {
    if (session_) peak_rss_kb_ = std::max(peak_rss_kb_, session_->PeakRssKb());
    session_.reset();
  }
  void Fail(const std::string& what) { errors_.push_back("reader " + std::to_string(id_) + ": " + what); }

  void Once() {
    StatementResult h = Session().Exec("DESCRIBE HISTORY t LIMIT 1", kTimeoutMs);
    if (h.status != StatementResult::Status::kOk || h.rows.size() != 1) {
      Fail("DESCRIBE HISTORY: " + h.error);
      return;
    }
    ReaderRecord r;
    r.version = h.rows[0]["version"].get<int64_t>();
    r.kind = static_cast<int>(rng_() % 3);
    const std::string at = "t VERSION AS OF " + std::to_string(r.version);
    if (r.kind == 0) {
      r.lo = r.hi = 1 + static_cast<int64_t>(rng_() % knobs_.keys);
      r.query = "SELECT k, v FROM " + at + " WHERE k = " + std::to_string(r.lo);
    } else if (r.kind == 1) {
      r.lo = 1 + static_cast<int64_t>(rng_() % knobs_.keys);
      r.hi = r.lo + static_cast<int64_t>(rng_() % 4);
      r.query = "SELECT k, v FROM " + at + " WHERE k BETWEEN " + std::to_string(r.lo) + " AND " +
                std::to_string(r.hi);
    } else {
      r.query = "SELECT count(*) AS c, sum(length(v)) AS s FROM " + at;
    }
    r.at = Clock::now();
    StatementResult q = Session().Exec(r.query, kTimeoutMs);
    query_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - r.at).count());
    if (!Answer(q, r.kind, &r.answer)) {
      Fail(r.query + ": " + q.error);
      return;
    }
    FullRows full;
    std::string error;
    if (!ReadFull(Session(), r.version, &full, &error)) {
      Fail("full rows at " + std::to_string(r.version) + ": " + error);
      return;
    }
    std::string expected = Expected(r, full);
    if (expected != r.answer) Fail(r.query + " answered " + r.answer + " but its version holds " + expected);
    records_.push_back(std::move(r));
  }

  int id_;
  SoakKnobs knobs_;
  std::string binary_, warehouse_, scratch_;
  std::vector<std::string> shell_args_;
  std::mt19937_64 rng_;
  std::unique_ptr<ShellSession> session_;
  std::vector<ReaderRecord> records_;
  std::vector<double> query_ms_;
  std::vector<std::string> errors_;
  int64_t peak_rss_kb_ = 0;
};

class SoakE2E : public testing::ShellWarehouseTest {
 protected:
  std::vector<nlohmann::json> Sql(ShellSession& s, const std::string& sql) {
    StatementResult r = s.Exec(sql, kTimeoutMs);
    EXPECT_EQ(r.status, StatementResult::Status::kOk) << sql << ": " << r.error;
    return r.rows;
  }
  void RunSoak();
};

void SoakE2E::RunSoak() {
  SoakKnobs knobs;
  const std::vector<std::string> shell_args = {"--memory-limit", std::to_string(knobs.memory_mb) + "MB"};
  const int retention = knobs.retention_s();
  char retain[32];
  std::snprintf(retain, sizeof retain, "%.6f", retention / 3600.0);
  {
    ShellSession setup(binary_, warehouse_, dir_.Join("setup.err"), shell_args);
    Sql(setup,
        "CREATE TABLE t (k INT, v STRING) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
        "'delta.checkpointInterval' = '5')");
    std::string values;
    for (int64_t k = 1; k <= knobs.keys; ++k) values += (values.empty() ? "(" : ", (") + std::to_string(k) + ", '')";
    Sql(setup, "INSERT INTO t VALUES " + values);
  }
  History history;
  for (int64_t k = 1; k <= knobs.keys; ++k) history.initial_keys.insert(k);

  HistoryKnobs hk;
  hk.procs = knobs.writers;
  hk.keys = knobs.keys;
  hk.optimize_percent = 0;  // the maintenance process runs OPTIMIZE
  hk.guessed_inserts = 40;
  hk.shell_args = shell_args;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::seconds(knobs.seconds);
  std::atomic<int64_t> next_element{1}, next_txn{1};
  std::vector<std::unique_ptr<HistoryWorker>> writers;
  for (int p = 0; p < knobs.writers; ++p) {
    writers.push_back(std::make_unique<HistoryWorker>(p, hk, binary_, warehouse_, dir_.Join("w" + std::to_string(p)),
                                                      &next_element, &next_txn));
  }
  std::vector<std::unique_ptr<Reader>> readers;
  for (int r = 0; r < knobs.readers; ++r) {
    readers.push_back(
        std::make_unique<Reader>(r, knobs, binary_, warehouse_, dir_.Join("r" + std::to_string(r)), shell_args));
  }
  // Maintenance: OPTIMIZE (conflicts allowed, counted) and VACUUM, in turns.
  int optimize_ok = 0, optimize_conflicts = 0, vacuums = 0;
  int64_t maintenance_rss_kb = 0;
  std::vector<std::string> maintenance_errors;
  auto maintain = [&] {
    auto session = std::make_unique<ShellSession>(binary_, warehouse_, dir_.Join("m.err"), shell_args);
    auto run = [&](const std::string& sql) {
      if (!session->alive()) session = std::make_unique<ShellSession>(binary_, warehouse_, dir_.Join("m.err"), shell_args);
      maintenance_rss_kb = std::max(maintenance_rss_kb, session->PeakRssKb());
      return session->Exec(sql, kTimeoutMs);
    };
    for (int round = 0; Clock::now() < deadline; ++round) {
      StatementResult r = run(round % 2 == 0 ? "OPTIMIZE t" : "SET shoal.vacuum.retentionCheck = false");
      if (round % 2 == 0) {
        if (r.status == StatementResult::Status::kOk)
          ++optimize_ok;
        else if (testing::IsConflictError(r.error))
          ++optimize_conflicts;
        else
          maintenance_errors.push_back("OPTIMIZE: " + r.error);
      } else {
        r = run(std::string("VACUUM t RETAIN ") + retain + " HOURS");
        if (r.status == StatementResult::Status::kOk)
          ++vacuums;
        else
          maintenance_errors.push_back("VACUUM: " + r.error);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    maintenance_rss_kb = std::max(maintenance_rss_kb, session->PeakRssKb());
  };
  std::vector<std::thread> threads;
  for (auto& w : writers) threads.emplace_back([&w, deadline] { w->Run(deadline); });
  for (auto& r : readers) threads.emplace_back([&r, deadline] { r->Run(deadline); });
  threads.emplace_back(maintain);
  for (std::thread& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

  // Gather.
  std::vector<double> commit_ms, query_ms;
  std::map<std::string, int> aborts;
  int64_t peak_kb = maintenance_rss_kb;
  for (auto& w : writers) {
    for (const std::string& e : w->errors()) ADD_FAILURE() << e;
    for (HistoryTxn& t : w->txns()) history.txns.push_back(std::move(t));
    commit_ms.insert(commit_ms.end(), w->commit_ms().begin(), w->commit_ms().end());
    for (const auto& [why, n] : w->aborts()) aborts[why] += n;
    peak_kb = std::max(peak_kb, w->peak_rss_kb());
  }
  std::vector<ReaderRecord> records;
  for (auto& r : readers) {
    for (const std::string& e : r->errors()) ADD_FAILURE() << e;
    records.insert(records.end(), r->records().begin(), r->records().end());
    query_ms.insert(query_ms.end(), r->query_ms().begin(), r->query_ms().end());
    peak_kb = std::max(peak_kb, r->peak_rss_kb());
  }
  for (const std::string& e : maintenance_errors) ADD_FAILURE() << e;

  ShellSession check(binary_, warehouse_, dir_.Join("check.err"), shell_args);
  // Readers' answers again, from the versions still within the retention (newest first, at most 200).
  const auto kept_since = Clock::now() - std::chrono::seconds(retention - 5);
  std::vector<const ReaderRecord*> recheck;
  for (const ReaderRecord& r : records) {
    if (r.at >= kept_since) recheck.push_back(&r);
  }
  std::sort(recheck.begin(), recheck.end(), [](auto* a, auto* b) { return a->at > b->at; });
  if (recheck.size() > 200) recheck.resize(200);
  for (const ReaderRecord* r : recheck) {
    std::string again;
    StatementResult q = check.Exec(r->query, kTimeoutMs);
    ASSERT_TRUE(Answer(q, r->kind, &again)) << r->query << ": " << q.error;
    EXPECT_EQ(again, r->answer) << r->query;
  }

  // Every file of the latest version exists; the log is valid.
  auto violations = table::ValidateTableLog(*fs_, warehouse_ + "/t");
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);
  std::vector<nlohmann::json> final_rows = Sql(check, "SELECT k, v FROM t ORDER BY k");

  // Garbage left for VACUUM, then a final VACUUM leaves no temporary file.
  Sql(check, "SET shoal.vacuum.retentionCheck = false");
  int64_t garbage_bytes = 0, garbage_files = 0;
  for (const nlohmann::json& row : Sql(check, "VACUUM t RETAIN 0 HOURS DRY RUN")) {
    auto st = fs_->Stat(row["path"].get<std::string>());
    if (st.ok()) garbage_bytes += st->size;
    ++garbage_files;
  }
  Sql(check, "VACUUM t RETAIN 0 HOURS");
  peak_kb = std::max(peak_kb, check.PeakRssKb());
  if (!on_s3_) {
    std::vector<std::string> temps;
    for (const auto& e : fs::recursive_directory_iterator(warehouse_)) {
      const std::string name = e.path().filename().string();
      const std::string path = e.path().string();
      // The spill directory, and the table's temporary files outside `_shoal/` (VACUUM's to clean).
      if (e.is_regular_file() && path.find("/_shoal/") == std::string::npos &&
          (name.ends_with(".tmp") || path.find("/.tmp/") != std::string::npos))
        temps.push_back(path);
    }
    EXPECT_TRUE(temps.empty()) << temps.size() << " temporary files left, e.g. " << temps.front();
  }

  // The history.
  for (const nlohmann::json& row : final_rows) {
    std::vector<int64_t> list;
    ASSERT_TRUE(testing::ParseList(row["v"].get<std::string>(), &list)) << row.dump();
    history.final_rows[row["k"].get<int64_t>()].push_back(std::move(list));
  }
  testing::CheckReport report = testing::CheckHistory(history, testing::CheckedIsolation::kWriteSerializable);
  EXPECT_TRUE(report.valid()) << report.Describe(30);
  EXPECT_GT(report.ok, 0);
  EXPECT_GT(records.size(), 0u);
#ifndef SHOAL_SANITIZED  // ASan's shadow memory and quarantine are resident but not the engine's
  EXPECT_LE(peak_kb, int64_t{knobs.memory_mb} * 1024) << "a process went over its memory limit";
#endif

  std::string abort_text;
  int aborted = 0;
  for (const auto& [why, n] : aborts) {
    abort_text += " " + why + "=" + std::to_string(n);
    aborted += n;
  }
  std::printf(
      "[ soak     ] %s%.0f s, %d writers, %d readers, %d keys, memory limit %d MB, VACUUM retention %d s\n"
      "[ soak     ] commits: %d (%.1f/s), p50 %.0f ms, p99 %.0f ms; not committed %d:%s\n"
      "[ soak     ] queries: %zu (%.1f/s), p50 %.0f ms, p99 %.0f ms; %zu re-checked at the end\n"
      "[ soak     ] OPTIMIZE ok=%d conflicts=%d, VACUUM runs=%d; garbage left for VACUUM: %lld files, %lld bytes\n"
      "[ soak     ] peak RSS of any process %.1f MB; history: %s\n",
      on_s3_ ? "S3, " : "", seconds, knobs.writers, knobs.readers, knobs.keys, knobs.memory_mb, retention,
      report.ok, report.ok / seconds, Percentile(commit_ms, 0.5), Percentile(commit_ms, 0.99), aborted,
      abort_text.c_str(), query_ms.size(), static_cast<double>(query_ms.size()) / seconds,
      Percentile(query_ms, 0.5), Percentile(query_ms, 0.99), recheck.size(), optimize_ok, optimize_conflicts,
      vacuums, static_cast<long long>(garbage_files), static_cast<long long>(garbage_bytes), peak_kb / 1024.0,
      report.Summary().c_str());
}

TEST_F(SoakE2E, MixedLoad) { RunSoak(); }

TEST_F(SoakE2E, MixedLoadOnS3) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server, "soak");
  RunSoak();
}

}  // namespace
}  // namespace shoal::cli
