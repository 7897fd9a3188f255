#include "scan/file_stats.h"

#include <cmath>
#include <string>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "delta/json_fields.h"

namespace shoal::scan {
namespace {

constexpr int64_t kMicrosPerMilli = 1000;
constexpr size_t kStringPrefixChars = 32;  // Delta's default stats prefix length

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::optional<double> JsonDouble(const delta::Json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s == "NaN") return NAN;
    if (s == "Infinity") return INFINITY;
    if (s == "-Infinity") return -INFINITY;
  }
  return std::nullopt;
}

}  // namespace

std::optional<columnar::Value> StatsJsonToValue(const delta::Json& j, const columnar::TypePtr& type,
                                                bool is_max) {
  using columnar::TypeId;
  using columnar::Value;
  if (j.is_null()) return std::nullopt;
  switch (type->id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
      if (!j.is_number_integer()) return std::nullopt;
      return Value::Integer(type, j.get<int64_t>());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      auto d = JsonDouble(j);
      if (!d || std::isnan(*d)) return std::nullopt;
      if (type->id() == TypeId::kFloat) {
        // A float written through double text may round either way; step outward one ulp.
        float f = static_cast<float>(*d);
        f = std::nextafter(f, is_max ? INFINITY : -INFINITY);
        return Value::Float(f);
      }
      return Value::Double(*d);
    }
    case TypeId::kDecimal: {
      std::string text;
      if (j.is_string()) {
        text = j.get<std::string>();
      } else if (j.is_number_integer()) {
        text = delta::JsonText(j);
      } else if (j.is_number_float()) {
        // A double carries ~15 significant digits; beyond that the bound is not exact.
        if (type->precision() > 15) return std::nullopt;
        text = delta::JsonText(j);
      } else {
        return std::nullopt;
      }
      auto u = columnar::ParseDecimal(text, type->precision(), type->scale());
      if (!u) return std::nullopt;
      return Value::Decimal(type->precision(), type->scale(), *u);
    }
    case TypeId::kBoolean:
      if (!j.is_boolean()) return std::nullopt;
      return Value::Boolean(j.get<bool>());
    case TypeId::kString: {
      if (!j.is_string()) return std::nullopt;
      std::string s = j.get<std::string>();
      if (is_max && CodePoints(s) >= kStringPrefixChars) s += "\xF4\x8F\xBF\xBF";  // U+10FFFF
      return Value::String(std::move(s));
    }
    case TypeId::kDate: {
      if (!j.is_string()) return std::nullopt;
      auto d = columnar::ParseDate(j.get_ref<const std::string&>());
      if (!d) return std::nullopt;
      return Value::Date(*d);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      if (!j.is_string()) return std::nullopt;
      auto t = columnar::ParseTimestamp(j.get_ref<const std::string&>());
      if (!t) return std::nullopt;
      int64_t v = is_max ? *t + kMicrosPerMilli : *t - kMicrosPerMilli;
      return Value::Integer(type, v);
    }
    default: return std::nullopt;
  }
}

expr::ColumnStats ColumnStatsFor(const delta::FileStats& stats, const TableColumn& column) {
  expr::ColumnStats out;
  delta::ColumnPath path{column.physical_name};
  if (!column.type->IsNested()) {
    if (const delta::Json* mn = stats.Min(path)) out.min = StatsJsonToValue(*mn, column.type, false);
    if (const delta::Json* mx = stats.Max(path)) out.max = StatsJsonToValue(*mx, column.type, true);
    if (!out.min || !out.max) out.min.reset(), out.max.reset();
  }
  if (stats.TightBounds()) {
    out.null_count = stats.NullCount(path);
    out.row_count = stats.num_records;
  }
  return out;
}

}  // namespace shoal::scan
