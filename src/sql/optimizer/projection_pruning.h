// Prunes every operator to the columns its parent uses, so scans read only the columns a query
// needs; the root keeps all its columns.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

Status PruneColumns(LogicalOperator* root);

}  // namespace shoal::sql
