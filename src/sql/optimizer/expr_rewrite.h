// Expression rewrites the optimizer rules share: substituting an operator's output expressions
// for column references, remapping column positions, recognizing a literal TRUE.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "expr/expr.h"
#include "shoal/status.h"

namespace shoal::sql {

// `e` with every column reference i replaced by exprs[i].
expr::ExprPtr Substitute(const expr::ExprPtr& e, const std::vector<expr::ExprPtr>& exprs);
// `e` with column i renumbered to mapping[i] (an error when mapping[i] < 0).
Result<expr::ExprPtr> Remap(const expr::ExprPtr& e, const std::vector<int>& mapping);
// Whether `e` is the literal TRUE.
bool IsTrue(const expr::ExprPtr& e);

}  // namespace shoal::sql
