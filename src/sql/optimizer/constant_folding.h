// Folds constant subexpressions of every expression in a plan (expr::Fold), in place.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

void FoldConstants(LogicalOperator* op);

}  // namespace shoal::sql
