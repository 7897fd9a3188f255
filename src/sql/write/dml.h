// DELETE, UPDATE and MERGE on a Delta table (doc/dml.md): the statement's matched rows are
// found by a scan of the target with row addresses (DmlTargetSource) — through a hash join
// with the source for MERGE — and then deleted with deletion vectors (or copy-on-write
// rewrites), new row versions and inserted rows written as new data files, and the rows read
// recorded in the transaction's read set for row-level conflict detection.
//
// Thread-safety: each call runs one statement on the calling thread (operators may use the
// context's pool); the target's transaction must not be used concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "sql/parser/ast.h"
#include "sql/execution/physical_operator.h"
#include "txn/transaction.h"

namespace shoal::sql {

class Catalog;

// The table a statement changes and the transaction it stages into.
struct DmlTarget {
  std::shared_ptr<io::FileSystem> fs;
  // The table as the statement sees it; row-address file ids index its snapshot()->files().
  std::shared_ptr<const scan::DeltaTable> table;
  txn::Transaction* txn = nullptr;
  // Data files the statement wrote are appended here (deleted again if it fails).
  std::vector<std::string>* staged_files = nullptr;
};

// What the statement runs with: name resolution for the statement's expressions and source,
// and the execution settings.
struct DmlEnvironment {
  const Catalog* catalog = nullptr;
  ExecContext* ctx = nullptr;
};

struct DmlCounts {
  int64_t updated = 0;
  int64_t deleted = 0;
  int64_t inserted = 0;
  int64_t affected() const { return updated + deleted + inserted; }
};

Result<DmlCounts> ExecuteDelete(const DeleteStatement& s, const DmlTarget& target, DmlEnvironment& env);
Result<DmlCounts> ExecuteUpdate(const UpdateStatement& s, const DmlTarget& target, DmlEnvironment& env);
Result<DmlCounts> ExecuteMerge(const MergeStatement& s, const DmlTarget& target, DmlEnvironment& env);

}  // namespace shoal::sql
