#include "parquet/plain_encoding.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace shoal::parquet {
namespace {

using columnar::Buffer;

TEST(PlainEncoding, FixedWidthRoundTripsAllWidths) {
  std::mt19937_64 rng(21);
  for (int width : {4, 8, 12, 1, 16, 7}) {
    const int64_t n = 333;
    std::vector<uint8_t> values(static_cast<size_t>(n * width));
    for (auto& b : values) b = static_cast<uint8_t>(rng());
    Buffer enc;
    EncodePlainFixed(values.data(), width, n, &enc);
    ASSERT_EQ(static_cast<int64_t>(enc.size()), n * width);
    PlainDecoder dec(enc.data(), static_cast<int64_t>(enc.size()));
    std::vector<uint8_t> out(values.size());
    ASSERT_TRUE(dec.DecodeFixed(width, 100, out.data()).ok());
    ASSERT_TRUE(dec.SkipFixed(width, 33).ok());
    Buffer rest;
    ASSERT_TRUE(dec.DecodeFixed(width, 200, &rest).ok());
    EXPECT_EQ(dec.remaining(), 0);
    EXPECT_EQ(std::memcmp(out.data(), values.data(), 100 * width), 0);
    EXPECT_EQ(std::memcmp(rest.data(), values.data() + 133 * width, 200 * width), 0);
    Status st = dec.DecodeFixed(width, 1, out.data());
    EXPECT_TRUE(st.IsCorruption());
  }
}

TEST(PlainEncoding, Int32IsLittleEndian) {
  const int32_t v[] = {1, -2};
  Buffer enc;
  EncodePlainFixed(v, 4, 2, &enc);
  EXPECT_EQ(std::vector<uint8_t>(enc.data(), enc.data() + 8),
            (std::vector<uint8_t>{1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff}));
}

TEST(PlainEncoding, TruncatedFixedIsCorruptionWithoutOverflow) {
  const uint8_t data[10] = {};
  PlainDecoder dec(data, 10);
  uint8_t out[16];
  EXPECT_TRUE(dec.DecodeFixed(4, 3, out).IsCorruption());
  EXPECT_TRUE(dec.SkipFixed(8, int64_t{1} << 61).IsCorruption());
  EXPECT_TRUE(dec.DecodeFixed(4, 2, out).ok());  // a failed call consumed nothing
}

TEST(PlainEncoding, BooleansAreLsbFirstAndRoundTripAcrossByteBoundaries) {
  const uint8_t bools[] = {1, 0, 1, 1, 0, 0, 0, 0, 1, 1};
  Buffer enc;
  EncodePlainBooleans(bools, 10, &enc);
  ASSERT_EQ(enc.size(), 2u);
  EXPECT_EQ(enc.data()[0], 0x0D);
  EXPECT_EQ(enc.data()[1], 0x03);

  std::mt19937_64 rng(22);
  std::vector<uint8_t> v(1001);
  for (auto& b : v) b = rng() & 1;
  Buffer big;
  EncodePlainBooleans(v.data(), 1001, &big);
  PlainDecoder dec(big.data(), static_cast<int64_t>(big.size()));
  std::vector<uint8_t> out(1001);
  int64_t pos = 0;
  while (pos < 1001) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 30), 1001 - pos);
    if (rng() % 3 == 0) {
      ASSERT_TRUE(dec.SkipBooleans(k).ok());
      for (int64_t i = 0; i < k; ++i) out[pos + i] = v[pos + i];
    } else {
      ASSERT_TRUE(dec.DecodeBooleans(k, out.data() + pos).ok());
    }
    pos += k;
  }
  EXPECT_EQ(out, v);
  EXPECT_TRUE(dec.DecodeBooleans(8, out.data()).IsCorruption());  // 7 padding bits left
}

TEST(PlainEncoding, ByteArraysRoundTripIntoStringVector) {
  std::vector<std::string> strs = {"", "a", "hello world", std::string(1000, 'x'), "", "end"};
  auto src = columnar::Vector::Make(columnar::String());
  for (auto& s : strs) src->AppendString(s);
  Buffer enc;
  EncodePlainByteArrays(src->offsets(), src->bytes().data(), src->size(), &enc);
  EXPECT_EQ(static_cast<int64_t>(enc.size()), 4 * 6 + 1 + 11 + 1000 + 3);
  PlainDecoder dec(enc.data(), static_cast<int64_t>(enc.size()));
  auto out = columnar::Vector::Make(columnar::String());
  ASSERT_TRUE(dec.DecodeByteArrays(2, out.get()).ok());
  ASSERT_TRUE(dec.SkipByteArrays(1).ok());
  ASSERT_TRUE(dec.DecodeByteArrays(3, out.get()).ok());
  ASSERT_EQ(out->size(), 5);
  EXPECT_EQ(out->GetString(0), "");
  EXPECT_EQ(out->GetString(1), "a");
  EXPECT_EQ(out->GetString(2), strs[3]);
  EXPECT_EQ(out->GetString(3), "");
  EXPECT_EQ(out->GetString(4), "end");
  EXPECT_EQ(dec.remaining(), 0);
}

