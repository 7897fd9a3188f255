// Rule-based logical optimizer: constant folding, filter pushdown (through projections,
// aggregates on group keys, joins — turning WHERE equalities over a cross product into hash
// join keys — and into scans), projection pruning (scans read only the columns used) and
// LIMIT pushdown (ORDER BY + LIMIT becomes a top-N sort; a bare LIMIT caps the scan).
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/logical_plan.h"

namespace shoal::sql {

Result<LogicalPtr> Optimize(LogicalPtr plan);

}  // namespace shoal::sql
