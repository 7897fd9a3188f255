#include "sql/execution/group_hash_table.h"

#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "columnar/value.h"
#include "expr/physical_type.h"

namespace shoal::sql {

using columnar::TypeId;
using columnar::Vector;

namespace {

template <typename T>
T Normalize(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
    if (v == 0) return T(0);
  }
  return v;
}

// Fixed-width column: flag byte + value bytes at each row's cursor.
template <typename T>
void EncodeFixed(const Vector& v, int64_t n, uint8_t* out, int64_t* cursor, uint8_t* has_null) {
  const T* d = v.data<T>();
  if (!v.MayHaveNulls()) {
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* p = out + cursor[i];
      p[0] = 1;
      T x = Normalize(d[i]);
      std::memcpy(p + 1, &x, sizeof(T));
      cursor[i] += 1 + sizeof(T);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* p = out + cursor[i];
    bool valid = v.IsValid(i);
    p[0] = valid;
    T x = valid ? Normalize(d[i]) : T{};
    std::memcpy(p + 1, &x, sizeof(T));
    cursor[i] += 1 + sizeof(T);
    has_null[i] |= !valid;
  }
}

bool IsVarLen(const columnar::DataType& t) { return t.IsStringLike() || t.IsNested(); }

// The bytes a variable-length key value encodes as.
std::string_view VarBytes(const Vector& v, int64_t i, std::string* tmp) {
  if (v.type()->IsStringLike()) return v.GetString(i);
  *tmp = columnar::Value::FromVector(v, i).ToSqlLiteral();
  return *tmp;
}

}  // namespace

void RowKeys::Encode(const std::vector<const Vector*>& keys, int64_t n) {
  n_ = n;
  offsets_.assign(n + 1, 0);
  has_null_.assign(n, 0);
  hashes_.resize(n);
  int64_t fixed = 0;
  bool any_var = false;
  for (const Vector* k : keys) {
    if (IsVarLen(*k->type())) {
      any_var = true;
    } else {
      fixed += 1 + k->type()->SlotWidth();
    }
  }
  std::vector<std::string> nested_tmp;
  if (!any_var) {
    for (int64_t i = 0; i <= n; ++i) offsets_[i] = i * fixed;
  } else {
    std::vector<int64_t> sizes(n, fixed);
    std::string tmp;
    for (const Vector* k : keys) {
      if (!IsVarLen(*k->type())) continue;
      for (int64_t i = 0; i < n; ++i) {
        sizes[i] += 1 + 4 + (k->IsValid(i) ? static_cast<int64_t>(VarBytes(*k, i, &tmp).size()) : 0);
      }
    }
    for (int64_t i = 0; i < n; ++i) offsets_[i + 1] = offsets_[i] + sizes[i];
  }
  bytes_.resize(offsets_[n]);
  std::vector<int64_t> cursor(offsets_.begin(), offsets_.end() - 1);
  uint8_t* out = bytes_.data();
  for (const Vector* k : keys) {
    const auto& t = *k->type();
    if (t.id() == TypeId::kNull) {
      for (int64_t i = 0; i < n; ++i) {
        out[cursor[i]++] = 0;
        has_null_[i] = 1;
      }
      continue;
    }
    if (IsVarLen(t)) {
      std::string tmp;
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = out + cursor[i];
        bool valid = k->IsValid(i);
        p[0] = valid;
        std::string_view s = valid ? VarBytes(*k, i, &tmp) : std::string_view();
        uint32_t len = static_cast<uint32_t>(s.size());
        std::memcpy(p + 1, &len, 4);
        if (len) std::memcpy(p + 5, s.data(), len);
        cursor[i] += 5 + len;
        has_null_[i] |= !valid;
      }
      continue;
    }
    expr::DispatchFixed(
        t, [&](auto tag) { EncodeFixed<decltype(tag)>(*k, n, out, cursor.data(), has_null_.data()); },
        [] {});
  }
  for (int64_t i = 0; i < n; ++i) hashes_[i] = XXH3_64bits(out + offsets_[i], offsets_[i + 1] - offsets_[i]);
}

int64_t RowKeys::MemoryBytes() const {
  return static_cast<int64_t>(bytes_.capacity() + offsets_.capacity() * sizeof(int64_t) +
                              hashes_.capacity() * sizeof(uint64_t) + has_null_.capacity());
}

