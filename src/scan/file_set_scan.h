// FileSetScan: reads a planned set of Parquet data files as batches of table rows, in parallel.
// Both Delta tables (DeltaScan) and plain Parquet files (ParquetScan) plan into it.
//
// Work is split into morsels: a file morsel opens the footer, resolves the file's columns
// against the table schema, loads its deletion vector and queues one morsel per row group; the
// worker that takes a row-group morsel judges it with the pruning stack (RowGroupPruner:
// statistics, page index, dictionary, Bloom), so pruning runs in parallel too, and workers
// that find the queue empty while a file is being opened wait for its row groups instead of
// finishing (one big file keeps every thread busy). A row-group morsel streams batches
// of those rows: absent columns are NULL, partition columns constant, deleted rows
// (file-global positions across row groups) dropped before the filter, and the filters
// applied exactly. With Prewhere (prewhere.h) the filter columns are read first, conjunct by
// conjunct on the rows still alive, and the other columns only for the survivors (whole pages
// and runs of rows skipped); batches where the filter keeps most rows are read whole. A
// conjunct on one column whose chunk is entirely dictionary-encoded is evaluated once per row
// group on the dictionary, then per row on the dictionary indices (values never materialized
// for rows it drops); `column IS NULL` is decided from the definition levels alone. Each
// batch carries an order key (file index << 40 | row group << 20 | batch) so ordered output
// is possible.
//
// Thread-safety: Next may be called concurrently, each caller with its own Local state.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "delta/actions.h"
#include "expr/evaluate.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "parquet/file_reader.h"
#include "parquet/row_ranges.h"
#include "scan/delta_schema.h"
#include "scan/prewhere.h"
#include "scan/row_group_pruner.h"
#include "shoal/database.h"

namespace shoal::scan {

// One data file to read.
struct FileTask {
  std::string path;  // local path
  // Per table column: the partition value (only for partition columns; others unset).
  std::vector<std::optional<columnar::Value>> partition_values;
  std::optional<delta::DeletionVectorDescriptor> deletion_vector;
  int64_t id = -1;  // caller's identifier, emitted as kFileIdColumn (DeltaScan: index in files())
  int64_t size = -1;  // the file's size when known (a Delta add action's), else -1
};

// Names of the row-address columns FileSetScanSpec::with_row_address appends to the output.
inline constexpr const char* kFileIdColumn = "_shoal_file_id";    // BIGINT: FileTask::id
inline constexpr const char* kRowIndexColumn = "_shoal_row_index";  // BIGINT: row position in the file

struct FileSetScanSpec {
  std::shared_ptr<io::FileSystem> fs;
  std::string table_root;  // resolves relative deletion vectors
  std::shared_ptr<const TableSchema> table;
  std::vector<int> columns;             // table column indices, in output order
  std::vector<expr::ExprPtr> filters;   // conjuncts over output column indices
  int64_t batch_rows = 2048;            // rows per output batch (before DV and filter)
  int64_t limit_hint = -1;              // stop after about this many rows (>= 0, no filters)
  parquet::ReaderOptions reader_options;
  int64_t files_total = 0;              // files before file pruning, for metrics
  int64_t files_pruned_partition = 0;   // files the planner dropped by partition values, for metrics
  int64_t files_pruned_stats = 0;       // files the planner dropped by log statistics, for metrics
  // Append two BIGINT columns after `columns`: kFileIdColumn and kRowIndexColumn (the row's
  // position in its data file, counting deleted rows) — what DML needs to build deletion
  // vectors. Filters never refer to them.
  bool with_row_address = false;
  // Late materialization: kAuto reads lazily while the filter is selective (per batch), kOn
  // always reads lazily, kOff reads every projected column whole (the plain scan).
  enum class Prewhere { kAuto, kOn, kOff };
  Prewhere prewhere = Prewhere::kAuto;
  // Which levels of the row-group pruning stack run.
  PruneOptions prune;
  // STRING/BINARY columns of dictionary-encoded chunks come out dictionary-coded
  // (columnar/vector.h: codes into the chunk's dictionary, strings not copied); only for a
  // consumer that handles coded vectors.
  bool coded_strings = false;
};

class FileSetScan {
 public:
  // Per-worker state: the row group being streamed.
  class Local;

