// Decides whether a file a concurrent commit added holds rows a transaction's read predicate
// would have matched (the concurrent-append check, doc/concurrency.md step 4).
//
// FileMayMatch judges by partition values and the add's log statistics (never a false "no").
// AddedRowsMatcher is the row-level refinement: the scan layer implements it by reading the
// file's rows; StatsOnlyMatcher is the conservative stand-in that answers from statistics.
// Thread-safety: FileMayMatch is pure; implementations of AddedRowsMatcher must be safe for
// concurrent calls (the provided one is stateless).
#pragma once

#include <memory>

#include "delta/actions.h"
#include "expr/expr.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"

namespace shoal::txn {

// False only when no row of `file` can satisfy `predicate` (bound to `schema`'s top-level
// columns), judged from partition values and stats; unknown or unparsable stats give true.
bool FileMayMatch(const delta::AddFile& file, const expr::Expr& predicate,
                  const scan::TableSchema& schema);

// A partition description for messages: "partition [a=1, b=2]" or "the root of the table".
std::string DescribePartition(const delta::AddFile& file,
                              const std::vector<std::string>& partition_columns);

class AddedRowsMatcher {
 public:
  virtual ~AddedRowsMatcher() = default;
  // True when some live row of `file` (rows in its deletion vector excluded) satisfies
  // `predicate`; true when unsure. `table_root` locates the file.
  virtual Result<bool> AnyRowMatches(const std::string& table_root, const delta::AddFile& file,
                                     const expr::Expr& predicate,
                                     const scan::TableSchema& schema) = 0;
};

// Answers from partition values and statistics only (FileMayMatch).
class StatsOnlyMatcher final : public AddedRowsMatcher {
 public:
  Result<bool> AnyRowMatches(const std::string& table_root, const delta::AddFile& file,
                             const expr::Expr& predicate, const scan::TableSchema& schema) override {
    return FileMayMatch(file, predicate, schema);
  }
};

}  // namespace shoal::txn
