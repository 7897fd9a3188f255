// Renders a statement's ScanMetrics for EXPLAIN ANALYZE: one line per level of the pruning
// stack (DESIGN.md §2, cheapest first) saying what that level pruned — files, row groups,
// pages or rows — and a closing line with what was read, so a reader sees at which level a
// filter paid off.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "shoal/database.h"

namespace shoal::sql {

// The pruning lines, e.g. "  row-group stats   row groups pruned 3 of 82", then "Read: ...".
std::vector<std::string> PruningReport(const ScanMetrics& m);

}  // namespace shoal::sql
