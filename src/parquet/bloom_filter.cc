#include "parquet/bloom_filter.h"

#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <string>

namespace shoal::parquet {
namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

int64_t RoundUpPow2Clamped(int64_t n) {
  int64_t bytes = BloomFilter::kMinBytes;
  while (bytes < n && bytes < BloomFilter::kMaxBytes) bytes <<= 1;
  return bytes;
}

// The eight words of the block a hash selects: (high 32 bits * blocks) >> 32.
inline size_t BlockStart(uint64_t hash, size_t num_words) {
  const uint64_t blocks = num_words / 8;
  return static_cast<size_t>(((hash >> 32) * blocks) >> 32) * 8;
}

}  // namespace

int64_t BloomFilter::OptimalNumBytes(int64_t ndv, double fpp) {
  if (ndv <= 0) return kMinBytes;
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = 0.01;
  const double bits_per_value = -8.0 / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = bits_per_value * static_cast<double>(ndv) / 8.0;
  if (bytes >= static_cast<double>(kMaxBytes)) return kMaxBytes;
  return RoundUpPow2Clamped(static_cast<int64_t>(std::ceil(bytes)));
}

BloomFilter::BloomFilter(int64_t num_bytes)
    : words_(static_cast<size_t>(RoundUpPow2Clamped(num_bytes) / 4), 0) {}

Result<BloomFilter> BloomFilter::FromBytes(const uint8_t* data, int64_t size) {
  if (size < kMinBytes || size > kMaxBytes || size % kBytesPerBlock != 0) {
    return Status::Corruption("bloom filter bitset of " + std::to_string(size) +
                              " bytes is not a multiple of 32 in [32, 128 MiB]");
  }
  BloomFilter f(kMinBytes);
  f.words_.resize(static_cast<size_t>(size / 4));
  std::memcpy(f.words_.data(), data, static_cast<size_t>(size));
  return f;
}

void BloomFilter::Insert(uint64_t hash) {
  uint32_t* block = words_.data() + BlockStart(hash, words_.size());
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) block[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

bool BloomFilter::Check(uint64_t hash) const {
  const uint32_t* block = words_.data() + BlockStart(hash, words_.size());
  const uint32_t key = static_cast<uint32_t>(hash);
  uint32_t missing = 0;
  for (int i = 0; i < 8; ++i) missing |= ~block[i] & (uint32_t{1} << ((key * kSalt[i]) >> 27));
  return missing == 0;
}

uint64_t BloomFilter::Hash(const uint8_t* data, int64_t size) {
  return XXH64(data, static_cast<size_t>(size), 0);
}
uint64_t BloomFilter::Hash(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }
uint64_t BloomFilter::Hash(int32_t v) { return XXH64(&v, sizeof(v), 0); }
uint64_t BloomFilter::Hash(int64_t v) { return XXH64(&v, sizeof(v), 0); }
uint64_t BloomFilter::Hash(float v) { return XXH64(&v, sizeof(v), 0); }
uint64_t BloomFilter::Hash(double v) { return XXH64(&v, sizeof(v), 0); }

}  // namespace shoal::parquet
