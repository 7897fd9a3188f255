#include "expr/coercion.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdlib>
#include <string>

#include "columnar/decimal.h"

namespace shoal::expr {

using columnar::DataType;
using columnar::TypeId;

namespace {

int IntegerRank(TypeId id) {
  switch (id) {
    case TypeId::kInt8: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32: return 3;
    case TypeId::kInt64: return 4;
    case TypeId::kUInt64: return 5;
    default: return 0;
  }
}

bool IsTimestampLike(TypeId id) { return id == TypeId::kTimestamp || id == TypeId::kTimestampNtz; }

TypePtr WiderDecimal(const TypePtr& a, const TypePtr& b) {
  int scale = std::max(a->scale(), b->scale());
  int int_digits = std::max(a->precision() - a->scale(), b->precision() - b->scale());
  if (int_digits + scale > 38) scale = std::max(0, 38 - int_digits);
  return columnar::Decimal(std::min(38, int_digits + scale), scale);
}

bool DecimalHolds(const TypePtr& wide, const TypePtr& narrow) {
  return wide->scale() >= narrow->scale() &&
         wide->precision() - wide->scale() >= narrow->precision() - narrow->scale();
}

}  // namespace

TypePtr DecimalFor(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kInt8: return columnar::Decimal(3, 0);
    case TypeId::kInt16: return columnar::Decimal(5, 0);
    case TypeId::kInt32: return columnar::Decimal(10, 0);
    case TypeId::kInt64: return columnar::Decimal(19, 0);
    case TypeId::kUInt64: return columnar::Decimal(20, 0);
    case TypeId::kDecimal: return type;
    default: return nullptr;
  }
}

TypePtr BoundedDecimal(int precision, int scale) {
  if (precision <= 38) return columnar::Decimal(std::max(precision, 1), scale);
  int int_digits = precision - scale;
  int min_scale = std::min(scale, 6);
  int adjusted = std::max(38 - int_digits, min_scale);
  return columnar::Decimal(38, adjusted);
}

Result<TypePtr> CommonType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  TypeId x = a->id(), y = b->id();
  if (x == TypeId::kNull) return b;
  if (y == TypeId::kNull) return a;
  auto fail = [&]() -> Result<TypePtr> {
    return Status::Binder("Cannot find a common type for " + a->ToString() + " and " + b->ToString());
  };
  if (a->IsNumeric() && b->IsNumeric()) {
    if (a->IsInteger() && b->IsInteger()) {
      bool xu = x == TypeId::kUInt64, yu = y == TypeId::kUInt64;
      if (xu != yu) return columnar::Decimal(20, 0);
      return IntegerRank(x) >= IntegerRank(y) ? a : b;
    }
    if (a->IsFloating() || b->IsFloating()) {
      if (x == TypeId::kFloat && y == TypeId::kFloat) return a;
      return columnar::Float64();
    }
    return WiderDecimal(DecimalFor(a), DecimalFor(b));
  }
  if (x == TypeId::kString && !b->IsNested()) return b;
  if (y == TypeId::kString && !a->IsNested()) return a;
  if (x == TypeId::kDate && IsTimestampLike(y)) return b;
  if (y == TypeId::kDate && IsTimestampLike(x)) return a;
  if (IsTimestampLike(x) && IsTimestampLike(y)) return columnar::Timestamp();
  if (x != y) return fail();
  if (x == TypeId::kList) {
    auto e = CommonType(a->element(), b->element());
    if (!e.ok()) return fail();
    return columnar::List(*e);
  }
  if (x == TypeId::kMap) {
    auto k = CommonType(a->key(), b->key());
    auto v = CommonType(a->value(), b->value());
    if (!k.ok() || !v.ok()) return fail();
    return columnar::Map(*k, *v);
  }
  if (x == TypeId::kStruct) {
    if (a->children().size() != b->children().size()) return fail();
    std::vector<columnar::Field> fields;
    for (size_t i = 0; i < a->children().size(); ++i) {
      auto t = CommonType(a->children()[i].type, b->children()[i].type);
      if (!t.ok()) return fail();
      fields.push_back({a->children()[i].name, *t, true});
    }
    return columnar::Struct(std::move(fields));
  }
  return fail();
}

