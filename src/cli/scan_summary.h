// One readable line of what a statement's scans read and what pruning skipped (the shell's
// --summary, used by `make demo`), e.g. "read 2 of 96 row groups in 1 of 4 files (1.1 MB);
// skipped 3 files by statistics, 94 row groups by statistics; 12 rows in 35 ms".
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "shoal/database.h"

namespace shoal::cli {

std::string ScanSummaryLine(const ScanMetrics& m);
// "512 B", "1.1 KB", "140 MB" (decimal units, one decimal below 10).
std::string HumanBytes(int64_t bytes);

}  // namespace shoal::cli
