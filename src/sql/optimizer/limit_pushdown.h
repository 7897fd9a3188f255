// Pushes LIMIT down: ORDER BY + LIMIT becomes a top-N sort; a LIMIT over projections of an
// unfiltered scan caps the scan (limit_hint).
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

void PushDownLimits(LogicalOperator* op);

}  // namespace shoal::sql
