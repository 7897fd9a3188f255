// DeltaScan: plans a scan of one Delta table snapshot. Loads the snapshot (Parquet checkpoints
// included), maps its schema (scan/delta_schema.h), and prunes data files first by partition
// values (partition-only conjuncts evaluated exactly) and then by file statistics
// (expr::CanMatch); the survivors are read by a FileSetScan.
//
// Thread-safety: DeltaTable is immutable after Open and may be shared; the FileSetScan it
// plans documents its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "delta/snapshot.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "scan/file_set_scan.h"

namespace shoal::scan {

// The typed value of partition column `col` in `file` (looked up by physical name, then by
// logical name; NULL when absent). Corruption naming the column when the text does not parse.
Result<columnar::Value> PartitionValueOf(const delta::AddFile& file, const TableColumn& col);
// `file`'s partition values per table column (unset for data columns); errors name the file.
Result<std::vector<std::optional<columnar::Value>>> PartitionValuesOf(const TableSchema& schema,
                                                                      const delta::AddFile& file);
// A scan task reading `file` of the table at `table_root` (all rows but its DV's) as file id `id`.
Result<FileTask> MakeFileTask(const std::string& table_root, const TableSchema& schema,
                              const delta::AddFile& file, int64_t id);

// Which version of a table to open.
struct TimeTravel {
  std::optional<int64_t> version;       // VERSION AS OF
  std::optional<int64_t> timestamp_ms;  // TIMESTAMP AS OF (UTC milliseconds)
};

struct DeltaScanOptions {
  std::vector<int> columns;            // table column indices in output order
  std::vector<expr::ExprPtr> filters;  // conjuncts over output column indices
  int64_t batch_rows = 2048;
  int64_t limit_hint = -1;
  // Append the row-address columns (FileSetScanSpec::with_row_address); the file id is the
  // AddFile's index in snapshot()->files().
  bool with_row_address = false;
  // Late materialization (FileSetScanSpec::prewhere); SET shoal.prewhere reaches it.
  FileSetScanSpec::Prewhere prewhere = FileSetScanSpec::Prewhere::kAuto;
  // Dictionary-coded string columns (FileSetScanSpec::coded_strings).
  bool coded_strings = false;
};

class DeltaTable {
 public:
  // Loads the snapshot at `at` (default: latest). Errors: a missing table, a version that does
  // not exist or whose log was cleaned up, unsupported reader features (NotSupported).
  // `load_progress` follows the snapshot's load (delta::SnapshotOptions::progress).
  static Result<std::shared_ptr<const DeltaTable>> Open(
      std::shared_ptr<io::FileSystem> fs, const std::string& root, const TimeTravel& at = {},
      std::function<void(int64_t done, int64_t planned)> load_progress = {});
  // Wraps an already-loaded snapshot, e.g. one with a transaction's staged writes applied so a
  // statement reads its own transaction's writes.
  static Result<std::shared_ptr<const DeltaTable>> FromSnapshot(
      std::shared_ptr<io::FileSystem> fs, std::shared_ptr<const delta::Snapshot> snapshot);

  // The same snapshot reduced to the data files whose add paths are in `paths` (one split of a
  // distributed scan, shoal/distributed.h): Plan and EstimatedRows see those files alone, as
  // if the others were not live. InvalidArgument naming a path the snapshot does not hold.
  Result<std::shared_ptr<const DeltaTable>> Restrict(const std::vector<std::string>& paths) const;

  const std::shared_ptr<const delta::Snapshot>& snapshot() const { return snapshot_; }
  // False for a file (index into snapshot()->file_list()) that Restrict left out.
  bool Holds(size_t file_index) const { return !only_ || (file_index < only_->size() && (*only_)[file_index]); }
  const std::shared_ptr<const TableSchema>& schema() const { return schema_; }
  // Rows in the live files according to the log (numRecords minus DV cardinality), when every
  // file has stats.
  std::optional<int64_t> EstimatedRows() const;

  // Prunes files and returns the scan over the survivors.
  Result<std::unique_ptr<FileSetScan>> Plan(const DeltaScanOptions& options) const;

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::shared_ptr<const delta::Snapshot> snapshot_;
  std::shared_ptr<const TableSchema> schema_;
  // Restrict's files, by index into snapshot_->file_list(); null = every file.
  std::shared_ptr<const std::vector<bool>> only_;
};

}  // namespace shoal::scan
