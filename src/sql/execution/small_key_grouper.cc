#include "sql/execution/small_key_grouper.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "expr/physical_type.h"

namespace shoal::sql {

using columnar::Vector;

namespace {

constexpr size_t kMaxKeys = 4;
constexpr uint32_t kMaxCodes = 65535;
constexpr uint32_t kPending = 0x80000000u;  // ids/slot values of groups not yet in the table

inline uint64_t Mix(uint64_t x) {
  x *= 0x9E3779B97F4A7C15ULL;
  return x ^ (x >> 29);
}

bool FixedSlotFits(const columnar::DataType& t) {
  return expr::DispatchFixed(
      t, [](auto tag) { return sizeof(tag) <= 8; }, [] { return false; });
}

// The exact 64-bit image of a fixed-width value, with the GROUP BY float normalization
// (-0.0 = 0.0, one NaN).
template <typename T>
inline uint64_t BitsOf(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) v = std::numeric_limits<T>::quiet_NaN();
    if (v == 0) v = T(0);
  }
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// A direct-mapped cache of recent (image, length) -> code in front of a column's hash table:
// low-cardinality keys (flags, modes, small enums) hit it on nearly every row, whether equal
// values come in runs or alternate. One per EncodeColumn call (codes never change once given).
template <typename Codes>
struct RecentCodes {
  static constexpr int kBits = 5;
  uint64_t bits[1 << kBits] = {};
  uint8_t lens[1 << kBits] = {};
  uint16_t codes[1 << kBits] = {};  // 0: empty

  uint16_t CodeOf(Codes& cc, uint64_t b, uint8_t len) {
    const size_t slot = ((b + len) * 0x9E3779B97F4A7C15ULL) >> (64 - kBits);
    if (codes[slot] == 0 || bits[slot] != b || lens[slot] != len) {
      const uint16_t code = cc.CodeOf(b, len);
      if (code == 0) return 0;
      bits[slot] = b;
      lens[slot] = len;
      codes[slot] = code;
    }
    return codes[slot];
  }
};

}  // namespace

bool SmallKeyGrouper::Supports(const std::vector<columnar::TypePtr>& key_types) {
  if (key_types.empty() || key_types.size() > kMaxKeys) return false;
  for (const auto& t : key_types) {
    if (!t->IsStringLike() && !FixedSlotFits(*t)) return false;
  }
  return true;
}

SmallKeyGrouper::ColumnCodes::ColumnCodes() : bits(16, 0), lens(16, 0), codes(16, 0), mask(15) {}

uint16_t SmallKeyGrouper::ColumnCodes::CodeOf(uint64_t b, uint8_t len) {
  uint64_t s = Mix(b ^ (uint64_t{len} << 59)) & mask;
  while (codes[s] != 0) {
    if (bits[s] == b && lens[s] == len) return codes[s];
    s = (s + 1) & mask;
  }
  if (count >= kMaxCodes) return 0;
  bits[s] = b;
  lens[s] = len;
  uint16_t code = static_cast<uint16_t>(++count);
  codes[s] = code;
  if (uint64_t{count} * 2 > mask + 1) Grow();
  return code;
}

void SmallKeyGrouper::ColumnCodes::Grow() {
  std::vector<uint64_t> ob = std::move(bits);
  std::vector<uint8_t> ol = std::move(lens);
  std::vector<uint16_t> oc = std::move(codes);
  const size_t cap = oc.size() * 2;
  bits.assign(cap, 0);
  lens.assign(cap, 0);
  codes.assign(cap, 0);
  mask = cap - 1;
  for (size_t i = 0; i < oc.size(); ++i) {
    if (oc[i] == 0) continue;
    uint64_t s = Mix(ob[i] ^ (uint64_t{ol[i]} << 59)) & mask;
    while (codes[s] != 0) s = (s + 1) & mask;
    bits[s] = ob[i];
    lens[s] = ol[i];
    codes[s] = oc[i];
  }
}

SmallKeyGrouper::SmallKeyGrouper(size_t num_keys)
    : columns_(num_keys), slot_keys_(64, 0), slot_vals_(64, 0), slot_mask_(63) {}

