// TableSource adapters over the scan layer: a Delta table snapshot (FROM t, FROM delta.`/p`,
// with time travel) and a set of plain Parquet files (read_parquet). Both push the planner's
// projection and filters into a scan::FileSetScan, which prunes with them and applies them
// exactly.
//
// Thread-safety: immutable after construction; Open may be called from any thread.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "scan/delta_scan.h"
#include "scan/parquet_scan.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

class DeltaTableSource final : public TableSource {
 public:
  // With `log_fs`, scans of tables with shoal.localSort.auto record their filter shapes
  // (query_log_recorder.h).
  DeltaTableSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                   std::shared_ptr<io::FileSystem> log_fs = nullptr);

  const columnar::Schema& schema() const override { return table_->schema()->schema; }
  std::string ToString() const override;
  std::optional<int64_t> EstimatedRows() const override { return table_->EstimatedRows(); }
  std::optional<ColumnStats> ColumnStatistics(int column) const override;
  bool ExactFilters() const override { return true; }
  std::vector<std::vector<int>> UniqueKeys() const override;
  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override;

  const std::shared_ptr<const scan::DeltaTable>& table() const { return table_; }

 private:
  std::shared_ptr<const scan::DeltaTable> table_;
  std::string name_;
  std::shared_ptr<io::FileSystem> log_fs_;
};

class ParquetFilesSource final : public TableSource {
 public:
  explicit ParquetFilesSource(std::shared_ptr<const scan::ParquetFileSet> files) : files_(std::move(files)) {}

  const columnar::Schema& schema() const override { return files_->schema()->schema; }
  std::string ToString() const override;
  std::optional<int64_t> EstimatedRows() const override { return files_->total_rows(); }
  bool ExactFilters() const override { return true; }
  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override;

 private:
  std::shared_ptr<const scan::ParquetFileSet> files_;
};

// Wraps a planned FileSetScan as an engine Scan.
std::unique_ptr<Scan> MakeFileSetScan(std::unique_ptr<scan::FileSetScan> scan,
                                      const std::atomic<bool>* interrupted = nullptr);
// The scan layer's Prewhere switch for a ScanRequest's mode.
scan::FileSetScanSpec::Prewhere ToScanPrewhere(PrewhereMode mode);

}  // namespace shoal::sql
