// FileSetScan: reads a planned set of Parquet data files as batches of table rows, in parallel.
// Both Delta tables (DeltaScan) and plain Parquet files (ParquetScan) plan into it.
//
// Work is split into morsels: a file morsel opens the footer, resolves the file's columns
// against the table schema, loads its deletion vector, prunes row groups by their statistics
// (expr::CanMatch over the pushed filters) and queues one morsel per surviving row group.
// A row-group morsel streams batches: only needed columns are read, absent columns are NULL,
// partition columns constant, deleted rows (file-global positions across row groups) dropped,
// and the filters applied exactly. Each batch carries an order key
// (file index << 40 | row group << 20 | batch) so ordered output is possible.
//
// Thread-safety: Next may be called concurrently, each caller with its own Local state.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
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
#include "scan/delta_schema.h"
#include "shoal/database.h"

namespace shoal::scan {

// One data file to read.
struct FileTask {
  std::string path;  // local path
  // Per table column: the partition value (only for partition columns; others unset).
  std::vector<std::optional<columnar::Value>> partition_values;
  std::optional<delta::DeletionVectorDescriptor> deletion_vector;
  int64_t id = -1;  // caller's identifier, emitted as kFileIdColumn (DeltaScan: index in files())
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
  // Append two BIGINT columns after `columns`: kFileIdColumn and kRowIndexColumn (the row's
  // position in its data file, counting deleted rows) — what DML needs to build deletion
  // vectors. Filters never refer to them.
  bool with_row_address = false;
};

class FileSetScan {
 public:
  // Per-worker state: the row group being streamed.
  class Local;

  FileSetScan(FileSetScanSpec spec, std::vector<FileTask> files);
  ~FileSetScan();

  const columnar::SchemaPtr& output_schema() const { return output_schema_; }
  std::unique_ptr<Local> MakeLocal() const;
  // Next non-empty batch for this worker; false when no work is left.
  Result<bool> Next(Local* local, columnar::BatchPtr* out, uint64_t* order);
  // Metrics so far (complete once every worker saw the end).
  ScanMetrics metrics() const;
  size_t num_files() const { return files_.size(); }

 private:
  struct FileState;
  struct Morsel {
    int file = 0;
    int row_group = -1;  // -1: open the file
    std::shared_ptr<FileState> state;
  };

  Result<std::shared_ptr<FileState>> OpenFile(int file_index, parquet::ReadStats* stats);
  Result<bool> PruneRowGroup(const FileState& fs, int rg) const;
  Result<columnar::BatchPtr> ToOutput(const FileState& fs, const columnar::RecordBatch& in,
                                      int64_t first_row, Local* local);
  void AddMetrics(const ScanMetrics& m);

  FileSetScanSpec spec_;
  std::vector<FileTask> files_;
  columnar::SchemaPtr output_schema_;
  expr::ExprPtr filter_;  // AND of spec_.filters, or null

  mutable std::mutex mu_;
  std::deque<Morsel> queue_;  // guarded by mu_
  ScanMetrics metrics_;       // guarded by mu_
  std::atomic<int64_t> rows_out_{0};
};

// Per-worker state; owned by one worker thread.
class FileSetScan::Local {
 public:
  std::shared_ptr<FileState> state;
  std::unique_ptr<parquet::RowGroupReader> rg_reader;
  int row_group = -1;
  int64_t position = 0;  // rows of the row group already read
  uint64_t batch_no = 0;
  parquet::ReadStats stats;
  expr::EvalContext ctx;
  std::vector<uint32_t> sel;
  std::vector<uint32_t> sel2;
};

}  // namespace shoal::scan
