// Statistics-based predicate check for pruning (partitions, files, row groups, pages): given
// per-column bounds and null counts, decides whether a predicate can be TRUE for any row.
//
// The analysis tracks, per subexpression, which truth values (TRUE / FALSE / NULL) some row
// could produce; NOT swaps TRUE and FALSE, AND/OR combine by three-valued logic. Anything it
// does not understand is "could be anything", so it never prunes a range with a match.
// Understood: comparisons `column op literal` (either side; the column possibly under a
// widening cast), IN lists, IS [NOT] NULL, LIKE 'prefix%', IS [NOT] DISTINCT FROM, and
// AND/OR/NOT over them; BETWEEN arrives as AND.
//
// Thread-safety: pure functions; the provider is only read.
#pragma once

#include <cstdint>
#include <optional>

#include "columnar/value.h"
#include "expr/expr.h"

namespace shoal::expr {

// Statistics of one column over a range of rows. Absent fields are unknown.
// Invariant the provider guarantees: min <= every non-NULL value <= max (bounds may be loose,
// e.g. truncated strings widened outward). Floating-point bounds may ignore NaN (Parquet does),
// so NaN is always assumed possible in a floating column unless the provider says otherwise.
struct ColumnStats {
  std::optional<columnar::Value> min;
  std::optional<columnar::Value> max;
  std::optional<int64_t> null_count;
  std::optional<int64_t> row_count;
  bool may_have_nan = true;  // floating columns only
};

class ColumnStatsProvider {
 public:
  virtual ~ColumnStatsProvider() = default;
  // Statistics for the batch column index used by the predicate's column refs; null when
  // unknown.
  virtual const ColumnStats* Stats(int column) const = 0;
};

enum class TriState : uint8_t {
  kFalse,  // no row can satisfy the predicate: prune
  kMaybe,  // some row might
  kTrue,   // every row satisfies it
};

TriState CanMatch(const Expr& predicate, const ColumnStatsProvider& stats);

}  // namespace shoal::expr