TEST(PlainEncoding, ByteArrayLengthPastEndIsCorruptionAndLeavesVectorIntact) {
  // Value 0 "ab", value 1 claims 100 bytes.
  const uint8_t data[] = {2, 0, 0, 0, 'a', 'b', 100, 0, 0, 0, 'c'};
  PlainDecoder dec(data, sizeof(data));
  auto out = columnar::Vector::Make(columnar::Binary());
  Status st = dec.DecodeByteArrays(2, out.get());
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("value 1"), std::string::npos) << st.message();
  EXPECT_EQ(out->size(), 0);
  ASSERT_TRUE(dec.DecodeByteArrays(1, out.get()).ok());
  EXPECT_EQ(out->GetString(0), "ab");
  const uint8_t cut[] = {2, 0};
  dec.Reset(cut, 2);
  EXPECT_TRUE(dec.SkipByteArrays(1).IsCorruption());
  const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 1};
  dec.Reset(huge, 5);
  EXPECT_TRUE(dec.DecodeByteArrays(1, out.get()).IsCorruption());
}

}  // namespace
}  // namespace shoal::parquet

namespace shoal::parquet {
namespace {

TEST(PlainEncoding, ByteArraysOfManyShortValuesAppendAcrossBatches) {
  // Short values take the 16-byte copy path; values near the end of the data must not.
  std::mt19937_64 rng(23);
  auto src = columnar::Vector::Make(columnar::Binary());
  for (int i = 0; i < 2000; ++i) {
    std::string s(static_cast<size_t>(rng() % 24), '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    src->AppendString(s);
  }
  columnar::Buffer enc;
  EncodePlainByteArrays(src->offsets(), src->bytes().data(), 2000, &enc);
  std::vector<uint8_t> exact(enc.data(), enc.data() + enc.size());  // no slack for ASan
  PlainDecoder dec(exact.data(), static_cast<int64_t>(exact.size()));
  auto out = columnar::Vector::Make(columnar::Binary());
  int64_t done = 0;
  while (done < 2000) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 300), 2000 - done);
    ASSERT_TRUE(dec.DecodeByteArrays(k, out.get()).ok());
    done += k;
  }
  ASSERT_EQ(out->size(), 2000);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(out->GetString(i), src->GetString(i)) << i;
  EXPECT_EQ(dec.remaining(), 0);
}

// A reader taking a few selected values from a large page (a whole column chunk in one page, as
// DuckDB writes them) reserves for those values, not for the rest of the page; values longer
// than the first reservation, mixed with short ones, grow the output without losing bytes.
TEST(PlainEncoding, ByteArraysReserveForTheValuesDecodedNotTheWholePage) {
  std::mt19937_64 rng(5);
  auto src = columnar::Vector::Make(columnar::String());
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    std::string s(static_cast<size_t>(i % 7 == 0 ? 200 + rng() % 300 : rng() % 40), '\0');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    src->AppendString(s);
  }
  columnar::Buffer enc;
  EncodePlainByteArrays(src->offsets(), src->bytes().data(), n, &enc);
  ASSERT_GT(enc.size(), 1000000u);
  std::vector<uint8_t> exact(enc.data(), enc.data() + enc.size());
  PlainDecoder dec(exact.data(), static_cast<int64_t>(exact.size()));
  auto one = columnar::Vector::Make(columnar::String());
  ASSERT_TRUE(dec.DecodeByteArrays(1, one.get()).ok());
  EXPECT_EQ(one->GetString(0), src->GetString(0));
  EXPECT_LT(one->bytes().capacity(), 4096u);  // was the remaining ~1.7 MB
  auto rest = columnar::Vector::Make(columnar::String());
  ASSERT_TRUE(dec.SkipByteArrays(9).ok());
  int64_t done = 10;
  while (done < n) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(1 + rng() % 700), n - done);
    ASSERT_TRUE(dec.DecodeByteArrays(k, rest.get()).ok());
    done += k;
  }
  ASSERT_EQ(rest->size(), n - 10);
  for (int i = 10; i < n; ++i) ASSERT_EQ(rest->GetString(i - 10), src->GetString(i)) << i;
  EXPECT_EQ(dec.remaining(), 0);
}

}  // namespace
}  // namespace shoal::parquet
