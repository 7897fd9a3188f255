#include "sql/functions/delta_table_source.h"

#include "sql/functions/column_statistics.h"
#include "sql/functions/query_log_recorder.h"
#include "table/key_constraints.h"

namespace shoal::sql {
namespace {

class FileSetLocal final : public ScanLocalState {
 public:
  explicit FileSetLocal(std::unique_ptr<scan::FileSetScan::Local> l) : local(std::move(l)) {}
  std::unique_ptr<scan::FileSetScan::Local> local;
};

class FileSetScanAdapter final : public Scan {
 public:
  explicit FileSetScanAdapter(std::unique_ptr<scan::FileSetScan> scan) : scan_(std::move(scan)) {}

  std::unique_ptr<ScanLocalState> MakeLocal() override {
    return std::make_unique<FileSetLocal>(scan_->MakeLocal());
  }
  Result<bool> Next(ScanLocalState* local, columnar::BatchPtr* out, uint64_t* order) override {
    auto* l = dynamic_cast<FileSetLocal*>(local);
    if (!l) return Status::Internal("file scan called without its local state");
    return scan_->Next(l->local.get(), out, order);
  }
  ScanMetrics metrics() const override { return scan_->metrics(); }
  WorkProgress progress() const override { return {scan_->progress_done(), scan_->progress_planned()}; }

 private:
  std::unique_ptr<scan::FileSetScan> scan_;
};

}  // namespace

scan::FileSetScanSpec::Prewhere ToScanPrewhere(PrewhereMode mode) {
  switch (mode) {
    case PrewhereMode::kOn: return scan::FileSetScanSpec::Prewhere::kOn;
    case PrewhereMode::kOff: return scan::FileSetScanSpec::Prewhere::kOff;
    case PrewhereMode::kAuto: break;
  }
  return scan::FileSetScanSpec::Prewhere::kAuto;
}

std::unique_ptr<Scan> MakeFileSetScan(std::unique_ptr<scan::FileSetScan> scan, const std::atomic<bool>* interrupted) {
  scan->SetInterrupt(interrupted);
  return std::make_unique<FileSetScanAdapter>(std::move(scan));
}

DeltaTableSource::DeltaTableSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                                   std::shared_ptr<io::FileSystem> log_fs)
    : table_(std::move(table)), name_(std::move(display_name)), log_fs_(std::move(log_fs)) {}

std::string DeltaTableSource::ToString() const {
  return "delta_scan(" + name_ + ", version " + std::to_string(table_->snapshot()->version()) + ")";
}

std::vector<std::vector<int>> DeltaTableSource::UniqueKeys() const {
  std::vector<std::vector<int>> keys;
  for (const auto& [key, text] : table_->snapshot()->metadata().configuration) {
    std::optional<std::vector<std::string>> columns = table::RelyUniqueKeyColumns(key, text);
    if (!columns) continue;
    std::vector<int> indices;
    for (const std::string& c : *columns) {
      int i = schema().Find(c);
      if (i < 0) break;
      indices.push_back(i);
    }
    if (indices.size() == columns->size()) keys.push_back(std::move(indices));
  }
  return keys;
}

std::optional<ColumnStats> DeltaTableSource::ColumnStatistics(int column) const {
  return DeltaColumnStatistics(*table_, column);
}

Result<std::unique_ptr<Scan>> DeltaTableSource::Open(const ScanRequest& request) const {
  scan::DeltaScanOptions o;
  o.columns = request.columns;
  o.filters = request.filters;
  o.batch_rows = request.batch_size > 0 ? request.batch_size : 2048;
  o.limit_hint = request.limit_hint;
  o.prewhere = ToScanPrewhere(request.prewhere);
  o.coded_strings = request.coded_strings;
  ASSIGN_OR_RETURN(auto scan, table_->Plan(o));
  scan->LimitPageBytes(request.max_page_bytes);
  return RecordQueryShape(MakeFileSetScan(std::move(scan), request.interrupted), log_fs_, table_, request);
}

std::string ParquetFilesSource::ToString() const {
  std::string s = "read_parquet(";
  for (size_t i = 0; i < files_->files().size() && i < 3; ++i) s += (i ? ", " : "") + files_->files()[i];
  if (files_->files().size() > 3) s += ", ...";
  return s + ")";
}

Result<std::unique_ptr<Scan>> ParquetFilesSource::Open(const ScanRequest& request) const {
  ASSIGN_OR_RETURN(auto scan, files_->Plan(request.columns, request.filters,
                                           request.batch_size > 0 ? request.batch_size : 2048, request.limit_hint,
                                           ToScanPrewhere(request.prewhere), request.coded_strings));
  scan->LimitPageBytes(request.max_page_bytes);
  return MakeFileSetScan(std::move(scan), request.interrupted);
}

}  // namespace shoal::sql
