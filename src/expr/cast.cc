#include "expr/cast.h"

#include <strings.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/time_zone.h"
#include "columnar/value_text.h"
#include "expr/physical_type.h"

namespace shoal::expr {

using columnar::DataType;
using columnar::TypeId;
using columnar::TypePtr;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Status ConversionError(const Vector& in, int64_t row, const TypePtr& to) {
  if (in.id() == TypeId::kString) {
    return Status::Conversion("Could not convert string '" + std::string(in.GetString(row)) + "' to " +
                              to->ToString());
  }
  return Status::Conversion("Could not convert " + in.type()->ToString() + " value " +
                            columnar::TextOf(in, row) + " to " + to->ToString());
}

// Rounds unscaled / 10^digits half away from zero.
int128_t DivRound(int128_t v, int digits) {
  if (digits <= 0) return v;
  if (digits > 38) return 0;
  int128_t p = columnar::Pow10(digits);
  int128_t q = v / p, r = v % p;
  if (r < 0) r = -r;
  if (r * 2 >= p) q += v < 0 ? -1 : 1;
  return q;
}

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T>;

// Range of integer slot type D as int128.
template <typename D>
bool FitsInteger(int128_t v) {
  return v >= static_cast<int128_t>(std::numeric_limits<D>::min()) &&
         v <= static_cast<int128_t>(std::numeric_limits<D>::max());
}

template <typename D>
bool DoubleToInteger(double d, D* out) {
  if (!std::isfinite(d)) return false;
  double r = std::trunc(d);  // toward zero, as Spark casts
  // Compare in double against exact powers of two to avoid UB on out-of-range conversion.
  constexpr double lo = static_cast<double>(std::numeric_limits<D>::min());
  constexpr double hi_excl = std::is_same_v<D, uint64_t> ? 18446744073709551616.0
                             : std::is_same_v<D, int64_t> ? 9223372036854775808.0
                                                           : static_cast<double>(std::numeric_limits<D>::max()) + 1.0;
  if (r < lo || r >= hi_excl) return false;
  *out = static_cast<D>(r);
  return true;
}

double DecimalToDouble(int128_t v, int scale) {
  constexpr int128_t kExact = int128_t{1} << 53;
  if (v > -kExact && v < kExact && scale <= 22) {
    return static_cast<double>(static_cast<int64_t>(v)) / std::pow(10.0, scale);
  }
  std::string s = columnar::FormatDecimal(v, scale);
  return std::strtod(s.c_str(), nullptr);
}

bool DoubleToDecimal(double d, int precision, int scale, int128_t* out) {
  if (!std::isfinite(d)) return false;
  double scaled = d * std::pow(10.0, scale);
  if (std::fabs(scaled) >= 1e38) return false;
  int128_t v;
  if (std::fabs(scaled) < 9007199254740992.0) {
    v = static_cast<int128_t>(std::round(scaled));
  } else {
    v = static_cast<int128_t>(scaled);
  }
  if (v > columnar::MaxUnscaled(precision) || v < -columnar::MaxUnscaled(precision)) return false;
  *out = v;
  return true;
}

// Fixed-width -> fixed-width loop; conv(src, &dst) returns false on failure.
template <typename S, typename D, typename Conv>
Status FixedLoop(const Vector& in, Vector* out, const TypePtr& to, bool try_cast, Conv conv) {
  int64_t n = in.size();
  out->Resize(n);
  if (in.MayHaveNulls()) out->validity() = in.validity();
  const S* src = in.data<S>();
  D* dst = out->data<D>();
  for (int64_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) {
      dst[i] = D{};
      continue;
    }
    if (!conv(src[i], &dst[i])) {
      if (!try_cast) return ConversionError(in, i, to);
      out->MutableValidity()[i] = 0;
      dst[i] = D{};
    }
  }
  return Status::OK();
}

