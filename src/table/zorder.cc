#include "table/zorder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>

namespace shoal::table {

namespace {

using columnar::TypeId;
using columnar::Vector;

// Order-preserving unsigned key of row i of a fixed-width column.
template <typename T>
uint64_t SignedKey(const Vector& v, int64_t i) {
  return static_cast<uint64_t>(static_cast<int64_t>(v.Get<T>(i))) ^ (uint64_t{1} << 63);
}

uint64_t DoubleKey(double d) {
  uint64_t bits;
  static_assert(sizeof(bits) == sizeof(d));
  std::memcpy(&bits, &d, sizeof(bits));
  return (bits >> 63) ? ~bits : bits | (uint64_t{1} << 63);
}

// Fills keys[i] for every row (NULL rows get 0, they are not ranked).
Status FixedKeys(const Vector& v, std::vector<uint64_t>* keys) {
  int64_t n = v.size();
  keys->resize(static_cast<size_t>(n));
  uint64_t* k = keys->data();
  switch (v.id()) {
    case TypeId::kBoolean:
      for (int64_t i = 0; i < n; ++i) k[i] = v.Get<uint8_t>(i) != 0;
      return Status::OK();
    case TypeId::kInt8:
      for (int64_t i = 0; i < n; ++i) k[i] = SignedKey<int8_t>(v, i);
      return Status::OK();
    case TypeId::kInt16:
      for (int64_t i = 0; i < n; ++i) k[i] = SignedKey<int16_t>(v, i);
      return Status::OK();
    case TypeId::kInt32:
    case TypeId::kDate:
      for (int64_t i = 0; i < n; ++i) k[i] = SignedKey<int32_t>(v, i);
      return Status::OK();
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
      for (int64_t i = 0; i < n; ++i) k[i] = SignedKey<int64_t>(v, i);
      return Status::OK();
    case TypeId::kUInt64:
      for (int64_t i = 0; i < n; ++i) k[i] = v.Get<uint64_t>(i);
      return Status::OK();
    case TypeId::kFloat:
      for (int64_t i = 0; i < n; ++i) k[i] = DoubleKey(static_cast<double>(v.Get<float>(i)));
      return Status::OK();
    case TypeId::kDouble:
      for (int64_t i = 0; i < n; ++i) k[i] = DoubleKey(v.Get<double>(i));
      return Status::OK();
    case TypeId::kDecimal:
      if (v.type()->precision() <= 18) {
        for (int64_t i = 0; i < n; ++i) k[i] = SignedKey<int64_t>(v, i);
      } else {
        // Saturate to the int64 range: still monotone, only extreme values share a key.
        constexpr columnar::int128_t lo = std::numeric_limits<int64_t>::min();
        constexpr columnar::int128_t hi = std::numeric_limits<int64_t>::max();
        for (int64_t i = 0; i < n; ++i) {
          columnar::int128_t x = std::clamp(v.Get<columnar::int128_t>(i), lo, hi);
          k[i] = static_cast<uint64_t>(static_cast<int64_t>(x)) ^ (uint64_t{1} << 63);
        }
      }
      return Status::OK();
    default:
      return Status::InvalidArgument("ZORDER BY does not support type " + v.type()->ToString());
  }
}

// Indices of the non-null rows to sample: all of them, or `options.sample_rows` drawn with a
// fixed seed.
std::vector<int64_t> SampleRows(const Vector& v, const ZOrderOptions& options) {
  std::vector<int64_t> valid;
  int64_t n = v.size();
  int64_t nulls = v.MayHaveNulls() ? v.CountNulls() : 0;
  int64_t non_null = n - nulls;
  if (non_null <= options.sample_rows) {
    valid.reserve(static_cast<size_t>(non_null));
    for (int64_t i = 0; i < n; ++i) {
      if (v.IsValid(i)) valid.push_back(i);
    }
    return valid;
  }
  std::mt19937_64 rng(options.seed);
  std::uniform_int_distribution<int64_t> pick(0, n - 1);
  valid.reserve(static_cast<size_t>(options.sample_rows));
  // non_null > sample_rows >= 0, so valid rows exist; draws that hit NULLs are retried.
  while (static_cast<int64_t>(valid.size()) < options.sample_rows) {
    int64_t i = pick(rng);
    if (v.IsValid(i)) valid.push_back(i);
  }
  return valid;
}

// Boundaries at the quantiles i * S / R (i = 1 .. R-1) of the sorted sample, deduplicated.
template <typename K>
std::vector<K> QuantileBoundaries(std::vector<K> sample, uint64_t ranges) {
  std::sort(sample.begin(), sample.end());
  std::vector<K> bounds;
  uint64_t s = sample.size();
  if (s == 0) return bounds;
  for (uint64_t i = 1; i < ranges; ++i) {
    uint64_t at = static_cast<uint64_t>((static_cast<unsigned __int128>(i) * s) / ranges);
    if (at >= s) break;
    // A boundary starts a range above the smallest value: the minimum itself is no cut point.
    if (!(sample[0] < sample[at])) continue;
    if (bounds.empty() || bounds.back() < sample[at]) bounds.push_back(sample[at]);
  }
  return bounds;
}

// id(v) = 1 + |{b : b <= v}| over `bounds`, scaled from [0, |bounds|+2) onto [0, 2^bits).
template <typename K, typename Get>
void AssignIds(const Vector& v, const std::vector<K>& bounds, int bits, Get get, std::vector<uint32_t>* ids) {
  int64_t n = v.size();
  ids->assign(static_cast<size_t>(n), 0);
  uint64_t used = bounds.size() + 2;
  uint64_t space = uint64_t{1} << bits;
  // Exact integer scaling; ids stay strictly increasing with rank when used <= space.
  auto scale = [&](uint64_t id) { return static_cast<uint32_t>((id * space) / used); };
  for (int64_t i = 0; i < n; ++i) {
    if (v.IsNull(i)) continue;
    auto it = std::upper_bound(bounds.begin(), bounds.end(), get(i));
    (*ids)[static_cast<size_t>(i)] = scale(1 + static_cast<uint64_t>(it - bounds.begin()));
  }
}

// Sorts (z, row) pairs by z, stable (rows start in index order): LSD radix on bytes, skipping
// bytes where every key agrees.
std::vector<uint32_t> RadixOrder(const std::vector<uint64_t>& z) {
  size_t n = z.size();
  std::vector<uint32_t> order(n), tmp(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  uint64_t all_or = 0, all_and = ~uint64_t{0};
  for (uint64_t x : z) {
    all_or |= x;
    all_and &= x;
  }
  uint64_t varying = all_or ^ all_and;
  std::array<size_t, 256> count;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((varying >> shift) & 0xff) == 0) continue;
    count.fill(0);
    for (size_t i = 0; i < n; ++i) ++count[(z[order[i]] >> shift) & 0xff];
    size_t sum = 0;
    for (auto& c : count) {
      size_t t = c;
      c = sum;
      sum += t;
    }
    for (size_t i = 0; i < n; ++i) tmp[count[(z[order[i]] >> shift) & 0xff]++] = order[i];
    order.swap(tmp);
  }
  return order;
}

}  // namespace

