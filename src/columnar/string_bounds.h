// StringBounds: the running minimum and maximum of byte strings in unsigned byte order (memcmp
// order, a proper prefix first), as statistics writers keep them per page and per file. Each
// bound's first 8 bytes are also kept as a big-endian integer, zero-padded: when a value's own
// 8-byte integer differs from a bound's, that decides the comparison (a smaller padded prefix
// means a smaller string), so most values cost two integer compares instead of two memcmp calls;
// only values that share a bound's first 8 bytes are compared whole.
//
// Thread-safety: a value type; no sharing.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace shoal::columnar {

// The first min(8, size) bytes of `s` as a big-endian integer, zero-padded on the right.
inline uint64_t BytePrefix8(std::string_view s) {
  if (s.size() >= 8) {
    uint64_t v;
    std::memcpy(&v, s.data(), 8);
    return __builtin_bswap64(v);
  }
  // Byte by byte: a variable-length memcpy here is a library call whose stores the 8-byte load
  // after it cannot forward (it cost half the Delta stats' time on short strings).
  uint64_t v = 0;
  for (size_t i = 0; i < s.size(); ++i) v |= uint64_t{static_cast<uint8_t>(s[i])} << (56 - 8 * i);
  return v;
}

class StringBounds {
 public:
  bool empty() const { return empty_; }
  std::string_view min() const { return min_; }
  std::string_view max() const { return max_; }

  // The views must stay valid while they are bounds.
  void Add(std::string_view s) {
    const uint64_t p = BytePrefix8(s);
    if (empty_) {
      min_ = max_ = s;
      min_p_ = max_p_ = p;
      empty_ = false;
      return;
    }
    if (p < min_p_ || (p == min_p_ && TieCompare(s, min_) < 0)) {
      min_ = s;
      min_p_ = p;
    } else if (p > max_p_ || (p == max_p_ && TieCompare(s, max_) > 0)) {
      max_ = s;
      max_p_ = p;
    }
  }

  // Orders two strings whose padded 8-byte prefixes are equal. When either is at most 8 bytes
  // long, it is a prefix of the other (its padding zeros match the other's bytes), so the
  // shorter is smaller; otherwise the bytes from the 9th on decide.
  static int TieCompare(std::string_view a, std::string_view b) {
    if (a.size() <= 8 || b.size() <= 8) return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
    return a.substr(8).compare(b.substr(8));
  }

 private:
  bool empty_ = true;
  std::string_view min_, max_;
  uint64_t min_p_ = 0, max_p_ = 0;
};

}  // namespace shoal::columnar
