#include "parquet/delta_encoding.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

namespace shoal::parquet {
namespace {

using columnar::Buffer;

template <typename T>
std::vector<T> DecodeAll(const uint8_t* data, int64_t size, Status* st) {
  DeltaBinaryPackedDecoder<T> dec;
  *st = dec.Reset(data, size);
  if (!st->ok()) return {};
  std::vector<T> out(static_cast<size_t>(dec.total_values()));
  *st = dec.Decode(dec.total_values(), out.data());
  return out;
}

// Encodings.md example 2 (7, 5, 3, 1, 2, 3, 4, 5) with a valid block size of 128 and 4
// miniblocks: min delta -2, relative deltas 0,0,0,3,3,3,3 in 2 bits.
const std::vector<uint8_t> kExample2 = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00,
                                        0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

TEST(DeltaBinaryPacked, DecodesSpecExamples) {
  // Example 1 (1..5): min delta 1, all bit widths 0, no miniblock data.
  const std::vector<uint8_t> ex1 = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  Status st;
  EXPECT_EQ(DecodeAll<int32_t>(ex1.data(), ex1.size(), &st), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(DecodeAll<int64_t>(kExample2.data(), kExample2.size(), &st),
            (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  ASSERT_TRUE(st.ok()) << st.ToString();
  // Our encoder produces the same bytes.
  const int32_t v[] = {7, 5, 3, 1, 2, 3, 4, 5};
  Buffer enc;
  EncodeDeltaBinaryPacked(v, 8, &enc);
  EXPECT_EQ(std::vector<uint8_t>(enc.data(), enc.data() + enc.size()), kExample2);
  DeltaBinaryPackedDecoder<int32_t> dec;
  ASSERT_TRUE(dec.Reset(kExample2.data(), kExample2.size()).ok());
  EXPECT_EQ(*dec.EncodedSize(), static_cast<int64_t>(kExample2.size()));
}

TEST(DeltaBinaryPacked, AcceptsGarbageWidthsOfUnusedMiniblocks) {
  auto data = kExample2;
  data[7] = 0xff;
  data[9] = 70;
  Status st;
  EXPECT_EQ(DecodeAll<int32_t>(data.data(), data.size(), &st),
            (std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(DeltaBinaryPacked, RejectsBadHeaders) {
  Status st;
  // The spec's literal example uses block size 8, which real readers must reject.
  const std::vector<uint8_t> block8 = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
  DecodeAll<int32_t>(block8.data(), block8.size(), &st);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("block size 8"), std::string::npos) << st.message();
  const std::vector<uint8_t> bad_mb = {0x80, 0x01, 0x03, 0x05, 0x02};  // 128 / 3
  DecodeAll<int32_t>(bad_mb.data(), bad_mb.size(), &st);
  EXPECT_TRUE(st.IsCorruption());
  const std::vector<uint8_t> eight_mb = {0x80, 0x01, 0x08, 0x05, 0x02};  // 16 per miniblock
  DecodeAll<int32_t>(eight_mb.data(), eight_mb.size(), &st);
  EXPECT_TRUE(st.IsCorruption());
  // Value count far beyond what the bytes can hold.
  const std::vector<uint8_t> huge = {0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x02, 0x02, 0, 0, 0, 0};
  DecodeAll<int64_t>(huge.data(), huge.size(), &st);
  EXPECT_TRUE(st.IsCorruption());
  // Miniblock bit width 70 for int64, 33 for int32.
  auto w70 = kExample2;
  w70[6] = 70;
  DecodeAll<int64_t>(w70.data(), w70.size(), &st);
  EXPECT_NE(st.message().find("miniblock bit width 70 > 64"), std::string::npos) << st.message();
  auto w33 = kExample2;
  w33[6] = 33;
  DecodeAll<int32_t>(w33.data(), w33.size(), &st);
  EXPECT_NE(st.message().find("miniblock bit width 33 > 32"), std::string::npos) << st.message();
  DecodeAll<int32_t>(kExample2.data(), 3, &st);
  EXPECT_TRUE(st.IsCorruption());
}

template <typename T>
void CheckRoundTrip(const std::vector<T>& v) {
  Buffer enc;
  EncodeDeltaBinaryPacked(v.data(), static_cast<int64_t>(v.size()), &enc);
  const size_t size = enc.size();
  enc.Push<uint8_t>(0x77);  // trailing bytes must not be consumed
  DeltaBinaryPackedDecoder<T> dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size()).ok());
  ASSERT_EQ(dec.total_values(), static_cast<int64_t>(v.size()));
  EXPECT_EQ(*dec.EncodedSize(), static_cast<int64_t>(size));
  std::vector<T> out(v.size());
  ASSERT_TRUE(dec.Decode(static_cast<int64_t>(v.size()), out.data()).ok());
  ASSERT_EQ(out, v);
  EXPECT_FALSE(dec.Decode(1, out.data()).ok());
}

TEST(DeltaBinaryPacked, RoundTripsRandomAndExtremeValues) {
  std::mt19937_64 rng(41);
  for (int64_t n : {0, 1, 2, 31, 32, 33, 127, 128, 129, 1000, 5000}) {
    for (int bits : {0, 1, 7, 20, 31, 32, 63, 64}) {
      std::vector<int32_t> v32(n);
      std::vector<int64_t> v64(n);
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t r = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
        v64[i] = static_cast<int64_t>(r);
        v32[i] = static_cast<int32_t>(r);
      }
      CheckRoundTrip(v32);
      CheckRoundTrip(v64);
    }
  }
  CheckRoundTrip<int32_t>({std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                           std::numeric_limits<int32_t>::min(), 0, -1, std::numeric_limits<int32_t>::max()});
  CheckRoundTrip<int64_t>({std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max(), -1, 0, std::numeric_limits<int64_t>::min()});
  std::vector<int64_t> sorted(3000);
  for (int i = 0; i < 3000; ++i) sorted[i] = 1000000 + i * 3;
  CheckRoundTrip(sorted);
}

TEST(DeltaBinaryPacked, SkipEqualsDecodeAndDiscard) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> v(4000);
  for (auto& x : v) x = static_cast<int64_t>(rng() % 100000) - 50000;
  Buffer enc;
  EncodeDeltaBinaryPacked(v.data(), 4000, &enc);
  DeltaBinaryPackedDecoder<int64_t> dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size()).ok());
  int64_t pos = 0;
  std::vector<int64_t> out(300);
  while (pos < 4000) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 300), 4000 - pos);
    if (rng() % 2) {
      ASSERT_TRUE(dec.Skip(k).ok());
    } else {
      ASSERT_TRUE(dec.Decode(k, out.data()).ok());
      for (int64_t i = 0; i < k; ++i) ASSERT_EQ(out[i], v[pos + i]) << pos + i;
    }
    pos += k;
  }
  EXPECT_EQ(dec.remaining_values(), 0);
}