int ImplicitCastCost(const TypePtr& from, const TypePtr& to) {
  if (from->Equals(*to)) return 0;
  TypeId f = from->id(), t = to->id();
  if (f == TypeId::kNull) return 1;
  if (from->IsInteger()) {
    if (to->IsInteger()) {
      if (f == TypeId::kUInt64 || t == TypeId::kUInt64) return -1;
      return IntegerRank(t) > IntegerRank(f) ? IntegerRank(t) - IntegerRank(f) : -1;
    }
    if (t == TypeId::kDecimal) return DecimalHolds(to, DecimalFor(from)) ? 10 : -1;
    if (t == TypeId::kFloat) return 21;
    if (t == TypeId::kDouble) return 20;
  }
  if (f == TypeId::kDecimal) {
    if (t == TypeId::kDecimal) return DecimalHolds(to, from) ? 5 : -1;
    if (t == TypeId::kDouble) return 20;
  }
  if (f == TypeId::kFloat && t == TypeId::kDouble) return 1;
  if (f == TypeId::kString) {
    if (to->IsNumeric() || to->IsTemporal() || t == TypeId::kBoolean) return 50;
    if (t == TypeId::kBinary) return 60;
  }
  if (f == TypeId::kDate && IsTimestampLike(t)) return 5;
  if (IsTimestampLike(f) && IsTimestampLike(t)) return 5;
  if (t == TypeId::kString && !from->IsNested()) return 100;
  if (f == t && f == TypeId::kList) {
    int c = ImplicitCastCost(from->element(), to->element());
    return c < 0 ? -1 : c;
  }
  if (f == t && f == TypeId::kMap) {
    int k = ImplicitCastCost(from->key(), to->key());
    int v = ImplicitCastCost(from->value(), to->value());
    return k < 0 || v < 0 ? -1 : k + v;
  }
  if (f == t && f == TypeId::kStruct) {
    if (from->children().size() != to->children().size()) return -1;
    int total = 0;
    for (size_t i = 0; i < from->children().size(); ++i) {
      int c = ImplicitCastCost(from->children()[i].type, to->children()[i].type);
      if (c < 0) return -1;
      total += c;
    }
    return total;
  }
  return -1;
}

Result<columnar::Value> IntegerLiteral(std::string_view text) {
  std::string_view digits = text;
  bool neg = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    neg = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return Status::Conversion("Could not convert '" + std::string(text) + "' to an integer");
  }
  int64_t v = 0;
  auto r = std::from_chars(text.data() + (text[0] == '+' ? 1 : 0), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) {
    if (v >= INT32_MIN && v <= INT32_MAX) return columnar::Value::Int32(static_cast<int32_t>(v));
    return columnar::Value::Int64(v);
  }
  size_t nz = digits.find_first_not_of('0');
  size_t significant = nz == std::string_view::npos ? 0 : digits.size() - nz;
  if (significant > 38) {
    return Status::OutOfRange("Integer literal " + std::string(text) +
                              " is out of range (more than 38 digits)");
  }
  columnar::int128_t u = 0;
  for (char c : digits) u = u * 10 + (c - '0');
  return columnar::Value::Decimal(38, 0, neg ? -u : u);
}

Result<columnar::Value> DecimalLiteral(std::string_view text) {
  std::string_view t = text;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  size_t dot = t.find('.');
  std::string_view ip = dot == std::string_view::npos ? t : t.substr(0, dot);
  std::string_view fp = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
  if ((ip.empty() && fp.empty()) || ip.find_first_not_of("0123456789") != std::string_view::npos ||
      fp.find_first_not_of("0123456789") != std::string_view::npos) {
    return Status::Conversion("Could not convert '" + std::string(text) + "' to DECIMAL");
  }
  size_t nz = ip.find_first_not_of('0');
  int int_digits = nz == std::string_view::npos ? 0 : static_cast<int>(ip.size() - nz);
  int scale = static_cast<int>(fp.size());
  int precision = std::max(int_digits + scale, 1);
  if (precision > 38) return FloatLiteral(text);
  auto v = columnar::ParseDecimal(text, precision, scale);
  if (!v) return Status::Conversion("Could not convert '" + std::string(text) + "' to DECIMAL");
  return columnar::Value::Decimal(precision, scale, *v);
}

Result<columnar::Value> FloatLiteral(std::string_view text) {
  std::string s(text);
  errno = 0;
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) {
    return Status::Conversion("Could not convert '" + s + "' to DOUBLE");
  }
  if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL)) {
    return Status::OutOfRange("Floating-point literal " + s + " is out of range");
  }
  return columnar::Value::Double(d);
}

}  // namespace shoal::expr
