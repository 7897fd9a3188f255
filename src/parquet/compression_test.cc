#include "parquet/compression.h"

#include <gtest/gtest.h>

#include <random>

namespace shoal::parquet {
namespace {

std::string SampleData(size_t n) {
  std::mt19937 rng(7);
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>("abcdefgh"[rng() % 8] + (i % 100 == 0 ? 1 : 0)));
  return s;
}

class Codecs : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(Codecs, RoundTripsAndRejectsWrongSizes) {
  CompressionCodec codec = GetParam();
  for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{300000}}) {
    std::string in = SampleData(n);
    std::string comp;
    ASSERT_TRUE(Compress(codec, in, &comp).ok());
    std::string out(n, '\0');
    Status st = Decompress(codec, reinterpret_cast<const uint8_t*>(comp.data()), comp.size(),
                           reinterpret_cast<uint8_t*>(out.data()), n);
    ASSERT_TRUE(st.ok()) << CodecName(codec) << " " << n << ": " << st.ToString();
    EXPECT_EQ(out, in);
    if (n == 0) continue;
    // A header that claims fewer bytes than the data holds (a bomb) or more both fail.
    std::string small(n - 1, '\0');
    EXPECT_FALSE(Decompress(codec, reinterpret_cast<const uint8_t*>(comp.data()), comp.size(),
                            reinterpret_cast<uint8_t*>(small.data()), n - 1)
                     .ok());
    std::string large(n + 1, '\0');
    EXPECT_FALSE(Decompress(codec, reinterpret_cast<const uint8_t*>(comp.data()), comp.size(),
                            reinterpret_cast<uint8_t*>(large.data()), n + 1)
                     .ok());
    // Corrupt input fails cleanly (or, for a codec without checks, yields some bytes).
    std::string bad = comp;
    for (size_t i = 0; i < bad.size(); i += 3) bad[i] = static_cast<char>(bad[i] ^ 0x55);
    Status bs = Decompress(codec, reinterpret_cast<const uint8_t*>(bad.data()), bad.size(),
                           reinterpret_cast<uint8_t*>(out.data()), n);
    if (!bs.ok()) {
      EXPECT_TRUE(bs.IsCorruption()) << bs.ToString();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, Codecs,
                         ::testing::Values(CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                           CompressionCodec::kGzip, CompressionCodec::kZstd,
                                           CompressionCodec::kLz4Raw, CompressionCodec::kBrotli),
                         [](const ::testing::TestParamInfo<CompressionCodec>& i) {
                           return std::string(CodecName(i.param));
                         });

TEST(Compression, GzipReadsConcatenatedMembers) {
  std::string a = SampleData(5000), b = SampleData(3000);
  std::string comp;
  ASSERT_TRUE(Compress(CompressionCodec::kGzip, a, &comp).ok());
  ASSERT_TRUE(Compress(CompressionCodec::kGzip, b, &comp).ok());
  std::string out(a.size() + b.size(), '\0');
  ASSERT_TRUE(Decompress(CompressionCodec::kGzip, reinterpret_cast<const uint8_t*>(comp.data()), comp.size(),
                         reinterpret_cast<uint8_t*>(out.data()), out.size())
                  .ok());
  EXPECT_EQ(out, a + b);
}

TEST(Compression, Lz4ReadsHadoopFramingAndRawBlocks) {
  std::string a = SampleData(4000), b = SampleData(2000);
  std::string ca, cb;
  ASSERT_TRUE(Compress(CompressionCodec::kLz4Raw, a, &ca).ok());
  ASSERT_TRUE(Compress(CompressionCodec::kLz4Raw, b, &cb).ok());
  auto be32 = [](uint32_t v) {
    std::string s(4, '\0');
    s[0] = static_cast<char>(v >> 24);
    s[1] = static_cast<char>(v >> 16);
    s[2] = static_cast<char>(v >> 8);
    s[3] = static_cast<char>(v);
    return s;
  };
  std::string framed = be32(a.size()) + be32(ca.size()) + ca + be32(b.size()) + be32(cb.size()) + cb;
  std::string out(a.size() + b.size(), '\0');
  ASSERT_TRUE(Decompress(CompressionCodec::kLz4, reinterpret_cast<const uint8_t*>(framed.data()), framed.size(),
                         reinterpret_cast<uint8_t*>(out.data()), out.size())
                  .ok());
  EXPECT_EQ(out, a + b);
  std::string raw_out(a.size(), '\0');
  ASSERT_TRUE(Decompress(CompressionCodec::kLz4, reinterpret_cast<const uint8_t*>(ca.data()), ca.size(),
                         reinterpret_cast<uint8_t*>(raw_out.data()), raw_out.size())
                  .ok());
  EXPECT_EQ(raw_out, a);
}

TEST(Compression, RefusesPagesOverOneGiB) {
  uint8_t in[1] = {0};
  Status st = Decompress(CompressionCodec::kZstd, in, 1, nullptr, size_t{1} << 31);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(Compression, LzoIsNotSupported) {
  uint8_t in[1] = {0}, out[1];
  EXPECT_TRUE(Decompress(CompressionCodec::kLzo, in, 1, out, 1).IsNotSupported());
}

}  // namespace
}  // namespace shoal::parquet