bool ZOrderSupportsType(const columnar::DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
      return true;
    default:
      return false;
  }
}

Result<std::vector<uint32_t>> ZOrderRangeIds(const columnar::Vector& column, int bits, const ZOrderOptions& options) {
  if (bits < 1 || bits > 32) return Status::InvalidArgument("ZORDER range bits " + std::to_string(bits) + " not in [1, 32]");
  if (!ZOrderSupportsType(*column.type())) {
    return Status::InvalidArgument("ZORDER BY does not support type " + column.type()->ToString());
  }
  // One id is NULL's; the values get the other 2^bits - 1 ranges.
  uint64_t ranges = (uint64_t{1} << bits) - 1;
  std::vector<int64_t> rows = SampleRows(column, options);
  std::vector<uint32_t> ids;
  if (column.type()->IsStringLike()) {
    std::vector<std::string_view> sample;
    sample.reserve(rows.size());
    for (int64_t i : rows) sample.push_back(column.GetString(i));
    std::vector<std::string_view> bounds = QuantileBoundaries(std::move(sample), ranges);
    AssignIds(column, bounds, bits, [&](int64_t i) { return column.GetString(i); }, &ids);
    return ids;
  }
  std::vector<uint64_t> keys;
  RETURN_NOT_OK(FixedKeys(column, &keys));
  std::vector<uint64_t> sample;
  sample.reserve(rows.size());
  for (int64_t i : rows) sample.push_back(keys[static_cast<size_t>(i)]);
  std::vector<uint64_t> bounds = QuantileBoundaries(std::move(sample), ranges);
  AssignIds(column, bounds, bits, [&](int64_t i) { return keys[static_cast<size_t>(i)]; }, &ids);
  return ids;
}