  FileSetScan(FileSetScanSpec spec, std::vector<FileTask> files);
  ~FileSetScan();

  const columnar::SchemaPtr& output_schema() const { return output_schema_; }
  // Refuses pages declaring more than `bytes` uncompressed (ReaderOptions::max_page_bytes; a
  // query's memory_limit). Call before the first Next.
  void LimitPageBytes(int64_t bytes) {
    if (bytes > 0) spec_.reader_options.max_page_bytes = std::min(spec_.reader_options.max_page_bytes, bytes);
  }
  std::unique_ptr<Local> MakeLocal() const;
  // Makes Next fail with Interrupted when `*flag` is set while it skips batches that its
  // filter emptied (a caller checks between batches, but gets none while every row fails the
  // filter). Call before the first Next; null: never.
  void SetInterrupt(const std::atomic<bool>* flag) { interrupted_ = flag; }
  // Next non-empty batch for this worker; false when no work is left.
  Result<bool> Next(Local* local, columnar::BatchPtr* out, uint64_t* order);
  // Metrics so far (complete once every worker saw the end).
  ScanMetrics metrics() const;
  size_t num_files() const { return files_.size(); }
  // The files planned for reading (after the planner's pruning), e.g. for a transaction's read set.
  const std::vector<FileTask>& files() const { return files_; }
  // Work done and planned, in bytes of the planned files (a file of unknown size counts as
  // 1 MiB), a file's share credited row group by row group as each is read or skipped. Safe to
  // call from any thread while the scan runs.
  int64_t progress_done() const { return progress_done_.load(std::memory_order_relaxed); }
  int64_t progress_planned() const { return progress_planned_; }

 private:
  struct FileState;
  struct Morsel {
    int file = 0;
    int row_group = -1;  // -1: open the file
    std::shared_ptr<FileState> state;
    std::vector<parquet::RowRange> rows;  // the row group's rows that may match
    bool judged = false;                  // rows already narrowed by the pruner
  };
  // Opens file morsel `m` and queues its row groups (front of the queue, in order).
  Status ExpandFile(Morsel* m);
  // Runs the pruner on row-group morsel `m`; false when the row group is skipped.
  Result<bool> JudgeRowGroup(Morsel* m);

  Result<std::shared_ptr<FileState>> OpenFile(int file_index, parquet::ReadStats* stats);
  // OpenFile, on latency-bound storage through OpenAheadLocked: the footer was fetched together
  // with those of the files queued after it.
  Result<std::shared_ptr<FileState>> OpenQueuedFile(int file_index, parquet::ReadStats* stats);
  // Starts opening file `file_index` and the files queued after it, up to kOpenAheadFiles in
  // flight, each on its own thread: a scan of more files than threads waits one round trip for
  // their footers, not one per wave of threads. Requires mu_.
  void OpenAheadLocked(int file_index);
  // Positions the worker on the next batch's rows [*begin, *begin + *n) of its row group;
  // false when its row ranges are exhausted.
  bool NextBatchRows(Local* local, int64_t* begin, int64_t* n) const;
  // The rows of [begin, begin + n) not deleted by the deletion vector, into local->sel
  // (offsets from begin); returns false when none is deleted (sel untouched).
  bool ApplyDeletionVector(const FileState& fs, int64_t first_row, int64_t n, Local* local) const;
  Result<columnar::BatchPtr> PlainBatch(Local* local, int64_t begin, int64_t n);
  Result<columnar::BatchPtr> PrewhereBatch(Local* local, int64_t begin, int64_t n);
  // Prepares local->dict_filters[k] for the current row group: when conjunct k reads one column
  // whose chunk is entirely dictionary-encoded, evaluates it once on the dictionary (plus a
  // NULL entry) so PrewhereBatch can filter on indices; leaves it unusable otherwise.
  void PrepareDictFilter(Local* local, int k);
  // Latency-bound storage: fetches ahead, in one round trip, what reading the file fields
  // `slots` (indices into read_fields) of the worker's row group touches — with `rows`, only
  // the pages holding those rows. A no-op on local disk.
  Status PrefetchSlots(Local* local, const std::vector<int>& slots, const std::vector<parquet::RowRange>* rows) const;
  // At a row group's start: the filter columns (Prewhere) or every column (plain scan).
  Status PrefetchRowGroup(Local* local) const;
  // Prewhere, before reading the columns not yet held for the rows the filter kept.
  Status PrefetchRest(Local* local, int64_t begin, int64_t n, const uint32_t* sel, int64_t m) const;
  // Output column j for rows `sel` (null: all n) of [begin, begin + n), read column-wise.
  Result<columnar::VectorPtr> ReadOutputColumn(Local* local, size_t j, int64_t begin, int64_t n,
                                               const uint32_t* sel, int64_t m);
  // Appends the row-address columns (if asked for) and builds the output batch.
  columnar::BatchPtr MakeOutput(const FileState& fs, std::vector<columnar::VectorPtr> cols, int64_t first_row,
                                const uint32_t* sel, int64_t m) const;
  Result<columnar::BatchPtr> ToOutput(const FileState& fs, const columnar::RecordBatch& in, int64_t first_row,
                                      Local* local);
  void AddMetrics(const ScanMetrics& m);
  // Credits row group `group` of `groups` of file `file` (all of it when groups == 0).
  void CreditRowGroup(int file, int group, int groups);

