#include "sql/write/transaction_read_source.h"

#include <set>

namespace shoal::sql {

TransactionReadSource::TransactionReadSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                                             txn::Transaction* txn)
    : inner_(std::move(table), std::move(display_name)), txn_(txn) {}

Result<std::unique_ptr<Scan>> TransactionReadSource::Open(const ScanRequest& request) const {
  if (request.filters.empty()) {
    txn_->ReadWholeTable();
  } else {
    // Filters are over the requested columns; the read set wants table column indices.
    for (const expr::ExprPtr& f : request.filters) {
      auto bound = expr::RemapColumns(f, request.columns);
      if (!bound.ok()) {
        txn_->ReadWholeTable();
        continue;
      }
      txn_->ReadPredicate(*bound, (*bound)->ToString());
    }
  }
  scan::DeltaScanOptions o;
  o.columns = request.columns;
  o.filters = request.filters;
  o.batch_rows = request.batch_size > 0 ? request.batch_size : 2048;
  o.limit_hint = request.limit_hint;
  o.prewhere = ToScanPrewhere(request.prewhere);
  ASSIGN_OR_RETURN(auto scan, inner_.table()->Plan(o));
  RecordReadFiles(*inner_.table()->snapshot(), *scan, txn_);
  return MakeFileSetScan(std::move(scan), request.interrupted);
}

void RecordReadFiles(const delta::Snapshot& view, const scan::FileSetScan& scan, txn::Transaction* txn) {
  const delta::FileList& files = view.file_list();
  const txn::WriteSet& w = txn->write_set();
  std::set<std::string, std::less<>> own_adds;
  for (const delta::AddFile& a : w.adds) own_adds.insert(a.path);
  for (const scan::FileTask& task : scan.files()) {
    if (task.id < 0 || task.id >= static_cast<int64_t>(files.size())) continue;
    const std::string path(files.path(static_cast<size_t>(task.id)));
    if (auto del = w.row_deletes.find(path); del != w.row_deletes.end()) {
      txn->ReadFile(del->second.base);  // the view shows the staged DV; the read set wants the file as read
    } else if (!own_adds.count(path)) {
      txn->ReadFile(files.Get(static_cast<size_t>(task.id)));
    }
  }
}

}  // namespace shoal::sql
