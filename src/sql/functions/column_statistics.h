// Column statistics of table sources for the optimizer's estimates: a Delta snapshot's per-file
// log statistics (numRecords, minValues, maxValues, nullCount) folded into one ColumnStats per
// column, and the distinct-count estimate shared by every source that has min/max but no
// sketch.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <optional>

#include "columnar/value.h"
#include "scan/delta_scan.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

// `value` as a number on one axis per type (integers, dates and timestamps as their integer,
// decimals scaled, floating as is); nullopt for strings and other types.
std::optional<double> NumericValue(const columnar::Value& value);

// Approximate distinct count of a column with `rows` non-NULL values and the given bounds:
// for integer-like (integer, date, timestamp, decimal) columns min(rows, max - min + 1) in
// the type's unit, `rows` for floating columns, for strings whose bounds are one character the
// characters between them, for other strings and unknown bounds min(rows, max(10, sqrt(rows)))
// (categorical strings are common; erring towards many matches is the safer mistake for join
// ordering); 1 when min == max.
double EstimateDistinct(const std::optional<columnar::Value>& min, const std::optional<columnar::Value>& max,
                        double rows);

// Statistics of top-level column `column` of `table` from its log: min/max over every live
// file (absent when a file with non-NULL values lacks them), null count summed (absent when a
// file lacks it), distinct count by EstimateDistinct. nullopt for partition and nested columns
// or when a file has no numRecords.
std::optional<ColumnStats> DeltaColumnStatistics(const scan::DeltaTable& table, int column);

}  // namespace shoal::sql
