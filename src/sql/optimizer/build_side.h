// Build-side choice for outer joins (inner joins get theirs from join ordering): a LEFT join
// whose right input, the hash join's build side, is estimated much larger than its left input
// becomes a RIGHT join with the inputs swapped (RIGHT becomes LEFT, FULL stays FULL), under a
// projection restoring the column order, so the hash table holds the small side.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// Swaps when the build side is estimated at more than kBuildSwapRatio times the probe side.
inline constexpr double kBuildSwapRatio = 2.0;

Result<LogicalPtr> ChooseBuildSides(LogicalPtr plan);

}  // namespace shoal::sql
