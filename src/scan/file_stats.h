// Converts a data file's Delta statistics (the add action's stats JSON, already parsed by
// delta::ParseStatsJson) into typed per-column bounds for expr::CanMatch.
//
// Rules: stats are keyed by physical names; values are typed by the table column's type.
// Timestamps are stored truncated to milliseconds, so their bounds are widened by 1 ms each
// way. Long strings are stored as prefixes, so a max of 32 or more characters gets a maximal
// code point appended. With tightBounds=false (deletion vectors) min/max stay usable as bounds
// but null and row counts are dropped. Anything that does not parse is left unknown.
//
// Thread-safety: pure functions; FileStatsProvider is immutable after construction.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "columnar/value.h"
#include "delta/stats_json.h"
#include "expr/can_match.h"
#include "scan/delta_schema.h"

namespace shoal::scan {

// The bound of one stats JSON value for a column of `type`; nullopt when unusable.
// `is_max` selects the direction of widening for truncated values.
std::optional<columnar::Value> StatsJsonToValue(const delta::Json& json,
                                                const columnar::TypePtr& type, bool is_max);

// Statistics of `column` (a top-level, non-partition table column) from a file's stats.
expr::ColumnStats ColumnStatsFor(const delta::FileStats& stats, const TableColumn& column);

// ColumnStats by batch column index, for CanMatch.
class VectorStatsProvider final : public expr::ColumnStatsProvider {
 public:
  explicit VectorStatsProvider(std::vector<std::optional<expr::ColumnStats>> stats)
      : stats_(std::move(stats)) {}
  const expr::ColumnStats* Stats(int column) const override {
    if (column < 0 || column >= static_cast<int>(stats_.size()) || !stats_[column]) return nullptr;
    return &*stats_[column];
  }

 private:
  std::vector<std::optional<expr::ColumnStats>> stats_;
};

}  // namespace shoal::scan
