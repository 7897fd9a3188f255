#include "sql/transaction_read_source.h"

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
  return inner_.Open(request);
}

}  // namespace shoal::sql
