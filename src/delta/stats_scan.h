// Planning-speed reading of per-file statistics: one pass over the stats JSON string that keeps
// only numRecords, tightBounds and the entries of the wanted column paths, without building a
// JSON document. Planning a filter over a million files parses a million stats strings, and the
// document route (ParseStatsJson) spends most of its time allocating and freeing the values of
// columns the filter never looks at.
//
// The result equals ParseStatsJson(text) with min_values, max_values and null_count restricted to
// the wanted paths, and the same texts are rejected: the scan runs on JsonCursor, which
// validates what it reads and declines anything unusual (exponents, long numbers, deep
// nesting, wrongly typed fields), and a declined text goes through ParseStatsJson, whose
// answer is then cut to the wanted paths. A repeated key keeps its last value, as in the
// document.
//
// Thread-safety: a free function on its arguments.
#pragma once

#include <string_view>
#include <vector>

#include "delta/stats_json.h"
#include "shoal/status.h"

namespace shoal::delta {

Result<FileStats> ParseStatsJsonFor(std::string_view text, const std::vector<ColumnPath>& wanted);

}  // namespace shoal::delta