TEST(DeltaBinaryPacked, EveryTruncationIsCorruptionOrCorrect) {
  std::mt19937_64 rng(43);
  std::vector<int32_t> v(300);
  for (auto& x : v) x = static_cast<int32_t>(rng());
  Buffer enc;
  EncodeDeltaBinaryPacked(v.data(), 300, &enc);
  for (size_t cut = 0; cut < enc.size(); ++cut) {
    std::vector<uint8_t> part(enc.data(), enc.data() + cut);  // exact size for ASan
    Status st;
    auto out = DecodeAll<int32_t>(part.data(), static_cast<int64_t>(cut), &st);
    if (st.ok()) {
      EXPECT_EQ(out, v) << "cut " << cut;
    } else {
      EXPECT_TRUE(st.IsCorruption()) << st.ToString();
    }
  }
}

std::vector<uint8_t> Concat(const Buffer& a, const std::string& tail) {
  std::vector<uint8_t> r(a.data(), a.data() + a.size());
  r.insert(r.end(), tail.begin(), tail.end());
  return r;
}

TEST(DeltaLengthByteArray, DecodesSpecExampleAndRoundTrips) {
  // DeltaEncoding(5, 5, 6, 6) then "HelloWorldFoobarABCDEF".
  const int32_t lengths[] = {5, 5, 6, 6};
  Buffer lens;
  EncodeDeltaBinaryPacked(lengths, 4, &lens);
  auto data = Concat(lens, "HelloWorldFoobarABCDEF");
  DeltaLengthByteArrayDecoder dec;
  ASSERT_TRUE(dec.Reset(data.data(), data.size(), 4).ok());
  EXPECT_EQ(dec.encoded_size(), static_cast<int64_t>(data.size()));
  auto out = columnar::Vector::Make(columnar::String());
  ASSERT_TRUE(dec.Decode(1, out.get()).ok());
  ASSERT_TRUE(dec.Skip(1).ok());
  ASSERT_TRUE(dec.Decode(2, out.get()).ok());
  ASSERT_EQ(out->size(), 3);
  EXPECT_EQ(out->GetString(0), "Hello");
  EXPECT_EQ(out->GetString(1), "Foobar");
  EXPECT_EQ(out->GetString(2), "ABCDEF");
  EXPECT_TRUE(dec.Decode(1, out.get()).IsCorruption());

  auto src = columnar::Vector::Make(columnar::String());
  for (const char* s : {"Hello", "World", "Foobar", "ABCDEF"}) src->AppendString(s);
  Buffer enc;
  EncodeDeltaLengthByteArray(src->offsets(), src->bytes().data(), 4, &enc);
  EXPECT_EQ(std::vector<uint8_t>(enc.data(), enc.data() + enc.size()), data);
}

