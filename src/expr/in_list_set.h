// The literal list of `x IN (c1, c2, ...)` as a hash set, built once per expression on its first
// evaluation and shared by every thread that evaluates it (a decorrelated or pre-executed
// subquery can give thousands of constants, which must not be re-read per batch).
//
// Thread-safety: InListCache::Get is thread-safe; an InListSet is immutable once built.
#pragma once

#include <cstdint>
#include <cstring>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace shoal::columnar {
class DataType;
class Vector;
}  // namespace shoal::columnar

namespace shoal::expr {

struct Expr;

// Canonical 64-bit key of a fixed-width value for IN-list hashing: NaN and -0.0 are folded so
// that they compare as the comparison kernels do.
template <typename T>
uint64_t InKey(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    double d = static_cast<double>(v);
    if (std::isnan(d)) return 0x7ff8000000000000ULL;
    if (d == 0) d = 0;
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
  } else {
    return static_cast<uint64_t>(v);
  }
}

// A set of 64-bit keys: open addressing with linear probing over a flat array (one cache line
// touched per lookup in the common case), for IN lists and runtime join filters.
class KeySet {
 public:
  void Insert(uint64_t k);
  bool Contains(uint64_t k) const {
    if (k == kEmpty) return has_empty_;
    if (slots_.empty()) return false;
    for (uint64_t s = Mix(k) & mask_;; s = (s + 1) & mask_) {
      if (slots_[s] == k) return true;
      if (slots_[s] == kEmpty) return false;
    }
  }
  size_t size() const { return size_ + (has_empty_ ? 1 : 0); }

 private:
  static constexpr uint64_t kEmpty = 0x9e3779b97f4a7c15ULL;  // marks a free slot
  static uint64_t Mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }
  void Grow();
  std::vector<uint64_t> slots_;
  uint64_t mask_ = 0;
  size_t size_ = 0;
  bool has_empty_ = false;  // kEmpty itself is in the set
};

struct InListSet {
  bool has_null = false;                       // the list holds a NULL
  bool strings = false;                        // string-like needle: string_set, else keys
  KeySet keys;                                 // InKey of each fixed-width constant
  std::vector<std::string> string_storage;
  std::unordered_set<std::string_view> string_set;  // views into string_storage
};

// The set of `items` (row 0 of each, a one-row vector of `type`, which may be NULL); null when
// `type` has no hashed form (INT128 decimals, nested values).
std::shared_ptr<InListSet> MakeInListSet(const columnar::DataType& type, const std::vector<const columnar::Vector*>& items);

class InListCache {
 public:
  // The set for `e`'s list (args[1..]), or null when an item is not a literal or the needle's
  // type has no hashed form (INT128 decimals, nested values). Rebuilt when the list changes.
  std::shared_ptr<const InListSet> Get(const Expr& e);

 private:
  std::mutex mu_;
  bool unsupported_ = false;
  std::vector<const Expr*> items_;  // the list the set was built from
  std::shared_ptr<const InListSet> set_;
};

}  // namespace shoal::expr
