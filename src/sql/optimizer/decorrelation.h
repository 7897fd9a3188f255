// Decorrelation: rewrites the binder's dependent joins (correlated subqueries, see
// logical_plan.h SubqueryInfo) into plain semi, anti, mark, single, inner and left joins,
// following Neumann & Kemper, "Unnesting Arbitrary Queries" (BTW 2015). doc/subqueries.md
// describes the rules. Runs first in Optimize; no outer reference survives it.
//
// Thread-safety: a pure function of the plan it is given.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// Rewrites every dependent join of `plan`. Errors: NotSupported naming the construct that
// cannot be decorrelated (e.g. LIMIT inside a correlated subquery).
Result<LogicalPtr> Decorrelate(LogicalPtr plan);

// Whether `op`'s tree still holds a dependent join or an outer reference (tests, checks).
bool HasDependentJoin(const LogicalOperator& op);

}  // namespace shoal::sql
