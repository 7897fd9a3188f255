// Transaction: one optimistic write to a Delta table (doc/concurrency.md). It records what it
// read (ReadSet) and stages what it writes (WriteSet), then Commit() runs the commit loop:
// put-if-absent of the next log version, and on a lost race the conflict check and rebase
// against every winning commit, retrying with jittered exponential backoff.
//
// Deletion vectors of DeleteRows are written at commit time (inline when small, else as a DV
// file), because a rebase may still merge them with a winner's; files of lost attempts are
// deleted again.
// Thread-safety: not thread-safe; one transaction is used by one thread at a time. Many
// transactions (threads or processes) may commit to one table concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "delta/snapshot.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "txn/added_rows_matcher.h"
#include "txn/isolation_level.h"
#include "txn/read_set.h"
#include "txn/write_set.h"

namespace shoal::txn {

inline constexpr const char* kEngineInfo = "shoal/0.1.0";

struct TransactionOptions {
  // Isolation level; default: the table's delta.isolationLevel (WriteSerializable when unset).
  // Transactions without data change always run at SnapshotIsolation.
  std::optional<IsolationLevel> isolation_level;
  // commitInfo.operation and operationParameters (values as Spark writes them, JSON strings).
  std::string operation = "WRITE";
  delta::Json operation_parameters = delta::Json::object();
  // Application transaction (appId, version) to record; a version the table already has for
  // the app makes Commit a no-op (idempotent replay).
  std::optional<delta::Txn> app_txn;
  // commitInfo.engineInfo.
  std::string engine_info = kEngineInfo;
  // Backoff between attempts: jittered, doubling from initial to max (milliseconds).
  int64_t initial_backoff_ms = 1;
  int64_t max_backoff_ms = 100;
  // 0: retry without limit while winners do not conflict; else give up after this many attempts
  // (Conflict kind None is never returned: the error is a Transaction status).
  int64_t max_attempts = 0;
  // Called after a successful commit whose version is a multiple of delta.checkpointInterval
  // (default 10); optional. Its failure does not undo the commit (see CommitResult).
  std::function<Status(int64_t version)> checkpoint_hook;
  // Row-level refinement of the concurrent-append check; default StatsOnlyMatcher.
  std::shared_ptr<AddedRowsMatcher> matcher;
  // Where deletion vectors go (inline threshold).
  delta::DeletionVectorWriteOptions dv_options;
  // Wall clock in milliseconds since the epoch; default the system clock (tests inject one).
  std::function<int64_t()> clock_ms;
  // commitInfo.txnId; default a fresh UUID v4 (prepared transactions keep theirs).
  std::string txn_id;
};

struct CommitResult {
  int64_t version = -1;            // the committed version (or the snapshot's, for a replay)
  bool already_committed = false;  // the app transaction was committed before: nothing written
  int64_t attempts = 0;            // put-if-absent attempts made
  Status checkpoint_status;        // the checkpoint hook's result, when it ran
};

class Transaction {
 public:
  // Starts a transaction on `snapshot` (nullptr: the table does not exist yet and this
  // transaction creates it at version 0; it must UpdateProtocol and UpdateMetadata).
  static Result<std::unique_ptr<Transaction>> Begin(std::shared_ptr<io::FileSystem> fs,
                                                    std::string table_root,
                                                    std::shared_ptr<const delta::Snapshot> snapshot,
                                                    TransactionOptions options = {});

  // ---- read set (doc/concurrency.md "Read set")
  // A filter evaluated against the table, bound to scan::BuildTableSchema(metadata) columns.
  void ReadPredicate(expr::ExprPtr predicate, std::string sql);
  // A scan without a usable predicate.
  void ReadWholeTable() { read_.whole_table = true; }
  // A file the scan kept; the transaction depends on all its rows.
  void ReadFile(const delta::AddFile& file);
  // A file the scan kept, of which only `matched` positions matter (row level).
  void ReadRows(const delta::AddFile& file, const delta::DeletionVector& matched);
  void ReadAppId(const std::string& app_id) { read_.app_ids.insert(app_id); }
  void ReadDomain(const std::string& domain) { read_.domains.insert(domain); }

