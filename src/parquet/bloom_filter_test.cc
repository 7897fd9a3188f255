#include "parquet/bloom_filter.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "support/testdata.h"

namespace shoal::parquet {
namespace {

TEST(BloomFilter, HashesAreXxh64SeedZeroOfPlainBytes) {
  // Published XXH64 test vectors (seed 0).
  EXPECT_EQ(BloomFilter::Hash(std::string_view("")), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(BloomFilter::Hash(std::string_view("abc")), 0x44BC2CF5AD770999ULL);
  // Numbers hash their little-endian bytes.
  const int32_t i32 = 0x01020304;
  const uint8_t i32_bytes[] = {4, 3, 2, 1};
  EXPECT_EQ(BloomFilter::Hash(i32), BloomFilter::Hash(i32_bytes, 4));
  const int64_t i64 = -2;
  const uint8_t i64_bytes[] = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(BloomFilter::Hash(i64), BloomFilter::Hash(i64_bytes, 8));
  const uint8_t one_f[] = {0x00, 0x00, 0x80, 0x3f};  // 1.0f
  EXPECT_EQ(BloomFilter::Hash(1.0f), BloomFilter::Hash(one_f, 4));
  const uint8_t one_d[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};  // 1.0
  EXPECT_EQ(BloomFilter::Hash(1.0), BloomFilter::Hash(one_d, 8));
}

TEST(BloomFilter, SizingIsPowerOfTwoWithinBounds) {
  EXPECT_EQ(BloomFilter::OptimalNumBytes(0, 0.01), 32);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1, 0.01), 32);
  // 1M values at 1% need ~1.2 MB (BloomFilter.md), rounded up to 2 MiB.
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000000, 0.01), 2 << 20);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(int64_t{1} << 40, 0.01), BloomFilter::kMaxBytes);
  for (int64_t ndv : {10, 1000, 123456}) {
    const int64_t b = BloomFilter::OptimalNumBytes(ndv, 0.005);
    EXPECT_EQ(b & (b - 1), 0);
    EXPECT_GE(b * 8.0 / ndv, 11.5);  // ~11.54 bits per value at 0.5%
  }
  EXPECT_EQ(BloomFilter(100).num_bytes(), 128);
  EXPECT_EQ(BloomFilter(0).num_bytes(), 32);
}

TEST(BloomFilter, NoFalseNegativesAndFppNearConfigured) {
  const int64_t ndv = 20000;
  const double fpp = 0.01;
  // Size exactly for fpp (no power-of-two slack): 2^n bytes with ndv chosen to fill it.
  BloomFilter f(BloomFilter::OptimalNumBytes(ndv, fpp));
  const int64_t fill = static_cast<int64_t>(f.num_bytes() * 8 / 9.6);  // 9.6 bits/value ~ 1%
  std::mt19937_64 rng(51);
  std::vector<int64_t> in(fill);
  for (auto& v : in) {
    v = static_cast<int64_t>(rng());
    f.Insert(BloomFilter::Hash(v));
  }
  for (int64_t v : in) ASSERT_TRUE(f.Check(BloomFilter::Hash(v)));
  int64_t fp = 0;
  const int64_t probes = 200000;
  for (int64_t i = 0; i < probes; ++i) fp += f.Check(BloomFilter::Hash(static_cast<int64_t>(rng())));
  const double rate = static_cast<double>(fp) / probes;
  EXPECT_GT(rate, 0.004);
  EXPECT_LT(rate, 0.02);
}

TEST(BloomFilter, BytesRoundTripAndBadSizesRejected) {
  BloomFilter f(1024);
  for (int i = 0; i < 100; ++i) f.Insert(BloomFilter::Hash(std::to_string(i)));
  auto g = BloomFilter::FromBytes(f.bytes(), f.num_bytes());
  ASSERT_TRUE(g.ok());
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(g->Check(BloomFilter::Hash(std::to_string(i))));
  EXPECT_EQ(std::vector<uint8_t>(g->bytes(), g->bytes() + g->num_bytes()),
            std::vector<uint8_t>(f.bytes(), f.bytes() + f.num_bytes()));
  std::vector<uint8_t> z(64);
  EXPECT_TRUE(BloomFilter::FromBytes(z.data(), 16).status().IsCorruption());
  EXPECT_TRUE(BloomFilter::FromBytes(z.data(), 40).status().IsCorruption());
  EXPECT_TRUE(BloomFilter::FromBytes(z.data(), 64).ok());
}

TEST(BloomFilter, ReadsParquetMrFilterFromTestData) {
  SHOAL_REQUIRE_TESTDATA();
  // parquet-testing: thrift BloomFilterHeader (16 bytes here) then a 1024-byte bitset holding
  // "hello", "parquet", "bloom", "filter", written by parquet-mr.
  std::ifstream in(testing::TestDataDir() + "/parquet-testing/data/bloom_filter.xxhash.bin",
                   std::ios::binary);
  ASSERT_TRUE(in.good());
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(file.size(), 1040u);
  auto f = BloomFilter::FromBytes(file.data() + 16, 1024);
  ASSERT_TRUE(f.ok());
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) {
    EXPECT_TRUE(f->Check(BloomFilter::Hash(std::string_view(s)))) << s;
  }
  int hits = 0;
  for (int i = 0; i < 1000; ++i) hits += f->Check(BloomFilter::Hash("absent" + std::to_string(i)));
  EXPECT_LT(hits, 5);
  // Inserting the same strings into an empty filter reproduces parquet-mr's bitset exactly.
  BloomFilter mine(1024);
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) mine.Insert(BloomFilter::Hash(std::string_view(s)));
  EXPECT_EQ(std::vector<uint8_t>(mine.bytes(), mine.bytes() + 1024),
            std::vector<uint8_t>(file.begin() + 16, file.end()));
}

}  // namespace
}  // namespace shoal::parquet