namespace {

// The bytes a std::vector of `elem`-byte elements with `size` and `cap` may newly allocate when
// `add` more elements are appended one at a time (capacity doubles; the old array is freed
// after the new one is filled, so only the new array counts as more).
int64_t VectorGrowth(size_t size, size_t cap, int64_t add, int64_t elem) {
  const size_t need = size + static_cast<size_t>(add);
  if (need <= cap) return 0;
  size_t c = cap == 0 ? 1 : cap;
  while (c < need) c *= 2;
  return static_cast<int64_t>(c) * elem;
}

constexpr uint64_t kTagMask = 0xFFFFFFFF00000000ull;

// Byte equality for the short keys of grouping (no libc call per probe).
inline bool EqualBytes(const uint8_t* a, const uint8_t* b, int64_t len) {
  while (len >= 8) {
    uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
    a += 8;
    b += 8;
    len -= 8;
  }
  for (int64_t i = 0; i < len; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

GroupHashTable::GroupHashTable(std::vector<columnar::TypePtr> key_types) : types_(std::move(key_types)) {
  fixed_width_ = 0;
  for (const auto& t : types_) {
    if (IsVarLen(*t)) {
      fixed_width_ = -1;
      break;
    }
    fixed_width_ += 1 + t->SlotWidth();
  }
  if (fixed_width_ < 0) key_offsets_.push_back(0);
  slots_.assign(1024, 0);
  mask_ = slots_.size() - 1;
  for (const auto& t : types_) key_columns_.push_back(Vector::Make(t));
}

const uint8_t* GroupHashTable::KeyOf(int64_t g, int64_t* len) const {
  if (fixed_width_ >= 0) {
    *len = fixed_width_;
    return arena_.data() + g * fixed_width_;
  }
  *len = key_offsets_[g + 1] - key_offsets_[g];
  return arena_.data() + key_offsets_[g];
}

int64_t GroupHashTable::Probe(uint64_t h, const uint8_t* key, int64_t len, size_t* slot) const {
  const uint64_t tag = h & kTagMask;
  size_t s = h & mask_;
  for (;;) {
    uint64_t e = slots_[s];
    if (e == 0) {
      *slot = s;
      return -1;
    }
    if ((e & kTagMask) == tag) {
      int64_t g = static_cast<int64_t>(e & ~kTagMask) - 1;
      int64_t glen;
      const uint8_t* gkey = KeyOf(g, &glen);
      if (glen == len && hashes_[g] == h && EqualBytes(gkey, key, len)) {
        *slot = s;
        return g;
      }
    }
    s = (s + 1) & mask_;
  }
}

void GroupHashTable::Grow() {
  slots_.assign(slots_.size() * 2, 0);
  mask_ = slots_.size() - 1;
  for (size_t g = 0; g < hashes_.size(); ++g) {
    size_t s = hashes_[g] & mask_;
    while (slots_[s] != 0) s = (s + 1) & mask_;
    slots_[s] = (hashes_[g] & kTagMask) | (g + 1);
  }
}

int64_t GroupHashTable::MemoryBytes() const {
  int64_t n = static_cast<int64_t>(arena_.capacity() + key_offsets_.capacity() * sizeof(int64_t) +
                                   hashes_.capacity() * sizeof(uint64_t) +
                                   slots_.capacity() * sizeof(uint64_t) +
                                   new_rows_.capacity() * sizeof(uint32_t));
  for (const auto& c : key_columns_) n += c->MemoryBytes();
  return n + scratch_.MemoryBytes();
}

int64_t GroupHashTable::GrowthBound(int64_t n) const {
  if (n <= 0) return 0;
  const size_t groups = hashes_.size();
  int64_t bound = VectorGrowth(groups, hashes_.capacity(), n, sizeof(uint64_t));
  // Slots double whenever groups * 2 exceed them; the old array lives until the copy is done.
  size_t slots = slots_.size();
  while ((groups + static_cast<size_t>(n)) * 2 > slots) slots *= 2;
  if (slots != slots_.size()) bound += static_cast<int64_t>(slots * sizeof(uint64_t));
  int64_t key_bytes = fixed_width_;
  if (fixed_width_ < 0) {
    bound += VectorGrowth(key_offsets_.size(), key_offsets_.capacity(), n, sizeof(int64_t));
    key_bytes = groups > 0 ? static_cast<int64_t>(arena_.size() / groups) + 1 : 16;
  }
  bound += VectorGrowth(arena_.size(), arena_.capacity(), n * key_bytes, 1);
  return bound;
}

void GroupHashTable::FindOrInsert(const std::vector<const Vector*>& keys, int64_t n, uint32_t* ids) {
  scratch_.Encode(keys, n);
  FindOrInsertEncoded(scratch_, keys, ids);
}

void GroupHashTable::FindOrInsertEncoded(const RowKeys& enc, const std::vector<const Vector*>& keys,
                                         uint32_t* ids) {
  constexpr int64_t kPrefetchAhead = 16;
  const int64_t n = enc.size();
  new_rows_.clear();
  for (int64_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) __builtin_prefetch(&slots_[enc.hash(i + kPrefetchAhead) & mask_]);
    uint64_t h = enc.hash(i);
    const uint8_t* key = enc.data(i);
    int64_t len = enc.length(i);
    size_t slot;
    int64_t g = Probe(h, key, len, &slot);
    if (g < 0) {
      g = static_cast<int64_t>(hashes_.size());
      hashes_.push_back(h);
      const size_t at = arena_.size();
      arena_.resize(at + len);
      std::memcpy(arena_.data() + at, key, len);
      if (fixed_width_ < 0) key_offsets_.push_back(static_cast<int64_t>(arena_.size()));
      slots_[slot] = (h & kTagMask) | static_cast<uint64_t>(g + 1);
      new_rows_.push_back(static_cast<uint32_t>(i));
      if (hashes_.size() * 2 > slots_.size()) Grow();
    }
    ids[i] = static_cast<uint32_t>(g);
  }
  if (new_rows_.empty()) return;
  const int64_t k = static_cast<int64_t>(new_rows_.size());
  for (size_t c = 0; c < keys.size(); ++c) {
    if (k == n) {
      key_columns_[c]->AppendFrom(*keys[c], 0, n);
    } else {
      auto picked = columnar::Gather(*keys[c], new_rows_.data(), k);
      key_columns_[c]->AppendFrom(*picked, 0, k);
    }
  }
}

void GroupHashTable::Find(const RowKeys& enc, bool skip_null, int64_t* ids) const {
  for (int64_t i = 0; i < enc.size(); ++i) {
    if (skip_null && enc.has_null(i)) {
      ids[i] = -1;
      continue;
    }
    size_t slot;
    ids[i] = Probe(enc.hash(i), enc.data(i), enc.length(i), &slot);
  }
}

}  // namespace shoal::sql