// Numeric/boolean source S (with decimal scale `ss` when a decimal) to numeric/boolean target.
template <typename S>
Status CastFromNumeric(const Vector& in, Vector* out, const TypePtr& to, bool try_cast) {
  const bool src_dec = in.id() == TypeId::kDecimal;
  const int ss = src_dec ? in.type()->scale() : 0;
  auto to_i128 = [&](S v) -> int128_t {
    if constexpr (kIsFloat<S>) return 0;
    else return static_cast<int128_t>(v);
  };
  auto to_double = [&](S v) -> double {
    if constexpr (kIsFloat<S>) return static_cast<double>(v);
    else return src_dec ? DecimalToDouble(static_cast<int128_t>(v), ss) : static_cast<double>(v);
  };
  if (to->id() == TypeId::kBoolean) {
    return FixedLoop<S, uint8_t>(in, out, to, try_cast, [&](S v, uint8_t* d) {
      *d = v != S{} ? 1 : 0;
      return true;
    });
  }
  if (to->id() == TypeId::kFloat || to->id() == TypeId::kDouble) {
    auto go = [&](auto tag) {
      using D = decltype(tag);
      return FixedLoop<S, D>(in, out, to, try_cast, [&](S v, D* d) {
        double x = to_double(v);
        if constexpr (std::is_same_v<D, float>) {
          if (std::isfinite(x) && std::fabs(x) > std::numeric_limits<float>::max()) return false;
        }
        *d = static_cast<D>(x);
        return true;
      });
    };
    return to->id() == TypeId::kFloat ? go(float{}) : go(double{});
  }
  if (to->id() == TypeId::kDecimal) {
    const int p = to->precision(), s = to->scale();
    const int128_t max = columnar::MaxUnscaled(p);
    auto go = [&](auto tag) {
      using D = decltype(tag);
      return FixedLoop<S, D>(in, out, to, try_cast, [&](S v, D* d) {
        int128_t r;
        if constexpr (kIsFloat<S>) {
          if (!DoubleToDecimal(static_cast<double>(v), p, s, &r)) return false;
        } else {
          int128_t x = to_i128(v);
          if (s >= ss) {
            if (__builtin_mul_overflow(x, columnar::Pow10(s - ss), &r)) return false;
          } else {
            r = DivRound(x, ss - s);
          }
          if (r > max || r < -max) return false;
        }
        *d = static_cast<D>(r);
        return true;
      });
    };
    return to->IsWideDecimal() ? go(int128_t{}) : go(int64_t{});
  }
  // Integer targets.
  auto go = [&](auto tag) -> Status {
    using D = decltype(tag);
    return FixedLoop<S, D>(in, out, to, try_cast, [&](S v, D* d) {
      if constexpr (kIsFloat<S>) {
        return DoubleToInteger<D>(static_cast<double>(v), d);
      } else {
        // A DECIMAL loses its fraction toward zero, as Spark casts (CAST(3.7 AS INT) is 3).
        int128_t x = src_dec ? to_i128(v) / columnar::Pow10(ss) : to_i128(v);
        if (!FitsInteger<D>(x)) return false;
        *d = static_cast<D>(x);
        return true;
      }
    });
  };
  switch (to->id()) {
    case TypeId::kInt8: return go(int8_t{});
    case TypeId::kInt16: return go(int16_t{});
    case TypeId::kInt32: return go(int32_t{});
    case TypeId::kInt64: return go(int64_t{});
    case TypeId::kUInt64: return go(uint64_t{});
    default: return Status::Internal("bad numeric cast target " + to->ToString());
  }
}

bool ParseBool(std::string_view s, uint8_t* out) {
  s = Trim(s);
  auto eq = [&](const char* w) { return s.size() == std::strlen(w) && strncasecmp(s.data(), w, s.size()) == 0; };
  if (eq("true") || eq("t") || eq("1")) *out = 1;
  else if (eq("false") || eq("f") || eq("0")) *out = 0;
  else return false;
  return true;
}

template <typename D>
bool ParseInteger(std::string_view s, D* out) {
  s = Trim(s);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  D v{};
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  *out = v;
  return true;
}

