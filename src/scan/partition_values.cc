#include "scan/partition_values.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "columnar/datetime.h"
#include "columnar/decimal.h"

namespace shoal::scan {
namespace {

Status Bad(const std::string& column, const std::string& text, const columnar::TypePtr& type) {
  return Status::Corruption("partition value '" + text + "' of column '" + column +
                            "' is not a valid " + type->ToString());
}

bool ParseInt(const std::string& s, int64_t* out) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b != e && *b == '+') ++b;
  auto r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr == e;
}

}  // namespace

Result<columnar::Value> ParsePartitionValue(const std::optional<std::string>& text,
                                            const columnar::TypePtr& type,
                                            const std::string& column) {
  using columnar::TypeId;
  using columnar::Value;
  if (!text.has_value() || text->empty()) return Value::Null(type);
  const std::string& s = *text;
  switch (type->id()) {
    case TypeId::kString: return Value::String(s);
    case TypeId::kBinary: return Value::Binary(s);
    case TypeId::kBoolean:
      if (s == "true" || s == "TRUE" || s == "True") return Value::Boolean(true);
      if (s == "false" || s == "FALSE" || s == "False") return Value::Boolean(false);
      return Bad(column, s, type);
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: {
      int64_t v = 0;
      if (!ParseInt(s, &v)) return Bad(column, s, type);
      int bits = type->id() == TypeId::kInt8 ? 8 : type->id() == TypeId::kInt16 ? 16
                 : type->id() == TypeId::kInt32 ? 32 : 64;
      if (bits < 64) {
        int64_t lim = int64_t{1} << (bits - 1);
        if (v < -lim || v >= lim) return Bad(column, s, type);
      }
      return Value::Integer(type, v);
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      char* end = nullptr;
      errno = 0;
      double d = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) return Bad(column, s, type);
      if (type->id() == TypeId::kFloat) return Value::Float(static_cast<float>(d));
      return Value::Double(d);
    }
    case TypeId::kDecimal: {
      auto u = columnar::ParseDecimal(s, type->precision(), type->scale());
      if (!u) return Bad(column, s, type);
      return Value::Decimal(type->precision(), type->scale(), *u);
    }
    case TypeId::kDate: {
      auto d = columnar::ParseDate(s);
      if (!d) return Bad(column, s, type);
      return Value::Date(*d);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      auto t = columnar::ParseTimestamp(s);
      if (!t) return Bad(column, s, type);
      return Value::Integer(type, *t);
    }
    case TypeId::kNull: return Value::Null(type);
    default:
      return Status::NotSupported("partition column '" + column + "' of type " + type->ToString() +
                                  " is not supported");
  }
}

}  // namespace shoal::scan
