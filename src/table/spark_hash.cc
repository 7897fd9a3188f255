#include "table/spark_hash.h"

#include <cstring>

namespace shoal::table {
namespace {

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t MixK1(uint32_t k1) {
  k1 *= 0xcc9e2d51u;
  k1 = Rotl(k1, 15);
  return k1 * 0x1b873593u;
}

uint32_t MixH1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = Rotl(h1, 13);
  return h1 * 5 + 0xe6546b64u;
}

int32_t Finish(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6bu;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35u;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

}  // namespace

int32_t SparkHashBytes(std::string_view bytes, int32_t seed) {
  uint32_t h1 = static_cast<uint32_t>(seed);
  const size_t aligned = bytes.size() - bytes.size() % 4;
  for (size_t i = 0; i < aligned; i += 4) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + i);
    uint32_t word = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    h1 = MixH1(h1, MixK1(word));
  }
  for (size_t i = aligned; i < bytes.size(); ++i) {
    // Spark mixes each trailing byte as a sign-extended int block.
    int32_t b = static_cast<signed char>(bytes[i]);
    h1 = MixH1(h1, MixK1(static_cast<uint32_t>(b)));
  }
  return Finish(h1, static_cast<uint32_t>(bytes.size()));
}

int32_t SparkHashInt(int32_t value, int32_t seed) {
  uint32_t h1 = MixH1(static_cast<uint32_t>(seed), MixK1(static_cast<uint32_t>(value)));
  return Finish(h1, 4);
}

int32_t SparkPartition(int32_t hash, int32_t n) {
  if (n <= 0) return 0;
  int32_t r = hash % n;
  return r < 0 ? r + n : r;
}

}  // namespace shoal::table