bool ParseDouble(std::string_view s, double* out) {
  s = Trim(s);
  if (s.empty() || s.size() > 400) return false;
  std::string buf(s);
  char* end = nullptr;
  double d = std::strtod(buf.c_str(), &end);
  if (end != buf.c_str() + buf.size()) return false;
  // strtod accepts hex floats; SQL does not.
  if (buf.find_first_of("xX") != std::string::npos) return false;
  *out = d;
  return true;
}

Status CastFromString(const Vector& in, Vector* out, const TypePtr& to, bool try_cast, const columnar::TimeZone& zone) {
  int64_t n = in.size();
  if (to->id() == TypeId::kBinary || to->id() == TypeId::kString) {
    out->AppendFrom(in, 0, n);  // same layout: offsets + bytes
    return Status::OK();
  }
  auto parse = [&](auto tag, auto fn) -> Status {
    using D = decltype(tag);
    out->Resize(n);
    if (in.MayHaveNulls()) out->validity() = in.validity();
    D* dst = out->data<D>();
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = D{};
      if (in.IsNull(i)) continue;
      if (!fn(in.GetString(i), &dst[i])) {
        if (!try_cast) return ConversionError(in, i, to);
        out->MutableValidity()[i] = 0;
        dst[i] = D{};
      }
    }
    return Status::OK();
  };
  switch (to->id()) {
    case TypeId::kBoolean: return parse(uint8_t{}, ParseBool);
    case TypeId::kInt8: return parse(int8_t{}, ParseInteger<int8_t>);
    case TypeId::kInt16: return parse(int16_t{}, ParseInteger<int16_t>);
    case TypeId::kInt32: return parse(int32_t{}, ParseInteger<int32_t>);
    case TypeId::kInt64: return parse(int64_t{}, ParseInteger<int64_t>);
    case TypeId::kUInt64: return parse(uint64_t{}, ParseInteger<uint64_t>);
    case TypeId::kDouble: return parse(double{}, ParseDouble);
    case TypeId::kFloat:
      return parse(float{}, [](std::string_view s, float* d) {
        double x;
        if (!ParseDouble(s, &x)) return false;
        if (std::isfinite(x) && std::fabs(x) > std::numeric_limits<float>::max()) return false;
        *d = static_cast<float>(x);
        return true;
      });
    case TypeId::kDecimal: {
      int p = to->precision(), s = to->scale();
      auto fn = [p, s](std::string_view text, auto* d) {
        auto v = columnar::ParseDecimal(text, p, s);
        if (!v) return false;
        *d = static_cast<std::remove_pointer_t<decltype(d)>>(*v);
        return true;
      };
      return to->IsWideDecimal() ? parse(int128_t{}, fn) : parse(int64_t{}, fn);
    }
    case TypeId::kDate:
      return parse(int32_t{}, [](std::string_view s, int32_t* d) {
        auto v = columnar::ParseDate(Trim(s));
        if (!v) {
          // A timestamp string is a valid DATE source too: its date as written, the time and any
          // offset dropped (Spark's stringToDate).
          std::string_view zone_text;
          auto ts = columnar::ParseLocalTimestamp(Trim(s), &zone_text);
          if (!ts) return false;
          *d = static_cast<int32_t>(columnar::FloorDiv(*ts, columnar::kMicrosPerDay));
          return true;
        }
        *d = *v;
        return true;
      });
    case TypeId::kTime:
      return parse(int64_t{}, [](std::string_view s, int64_t* d) {
        auto v = columnar::ParseTime(Trim(s));
        if (!v) return false;
        *d = *v;
        return true;
      });
    case TypeId::kTimestamp:
      return parse(int64_t{}, [&zone](std::string_view s, int64_t* d) {
        auto v = columnar::ParseTimestampInZone(Trim(s), zone);
        if (!v) return false;
        *d = *v;
        return true;
      });
    case TypeId::kTimestampNtz:
      return parse(int64_t{}, [](std::string_view s, int64_t* d) {
        auto v = columnar::ParseTimestamp(Trim(s));
        if (!v) return false;
        *d = *v;
        return true;
      });
    default:
      return Status::NotSupported("Cannot cast STRING to " + to->ToString());
  }
}

