// The split-block Bloom filter of BloomFilter.md: 32-byte blocks of eight 32-bit words, one
// bit set per word from the low hash bits times eight salts, the block chosen by the high 32
// hash bits. Values are hashed with XXH64 (seed 0) of their PLAIN encoding (without the
// BYTE_ARRAY length prefix). The BloomFilterHeader thrift struct is handled by the metadata code;
// this class owns only the bitset.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::parquet {

// Thread-safety: Check is safe concurrently; Insert needs exclusive access.
class BloomFilter {
 public:
  static constexpr int64_t kBytesPerBlock = 32;
  static constexpr int64_t kMinBytes = 32;
  static constexpr int64_t kMaxBytes = int64_t{128} << 20;

  // Bitset size in bytes for `ndv` distinct values at false-positive probability `fpp`
  // (0 < fpp < 1): a power of two in [kMinBytes, kMaxBytes].
  static int64_t OptimalNumBytes(int64_t ndv, double fpp);

  // An empty filter of num_bytes rounded up to a power of two and clamped to the bounds.
  explicit BloomFilter(int64_t num_bytes = kMinBytes);
  // A filter over a bitset read from a file: size must be a multiple of 32 in
  // [kMinBytes, kMaxBytes], else Corruption.
  static Result<BloomFilter> FromBytes(const uint8_t* data, int64_t size);

  void Insert(uint64_t hash);
  // False only if no value with this hash was inserted.
  bool Check(uint64_t hash) const;

  // The bitset as stored in a file (little-endian words).
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(words_.data()); }
  int64_t num_bytes() const { return static_cast<int64_t>(words_.size()) * 4; }

  // XXH64 (seed 0) of the PLAIN encoding of a value.
  static uint64_t Hash(int32_t v);
  static uint64_t Hash(int64_t v);
  static uint64_t Hash(float v);   // hashes the bit pattern: -0.0 != 0.0, NaNs by payload
  static uint64_t Hash(double v);
  static uint64_t Hash(std::string_view bytes);  // BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
  static uint64_t Hash(const uint8_t* data, int64_t size);

 private:
  std::vector<uint32_t> words_;
};

}  // namespace shoal::parquet