  // ---- write set
  void AddFile(delta::AddFile file);
  // Removes a whole file (as read); InvalidArgument when it also has staged row deletions.
  Status RemoveFile(const delta::AddFile& file);
  // Deletes rows (positions) of `file` with a deletion vector: stages remove(file) +
  // add(file with DV = dv(file) ∪ positions). Repeated calls on one file accumulate.
  Status DeleteRows(const delta::AddFile& file, const delta::DeletionVector& positions);
  // A change data file written for this transaction's changed rows (committed as a cdc action).
  void AddChangeFile(delta::AddCdcFile file) { write_.cdc_files.push_back(std::move(file)); }
  void UpdateMetadata(delta::Metadata metadata);
  void UpdateProtocol(delta::Protocol protocol);
  void SetDomainMetadata(delta::DomainMetadata domain);
  void SetGeneratesIdentityValues(bool generates) { write_.generates_identity = generates; }
  // false for rewrites that change no data (OPTIMIZE, REORG): adds and removes are staged with
  // dataChange=false and concurrent appends never conflict.
  void SetDataChange(bool data_change) { write_.data_change = data_change; }
  // OPTIMIZE output packing `sources` (as read) in order, `live_rows[i]` live rows each:
  // stages the output with a `shoal.compactedFrom` tag and removes of the sources, all without
  // data change, and records the sources as read.
  Status AddCompactedFile(delta::AddFile output, const std::vector<delta::AddFile>& sources,
                          const std::vector<int64_t>& live_rows);

  // Runs the commit loop. A conflict is Status::Conflict naming the Delta error; the
  // transaction cannot be used again after Commit returns (either way).
  Result<CommitResult> Commit();

  // Replaces the read and write sets (prepared transactions restore theirs).
  void RestoreState(ReadSet read, WriteSet write);

  // ---- accessors
  const ReadSet& read_set() const { return read_; }
  const WriteSet& write_set() const { return write_; }
  int64_t read_version() const { return read_version_; }
  IsolationLevel isolation_level() const;
  bool row_level_concurrency() const;
  const std::string& txn_id() const { return options_.txn_id; }
  const std::string& table_root() const { return table_root_; }
  const TransactionOptions& options() const { return options_; }
  const delta::Metadata& metadata() const { return metadata_; }
  const std::shared_ptr<io::FileSystem>& fs() const { return fs_; }
  // True when the commit would be a blind append (only data adds, nothing read).
  bool IsBlindAppend() const;

 private:
  Transaction() = default;
  struct WrittenDv {
    std::string base_dv_id;                  // dv(base) it was merged onto
    uint64_t rows = 0;                       // cardinality of the staged rows it includes
    delta::DeletionVectorDescriptor descriptor;
  };

  Result<std::vector<delta::Action>> BuildActions(int64_t version);
  Result<delta::DeletionVectorDescriptor> MergedDv(const StagedRowDelete& del);
  delta::CommitInfo BuildCommitInfo(int64_t now_ms) const;
  delta::RemoveFile RemoveFor(const delta::AddFile& file, int64_t now_ms) const;
  Status RebaseOnto(int64_t version, const std::string& text, bool* own_commit);
  // Row tracking of one attempt's actions (txn/row_tracking.h); `backfills` when it enables it.
  Status TrackRows(int64_t version, std::vector<delta::Action>* actions) const;
  bool BackfillsRowIds() const;
  void DeleteDvFiles(bool keep_committed);
  Status Finish(int64_t version, CommitResult* result);
  int64_t Now() const;

  std::shared_ptr<io::FileSystem> fs_;
  std::string table_root_;
  std::shared_ptr<const delta::Snapshot> snapshot_;
  TransactionOptions options_;
  int64_t read_version_ = -1;
  delta::Metadata metadata_;
  delta::Protocol protocol_;
  std::optional<scan::TableSchema> schema_;
  int64_t last_commit_timestamp_ = -1;  // of the latest version seen (for inCommitTimestamp)
  ReadSet read_;
  WriteSet write_;
  bool done_ = false;
  std::map<std::string, WrittenDv> written_dvs_;   // by data file path: the DV of this attempt
  std::vector<std::string> stale_dv_files_;  // DV files of earlier attempts, dropped outputs
  int64_t row_id_high_water_mark_ = -1;  // delta.rowTracking of the latest version seen
};

// A fresh random UUID v4 in its 8-4-4-4-12 text form.
std::string NewUuidV4();

}  // namespace shoal::txn