bool SmallKeyGrouper::EncodeColumn(const Vector& v, int64_t n, int shift) {
  ColumnCodes& cc = columns_[static_cast<size_t>(shift / 16)];
  const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
  uint64_t* out = composite_.data();
  if (v.type()->IsStringLike()) {
    const int64_t* o = v.offsets();
    const uint8_t* base = v.bytes().data();
    const int64_t size = static_cast<int64_t>(v.bytes().size());
    RecentCodes<ColumnCodes> recent;
    // Strings of at most one byte (flags such as 'A'/'N'/'R' or 'Y'/'N') index a table
    // directly: the empty string at 0, one byte b at 1 + b; 0 means not looked up yet.
    uint16_t tiny[257] = {};
    for (int64_t i = 0; i < n; ++i) {
      if (valid && !valid[i]) continue;
      const int64_t start = o[i];
      const int64_t len = o[i + 1] - start;
      if (len <= 1) {
        const uint64_t b = len == 0 ? 0 : base[start];
        const size_t t = len == 0 ? 0 : 1 + b;
        if (tiny[t] == 0) {
          tiny[t] = cc.CodeOf(b, static_cast<uint8_t>(len));
          if (tiny[t] == 0) return false;
        }
        out[i] |= uint64_t{tiny[t]} << shift;
        continue;
      }
      if (len > 8) return false;
      uint64_t w = 0;
      if (std::endian::native == std::endian::little && start + 8 <= size) {
        std::memcpy(&w, base + start, 8);
        w &= len == 0 ? 0 : (~uint64_t{0} >> (64 - 8 * len));
      } else if (len > 0) {
        std::memcpy(&w, base + start, static_cast<size_t>(len));
      }
      const uint16_t code = recent.CodeOf(cc, w, static_cast<uint8_t>(len));
      if (code == 0) return false;
      out[i] |= uint64_t{code} << shift;
    }
    return true;
  }
  return expr::DispatchFixed(
      *v.type(),
      [&](auto tag) {
        using T = decltype(tag);
        if constexpr (sizeof(T) > 8) {
          return false;
        } else {
          const T* d = v.data<T>();
          RecentCodes<ColumnCodes> recent;
          for (int64_t i = 0; i < n; ++i) {
            if (valid && !valid[i]) continue;
            const uint16_t code = recent.CodeOf(cc, BitsOf(d[i]), 0);
            if (code == 0) return false;
            out[i] |= uint64_t{code} << shift;
          }
          return true;
        }
      },
      [] { return false; });
}

void SmallKeyGrouper::GrowComposites() {
  std::vector<uint64_t> ok = std::move(slot_keys_);
  std::vector<uint32_t> ov = std::move(slot_vals_);
  const size_t cap = ov.size() * 2;
  slot_keys_.assign(cap, 0);
  slot_vals_.assign(cap, 0);
  slot_mask_ = cap - 1;
  for (size_t i = 0; i < ov.size(); ++i) {
    if (ov[i] == 0) continue;
    uint64_t s = Mix(ok[i]) & slot_mask_;
    while (slot_vals_[s] != 0) s = (s + 1) & slot_mask_;
    slot_keys_[s] = ok[i];
    slot_vals_[s] = ov[i];
  }
}

uint32_t* SmallKeyGrouper::Lookup(uint64_t composite) {
  uint64_t s = Mix(composite) & slot_mask_;
  while (slot_vals_[s] != 0 && slot_keys_[s] != composite) s = (s + 1) & slot_mask_;
  return &slot_vals_[s];
}

bool SmallKeyGrouper::Map(const std::vector<const Vector*>& keys, int64_t n, GroupHashTable* table, uint32_t* ids) {
  if (disabled_ || keys.size() != columns_.size() || table->size() >= (int64_t{1} << 30)) {
    disabled_ = true;
    return false;
  }
  if (n == 0) return true;
  composite_.assign(static_cast<size_t>(n), 0);
  for (size_t c = 0; c < keys.size(); ++c) {
    if (!EncodeColumn(*keys[c], n, static_cast<int>(16 * c))) {
      disabled_ = true;
      return false;
    }
  }
  miss_rows_.clear();
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t k = composite_[i];
    uint32_t* v = Lookup(k);
    if (*v != 0) {
      ids[i] = (*v & kPending) ? *v : *v - 1;
      continue;
    }
    const uint32_t pending = kPending | static_cast<uint32_t>(miss_rows_.size());
    miss_rows_.push_back(static_cast<uint32_t>(i));
    slot_keys_[v - slot_vals_.data()] = k;
    *v = pending;
    ids[i] = pending;
    if (++slot_count_ * 2 > slot_mask_ + 1) GrowComposites();
  }
  if (miss_rows_.empty()) return true;
  const int64_t m = static_cast<int64_t>(miss_rows_.size());
  std::vector<columnar::VectorPtr> rows;
  std::vector<const Vector*> ptrs;
  rows.reserve(keys.size());
  for (const Vector* k : keys) {
    rows.push_back(columnar::Gather(*k, miss_rows_.data(), m));
    ptrs.push_back(rows.back().get());
  }
  miss_ids_.resize(static_cast<size_t>(m));
  table->FindOrInsert(ptrs, m, miss_ids_.data());
  for (int64_t k = 0; k < m; ++k) *Lookup(composite_[miss_rows_[k]]) = miss_ids_[k] + 1;
  for (int64_t i = 0; i < n; ++i) {
    if (ids[i] & kPending) ids[i] = miss_ids_[ids[i] & ~kPending];
  }
  return true;
}

int64_t SmallKeyGrouper::MemoryBytes() const {
  auto bytes = [](const auto& v) { return static_cast<int64_t>(v.capacity() * sizeof(v[0])); };
  int64_t n = bytes(composite_) + bytes(slot_keys_) + bytes(slot_vals_) + bytes(miss_rows_) +
              bytes(miss_ids_);
  for (const auto& c : columns_) n += bytes(c.bits) + bytes(c.lens) + bytes(c.codes);
  return n;
}

}  // namespace shoal::sql
