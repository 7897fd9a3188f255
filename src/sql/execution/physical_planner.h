// Turns an optimized logical plan into physical operators (hash join for equi-joins,
// nested-loop join otherwise, top-N sort for ORDER BY + LIMIT, ...).
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

Result<PhysicalPtr> CreatePhysicalPlan(const LogicalOperator& op);

}  // namespace shoal::sql
