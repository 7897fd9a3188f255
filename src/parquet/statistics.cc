#include "parquet/statistics.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "columnar/string_bounds.h"
#include "columnar/utf8.h"

namespace shoal::parquet {
namespace {

bool IsDecimal(const SchemaElement& e) {
  return (e.logical_type && e.logical_type->kind == LogicalType::kDecimal) ||
         (e.converted_type && *e.converted_type == ConvertedType::kDecimal);
}

bool IsUnsignedInt(const SchemaElement& e) {
  if (e.logical_type && e.logical_type->kind == LogicalType::kInteger) return !e.logical_type->is_signed;
  if (!e.converted_type) return false;
  switch (*e.converted_type) {
    case ConvertedType::kUint8:
    case ConvertedType::kUint16:
    case ConvertedType::kUint32:
    case ConvertedType::kUint64:
      return true;
    default:
      return false;
  }
}

template <typename T>
T Load(std::string_view b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

template <typename T>
std::string Store(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

int CompareUnsignedBytes(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Big-endian two's complement numbers of any length (empty = 0).
int CompareSignedBytes(std::string_view a, std::string_view b) {
  bool na = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  bool nb = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (na != nb) return na ? -1 : 1;
  uint8_t pad = na ? 0xFF : 0x00;
  size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    size_t ia = i + a.size(), ib = i + b.size();  // index from the left after padding to n
    uint8_t ca = ia >= n ? static_cast<uint8_t>(a[ia - n]) : pad;
    uint8_t cb = ib >= n ? static_cast<uint8_t>(b[ib - n]) : pad;
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return 0;
}

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Length of the UTF-8 prefix of `v` of at most n bytes that ends on a character boundary.
size_t Utf8Boundary(std::string_view v, size_t n) {
  if (n >= v.size()) return v.size();
  while (n > 0 && (static_cast<uint8_t>(v[n]) & 0xC0) == 0x80) --n;
  return n;
}

// Decodes the last UTF-8 character of s: its code point and byte length; false when invalid.
bool LastCodePoint(std::string_view s, uint32_t* cp, size_t* len) {
  size_t i = s.size();
  size_t k = 0;
  while (i > 0 && k < 4) {
    --i;
    ++k;
    uint8_t b = static_cast<uint8_t>(s[i]);
    if ((b & 0xC0) == 0x80) continue;
    size_t need = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
    if (need != k) return false;
    uint32_t c = need == 1 ? b : need == 2 ? (b & 0x1F) : need == 3 ? (b & 0x0F) : (b & 0x07);
    for (size_t j = 1; j < need; ++j) c = (c << 6) | (static_cast<uint8_t>(s[i + j]) & 0x3F);
    *cp = c;
    *len = need;
    return true;
  }
  return false;
}

// Binary upper bound: the n-byte prefix with its last non-0xFF byte incremented.
bool BinaryRoundUp(std::string_view v, size_t n, std::string* out) {
  std::string p(v.substr(0, n));
  while (!p.empty() && static_cast<uint8_t>(p.back()) == 0xFF) p.pop_back();
  if (p.empty()) return false;
  p.back() = static_cast<char>(static_cast<uint8_t>(p.back()) + 1);
  *out = std::move(p);
  return true;
}

bool Utf8RoundUp(std::string_view v, size_t n, std::string* out) {
  std::string_view p = v.substr(0, Utf8Boundary(v, n));
  while (!p.empty()) {
    uint32_t cp = 0;
    size_t len = 0;
    if (!LastCodePoint(p, &cp, &len)) return false;
    p.remove_suffix(len);
    if (cp >= 0x10FFFF) continue;
    uint32_t next = cp + 1;
    if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;
    std::string r(p);
    columnar::AppendUtf8(next, &r);
    *out = std::move(r);
    return true;
  }
  return false;
}

}  // namespace

StatsKind StatsKindOf(const SchemaElement& e) {
  if (!e.type) return StatsKind::kNone;
  bool interval = e.converted_type && *e.converted_type == ConvertedType::kInterval;
  switch (*e.type) {
    case PhysicalType::kBoolean: return StatsKind::kBoolean;
    case PhysicalType::kInt32: return IsUnsignedInt(e) ? StatsKind::kUInt32 : StatsKind::kInt32;
    case PhysicalType::kInt64: return IsUnsignedInt(e) ? StatsKind::kUInt64 : StatsKind::kInt64;
    case PhysicalType::kInt96: return StatsKind::kNone;
    case PhysicalType::kFloat: return StatsKind::kFloat;
    case PhysicalType::kDouble: return StatsKind::kDouble;
    case PhysicalType::kByteArray: return IsDecimal(e) ? StatsKind::kSignedBytes : StatsKind::kBytes;
    case PhysicalType::kFixedLenByteArray:
      if (interval) return StatsKind::kNone;
      if (e.logical_type && e.logical_type->kind == LogicalType::kFloat16) return StatsKind::kNone;
      return IsDecimal(e) ? StatsKind::kSignedBytes : StatsKind::kBytes;
  }
  return StatsKind::kNone;
}

SortOrder SortOrderOf(StatsKind kind) {
  switch (kind) {
    case StatsKind::kInt32:
    case StatsKind::kInt64:
    case StatsKind::kFloat:
    case StatsKind::kDouble:
    case StatsKind::kSignedBytes:
      return SortOrder::kSigned;
    case StatsKind::kBoolean:
    case StatsKind::kUInt32:
    case StatsKind::kUInt64:
    case StatsKind::kBytes:
      return SortOrder::kUnsigned;
    case StatsKind::kNone:
      break;
  }
  return SortOrder::kUnknown;
}

int CompareEncoded(StatsKind kind, std::string_view a, std::string_view b) {
  switch (kind) {
    case StatsKind::kBoolean:
      return Cmp(a.empty() ? 0 : (a[0] & 1), b.empty() ? 0 : (b[0] & 1));
    case StatsKind::kInt32:
      if (a.size() < 4 || b.size() < 4) break;
      return Cmp(Load<int32_t>(a), Load<int32_t>(b));
    case StatsKind::kUInt32:
      if (a.size() < 4 || b.size() < 4) break;
      return Cmp(Load<uint32_t>(a), Load<uint32_t>(b));
    case StatsKind::kInt64:
      if (a.size() < 8 || b.size() < 8) break;
      return Cmp(Load<int64_t>(a), Load<int64_t>(b));
    case StatsKind::kUInt64:
      if (a.size() < 8 || b.size() < 8) break;
      return Cmp(Load<uint64_t>(a), Load<uint64_t>(b));
    case StatsKind::kFloat:
      if (a.size() < 4 || b.size() < 4) break;
      return Cmp(Load<float>(a), Load<float>(b));
    case StatsKind::kDouble:
      if (a.size() < 8 || b.size() < 8) break;
      return Cmp(Load<double>(a), Load<double>(b));
    case StatsKind::kSignedBytes:
      return CompareSignedBytes(a, b);
    case StatsKind::kBytes:
    case StatsKind::kNone:
      break;
  }
  return CompareUnsignedBytes(a, b);
}

std::string TruncateMin(std::string_view v, int64_t n, bool utf8, bool* exact) {
  *exact = true;
  if (n <= 0 || static_cast<int64_t>(v.size()) <= n) return std::string(v);
  size_t len = utf8 ? Utf8Boundary(v, static_cast<size_t>(n)) : static_cast<size_t>(n);
  *exact = false;
  return std::string(v.substr(0, len));
}

std::string TruncateMax(std::string_view v, int64_t n, bool utf8, bool* exact) {
  *exact = true;
  if (n <= 0 || static_cast<int64_t>(v.size()) <= n) return std::string(v);
  std::string out;
  if ((utf8 && Utf8RoundUp(v, static_cast<size_t>(n), &out)) || BinaryRoundUp(v, static_cast<size_t>(n), &out)) {
    *exact = false;
    return out;
  }
  return std::string(v);
}

// ---- StatsAccumulator

void StatsAccumulator::Reset() {
  has_min_max_ = false;
  null_count_ = 0;
  num_values_ = 0;
  smin_.clear();
  smax_.clear();
}

template <typename T>
void StatsAccumulator::UpdateNumeric(const T* v, int64_t n) {
  if (n <= 0) return;
  T mn = v[0], mx = v[0];
  for (int64_t i = 1; i < n; ++i) {
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
  }
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (!has_min_max_ || mn < static_cast<uint64_t>(imin_)) imin_ = static_cast<int64_t>(mn);
    if (!has_min_max_ || mx > static_cast<uint64_t>(imax_)) imax_ = static_cast<int64_t>(mx);
  } else {
    if (!has_min_max_ || static_cast<int64_t>(mn) < imin_) imin_ = static_cast<int64_t>(mn);
    if (!has_min_max_ || static_cast<int64_t>(mx) > imax_) imax_ = static_cast<int64_t>(mx);
  }
  has_min_max_ = true;
}

template <typename T>
void StatsAccumulator::UpdateFloating(const T* v, int64_t n) {
  T mn = std::numeric_limits<T>::infinity(), mx = -std::numeric_limits<T>::infinity();
  for (int64_t i = 0; i < n; ++i) {  // NaN compares false both ways and is skipped
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
  }
  if (!(mn <= mx)) return;  // no value, or all NaN
  // Keep -0.0 as the min and +0.0 as the max when zeros of both signs occur.
  if (!has_min_max_) {
    dmin_ = mn;
    dmax_ = mx;
  } else {
    if (mn < dmin_ || (mn == 0 && dmin_ == 0 && std::signbit(mn))) dmin_ = mn;
    if (mx > dmax_ || (mx == 0 && dmax_ == 0 && !std::signbit(mx))) dmax_ = mx;
  }
  has_min_max_ = true;
}

void StatsAccumulator::UpdateFixed(const void* values, int64_t n) {
  switch (kind_) {
    case StatsKind::kBoolean: UpdateNumeric(static_cast<const uint8_t*>(values), n); break;
    case StatsKind::kInt32: UpdateNumeric(static_cast<const int32_t*>(values), n); break;
    case StatsKind::kUInt32: UpdateNumeric(static_cast<const uint32_t*>(values), n); break;
    case StatsKind::kInt64: UpdateNumeric(static_cast<const int64_t*>(values), n); break;
    case StatsKind::kUInt64: UpdateNumeric(static_cast<const uint64_t*>(values), n); break;
    case StatsKind::kFloat: UpdateFloating(static_cast<const float*>(values), n); break;
    case StatsKind::kDouble: UpdateFloating(static_cast<const double*>(values), n); break;
    default: break;
  }
}

void StatsAccumulator::UpdateBytes(std::string_view lo, std::string_view hi) {
  if (!has_min_max_ || CompareEncoded(kind_, lo, smin_) < 0) smin_.assign(lo.data(), lo.size());
  if (!has_min_max_ || CompareEncoded(kind_, hi, smax_) > 0) smax_.assign(hi.data(), hi.size());
  has_min_max_ = true;
}

void StatsAccumulator::UpdateByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n) {
  if (n <= 0 || kind_ == StatsKind::kNone) return;
  auto at = [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(bytes) + offsets[i],
                            static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  std::string_view lo = at(0), hi = lo;
  if (kind_ == StatsKind::kSignedBytes) {
    for (int64_t i = 1; i < n; ++i) {
      std::string_view s = at(i);
      if (CompareSignedBytes(s, lo) < 0) lo = s;
      if (CompareSignedBytes(s, hi) > 0) hi = s;
    }
  } else {
    columnar::StringBounds b;
    for (int64_t i = 0; i < n; ++i) b.Add(at(i));
    lo = b.min();
    hi = b.max();
  }
  UpdateBytes(lo, hi);
}

void StatsAccumulator::UpdateFixedLenByteArrays(const uint8_t* values, int width, int64_t n) {
  if (n <= 0 || kind_ == StatsKind::kNone) return;
  auto at = [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(values) + i * width, static_cast<size_t>(width));
  };
  std::string_view lo = at(0), hi = lo;
  for (int64_t i = 1; i < n; ++i) {
    std::string_view s = at(i);
    if (CompareEncoded(kind_, s, lo) < 0) lo = s;
    if (CompareEncoded(kind_, s, hi) > 0) hi = s;
  }
  UpdateBytes(lo, hi);
}

void StatsAccumulator::Merge(const StatsAccumulator& o) {
  null_count_ += o.null_count_;
  num_values_ += o.num_values_;
  if (!o.has_min_max_) return;
  switch (kind_) {
    case StatsKind::kFloat:
    case StatsKind::kDouble: {
      double both[2] = {o.dmin_, o.dmax_};
      UpdateFloating(both, 2);
      break;
    }
    case StatsKind::kUInt64: {
      uint64_t both[2] = {static_cast<uint64_t>(o.imin_), static_cast<uint64_t>(o.imax_)};
      UpdateNumeric(both, 2);
      break;
    }
    case StatsKind::kBoolean:
    case StatsKind::kInt32:
    case StatsKind::kUInt32:
    case StatsKind::kInt64: {
      int64_t both[2] = {o.imin_, o.imax_};
      UpdateNumeric(both, 2);
      break;
    }
    case StatsKind::kBytes:
    case StatsKind::kSignedBytes:
      UpdateBytes(o.smin_, o.smax_);
      break;
    case StatsKind::kNone:
      break;
  }
}

std::string StatsAccumulator::EncodedMin(bool* exact) const {
  *exact = true;
  switch (kind_) {
    case StatsKind::kBoolean: return std::string(1, static_cast<char>(imin_ != 0));
    case StatsKind::kInt32: return Store(static_cast<int32_t>(imin_));
    case StatsKind::kUInt32: return Store(static_cast<uint32_t>(imin_));
    case StatsKind::kInt64:
    case StatsKind::kUInt64: return Store(imin_);
    case StatsKind::kFloat: return Store(dmin_ == 0 ? -0.0f : static_cast<float>(dmin_));
    case StatsKind::kDouble: return Store(dmin_ == 0 ? -0.0 : dmin_);
    case StatsKind::kBytes: return TruncateMin(smin_, truncate_, true, exact);
    case StatsKind::kSignedBytes: return smin_;
    case StatsKind::kNone: break;
  }
  return {};
}

std::string StatsAccumulator::EncodedMax(bool* exact) const {
  *exact = true;
  switch (kind_) {
    case StatsKind::kBoolean: return std::string(1, static_cast<char>(imax_ != 0));
    case StatsKind::kInt32: return Store(static_cast<int32_t>(imax_));
    case StatsKind::kUInt32: return Store(static_cast<uint32_t>(imax_));
    case StatsKind::kInt64:
    case StatsKind::kUInt64: return Store(imax_);
    case StatsKind::kFloat: return Store(dmax_ == 0 ? 0.0f : static_cast<float>(dmax_));
    case StatsKind::kDouble: return Store(dmax_ == 0 ? 0.0 : dmax_);
    case StatsKind::kBytes: return TruncateMax(smax_, truncate_, true, exact);
    case StatsKind::kSignedBytes: return smax_;
    case StatsKind::kNone: break;
  }
  return {};
}

Statistics StatsAccumulator::ToThrift() const {
  Statistics s;
  s.null_count = null_count_;
  if (has_min_max_ && kind_ != StatsKind::kNone) {
    bool min_exact = true, max_exact = true;
    s.min_value = EncodedMin(&min_exact);
    s.max_value = EncodedMax(&max_exact);
    if (kind_ == StatsKind::kBytes) {
      s.is_min_value_exact = min_exact;
      s.is_max_value_exact = max_exact;
    }
    bool numeric = kind_ == StatsKind::kInt32 || kind_ == StatsKind::kInt64 || kind_ == StatsKind::kFloat ||
                   kind_ == StatsKind::kDouble;
    if (numeric) {
      s.min = s.min_value;
      s.max = s.max_value;
    }
  }
  return s;
}

// ---- reading

Result<std::optional<columnar::Value>> DecodeBound(std::string_view b, const LeafColumn& leaf) {
  using columnar::Value;
  const columnar::TypePtr& t = leaf.type;
  auto need = [&](size_t n) -> Status {
    if (b.size() == n) return Status::OK();
    return Status::Corruption("statistics bound of column '" + leaf.dotted_path + "' has " +
                              std::to_string(b.size()) + " bytes, expected " + std::to_string(n));
  };
  auto decimal = [&](columnar::int128_t v) {
    return std::optional<Value>(Value::Decimal(t->precision(), t->scale(), v));
  };
  switch (leaf.physical) {
    case PhysicalType::kBoolean:
      RETURN_NOT_OK(need(1));
      return std::optional<Value>(Value::Boolean(b[0] & 1));
    case PhysicalType::kInt32: {
      RETURN_NOT_OK(need(4));
      int32_t v = Load<int32_t>(b);
      switch (leaf.conversion) {
        case Conversion::kNone:
        case Conversion::kInt32ToInt8:
        case Conversion::kInt32ToInt16:
          if (t->id() == columnar::TypeId::kDecimal) return decimal(v);
          return std::optional<Value>(Value::Integer(t, v));
        case Conversion::kUInt8ToInt16:
        case Conversion::kUInt16ToInt32:
        case Conversion::kUInt32ToInt64:
          return std::optional<Value>(Value::Integer(t, static_cast<uint32_t>(v)));
        case Conversion::kInt32ToInt64:
        case Conversion::kInt32ToInt128:
          return decimal(v);
        case Conversion::kMillisToMicros32:
          return std::optional<Value>(Value::Integer(t, int64_t{v} * 1000));
        default:
          return std::optional<Value>();
      }
    }
    case PhysicalType::kInt64: {
      RETURN_NOT_OK(need(8));
      int64_t v = Load<int64_t>(b);
      switch (leaf.conversion) {
        case Conversion::kNone:
          if (t->id() == columnar::TypeId::kUInt64) return std::optional<Value>(Value::UInt64(static_cast<uint64_t>(v)));
          if (t->id() == columnar::TypeId::kDecimal) return decimal(v);  // DECIMAL(p <= 18) on INT64
          return std::optional<Value>(Value::Integer(t, v));
        case Conversion::kInt32ToInt64:  // DECIMAL on INT64 with p <= 18 has no conversion
        case Conversion::kInt64ToInt128:
          return decimal(v);
        case Conversion::kMillisToMicros: {
          int64_t r;
          if (__builtin_mul_overflow(v, int64_t{1000}, &r)) return std::optional<Value>();
          return std::optional<Value>(Value::Integer(t, r));
        }
        case Conversion::kNanosToMicros: {
          int64_t q = v / 1000;
          if (v % 1000 < 0) --q;
          return std::optional<Value>(Value::Integer(t, q));
        }
        default:
          return std::optional<Value>();
      }
    }
    case PhysicalType::kFloat:
      RETURN_NOT_OK(need(4));
      return std::optional<Value>(Value::Float(Load<float>(b)));
    case PhysicalType::kDouble:
      RETURN_NOT_OK(need(8));
      return std::optional<Value>(Value::Double(Load<double>(b)));
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      if (leaf.physical == PhysicalType::kFixedLenByteArray && leaf.conversion != Conversion::kNone &&
          leaf.conversion != Conversion::kFlbaToBinary && leaf.conversion != Conversion::kBytesToDecimal) {
        // UUID text and FLOAT16 bounds are not offered.
        return std::optional<Value>();
      }
      if (leaf.conversion == Conversion::kBytesToDecimal) {
        if (b.empty() || b.size() > 16) return std::optional<Value>();
        unsigned __int128 u = (static_cast<uint8_t>(b[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
        for (char c : b) u = (u << 8) | static_cast<uint8_t>(c);
        return decimal(static_cast<columnar::int128_t>(u));
      }
      if (t->id() == columnar::TypeId::kString) return std::optional<Value>(Value::String(std::string(b)));
      if (t->id() == columnar::TypeId::kBinary) return std::optional<Value>(Value::Binary(std::string(b)));
      return std::optional<Value>();
    }
    case PhysicalType::kInt96:
      break;
  }
  return std::optional<columnar::Value>();
}

Result<ColumnStats> DecodeStatistics(const Statistics& s, const LeafColumn& leaf, const SchemaElement& element,
                                     const std::optional<ColumnOrder>& column_order) {
  ColumnStats out;
  out.null_count = s.null_count;
  out.distinct_count = s.distinct_count;
  out.nan_count = s.nan_count;
  StatsKind kind = StatsKindOf(element);
  SortOrder order = SortOrderOf(kind);
  if (order == SortOrder::kUnknown) return out;

  const std::optional<std::string>* lo = nullptr;
  const std::optional<std::string>* hi = nullptr;
  bool defined = column_order && (column_order->kind == 1 || column_order->kind == 2);
  bool numeric = kind == StatsKind::kInt32 || kind == StatsKind::kInt64 || kind == StatsKind::kFloat ||
                 kind == StatsKind::kDouble;
  if ((s.min_value || s.max_value) && (defined || (!column_order && order == SortOrder::kSigned))) {
    lo = &s.min_value;
    hi = &s.max_value;
    out.min_exact = s.is_min_value_exact.value_or(true);
    out.max_exact = s.is_max_value_exact.value_or(true);
  } else if ((s.min || s.max) && order == SortOrder::kSigned && numeric &&
             (!column_order || defined)) {
    lo = &s.min;
    hi = &s.max;
  } else {
    return out;
  }
  bool floating = kind == StatsKind::kFloat || kind == StatsKind::kDouble;
  auto take = [&](const std::optional<std::string>& src, bool is_min,
                  std::optional<columnar::Value>* dst) -> Status {
    if (!src) return Status::OK();
    ASSIGN_OR_RETURN(std::optional<columnar::Value> v, DecodeBound(*src, leaf));
    if (!v) return Status::OK();
    if (floating) {
      double d = v->GetDouble();
      if (std::isnan(d)) return Status::OK();
      if (d == 0) {
        double z = is_min ? -0.0 : 0.0;
        v = kind == StatsKind::kFloat ? columnar::Value::Float(static_cast<float>(z)) : columnar::Value::Double(z);
      }
    }
    *dst = std::move(*v);
    return Status::OK();
  };
  RETURN_NOT_OK(take(*lo, true, &out.min));
  RETURN_NOT_OK(take(*hi, false, &out.max));
  // A float chunk whose one bound is NaN gives no usable range at all.
  if (floating && (out.min.has_value() != out.max.has_value())) {
    out.min.reset();
    out.max.reset();
  }
  return out;
}

}  // namespace shoal::parquet
