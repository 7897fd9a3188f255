// Per-file statistics JSON (PROTOCOL.md "Per-file Statistics", the `stats` string of add and
// remove actions): parsed into a neutral per-column form and written back.
//
// Min/max values stay JSON values (typed conversion needs the schema and happens in the scan
// layer); nested struct columns are flattened to column paths.
// Thread-safety: plain values and free functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "delta/json_fields.h"
#include "shoal/status.h"

namespace shoal::delta {

// A column path: top-level name first, then nested struct field names (physical names when
// column mapping is on).
using ColumnPath = std::vector<std::string>;

struct FileStats {
  std::optional<int64_t> num_records;
  // Treated as true when absent (PROTOCOL.md).
  std::optional<bool> tight_bounds;
  std::map<ColumnPath, Json> min_values;
  std::map<ColumnPath, Json> max_values;
  std::map<ColumnPath, int64_t> null_count;

  bool TightBounds() const { return tight_bounds.value_or(true); }
  const Json* Min(const ColumnPath& c) const;
  const Json* Max(const ColumnPath& c) const;
  std::optional<int64_t> NullCount(const ColumnPath& c) const;
  bool operator==(const FileStats&) const = default;
};

// Parses one stats string; Corruption on malformed JSON or wrongly typed known fields.
// Unknown top-level keys are ignored.
Result<FileStats> ParseStatsJson(std::string_view text);
// Writes stats as Spark does: numRecords, minValues, maxValues, nullCount, tightBounds
// (absent parts omitted), struct columns as nested objects.
std::string SerializeStatsJson(const FileStats& stats);

}  // namespace shoal::delta
