// The specification's text strings (clause 4.2.2.10): a pool of pseudo-sentences generated once
// from the text grammar, and comments taken as substrings of random offset and length from it.
//
// Thread-safety: TextPool() is built once (thread-safe static) and then only read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace shoal::tpch {

// splitmix64: a small, fast, well-mixed random stream. Seeded per (table, column, row).
class Rng {
 public:
  Rng(uint64_t table, uint64_t column, uint64_t row) : state_(Mix(Mix(table * 1000 + column) ^ row)) {}
  uint64_t Next() { return Mix(state_ += 0x9E3779B97F4A7C15ull); }
  // Uniform in [lo, hi].
  int64_t Uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

// The sentence pool (a few MiB, generated from a fixed seed).
const std::string& TextPool();

// A text string of random length in [min_len, max_len] from the pool (clause 4.2.2.10).
std::string_view Text(Rng& rng, int min_len, int max_len);

// A v-string (clause 4.2.2.7): random length in [min_len, max_len], characters from a 64-symbol
// alphabet. Appends to *out.
void VString(Rng& rng, int min_len, int max_len, std::string* out);

}  // namespace shoal::tpch
