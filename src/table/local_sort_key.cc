#include "table/local_sort_key.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace shoal::table {

using columnar::TypeId;

namespace {

constexpr uint8_t kNullFirstByte = 0;
constexpr uint8_t kValidByte = 1;
constexpr uint8_t kNullLastByte = 2;
constexpr uint8_t kLongString = SortKeyEncoder::kStringPrefix + 1;

// Bytes of a value's encoding (without the null byte); 0 for unsortable types.
int ValueWidth(const columnar::DataType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kInt8: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32:
    case TypeId::kDate:
    case TypeId::kFloat: return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kDouble:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return 8;
    case TypeId::kDecimal: return t.IsWideDecimal() ? 16 : 8;
    case TypeId::kString:
    case TypeId::kBinary: return SortKeyEncoder::kStringPrefix + 1;
    default: return 0;
  }
}

inline void StoreBE16(uint8_t* p, uint16_t v) { v = __builtin_bswap16(v); std::memcpy(p, &v, 2); }
inline void StoreBE32(uint8_t* p, uint32_t v) { v = __builtin_bswap32(v); std::memcpy(p, &v, 4); }
inline void StoreBE64(uint8_t* p, uint64_t v) { v = __builtin_bswap64(v); std::memcpy(p, &v, 8); }

inline uint32_t FloatBits(float f) {
  if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();  // one NaN, sorted last
  if (f == 0.0f) f = 0.0f;                                           // -0.0 == 0.0
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

inline uint64_t DoubleBits(double d) {
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  if (d == 0.0) d = 0.0;
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}

// Writes the value bytes of every row of `v` at `out + i*stride`.
void EncodeValues(const columnar::Vector& v, int64_t n, uint8_t* out, int stride) {
  switch (v.id()) {
    case TypeId::kBoolean: {
      const uint8_t* d = v.data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) out[i * stride] = d[i] != 0;
      break;
    }
    case TypeId::kInt8: {
      const int8_t* d = v.data<int8_t>();
      for (int64_t i = 0; i < n; ++i) out[i * stride] = static_cast<uint8_t>(d[i]) ^ 0x80u;
      break;
    }
    case TypeId::kInt16: {
      const int16_t* d = v.data<int16_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE16(out + i * stride, static_cast<uint16_t>(d[i]) ^ 0x8000u);
      break;
    }
    case TypeId::kInt32:
    case TypeId::kDate: {
      const int32_t* d = v.data<int32_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE32(out + i * stride, static_cast<uint32_t>(d[i]) ^ 0x80000000u);
      break;
    }
    case TypeId::kFloat: {
      const float* d = v.data<float>();
      for (int64_t i = 0; i < n; ++i) StoreBE32(out + i * stride, FloatBits(d[i]));
      break;
    }
    case TypeId::kUInt64: {
      const uint64_t* d = v.data<uint64_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE64(out + i * stride, d[i]);
      break;
    }
    case TypeId::kDouble: {
      const double* d = v.data<double>();
      for (int64_t i = 0; i < n; ++i) StoreBE64(out + i * stride, DoubleBits(d[i]));
      break;
    }
    case TypeId::kDecimal:
      if (v.type()->IsWideDecimal()) {
        const columnar::int128_t* d = v.data<columnar::int128_t>();
        for (int64_t i = 0; i < n; ++i) {
          unsigned __int128 u = static_cast<unsigned __int128>(d[i]) ^ (static_cast<unsigned __int128>(1) << 127);
          StoreBE64(out + i * stride, static_cast<uint64_t>(u >> 64));
          StoreBE64(out + i * stride + 8, static_cast<uint64_t>(u));
        }
        break;
      }
      [[fallthrough]];
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      const int64_t* d = v.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        StoreBE64(out + i * stride, static_cast<uint64_t>(d[i]) ^ 0x8000000000000000ull);
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const int64_t* o = v.offsets();
      const uint8_t* bytes = v.bytes().data();
      constexpr int P = SortKeyEncoder::kStringPrefix;
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = out + i * stride;
        int64_t len = o[i + 1] - o[i];
        int64_t take = std::min<int64_t>(len, P);
        if (take > 0) std::memcpy(p, bytes + o[i], static_cast<size_t>(take));
        if (take < P) std::memset(p + take, 0, static_cast<size_t>(P - take));
        p[P] = static_cast<uint8_t>(std::min<int64_t>(len, kLongString));
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

bool IsSortableType(const columnar::DataType& type) { return ValueWidth(type) > 0; }

Result<SortKeyEncoder> SortKeyEncoder::Make(const columnar::Schema& schema, std::vector<SortColumn> columns) {
  SortKeyEncoder e;
  e.offsets_.push_back(0);
  for (const SortColumn& c : columns) {
    if (c.column < 0 || static_cast<size_t>(c.column) >= schema.size()) {
      return Status::InvalidArgument("sort column index " + std::to_string(c.column) + " is out of range for " +
                                     std::to_string(schema.size()) + " columns");
    }
    const columnar::Field& f = schema[c.column];
    int w = ValueWidth(*f.type);
    if (w == 0) {
      return Status::InvalidArgument("cannot sort by column " + f.name + " of type " + f.type->ToString());
    }
    e.types_.push_back(f.type);
    e.offsets_.push_back(e.offsets_.back() + 1 + w);
  }
  e.columns_ = std::move(columns);
  e.width_ = e.offsets_.back();
  return e;
}

KeyRows SortKeyEncoder::Encode(const columnar::RecordBatch& batch) const {
  KeyRows k;
  k.width = width_;
  const int64_t n = batch.num_rows;
  k.bytes.resize(static_cast<size_t>(n * width_));
  uint8_t* base = k.bytes.data();
  for (size_t c = 0; c < columns_.size(); ++c) {
    const SortColumn& sc = columns_[c];
    const columnar::Vector& v = *batch.column(static_cast<size_t>(sc.column));
    const int off = offsets_[c];
    const int w = offsets_[c + 1] - off - 1;
    uint8_t* seg = base + off;
    EncodeValues(v, n, seg + 1, width_);
    if (sc.descending) {
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = seg + i * width_ + 1;
        for (int b = 0; b < w; ++b) p[b] = static_cast<uint8_t>(~p[b]);
      }
    }
    const uint8_t null_byte = sc.nulls_first ? kNullFirstByte : kNullLastByte;
    if (v.MayHaveNulls()) {
      const uint8_t* valid = v.validity().data();
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = seg + i * width_;
        if (valid[i]) {
          p[0] = kValidByte;
        } else {
          p[0] = null_byte;
          std::memset(p + 1, 0, static_cast<size_t>(w));
        }
      }
    } else {
      for (int64_t i = 0; i < n; ++i) seg[i * width_] = kValidByte;
    }
    if (v.type()->IsStringLike()) {
      // Only needed when some row's string is longer than the prefix.
      const int64_t* o = v.offsets();
      bool any_long = false;
      for (int64_t i = 0; i < n && !any_long; ++i) any_long = o[i + 1] - o[i] > kStringPrefix && v.IsValid(i);
      if (any_long) k.tie_breaks.push_back({offsets_[c + 1], sc.descending, &v});
    }
  }
  return k;
}

