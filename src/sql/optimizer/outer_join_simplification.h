// Outer-to-inner join conversion: a filter above an outer join that cannot be TRUE when the
// columns of its NULL-padded side are all NULL removes every padded row, so the join may be
// inner (LEFT → INNER; FULL → LEFT or RIGHT, or INNER when both sides are rejected). Inner
// joins can then be reordered and take filters on both sides.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "expr/expr.h"
#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// Whether `pred` is NULL or FALSE whenever columns [begin, end) are all NULL (conservative:
// false when unsure).
bool RejectsNulls(const expr::Expr& pred, int begin, int end);

// Narrows `join`'s type given conjuncts `preds` (over its output columns) applied above it.
void SimplifyOuterJoin(LogicalOperator* join, const std::vector<expr::ExprPtr>& preds);

}  // namespace shoal::sql
