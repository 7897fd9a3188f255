// A Delta table read inside a transaction: the table as the transaction sees it (its own
// staged writes applied) whose every scan records what it read — the pushed-down filters as
// read predicates (or the whole table) and the files left after partition and statistics
// pruning — in the transaction's read set, so the conflict checker can tell whether a
// concurrent commit added rows the statement should have seen or removed a file it read.
//
// Thread-safety: Open must not run concurrently with other uses of the transaction (the
// planner opens scans on one thread); the scans it returns follow DeltaTableSource.
#pragma once

#include <memory>
#include <string>

#include "sql/functions/delta_table_source.h"
#include "txn/transaction.h"

namespace shoal::sql {

class TransactionReadSource final : public TableSource {
 public:
  // `txn` must outlive the source.
  TransactionReadSource(std::shared_ptr<const scan::DeltaTable> table, std::string display_name,
                        txn::Transaction* txn);

  const columnar::Schema& schema() const override { return inner_.schema(); }
  std::string ToString() const override { return inner_.ToString(); }
  std::optional<int64_t> EstimatedRows() const override { return inner_.EstimatedRows(); }
  std::optional<ColumnStats> ColumnStatistics(int column) const override {
    return inner_.ColumnStatistics(column);
  }
  bool ExactFilters() const override { return true; }
  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override;

 private:
  DeltaTableSource inner_;
  txn::Transaction* txn_;
};

// Records in `txn`'s read set every file `scan` (planned over `view`, the transaction's view of
// the table) will read, as the transaction's snapshot holds it: a file with staged row deletions
// as its base add, and none of the transaction's own new files (no concurrent commit can remove
// those).
void RecordReadFiles(const delta::Snapshot& view, const scan::FileSetScan& scan, txn::Transaction* txn);

}  // namespace shoal::sql