int CompareKeyRows(const KeyRows& a, int64_t i, const KeyRows& b, int64_t j) {
  const uint8_t* x = a.row(i);
  const uint8_t* y = b.row(j);
  // Both sides were encoded by one encoder, but only a side with long strings carries a
  // tie-break entry; walk the union of segments in key order.
  size_t ia = 0, ib = 0;
  int pos = 0;
  while (ia < a.tie_breaks.size() || ib < b.tie_breaks.size()) {
    int end;
    if (ib >= b.tie_breaks.size() || (ia < a.tie_breaks.size() && a.tie_breaks[ia].end <= b.tie_breaks[ib].end)) {
      end = a.tie_breaks[ia].end;
    } else {
      end = b.tie_breaks[ib].end;
    }
    int r = std::memcmp(x + pos, y + pos, static_cast<size_t>(end - pos));
    if (r != 0) return r;
    pos = end;
    const KeyRows::TieBreak* ta = ia < a.tie_breaks.size() && a.tie_breaks[ia].end == end ? &a.tie_breaks[ia] : nullptr;
    const KeyRows::TieBreak* tb = ib < b.tie_breaks.size() && b.tie_breaks[ib].end == end ? &b.tie_breaks[ib] : nullptr;
    if (ta) ++ia;
    if (tb) ++ib;
    if (ta && tb) {
      // Equal bytes so far: both long or neither; the length byte says which.
      uint8_t len = x[end - 1];
      if (ta->descending) len = static_cast<uint8_t>(~len);
      if (len == kLongString) {
        int s = ta->strings->GetString(i).compare(tb->strings->GetString(j));
        if (s != 0) return ta->descending ? -s : s;
      }
    }
  }
  return std::memcmp(x + pos, y + pos, static_cast<size_t>(a.width - pos));
}

std::vector<uint32_t> RadixSortKeyRows(const KeyRows& keys) {
  const int64_t n = keys.num_rows();
  const int w = keys.width;
  std::vector<uint32_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0u);
  if (n < 2) return perm;
  std::vector<uint32_t> counts(static_cast<size_t>(w) * 256, 0);
  const uint8_t* k = keys.bytes.data();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* r = k + i * w;
    for (int b = 0; b < w; ++b) ++counts[static_cast<size_t>(b) * 256 + r[b]];
  }
  std::vector<uint32_t> tmp(static_cast<size_t>(n));
  for (int b = w - 1; b >= 0; --b) {
    uint32_t* c = counts.data() + static_cast<size_t>(b) * 256;
    bool constant = false;
    for (int d = 0; d < 256 && !constant; ++d) constant = c[d] == static_cast<uint32_t>(n);
    if (constant) continue;
    uint32_t sum = 0;
    for (int d = 0; d < 256; ++d) {
      uint32_t x = c[d];
      c[d] = sum;
      sum += x;
    }
    for (int64_t i = 0; i < n; ++i) {
      uint32_t row = perm[static_cast<size_t>(i)];
      tmp[c[k[static_cast<size_t>(row) * w + b]]++] = row;
    }
    perm.swap(tmp);
  }
  return perm;
}

std::vector<uint32_t> SortKeyRows(const KeyRows& keys) {
  // LSD radix costs one pass per varying byte; beyond 16 bytes a comparison sort wins.
  if (keys.tie_breaks.empty() && keys.width <= 16) return RadixSortKeyRows(keys);
  const int64_t n = keys.num_rows();
  std::vector<uint32_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0u);
  const int w = keys.width;
  const uint8_t* k = keys.bytes.data();
  if (keys.tie_breaks.empty()) {
    std::sort(perm.begin(), perm.end(), [&](uint32_t x, uint32_t y) {
      int r = std::memcmp(k + static_cast<size_t>(x) * w, k + static_cast<size_t>(y) * w, static_cast<size_t>(w));
      return r < 0 || (r == 0 && x < y);
    });
  } else {
    std::sort(perm.begin(), perm.end(), [&](uint32_t x, uint32_t y) {
      int r = CompareKeyRows(keys, x, keys, y);
      return r < 0 || (r == 0 && x < y);
    });
  }
  return perm;
}

}  // namespace shoal::table