TEST(DeltaLengthByteArray, RejectsBadLengths) {
  DeltaLengthByteArrayDecoder dec;
  const int32_t neg[] = {3, -1};
  Buffer b;
  EncodeDeltaBinaryPacked(neg, 2, &b);
  auto data = Concat(b, "abcdef");
  EXPECT_TRUE(dec.Reset(data.data(), data.size(), 2).IsCorruption());
  const int32_t big[] = {3, 10};
  Buffer b2;
  EncodeDeltaBinaryPacked(big, 2, &b2);
  data = Concat(b2, "abcdef");
  Status st = dec.Reset(data.data(), data.size(), 2);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("13"), std::string::npos) << st.message();
  // Fewer lengths than the page's values (a v1 page with NULLs): Reset accepts the stream's
  // count, and decoding past it fails.
  data = Concat(b2, std::string(13, 'x'));
  ASSERT_TRUE(dec.Reset(data.data(), data.size(), 3).ok());
  EXPECT_EQ(dec.remaining_values(), 2);
  auto out = columnar::Vector::Make(columnar::String());
  EXPECT_TRUE(dec.Decode(3, out.get()).IsCorruption());
  EXPECT_TRUE(dec.Reset(data.data(), data.size(), 2).ok());
}

TEST(DeltaByteArray, DecodesSpecExample) {
  // "axis", "axle", "babble", "babyhood": prefixes 0,2,0,3; suffix lengths 4,2,6,5.
  const int32_t prefixes[] = {0, 2, 0, 3};
  const int32_t suffixes[] = {4, 2, 6, 5};
  Buffer b;
  EncodeDeltaBinaryPacked(prefixes, 4, &b);
  EncodeDeltaBinaryPacked(suffixes, 4, &b);
  auto data = Concat(b, "axislebabbleyhood");
  DeltaByteArrayDecoder dec;
  ASSERT_TRUE(dec.Reset(data.data(), data.size(), 4).ok());
  auto out = columnar::Vector::Make(columnar::String());
  ASSERT_TRUE(dec.Decode(2, out.get()).ok());
  ASSERT_TRUE(dec.Decode(2, out.get()).ok());
  ASSERT_EQ(out->size(), 4);
  EXPECT_EQ(out->GetString(0), "axis");
  EXPECT_EQ(out->GetString(1), "axle");
  EXPECT_EQ(out->GetString(2), "babble");
  EXPECT_EQ(out->GetString(3), "babyhood");

  auto src = columnar::Vector::Make(columnar::String());
  for (const char* s : {"axis", "axle", "babble", "babyhood"}) src->AppendString(s);
  Buffer enc;
  EncodeDeltaByteArray(src->offsets(), src->bytes().data(), 4, &enc);
  EXPECT_EQ(std::vector<uint8_t>(enc.data(), enc.data() + enc.size()), data);
}