  FileSetScanSpec spec_;
  const std::atomic<bool>* interrupted_ = nullptr;
  std::vector<FileTask> files_;
  columnar::SchemaPtr output_schema_;
  expr::ExprPtr filter_;  // AND of spec_.filters, or null
  std::vector<std::vector<int>> conjunct_columns_;  // per filter: the output columns it reads
  std::vector<double> conjunct_cost_;               // per filter: StaticConjunctCost
  std::vector<int> null_test_column_;               // per filter: j when it is `column j IS NULL`, else -1

  mutable std::mutex mu_;
  std::condition_variable cv_;  // signalled when a file's row groups are queued
  std::deque<Morsel> queue_;  // guarded by mu_
  int opening_ = 0;           // file morsels being opened; guarded by mu_
  ScanMetrics metrics_;       // guarded by mu_
  std::atomic<int64_t> rows_out_{0};
  int64_t progress_planned_ = 0;
  std::atomic<int64_t> progress_done_{0};
  bool remote_ = false;  // the files are on latency-bound storage
  struct Opened {
    Status status;
    std::shared_ptr<FileState> state;
    parquet::ReadStats stats;
  };
  static constexpr size_t kOpenAheadFiles = 32;
  // Files being opened ahead, by index; guarded by mu_. Last member: destroyed (waiting for the
  // threads, which use the members above) first.
  std::map<int, std::shared_future<Opened>> ahead_;
};

// Per-worker state; owned by one worker thread.
class FileSetScan::Local {
 public:
  std::shared_ptr<FileState> state;
  std::unique_ptr<parquet::RowGroupReader> rg_reader;
  int row_group = -1;
  bool column_wise = false;                  // rg_reader is read with ReadField (Prewhere)
  std::vector<parquet::RowRange> ranges;     // rows of the row group still to read
  size_t range_index = 0;
  int64_t position = 0;                      // next row of the row group to consider
  uint64_t batch_no = 0;
  parquet::ReadStats stats;
  ScanMetrics rg_metrics;                    // counters of the current row group
  expr::EvalContext ctx;
  std::vector<uint32_t> sel;
  std::vector<uint32_t> sel2;
  std::vector<uint32_t> pos;
  std::vector<columnar::VectorPtr> held;     // per output column, aligned with the selection
  std::unique_ptr<ConjunctOrder> order;
  PrewherePolicy policy;
  // Per conjunct, for the current row group: the conjunct evaluated on its column's dictionary.
  struct DictFilter {
    bool tried = false;
    bool usable = false;
    // `column IS NULL` on a flat leaf: decided from the definition levels alone, and the
    // column's kept values (all NULL) never read.
    bool levels_only = false;
    int column = -1;                // output column the conjunct reads
    std::vector<uint8_t> pass;      // per dictionary index; pass[dictionary size]: NULL rows
    columnar::VectorPtr values;     // the dictionary in the table type, a NULL appended
  };
  std::vector<DictFilter> dict_filters;
  std::vector<uint32_t> idx;                 // dictionary indices of the rows being filtered
  std::vector<uint32_t> kept_idx;            // of those, the indices of the rows kept
  std::vector<uint8_t> defined;              // levels_only: per row being filtered, non-NULL
};

}  // namespace shoal::scan