Status CastToString(const Vector& in, Vector* out, const columnar::TimeZone& zone) {
  int64_t n = in.size();
  out->Reserve(n);
  if (in.id() == TypeId::kBinary) {
    out->AppendFrom(in, 0, n);
    return Status::OK();
  }
  std::string s;
  for (int64_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) {
      out->AppendNull();
      continue;
    }
    s.clear();
    columnar::AppendText(in, i, &s, &zone);
    out->AppendString(s);
  }
  return Status::OK();
}

// TIMESTAMP is an instant, read and written as a wall-clock time in `zone`; DATE and
// TIMESTAMP_NTZ are wall-clock values.
Status CastTemporal(const Vector& in, Vector* out, const TypePtr& to, bool try_cast, const columnar::TimeZone& zone) {
  TypeId f = in.id(), t = to->id();
  bool f_ts = f == TypeId::kTimestamp || f == TypeId::kTimestampNtz;
  bool t_ts = t == TypeId::kTimestamp || t == TypeId::kTimestampNtz;
  const columnar::TimeZone* from_zone = f == TypeId::kTimestamp ? &zone : nullptr;
  const columnar::TimeZone* to_zone = t == TypeId::kTimestamp ? &zone : nullptr;
  if (f == TypeId::kDate && t_ts) {
    return FixedLoop<int32_t, int64_t>(in, out, to, try_cast, [to_zone](int32_t d, int64_t* o) {
      if (__builtin_mul_overflow(static_cast<int64_t>(d), columnar::kMicrosPerDay, o)) return false;
      if (to_zone) *o = to_zone->ToUtc(*o);
      return true;
    });
  }
  if (f_ts && t == TypeId::kDate) {
    return FixedLoop<int64_t, int32_t>(in, out, to, try_cast, [from_zone](int64_t v, int32_t* o) {
      if (from_zone) v = from_zone->ToLocal(v);
      *o = static_cast<int32_t>(columnar::FloorDiv(v, columnar::kMicrosPerDay));
      return true;
    });
  }
  if (f_ts && t == TypeId::kTime) {
    return FixedLoop<int64_t, int64_t>(in, out, to, try_cast, [from_zone](int64_t v, int64_t* o) {
      if (from_zone) v = from_zone->ToLocal(v);
      *o = columnar::FloorMod(v, columnar::kMicrosPerDay);
      return true;
    });
  }
  if (f_ts && t_ts) {
    return FixedLoop<int64_t, int64_t>(in, out, to, try_cast, [from_zone, to_zone](int64_t v, int64_t* o) {
      if (from_zone) v = from_zone->ToLocal(v);  // TIMESTAMP -> TIMESTAMP_NTZ: the wall clock
      if (to_zone) v = to_zone->ToUtc(v);        // TIMESTAMP_NTZ -> TIMESTAMP: that wall clock's instant
      *o = v;
      return true;
    });
  }
  return Status::NotSupported("Cannot cast " + in.type()->ToString() + " to " + to->ToString());
}

Status CastInto(const VectorPtr& in, const TypePtr& to, bool try_cast, const columnar::TimeZone& zone,
                VectorPtr* result);

// Copies offsets/validity of a LIST/MAP and casts its child.
Status CastNested(const VectorPtr& in, const TypePtr& to, bool try_cast, const columnar::TimeZone& zone,
                  VectorPtr* result) {
  auto out = std::make_shared<Vector>(to);
  int64_t n = in->size();
  out->validity() = in->validity();
  if (to->id() == TypeId::kStruct) {
    for (size_t c = 0; c < to->children().size(); ++c) {
      VectorPtr child;
      RETURN_NOT_OK(CastInto(in->child(c), to->children()[c].type, try_cast, zone, &child));
      out->children()[c] = child;
    }
  } else {
    out->values() = in->values();
    VectorPtr child;
    RETURN_NOT_OK(CastInto(in->child(0), to->children()[0].type, try_cast, zone, &child));
    out->children()[0] = child;
  }
  out->SetLength(n);
  *result = out;
  return Status::OK();
}