TEST(DeltaByteArray, RoundTripsWithSkips) {
  std::mt19937_64 rng(44);
  auto src = columnar::Vector::Make(columnar::Binary());
  std::string cur;
  for (int i = 0; i < 3000; ++i) {
    cur.resize(rng() % (cur.size() + 1));
    const int add = static_cast<int>(rng() % 6);
    for (int j = 0; j < add; ++j) cur.push_back(static_cast<char>('a' + rng() % 3));
    src->AppendString(cur);
  }
  Buffer enc;
  EncodeDeltaByteArray(src->offsets(), src->bytes().data(), 3000, &enc);
  DeltaByteArrayDecoder dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), 3000).ok());
  auto out = columnar::Vector::Make(columnar::Binary());
  int64_t pos = 0;
  while (pos < 3000) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 2000), 3000 - pos);
    if (rng() % 2) {
      ASSERT_TRUE(dec.Skip(k).ok());
    } else {
      out->Clear();
      ASSERT_TRUE(dec.Decode(k, out.get()).ok());
      for (int64_t i = 0; i < k; ++i) ASSERT_EQ(out->GetString(i), src->GetString(pos + i)) << pos + i;
    }
    pos += k;
  }
  EXPECT_EQ(dec.remaining_values(), 0);
}

TEST(DeltaByteArray, RejectsPrefixLongerThanPreviousValue) {
  const int32_t prefixes[] = {0, 5};
  const int32_t suffixes[] = {2, 1};
  Buffer b;
  EncodeDeltaBinaryPacked(prefixes, 2, &b);
  EncodeDeltaBinaryPacked(suffixes, 2, &b);
  auto data = Concat(b, "abc");
  DeltaByteArrayDecoder dec;
  ASSERT_TRUE(dec.Reset(data.data(), data.size(), 2).ok());
  auto out = columnar::Vector::Make(columnar::String());
  Status st = dec.Decode(2, out.get());
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("prefix length 5"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace shoal::parquet

namespace shoal::parquet {
namespace {

TEST(DeltaByteArray, EmptyInputsRoundTrip) {
  const int64_t zero = 0;
  columnar::Buffer a, b;
  EncodeDeltaLengthByteArray(&zero, nullptr, 0, &a);
  EncodeDeltaByteArray(&zero, nullptr, 0, &b);
  DeltaLengthByteArrayDecoder dl;
  ASSERT_TRUE(dl.Reset(a.data(), a.size(), 0).ok());
  EXPECT_EQ(dl.remaining_values(), 0);
  EXPECT_EQ(dl.encoded_size(), static_cast<int64_t>(a.size()));
  DeltaByteArrayDecoder db;
  ASSERT_TRUE(db.Reset(b.data(), b.size(), 0).ok());
  auto out = columnar::Vector::Make(columnar::String());
  EXPECT_TRUE(db.Decode(0, out.get()).ok());
  EXPECT_TRUE(db.Decode(1, out.get()).IsCorruption());
  // The value count given to Reset is an upper bound (v1 pages count NULLs); asking for more
  // values than the stream holds fails at Decode.
  ASSERT_TRUE(dl.Reset(a.data(), a.size(), 1).ok());
  EXPECT_EQ(dl.remaining_values(), 0);
  EXPECT_TRUE(dl.Decode(1, out.get()).IsCorruption());
}

}  // namespace
}  // namespace shoal::parquet
