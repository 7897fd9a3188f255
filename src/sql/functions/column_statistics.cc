#include "sql/functions/column_statistics.h"

#include <algorithm>
#include <cmath>

#include "delta/stats_scan.h"
#include "scan/file_stats.h"

namespace shoal::sql {

using columnar::TypeId;
using columnar::Value;

std::optional<double> NumericValue(const Value& value) {
  if (value.is_null()) return std::nullopt;
  const auto& t = *value.type();
  switch (t.id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return static_cast<double>(value.GetInt());
    case TypeId::kUInt64: return static_cast<double>(value.GetUInt());
    case TypeId::kFloat:
    case TypeId::kDouble: return value.GetDouble();
    case TypeId::kDecimal: return static_cast<double>(value.GetDecimal()) / std::pow(10.0, t.scale());
    default: return std::nullopt;
  }
}

double EstimateDistinct(const std::optional<Value>& min, const std::optional<Value>& max, double rows) {
  if (rows <= 1) return std::max(rows, 1.0);
  if (min && max && !min->is_null() && !max->is_null() && min->Compare(*max) == 0) return 1;
  if (min && max) {
    const auto& t = *min->type();
    auto lo = NumericValue(*min), hi = NumericValue(*max);
    if (lo && hi && !t.IsFloating()) {
      double unit = t.id() == TypeId::kDecimal ? std::pow(10.0, t.scale()) : 1.0;
      // Timestamps: distinct seconds at most (values rarely differ below that).
      if (t.id() == TypeId::kTimestamp || t.id() == TypeId::kTimestampNtz) unit = 1e-6;
      return std::clamp((*hi - *lo) * unit + 1, 1.0, rows);
    }
    if (t.IsFloating()) return rows;
    if (t.IsStringLike() && min->GetString().size() == 1 && max->GetString().size() == 1) {
      // One-character codes (flags): at most the characters between the bounds.
      const double span = static_cast<unsigned char>(max->GetString()[0]) -
                          static_cast<unsigned char>(min->GetString()[0]) + 1.0;
      return std::clamp(span, 1.0, rows);
    }
  }
  return std::min(rows, std::max(10.0, std::sqrt(rows)));
}

std::optional<ColumnStats> DeltaColumnStatistics(const scan::DeltaTable& table, int column) {
  const scan::TableSchema& schema = *table.schema();
  if (column < 0 || column >= static_cast<int>(schema.columns.size())) return std::nullopt;
  const scan::TableColumn& col = schema.columns[column];
  if (col.is_partition || col.type->IsNested()) return std::nullopt;
  const delta::FileList& files = table.snapshot()->file_list();
  std::vector<delta::ColumnPath> wanted{{col.physical_name}};
  ColumnStats out;
  double rows = 0;
  int64_t nulls = 0;
  bool nulls_known = true, bounds_known = true;
  for (size_t i = 0; i < files.size(); ++i) {
    auto text = files.stats(i);
    if (!text) return std::nullopt;
    auto parsed = delta::ParseStatsJsonFor(*text, wanted);
    if (!parsed.ok() || !parsed->num_records) return std::nullopt;
    rows += static_cast<double>(*parsed->num_records);
    expr::ColumnStats cs = scan::ColumnStatsFor(*parsed, col);
    if (cs.null_count) {
      nulls += *cs.null_count;
    } else {
      nulls_known = false;
    }
    const bool all_null = cs.null_count && *cs.null_count == *parsed->num_records;
    if (all_null) continue;
    if (!cs.min || !cs.max) {
      bounds_known = false;
      continue;
    }
    if (!out.min || cs.min->Compare(*out.min) < 0) out.min = cs.min;
    if (!out.max || cs.max->Compare(*out.max) > 0) out.max = cs.max;
  }
  if (!bounds_known) out.min.reset(), out.max.reset();
  if (nulls_known) out.null_count = nulls;
  out.distinct_count = EstimateDistinct(out.min, out.max, std::max(0.0, rows - (nulls_known ? nulls : 0)));
  return out;
}

}  // namespace shoal::sql
