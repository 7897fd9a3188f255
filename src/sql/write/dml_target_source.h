// DmlTargetSource: the table a DELETE / UPDATE / MERGE changes, as a scan source whose schema
// is the table's columns followed by the row-address columns `_shoal_file_id` (index into the
// snapshot's files()) and `_shoal_row_index` (position in that data file). The DML plans read
// it like any table — filters pushed down, files and row groups pruned — and turn the
// addresses of the rows they change into deletion vectors.
//
// Thread-safety: immutable after construction; Open may be called from any thread.
#pragma once

#include <memory>
#include <string>

#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

class DmlTargetSource final : public TableSource {
 public:
  // With `log_fs`, scans of a table with shoal.localSort.auto record their pushed filters in its
  // query log, like SELECTs (query_log_recorder.h).
  DmlTargetSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                  std::shared_ptr<io::FileSystem> log_fs = nullptr);

  // Table columns, then the two BIGINT address columns.
  const columnar::Schema& schema() const override { return schema_; }
  std::string ToString() const override;
  std::optional<int64_t> EstimatedRows() const override { return table_->EstimatedRows(); }
  std::optional<ColumnStats> ColumnStatistics(int column) const override;
  bool ExactFilters() const override { return true; }
  // Filters may refer to table columns only (InvalidArgument otherwise).
  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override;

  // Index of `_shoal_file_id` in schema(); `_shoal_row_index` follows it.
  int file_id_column() const { return num_table_columns_; }
  const std::shared_ptr<const scan::DeltaTable>& table() const { return table_; }

 private:
  std::shared_ptr<const scan::DeltaTable> table_;
  std::string name_;
  std::shared_ptr<io::FileSystem> log_fs_;
  columnar::Schema schema_;
  int num_table_columns_ = 0;
};

}  // namespace shoal::sql
