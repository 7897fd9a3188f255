#include "parquet/bit_unpack.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace shoal::parquet {
namespace {

// Reference: reads value i bit by bit, LSB first.
uint64_t ReferenceValue(const std::vector<uint8_t>& in, int bw, int64_t i) {
  uint64_t v = 0;
  for (int b = 0; b < bw; ++b) {
    const int64_t bit = i * bw + b;
    v |= static_cast<uint64_t>((in[bit / 8] >> (bit % 8)) & 1) << b;
  }
  return v;
}

TEST(BitUnpack, SpecExampleWidth3) {
  // Encodings.md: 0..7 with bit width 3 packs to 10001000 11000110 11111010.
  const std::vector<uint8_t> packed = {0x88, 0xC6, 0xFA};
  uint32_t out[8];
  UnpackBits32(packed.data(), 3, out, 8);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t repacked[3];
  PackBits32(values, 3, repacked, 8);
  EXPECT_EQ(std::vector<uint8_t>(repacked, repacked + 3), packed);
}

TEST(BitUnpack, Unpack32MatchesBitByBitReferenceForAllWidths) {
  std::mt19937_64 rng(1);
  for (int bw = 0; bw <= 32; ++bw) {
    for (int64_t n : {8, 16, 24, 64, 256, 8008}) {
      // Exactly sized heap buffer so ASan catches any over-read.
      std::vector<uint8_t> in(static_cast<size_t>(n * bw / 8));
      for (auto& b : in) b = static_cast<uint8_t>(rng());
      std::vector<uint32_t> out(n);
      UnpackBits32(in.data(), bw, out.data(), n);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], ReferenceValue(in, bw, i)) << "bw=" << bw << " n=" << n << " i=" << i;
      }
    }
  }
}

TEST(BitUnpack, Unpack64MatchesBitByBitReferenceForAllWidths) {
  std::mt19937_64 rng(2);
  for (int bw = 0; bw <= 64; ++bw) {
    for (int64_t n : {8, 32, 1000}) {
      std::vector<uint8_t> in(static_cast<size_t>(n * bw / 8));
      for (auto& b : in) b = static_cast<uint8_t>(rng());
      std::vector<uint64_t> out(n);
      UnpackBits64(in.data(), bw, out.data(), n);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], ReferenceValue(in, bw, i)) << "bw=" << bw << " n=" << n << " i=" << i;
      }
    }
  }
}

TEST(BitUnpack, PackThenUnpackRoundTripsAndIgnoresHighBits) {
  std::mt19937_64 rng(3);
  for (int bw = 0; bw <= 64; ++bw) {
    const int64_t n = 200;
    const uint64_t mask = bw == 64 ? ~uint64_t{0} : (uint64_t{1} << bw) - 1;
    std::vector<uint64_t> values(n);
    for (auto& v : values) v = rng();  // high bits set on purpose
    std::vector<uint8_t> packed(static_cast<size_t>(n * bw / 8));
    PackBits64(values.data(), bw, packed.data(), n);
    std::vector<uint64_t> back(n);
    UnpackBits64(packed.data(), bw, back.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(back[i], values[i] & mask) << "bw=" << bw;
    if (bw <= 32) {
      std::vector<uint32_t> v32(n), b32(n);
      for (int64_t i = 0; i < n; ++i) v32[i] = static_cast<uint32_t>(values[i]);
      PackBits32(v32.data(), bw, packed.data(), n);
      UnpackBits32(packed.data(), bw, b32.data(), n);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(b32[i], v32[i] & mask) << "bw=" << bw;
    }
  }
}

TEST(BitUnpack, BitWidthOf) {
  EXPECT_EQ(BitWidthOf(0), 0);
  EXPECT_EQ(BitWidthOf(1), 1);
  EXPECT_EQ(BitWidthOf(2), 2);
  EXPECT_EQ(BitWidthOf(255), 8);
  EXPECT_EQ(BitWidthOf(256), 9);
  EXPECT_EQ(BitWidthOf(~uint64_t{0}), 64);
  EXPECT_EQ(BitPackedBytes(9, 3), 4);
}

}  // namespace
}  // namespace shoal::parquet
