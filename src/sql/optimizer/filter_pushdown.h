// Pushes filters down the plan: through projections, aggregates (conjuncts on group keys only),
// sorts without a limit, unions and joins (per side as the join type allows; conjuncts over
// both sides of an inner join become hash keys or its residual), into scans as pushed-down
// filters. WHERE equalities over a cross product thus become hash join keys.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

Result<LogicalPtr> PushDownFilters(LogicalPtr plan);

}  // namespace shoal::sql
