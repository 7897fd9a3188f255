// One process's share of the list-append history workload (doc/reliability.md, "History
// checker"): a `shoal` shell running random read-modify-write transactions, blind inserts and
// OPTIMIZE on `t (k INT, v STRING)`, logging what each transaction read and appended and how it
// ended. Used by src/cli/history_e2e_test.cc and the mixed-load soak (src/cli/soak_e2e_test.cc).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/history_checker.h"
#include "support/shell_session.h"
#include "support/shell_text.h"

namespace shoal::testing {

// The environment variable `name` as a non-negative integer, else `fallback`.
inline int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  int n = std::atoi(v);
  return n >= 0 ? n : fallback;
}

#ifdef SHOAL_SANITIZED
inline constexpr int kDefaultTxns = 10;  // sanitizers slow the shells down 5-20x
#else
inline constexpr int kDefaultTxns = 30;
#endif

struct HistoryKnobs {
  int procs = std::max(1, EnvInt("SHOAL_HISTORY_PROCS", 4));
  int txns = EnvInt("SHOAL_HISTORY_TXNS", kDefaultTxns);
  int keys = std::max(1, EnvInt("SHOAL_HISTORY_KEYS", 8));
  int kill_percent = EnvInt("SHOAL_HISTORY_KILL_PERCENT", 3);
  int optimize_percent = 8;  // of a worker's transactions; the rest: 12% blind inserts, RMW
  // Blind inserts per process that PickKey may guess (0: txns / 8 + 2).
  int guessed_inserts = 0;
  std::vector<std::string> shell_args;  // extra arguments of every shell (e.g. a memory limit)
};

// Key of process p's i-th blind insert (new keys live above the base keys 1..keys).
inline int64_t NewKey(int p, int i) { return 1000 + static_cast<int64_t>(p) * 10000 + i; }

// Runs one process's transactions, appending them to its own history part.
// Thread-safety: one thread per worker; elements come from a shared atomic counter.
class HistoryWorker {
 public:
  HistoryWorker(int process, const HistoryKnobs& knobs, std::string binary, std::string warehouse,
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

  // Runs knobs.txns transactions, or as many as fit before `deadline` when that is set.
  void Run(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) {
    const bool timed = deadline != std::chrono::steady_clock::time_point::max();
    for (int i = 0; (timed ? std::chrono::steady_clock::now() < deadline : i < knobs_.txns) && errors_.empty();
         ++i) {
      int dice = static_cast<int>(rng_() % 100);
      auto start = std::chrono::steady_clock::now();
      size_t before = txns_.size();
      if (dice < knobs_.optimize_percent)
        Optimize();
      else if (dice < knobs_.optimize_percent + 12)
        BlindInsert();
      else
        ReadModifyWrite();
      if (txns_.size() > before && txns_.back().outcome == HistoryTxn::Outcome::kOk) {
        commit_ms_.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
    }
    DropSession();
  }

  std::vector<HistoryTxn>& txns() { return txns_; }
  const std::vector<std::string>& errors() const { return errors_; }
  int optimize_ok() const { return optimize_ok_; }
  int optimize_conflicts() const { return optimize_conflicts_; }
  // The first OPTIMIZE conflict's message ("" when none).
  const std::string& optimize_conflict() const { return optimize_conflict_; }
  int statements() const { return statements_; }
  // Milliseconds of each committed transaction (BEGIN to COMMIT, or the blind INSERT).
  const std::vector<double>& commit_ms() const { return commit_ms_; }
  // Transactions that did not commit by cause: the conflict's class name, "lost" (a shell that
  // died or timed out), "killed at COMMIT, outcome unknown" (the workload's own kills).
  const std::map<std::string, int>& aborts() const { return aborts_; }
  // The largest peak resident set size of this worker's shells, KiB.
  int64_t peak_rss_kb() const { return peak_rss_kb_; }

 private:
  static constexpr int kTimeoutMs = 120000;

  ShellSession& Session() {
    if (!session_ || !session_->alive()) {
      session_ = std::make_unique<ShellSession>(binary_, warehouse_, scratch_ + ".err", knobs_.shell_args);
    }
    return *session_;
  }
  // Ends the current shell (its peak memory noted).
  void DropSession() {
    if (session_) peak_rss_kb_ = std::max(peak_rss_kb_, session_->PeakRssKb());
    session_.reset();
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
      ++aborts_["lost"];
    } else if (testing::IsConflictError(r.error)) {
      txn->outcome = HistoryTxn::Outcome::kAborted;
      ++aborts_[r.error.substr(0, r.error.find(':'))];
    } else {
      Fail("unexpected error in T" + std::to_string(txn->id) + " [" + txn->label + "]: " + r.error);
      txn->outcome = HistoryTxn::Outcome::kUnknown;
    }
    DropSession();
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
    if (r.status != StatementResult::Status::kOk) DropSession();
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
      int guessed = knobs_.guessed_inserts > 0 ? knobs_.guessed_inserts : knobs_.txns / 8 + 2;
      return NewKey(p, static_cast<int>(rng_() % guessed));
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
      peak_rss_kb_ = std::max(peak_rss_kb_, s.PeakRssKb());
      s.Kill();
      txn.outcome = HistoryTxn::Outcome::kUnknown;
      ++aborts_["killed at COMMIT, outcome unknown"];
      DropSession();
      return finish();
    }
    Settle(&txn, s.Exec("COMMIT", kTimeoutMs), true);
    finish();
  }

  int p_;
  HistoryKnobs knobs_;
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
  std::vector<double> commit_ms_;
  std::map<std::string, int> aborts_;
  int64_t peak_rss_kb_ = 0;
};


}  // namespace shoal::testing
