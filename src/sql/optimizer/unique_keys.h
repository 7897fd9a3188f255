// Which output columns of a plan are unique: a table's RELY primary or unique key
// (TableSource::UniqueKeys), an aggregate's GROUP BY columns, carried through operators that
// neither duplicate rows nor change those columns. Used to drop a LEFT JOIN whose right side
// is used only to match (projection_pruning.cc).
#pragma once

#include <vector>

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// True when no two rows of `op`'s output agree on all of `columns` (output indices) — rows
// with a NULL in them aside, which never match an equi-join key. False when unknown.
bool IsUniqueOn(const LogicalOperator& op, const std::vector<int>& columns);

}  // namespace shoal::sql
