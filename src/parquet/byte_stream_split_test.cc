#include "parquet/byte_stream_split.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace shoal::parquet {
namespace {

TEST(ByteStreamSplit, MatchesSpecExample) {
  const std::vector<uint8_t> values = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11,
                                       0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const std::vector<uint8_t> split = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                                      0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  columnar::Buffer enc;
  EncodeByteStreamSplit(values.data(), 4, 3, &enc);
  EXPECT_EQ(std::vector<uint8_t>(enc.data(), enc.data() + enc.size()), split);
  ByteStreamSplitDecoder dec;
  ASSERT_TRUE(dec.Reset(split.data(), 12, 4).ok());
  std::vector<uint8_t> out(12);
  ASSERT_TRUE(dec.Decode(3, out.data()).ok());
  EXPECT_EQ(out, values);
}

TEST(ByteStreamSplit, RoundTripsWithSkipsForAllWidths) {
  std::mt19937_64 rng(31);
  for (int width : {2, 4, 8, 3, 16}) {
    const int64_t n = 517;
    std::vector<uint8_t> values(static_cast<size_t>(n * width));
    for (auto& b : values) b = static_cast<uint8_t>(rng());
    columnar::Buffer enc;
    EncodeByteStreamSplit(values.data(), width, n, &enc);
    ByteStreamSplitDecoder dec;
    ASSERT_TRUE(dec.Reset(enc.data(), static_cast<int64_t>(enc.size()), width).ok());
    ASSERT_EQ(dec.num_values(), n);
    std::vector<uint8_t> out(values.size());
    ASSERT_TRUE(dec.Decode(100, out.data()).ok());
    ASSERT_TRUE(dec.Skip(17).ok());
    ASSERT_TRUE(dec.Decode(400, out.data() + 117 * width).ok());
    for (int64_t i = 0; i < n * width; ++i) {
      if (i >= 100 * width && i < 117 * width) continue;
      ASSERT_EQ(out[i], values[i]) << "width " << width << " byte " << i;
    }
    EXPECT_TRUE(dec.Decode(1, out.data()).IsCorruption());
  }
}

TEST(ByteStreamSplit, RejectsSizeNotMultipleOfWidth) {
  const uint8_t data[7] = {};
  ByteStreamSplitDecoder dec;
  EXPECT_TRUE(dec.Reset(data, 7, 4).IsCorruption());
  EXPECT_TRUE(dec.Reset(data, 0, 8).ok());
  EXPECT_TRUE(dec.Skip(1).IsCorruption());
}

}  // namespace
}  // namespace shoal::parquet
