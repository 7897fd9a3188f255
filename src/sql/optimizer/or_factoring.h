// Rewrites of OR predicates: factoring conjuncts common to every branch out of an OR
// ((a AND b) OR (a AND c) → a AND (b OR c), so a join key inside every branch of TPC-H Q19
// becomes a hash key), and the predicate an OR implies for one input when every branch
// constrains that input (join_order.cc pushes it into that input).
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <optional>

#include "expr/expr.h"
#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// `e` with common conjuncts factored out of every OR inside it (recursively). Equivalent under
// SQL's three-valued logic (AND/OR are distributive there).
Result<expr::ExprPtr> FactorOr(const expr::ExprPtr& e);

// For an OR `e`: OR over its branches of the AND of the branch's conjuncts for which `keep`
// holds; nullopt when some branch has no such conjunct (or `e` is no OR). The result is implied
// by `e`: every row for which `e` is TRUE makes it TRUE.
Result<std::optional<expr::ExprPtr>> ImpliedByOr(const expr::ExprPtr& e,
                                                 const std::function<bool(const expr::Expr&)>& keep);

// Applies FactorOr to every filter predicate, join residual and scan filter of the plan.
Status FactorOrPredicates(LogicalOperator* op);

}  // namespace shoal::sql