Status CastInto(const VectorPtr& in, const TypePtr& to, bool try_cast, const columnar::TimeZone& zone,
                VectorPtr* result) {
  const TypePtr& from = in->type();
  if (from->Equals(*to)) {
    *result = in;
    return Status::OK();
  }
  int64_t n = in->size();
  if (from->id() == TypeId::kNull) {
    *result = Vector::MakeNull(to, n);
    return Status::OK();
  }
  if (!CanCast(from, to)) {
    return Status::Conversion("Unimplemented cast from " + from->ToString() + " to " + to->ToString());
  }
  if (from->IsNested() || to->IsNested()) {
    if (to->id() == TypeId::kString) {
      auto out = Vector::Make(to, n);
      RETURN_NOT_OK(CastToString(*in, out.get(), zone));
      *result = out;
      return Status::OK();
    }
    return CastNested(in, to, try_cast, zone, result);
  }
  auto out = Vector::Make(to, n);
  if (to->id() == TypeId::kString) {
    RETURN_NOT_OK(CastToString(*in, out.get(), zone));
  } else if (from->IsStringLike()) {
    RETURN_NOT_OK(CastFromString(*in, out.get(), to, try_cast, zone));
  } else if (from->IsTemporal() || to->IsTemporal()) {
    RETURN_NOT_OK(CastTemporal(*in, out.get(), to, try_cast, zone));
  } else {
    Status st = DispatchFixed(
        *from, [&](auto tag) { return CastFromNumeric<decltype(tag)>(*in, out.get(), to, try_cast); },
        [&] { return Status::NotSupported("Cannot cast " + from->ToString()); });
    RETURN_NOT_OK(st);
  }
  *result = out;
  return Status::OK();
}

bool IsNumberLike(const TypePtr& t) { return t->IsNumeric() || t->id() == TypeId::kBoolean; }

}  // namespace

bool CanCast(const TypePtr& from, const TypePtr& to) {
  TypeId f = from->id(), t = to->id();
  if (from->Equals(*to) || f == TypeId::kNull) return true;
  if (t == TypeId::kString) return true;
  if (f == TypeId::kString) return !to->IsNested();
  if (f == TypeId::kBinary || t == TypeId::kBinary) return false;
  if (IsNumberLike(from) && IsNumberLike(to)) return true;
  bool f_ts = f == TypeId::kTimestamp || f == TypeId::kTimestampNtz;
  bool t_ts = t == TypeId::kTimestamp || t == TypeId::kTimestampNtz;
  if ((f == TypeId::kDate && t_ts) || (f_ts && (t == TypeId::kDate || t == TypeId::kTime || t_ts))) return true;
  if (f == TypeId::kList && t == TypeId::kList) return CanCast(from->element(), to->element());
  if (f == TypeId::kMap && t == TypeId::kMap) {
    return CanCast(from->key(), to->key()) && CanCast(from->value(), to->value());
  }
  if (f == TypeId::kStruct && t == TypeId::kStruct) {
    if (from->children().size() != to->children().size()) return false;
    for (size_t i = 0; i < from->children().size(); ++i) {
      if (!CanCast(from->children()[i].type, to->children()[i].type)) return false;
    }
    return true;
  }
  return false;
}

Result<VectorPtr> CastVector(const VectorPtr& input, const TypePtr& to, bool try_cast,
                             const columnar::TimeZone* zone) {
  VectorPtr out;
  RETURN_NOT_OK(CastInto(input, to, try_cast, zone ? *zone : columnar::TimeZone::Utc(), &out));
  return out;
}

Result<columnar::Value> CastValue(const columnar::Value& value, const TypePtr& to, bool try_cast,
                                  const columnar::TimeZone* zone) {
  if (value.type()->Equals(*to)) return value;
  if (value.is_null()) return columnar::Value::Null(to);
  auto v = Vector::Make(value.type(), 1);
  value.AppendTo(v.get());
  ASSIGN_OR_RETURN(VectorPtr out, CastVector(v, to, try_cast, zone));
  return columnar::Value::FromVector(*out, 0);
}

}  // namespace shoal::expr
