#include "parquet/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

namespace shoal::parquet {
namespace {

uint32_t Reference(uint32_t crc, const uint8_t* p, size_t n) { return static_cast<uint32_t>(crc32_z(crc, p, n)); }

std::vector<uint8_t> RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

TEST(Crc32, KnownValues) {
  EXPECT_EQ(Crc32(0, nullptr, 0), 0u);
  EXPECT_EQ(Crc32(0x12345678u, nullptr, 0), 0x12345678u) << "an empty piece leaves the CRC as it is";
  EXPECT_EQ(Crc32(std::string_view("123456789")), 0xCBF43926u);  // the polynomial's check value
  std::string a(1000, 'a');
  EXPECT_EQ(Crc32(a), Reference(0, reinterpret_cast<const uint8_t*>(a.data()), a.size()));
}

TEST(Crc32, MatchesZlibForEveryLengthAndAlignment) {
  std::vector<uint8_t> buf = RandomBytes(4096 + 64, 1);
  for (size_t offset = 0; offset < 16; ++offset) {
    for (size_t n = 0; n <= 1100; ++n) {
      const uint8_t* p = buf.data() + offset;
      ASSERT_EQ(Crc32(0, p, n), Reference(0, p, n)) << "offset " << offset << " length " << n;
    }
  }
  for (size_t n : {size_t{4096}, size_t{4096 + 17}, size_t{4096 + 63}}) {
    ASSERT_EQ(Crc32(0, buf.data(), n), Reference(0, buf.data(), n)) << n;
  }
}

TEST(Crc32, ContinuesFromAnyStateLikeZlib) {
  std::vector<uint8_t> buf = RandomBytes(3000, 2);
  std::mt19937_64 rng(3);
  for (int round = 0; round < 200; ++round) {
    size_t cut = rng() % buf.size();
    uint32_t start = static_cast<uint32_t>(rng());
    uint32_t got = Crc32(Crc32(start, buf.data(), cut), buf.data() + cut, buf.size() - cut);
    ASSERT_EQ(got, Reference(start, buf.data(), buf.size())) << "cut " << cut << " start " << start;
  }
}

TEST(Crc32, SpecialPatterns) {
  for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x80}, uint8_t{0x01}}) {
    std::vector<uint8_t> buf(257, fill);
    for (size_t n : {size_t{64}, size_t{65}, size_t{128}, size_t{200}, size_t{257}}) {
      ASSERT_EQ(Crc32(0, buf.data(), n), Reference(0, buf.data(), n)) << int(fill) << " " << n;
      ASSERT_EQ(Crc32(0xFFFFFFFFu, buf.data(), n), Reference(0xFFFFFFFFu, buf.data(), n));
    }
  }
}

TEST(Crc32, LargeBuffer) {
  std::vector<uint8_t> buf = RandomBytes(size_t{3} << 20, 4);
  EXPECT_EQ(Crc32(0, buf.data(), buf.size()), Reference(0, buf.data(), buf.size()));
  if (!Crc32Accelerated()) GTEST_LOG_(INFO) << "this CPU has no PCLMULQDQ: zlib path only";
}

}  // namespace
}  // namespace shoal::parquet