std::vector<uint64_t> InterleaveBits(const std::vector<std::vector<uint32_t>>& ids, int bits) {
  size_t d = ids.size();
  size_t n = d == 0 ? 0 : ids[0].size();
  std::vector<uint64_t> z(n, 0);
  if (d == 0) return z;
  // spread[c][byte][v]: the bits of byte `byte` of an id of column c, moved to their z slots.
  int bytes = (bits + 7) / 8;
  std::vector<std::array<uint64_t, 256>> spread(d * static_cast<size_t>(bytes));
  for (size_t c = 0; c < d; ++c) {
    for (int byte = 0; byte < bytes; ++byte) {
      auto& table = spread[c * bytes + byte];
      for (uint32_t v = 0; v < 256; ++v) {
        uint64_t out = 0;
        for (int b = 0; b < 8; ++b) {
          int bit = byte * 8 + b;
          if (bit >= bits || !((v >> b) & 1)) continue;
          out |= uint64_t{1} << (static_cast<size_t>(bit) * d + (d - 1 - c));
        }
        table[v] = out;
      }
    }
  }
  for (size_t c = 0; c < d; ++c) {
    const uint32_t* col = ids[c].data();
    for (int byte = 0; byte < bytes; ++byte) {
      const auto& table = spread[c * bytes + byte];
      for (size_t i = 0; i < n; ++i) z[i] |= table[(col[i] >> (8 * byte)) & 0xff];
    }
  }
  return z;
}

Result<std::vector<uint32_t>> ZOrderPermutation(const std::vector<const columnar::Vector*>& columns,
                                                const ZOrderOptions& options) {
  if (columns.empty()) return Status::InvalidArgument("ZORDER BY needs at least one column");
  if (columns.size() > 64) return Status::InvalidArgument("ZORDER BY supports at most 64 columns");
  int64_t n = columns[0]->size();
  for (const Vector* c : columns) {
    if (c->size() != n) return Status::InvalidArgument("ZORDER BY columns have different lengths");
  }
  if (n > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) {
    return Status::InvalidArgument("ZORDER BY of " + std::to_string(n) + " rows exceeds 2^32-1 rows");
  }
  int bits = std::min<int>(options.max_bits_per_column, static_cast<int>(64 / columns.size()));
  bits = std::clamp(bits, 1, 32);
  std::vector<std::vector<uint32_t>> ids;
  ids.reserve(columns.size());
  for (const Vector* c : columns) {
    ASSIGN_OR_RETURN(auto col_ids, ZOrderRangeIds(*c, bits, options));
    ids.push_back(std::move(col_ids));
  }
  return RadixOrder(InterleaveBits(ids, bits));
}

}  // namespace shoal::table
