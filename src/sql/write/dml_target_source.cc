#include "sql/write/dml_target_source.h"

#include "sql/functions/column_statistics.h"
#include "sql/functions/delta_table_source.h"
#include "sql/functions/query_log_recorder.h"

namespace shoal::sql {
namespace {

// Reorders a scan's output columns: out column i is input column permutation[i].
class PermutedScan final : public Scan {
 public:
  PermutedScan(std::unique_ptr<Scan> inner, std::vector<int> permutation, columnar::SchemaPtr schema)
      : inner_(std::move(inner)), permutation_(std::move(permutation)), schema_(std::move(schema)) {}

  std::unique_ptr<ScanLocalState> MakeLocal() override { return inner_->MakeLocal(); }
  Result<bool> Next(ScanLocalState* local, columnar::BatchPtr* out, uint64_t* order) override {
    columnar::BatchPtr in;
    ASSIGN_OR_RETURN(bool more, inner_->Next(local, &in, order));
    if (!more) return false;
    std::vector<columnar::VectorPtr> cols;
    cols.reserve(permutation_.size());
    for (int p : permutation_) cols.push_back(in->columns[p]);
    *out = std::make_shared<columnar::RecordBatch>(schema_, std::move(cols), in->num_rows);
    return true;
  }
  ScanMetrics metrics() const override { return inner_->metrics(); }
  WorkProgress progress() const override { return inner_->progress(); }

 private:
  std::unique_ptr<Scan> inner_;
  std::vector<int> permutation_;
  columnar::SchemaPtr schema_;
};

}  // namespace

DmlTargetSource::DmlTargetSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                                 std::shared_ptr<io::FileSystem> log_fs)
    : table_(std::move(table)), name_(std::move(display_name)), log_fs_(std::move(log_fs)) {
  schema_ = table_->schema()->schema;
  num_table_columns_ = static_cast<int>(schema_.size());
  schema_.fields.push_back({scan::kFileIdColumn, columnar::Int64(), false});
  schema_.fields.push_back({scan::kRowIndexColumn, columnar::Int64(), false});
}

std::optional<ColumnStats> DmlTargetSource::ColumnStatistics(int column) const {
  if (column < 0 || column >= num_table_columns_) return std::nullopt;
  return DeltaColumnStatistics(*table_, column);
}

std::string DmlTargetSource::ToString() const {
  return "dml_target(" + name_ + ", version " + std::to_string(table_->snapshot()->version()) + ")";
}

Result<std::unique_ptr<Scan>> DmlTargetSource::Open(const ScanRequest& request) const {
  const int n = num_table_columns_;
  scan::DeltaScanOptions o;
  // Scan output: the requested table columns in request order, then (file id, row index).
  std::vector<int> scan_pos(request.columns.size(), -1);
  bool address = false;
  for (size_t i = 0; i < request.columns.size(); ++i) {
    int c = request.columns[i];
    if (c < 0 || c >= n + 2) return Status::InvalidArgument("dml_target: column " + std::to_string(c) + " out of range");
    if (c < n) {
      scan_pos[i] = static_cast<int>(o.columns.size());
      o.columns.push_back(c);
    } else {
      address = true;
    }
  }
  const int base = static_cast<int>(o.columns.size());
  for (size_t i = 0; i < request.columns.size(); ++i) {
    if (request.columns[i] >= n) scan_pos[i] = base + (request.columns[i] - n);
  }
  // Filters are over request positions; move them onto scan positions.
  std::vector<int> mapping(request.columns.size(), -1);
  for (size_t i = 0; i < request.columns.size(); ++i) {
    if (request.columns[i] < n) mapping[i] = scan_pos[i];
  }
  for (const expr::ExprPtr& f : request.filters) {
    for (int c : expr::CollectColumns(*f)) {
      if (c < 0 || c >= static_cast<int>(mapping.size()) || mapping[c] < 0) {
        return Status::InvalidArgument("dml_target: a pushed filter refers to a row-address column: " + f->ToString());
      }
    }
    ASSIGN_OR_RETURN(expr::ExprPtr g, expr::RemapColumns(f, mapping));
    o.filters.push_back(std::move(g));
  }
  o.batch_rows = request.batch_size > 0 ? request.batch_size : 2048;
  o.limit_hint = request.limit_hint;
  o.with_row_address = address;
  ASSIGN_OR_RETURN(auto planned, table_->Plan(o));
  std::unique_ptr<Scan> scan = MakeFileSetScan(std::move(planned), request.interrupted);
  bool identity = true;
  for (size_t i = 0; i < scan_pos.size(); ++i) identity = identity && scan_pos[i] == static_cast<int>(i);
  if (!identity || (address && scan_pos.size() != static_cast<size_t>(base + 2))) {
    auto out_schema = std::make_shared<columnar::Schema>();
    for (int c : request.columns) out_schema->fields.push_back(schema_.fields[c]);
    scan = std::make_unique<PermutedScan>(std::move(scan), std::move(scan_pos), std::move(out_schema));
  }
  // The statement's WHERE / ON conjuncts over the target, in the same log as queries'. The
  // address columns (>= the table's column count) never name a logged column.
  return RecordQueryShape(std::move(scan), log_fs_, table_, request);
}

}  // namespace shoal::sql
