// Checks a recorded list-append transaction history for isolation anomalies (issue #9), in the
// style of Elle (Kingsbury & Alvaro, VLDB 2020): every key holds a list of unique elements,
// transactions read lists and append elements, the final lists give each key's version order,
// and ww / wr / rw dependencies between transactions must form no forbidden cycle.
// doc/reliability.md ("History checker") states exactly what is checked and why.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace shoal::testing {

// One observed step of a transaction.
struct HistoryOp {
  enum class Kind { kRead, kAppend };
  Kind kind = Kind::kRead;
  int64_t key = 0;
  // kAppend: the element appended (unique across the whole history).
  int64_t element = 0;
  // kRead: the rows the read returned for the key, each row's list in order. No row means the
  // key did not exist; more than one row is itself an anomaly (a duplicated key).
  std::vector<std::vector<int64_t>> rows;

  static HistoryOp Read(int64_t key, std::vector<int64_t> list) {
    HistoryOp op;
    op.key = key;
    op.rows.push_back(std::move(list));
    return op;
  }
  static HistoryOp ReadAbsent(int64_t key) {
    HistoryOp op;
    op.key = key;
    return op;
  }
  static HistoryOp Append(int64_t key, int64_t element) {
    HistoryOp op;
    op.kind = Kind::kAppend;
    op.key = key;
    op.element = element;
    return op;
  }
};

// One transaction as its client saw it.
struct HistoryTxn {
  enum class Outcome {
    kOk,       // COMMIT acknowledged
    kAborted,  // COMMIT (or an earlier statement) failed with a conflict: must have no effect
    kUnknown,  // the client lost the answer (process killed, timeout): may or may not have committed
  };
  int64_t id = 0;       // unique in the history
  int process = 0;      // the client process (informational)
  Outcome outcome = Outcome::kOk;
  // True when the transaction only inserted rows of new keys and read nothing (a Delta blind
  // append); WriteSerializable lets readers miss such transactions.
  bool blind_append = false;
  std::vector<HistoryOp> ops;
  std::string label;  // free text for reports (e.g. the statements run)
};

// A whole history: the transactions and the table read after all of them ended.
struct History {
  std::vector<HistoryTxn> txns;
  // Final rows per key: each row's list. Keys absent here did not exist at the end.
  std::map<int64_t, std::vector<std::vector<int64_t>>> final_rows;
  // Keys that existed (with an empty list) before the first transaction and are never deleted
  // for good: reading one as absent is an anomaly.
  std::set<int64_t> initial_keys;
};

enum class CheckedIsolation { kSerializable, kWriteSerializable };

// One anomaly found, with a human-readable explanation (txn ids, keys, the cycle).
struct Anomaly {
  // "G0", "G1a", "G1b", "G1c", "G-single", "G2" (and "<one of those>-process" for cycles that
  // need session order), "lost-update", "duplicate-element",
  // "duplicate-row", "aborted-write-visible", "incompatible-order", "internal", "partial-commit",
  // "phantom-element".
  std::string type;
  std::string detail;
};

struct CheckReport {
  int ok = 0, aborted = 0, unknown = 0;
  int unknown_committed = 0;  // unknown transactions inferred committed (their writes are visible)
  int ww_edges = 0, wr_edges = 0, rw_edges = 0;
  int po_edges = 0;  // process-order edges (CheckOptions::session_order)
  // Cycles the level forbids (each also listed in `anomalies`).
  int cycles = 0;
  // WriteSerializable only: strongly connected components that exist only through rw edges
  // into blind appends (allowed by the level; counted to show the workload reaches them).
  int allowed_blind_append_cycles = 0;
  std::vector<Anomaly> anomalies;

  bool valid() const { return anomalies.empty(); }
  // One line: counts, edges, cycles, anomalies by type.
  std::string Summary() const;
  // The summary plus every anomaly's detail (capped at `max_details`).
  std::string Describe(size_t max_details = 20) const;
};

struct CheckOptions {
  // Also require each process's committed transactions to be serialized in the order it ran
  // them (session order: a transaction sees what its process committed before). Transactions
  // of one process must appear in History::txns in the order they ran. Default: on.
  bool session_order = true;
};

// Checks `history` under `level`. Pure: no I/O, deterministic for a given history.
CheckReport CheckHistory(const History& history, CheckedIsolation level, const CheckOptions& options = {});

// Formats a list as the comma-separated text the workload stores (",1,2,3"; "" when empty),
// and parses it back; false on a malformed element.
std::string FormatList(const std::vector<int64_t>& list);
bool ParseList(const std::string& text, std::vector<int64_t>* list);

}  // namespace shoal::testing
