#include "parquet/dictionary_builder.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

namespace shoal::parquet {
namespace {

constexpr size_t kInitialSlots = 1024;

inline uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

DictionaryBuilder::DictionaryBuilder(int width) : width_(width) { Reset(); }

void DictionaryBuilder::Reset() {
  size_ = 0;
  bytes_.Clear();
  offsets_.assign(1, 0);
  hashes_.clear();
  slots_.assign(kInitialSlots, -1);
  mask_ = kInitialSlots - 1;
}

std::string_view DictionaryBuilder::entry(int64_t i) const {
  const char* base = reinterpret_cast<const char*>(bytes_.data());
  if (width_ > 0) return {base + i * width_, static_cast<size_t>(width_)};
  return {base + offsets_[i], static_cast<size_t>(offsets_[i + 1] - offsets_[i])};
}

void DictionaryBuilder::Grow() {
  size_t n = slots_.size() * 2;
  slots_.assign(n, -1);
  mask_ = n - 1;
  for (int64_t i = 0; i < size_; ++i) {
    uint64_t s = hashes_[i] & mask_;
    while (slots_[s] >= 0) s = (s + 1) & mask_;
    slots_[s] = static_cast<int32_t>(i);
  }
}

uint32_t DictionaryBuilder::InsertOne(std::string_view v, uint64_t hash) {
  uint64_t s = hash & mask_;
  while (true) {
    int32_t e = slots_[s];
    if (e < 0) break;
    // string_view equality: memcmp on an empty view's null data() would be undefined.
    if (hashes_[e] == hash && entry(e) == v) return static_cast<uint32_t>(e);
    s = (s + 1) & mask_;
  }
  int32_t idx = static_cast<int32_t>(size_++);
  slots_[s] = idx;
  hashes_.push_back(hash);
  bytes_.Append(v.data(), v.size());
  if (width_ == 0) offsets_.push_back(static_cast<int64_t>(bytes_.size()));
  if (static_cast<uint64_t>(size_) * 2 > slots_.size()) Grow();
  return static_cast<uint32_t>(idx);
}

// A value equal to the previous one reuses its index without hashing: sorted (LocalSort) and
// run-heavy columns take this path for most values.
void DictionaryBuilder::InsertFixed(const uint8_t* values, int64_t n, uint32_t* indices) {
  const char* p = reinterpret_cast<const char*>(values);
  auto words = [&](auto tag) {
    using T = decltype(tag);
    T prev = 0;
    uint32_t prev_index = 0;
    for (int64_t i = 0; i < n; ++i, p += sizeof(T)) {
      T x;
      std::memcpy(&x, p, sizeof(T));
      if (i == 0 || x != prev) {
        prev_index = InsertOne({p, sizeof(T)}, Mix(x));
        prev = x;
      }
      indices[i] = prev_index;
    }
  };
  if (width_ == 4) {
    words(uint32_t{});
    return;
  }
  if (width_ == 8) {
    words(uint64_t{});
    return;
  }
  const size_t w = static_cast<size_t>(width_);
  for (int64_t i = 0; i < n; ++i, p += width_) {
    if (i > 0 && std::memcmp(p, p - width_, w) == 0) {
      indices[i] = indices[i - 1];
      continue;
    }
    indices[i] = InsertOne({p, w}, XXH3_64bits(p, w));
  }
}

void DictionaryBuilder::InsertByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n, uint32_t* indices) {
  std::string_view prev;
  for (int64_t i = 0; i < n; ++i) {
    std::string_view v(reinterpret_cast<const char*>(bytes) + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    if (i > 0 && v.size() == prev.size() && (v.empty() || std::memcmp(v.data(), prev.data(), v.size()) == 0)) {
      indices[i] = indices[i - 1];
      continue;
    }
    indices[i] = InsertOne(v, XXH3_64bits(v.data(), v.size()));
    prev = v;
  }
}

void DictionaryBuilder::EncodePlain(columnar::Buffer* out, int64_t count) const {
  const int64_t n = count < 0 ? size_ : std::min(count, size_);
  if (width_ > 0) {
    out->Append(bytes_.data(), static_cast<size_t>(n * width_));
    return;
  }
  out->Reserve(out->size() + static_cast<size_t>(offsets_[n] - offsets_[0] + 4 * n));
  for (int64_t i = 0; i < n; ++i) {
    uint32_t len = static_cast<uint32_t>(offsets_[i + 1] - offsets_[i]);
    out->Append(&len, 4);
    out->Append(bytes_.data() + offsets_[i], len);
  }
}

}  // namespace shoal::parquet
