// ReadSet: what a transaction read from its snapshot, so the conflict checker can decide
// whether a concurrent commit changed it (doc/concurrency.md "Read set").
//
// Thread-safety: a plain value; not safe for concurrent mutation.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "expr/expr.h"

namespace shoal::txn {

// A filter the transaction evaluated against the table, bound to the table schema's top-level
// columns (scan::BuildTableSchema order), plus its SQL text for prepared transactions.
struct ReadPredicate {
  expr::ExprPtr expr;
  std::string sql;
};

// One data file the transaction's scans kept after pruning.
struct ReadFile {
  // The file's add action as read (rebase moves it onto a winner's re-add with a newer DV).
  delta::AddFile file;
  // Row level: the positions the transaction's predicate matched in this file. Absent means
  // the transaction depends on every row of the file.
  std::optional<delta::DeletionVector> matched_rows;
};

struct ReadSet {
  std::vector<ReadPredicate> predicates;
  bool whole_table = false;             // a scan without a usable predicate
  std::map<std::string, ReadFile> files;  // by add path
  std::set<std::string> app_ids;        // txn app ids consulted
  std::set<std::string> domains;        // domain metadata consulted

  // True when nothing of the table was read.
  bool Empty() const {
    return predicates.empty() && !whole_table && files.empty() && app_ids.empty() &&
           domains.empty();
  }
};

}  // namespace shoal::txn
