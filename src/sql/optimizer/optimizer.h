// Rule-based logical optimizer: runs the rules of this folder, one file each, in order —
// decorrelation (correlated subqueries to joins), constant folding, filter pushdown, projection pruning, LIMIT pushdown.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

Result<LogicalPtr> Optimize(LogicalPtr plan);

}  // namespace shoal::sql
