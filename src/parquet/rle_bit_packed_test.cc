#include "parquet/rle_bit_packed.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace shoal::parquet {
namespace {

using columnar::Buffer;

std::vector<uint8_t> Bytes(const Buffer& b) { return {b.data(), b.data() + b.size()}; }

// Random values of bit width bw with long runs mixed in.
std::vector<uint32_t> MakeValues(std::mt19937_64& rng, int bw, int64_t n) {
  const uint64_t mask = bw == 32 ? 0xffffffffu : (uint64_t{1} << bw) - 1;
  std::vector<uint32_t> v;
  while (static_cast<int64_t>(v.size()) < n) {
    const uint32_t x = static_cast<uint32_t>(rng() & mask);
    const int64_t run = (rng() % 4 == 0) ? static_cast<int64_t>(rng() % 40) + 1 : 1;
    for (int64_t i = 0; i < run && static_cast<int64_t>(v.size()) < n; ++i) v.push_back(x);
  }
  return v;
}

Buffer Encode(const std::vector<uint32_t>& v, int bw) {
  Buffer out;
  RleBitPackedEncoder enc(bw, &out);
  enc.PutBatch(v.data(), static_cast<int64_t>(v.size()));
  enc.Flush();
  return out;
}

TEST(RleBitPacked, DecodesSpecBitPackedRun) {
  // Header (1 group << 1 | 1) then 0..7 packed with bit width 3 (Encodings.md example).
  const uint8_t data[] = {0x03, 0x88, 0xC6, 0xFA};
  RleBitPackedDecoder dec;
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 3).ok());
  uint32_t out[8];
  auto got = dec.GetBatch(out, 8);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(*got, 8);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

TEST(RleBitPacked, DecodesRleRunAndEncoderEmitsSameBytes) {
  // 100 times the value 5 at bit width 3: header varint(100 << 1) = C8 01, value byte 05.
  const std::vector<uint8_t> data = {0xC8, 0x01, 0x05};
  RleBitPackedDecoder dec;
  ASSERT_TRUE(dec.Reset(data.data(), 3, 3).ok());
  std::vector<uint32_t> out(120);
  auto got = dec.GetBatch(out.data(), 120);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 100);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(out[i], 5u);
  EXPECT_EQ(Bytes(Encode(std::vector<uint32_t>(100, 5), 3)), data);
}

TEST(RleBitPacked, EncoderBitPacksMixedValuesAsOneRun) {
  std::vector<uint32_t> v = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(Bytes(Encode(v, 3)), (std::vector<uint8_t>{0x03, 0x88, 0xC6, 0xFA}));
}

TEST(RleBitPacked, RoundTripsRandomDataForAllBitWidths) {
  std::mt19937_64 rng(11);
  for (int bw = 0; bw <= 32; ++bw) {
    for (int64_t n : {0, 1, 7, 8, 9, 63, 64, 65, 1000, 5003}) {
      auto v = MakeValues(rng, bw, n);
      Buffer enc = Encode(v, bw);
      ASSERT_LE(static_cast<int64_t>(enc.size()), RleBitPackedEncoder::MaxEncodedSize(bw, n));
      RleBitPackedDecoder dec;
      ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), bw).ok());
      std::vector<uint32_t> out(n + 8);
      auto got = dec.GetBatch(out.data(), n);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_EQ(*got, n) << "bw=" << bw;
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], v[i]) << "bw=" << bw << " n=" << n << " i=" << i;
    }
  }
}

TEST(RleBitPacked, LongRunsBecomeRleRuns) {
  std::vector<uint32_t> v(10000, 3);
  v.insert(v.end(), 10000, 1);
  EXPECT_LE(Encode(v, 2).size(), 10u);
}

TEST(RleBitPacked, SmallBatchesAndSkipsMatchFullDecode) {
  std::mt19937_64 rng(12);
  for (int bw : {1, 2, 5, 8, 13, 20, 32}) {
    auto v = MakeValues(rng, bw, 4000);
    Buffer enc = Encode(v, bw);
    RleBitPackedDecoder dec;
    ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), bw).ok());
    int64_t pos = 0;
    std::vector<uint32_t> out(200);
    while (pos < 4000) {
      // Callers know their value count; past it a final group's zero padding would decode.
      const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 50), 4000 - pos);
      if (rng() % 2) {
        auto got = dec.Skip(k);
        ASSERT_TRUE(got.ok());
        ASSERT_EQ(*got, k);
      } else {
        auto got = dec.GetBatch(out.data(), k);
        ASSERT_TRUE(got.ok());
        ASSERT_EQ(*got, k);
        for (int64_t i = 0; i < k; ++i) ASSERT_EQ(out[i], v[pos + i]) << "bw=" << bw << " at " << pos + i;
      }
      pos += k;
    }
    auto end = dec.GetBatch(out.data(), 10);
    ASSERT_TRUE(end.ok());
    EXPECT_LT(*end, 8);  // at most the padding of the last bit-packed group
  }
}

TEST(RleBitPacked, NarrowOutputsAndSkipCounting) {
  std::mt19937_64 rng(13);
  auto v = MakeValues(rng, 2, 3000);
  Buffer enc = Encode(v, 2);
  RleBitPackedDecoder dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), 2).ok());
  std::vector<uint16_t> levels(1000);
  ASSERT_EQ(*dec.GetBatch(levels.data(), 1000), 1000);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(levels[i], v[i]);
  EXPECT_EQ(CountEqual(levels.data(), 1000, 3), std::count(v.begin(), v.begin() + 1000, 3u));
  int64_t equal = 0;
  ASSERT_EQ(*dec.SkipCounting(1000, 3, &equal), 1000);
  EXPECT_EQ(equal, std::count(v.begin() + 1000, v.begin() + 2000, 3u));
  std::vector<uint8_t> bytes(1000);
  ASSERT_EQ(*dec.GetBatch(bytes.data(), 1000), 1000);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(bytes[i], v[2000 + i]);
}

TEST(RleBitPacked, BooleanRleWithLengthPrefixRoundTrips) {
  std::vector<uint8_t> b(777);
  std::mt19937_64 rng(14);
  for (size_t i = 0; i < b.size(); ++i) b[i] = (i / 100) % 2 ? 1 : rng() & 1;
  Buffer out;
  out.Push<uint8_t>(0xAB);  // appends after existing bytes
  EncodeBooleanRle(b.data(), static_cast<int64_t>(b.size()), &out);
  out.Push<uint8_t>(0xCD);  // trailing data after the prefixed section
  RleBitPackedDecoder dec;
  int64_t consumed = 0;
  ASSERT_TRUE(dec.ResetWithLengthPrefix(out.data() + 1, out.size() - 1, 1, &consumed).ok());
  EXPECT_EQ(consumed, static_cast<int64_t>(out.size()) - 2);
  std::vector<uint8_t> back(b.size());
  ASSERT_EQ(*dec.GetBatch(back.data(), static_cast<int64_t>(b.size())), static_cast<int64_t>(b.size()));
  EXPECT_EQ(back, b);

  std::vector<uint16_t> levels = {0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0};
  Buffer lv;
  EncodeRleWithLengthPrefix(levels.data(), static_cast<int64_t>(levels.size()), 2, &lv);
  ASSERT_TRUE(dec.ResetWithLengthPrefix(lv.data(), lv.size(), 2, &consumed).ok());
  EXPECT_EQ(consumed, static_cast<int64_t>(lv.size()));
  std::vector<uint16_t> lback(levels.size());
  ASSERT_EQ(*dec.GetBatch(lback.data(), static_cast<int64_t>(levels.size())), 15);
  EXPECT_EQ(lback, levels);
}

TEST(RleBitPacked, RejectsBadLengthPrefixAndBitWidth) {
  RleBitPackedDecoder dec;
  int64_t consumed = 0;
  const uint8_t short_prefix[] = {1, 0};
  EXPECT_TRUE(dec.ResetWithLengthPrefix(short_prefix, 2, 1, &consumed).IsCorruption());
  const uint8_t too_long[] = {9, 0, 0, 0, 1, 2};
  EXPECT_TRUE(dec.ResetWithLengthPrefix(too_long, 6, 1, &consumed).IsCorruption());
  const uint8_t data[] = {0};
  Status st = dec.Reset(data, 1, 33);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("33"), std::string::npos);
}

TEST(RleBitPacked, TruncatedRunsAreCorruptOrShort) {
  RleBitPackedDecoder dec;
  uint32_t out[64];
  // RLE run whose 2-byte value is cut off.
  const uint8_t rle[] = {0x10, 0x05};
  ASSERT_TRUE(dec.Reset(rle, 2, 9).ok());
  auto got = dec.GetBatch(out, 8);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.status().IsCorruption());
  EXPECT_NE(got.status().message().find("RLE run exceeds page data"), std::string::npos);
  // Header varint cut off.
  const uint8_t header[] = {0x80};
  ASSERT_TRUE(dec.Reset(header, 1, 1).ok());
  EXPECT_TRUE(dec.GetBatch(out, 8).status().IsCorruption());
  ASSERT_TRUE(dec.Reset(header, 1, 1).ok());
  EXPECT_TRUE(dec.Skip(8).status().IsCorruption());
  // Bit-packed run declaring 2 groups (16 values of 3 bits = 6 bytes) with 4 bytes present:
  // the 10 whole values present are returned, then the data ends.
  const uint8_t lit[] = {0x05, 0x88, 0xC6, 0xFA, 0x88};
  ASSERT_TRUE(dec.Reset(lit, sizeof(lit), 3).ok());
  got = dec.GetBatch(out, 16);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(*got, 10);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  EXPECT_EQ(out[8], 0u);
  EXPECT_EQ(out[9], 1u);
  // RLE value wider than the bit width.
  const uint8_t wide[] = {0x10, 0x09};
  ASSERT_TRUE(dec.Reset(wide, 2, 3).ok());
  EXPECT_TRUE(dec.GetBatch(out, 8).status().IsCorruption());
}

TEST(RleBitPacked, EveryTruncationOfAnEncodingIsSafe) {
  std::mt19937_64 rng(15);
  auto v = MakeValues(rng, 7, 600);
  Buffer enc = Encode(v, 7);
  for (size_t cut = 0; cut <= enc.size(); ++cut) {
    std::vector<uint8_t> part(enc.data(), enc.data() + cut);
    RleBitPackedDecoder dec;
    ASSERT_TRUE(dec.Reset(part.data(), static_cast<int64_t>(cut), 7).ok());
    std::vector<uint32_t> out(600);
    auto got = dec.GetBatch(out.data(), 600);
    if (!got.ok()) continue;  // Corruption is fine; reading past the data is not (ASan)
    for (int64_t i = 0; i < *got; ++i) ASSERT_EQ(out[i], v[i]);
  }
}

TEST(RleBitPacked, GathersFromFixedWidthDictionary) {
  std::mt19937_64 rng(16);
  std::vector<int64_t> dict(37);
  for (auto& d : dict) d = static_cast<int64_t>(rng());
  auto idx = MakeValues(rng, 6, 3000);
  for (auto& i : idx) i %= 37;
  Buffer enc = Encode(idx, 6);
  RleBitPackedDecoder dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), 6).ok());
  std::vector<int64_t> out(3000);
  auto got = dec.GetBatchWithDict(dict.data(), 37, out.data(), 3000);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(*got, 3000);
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(out[i], dict[idx[i]]);
}

TEST(RleBitPacked, RejectsOutOfRangeDictionaryIndexInBothRunKinds) {
  std::vector<double> dict = {1.5, 2.5};
  std::vector<double> out(64);
  RleBitPackedDecoder dec;
  Buffer rle = Encode(std::vector<uint32_t>(20, 2), 2);
  ASSERT_TRUE(dec.Reset(rle.data(), rle.size(), 2).ok());
  auto got = dec.GetBatchWithDict(dict.data(), 2, out.data(), 20);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.status().IsCorruption());
  Buffer lit = Encode({0, 1, 0, 1, 3, 1, 0, 1}, 2);
  ASSERT_TRUE(dec.Reset(lit.data(), lit.size(), 2).ok());
  EXPECT_TRUE(dec.GetBatchWithDict(dict.data(), 2, out.data(), 8).status().IsCorruption());
}

TEST(RleBitPacked, GathersStringsFromDictionaryVector) {
  auto dict = columnar::Vector::Make(columnar::String());
  const char* words[] = {"", "apple", "kiwi", "a much longer dictionary string"};
  for (const char* w : words) dict->AppendString(w);
  std::mt19937_64 rng(17);
  auto idx = MakeValues(rng, 2, 2500);
  Buffer enc = Encode(idx, 2);
  RleBitPackedDecoder dec;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), 2).ok());
  auto out = columnar::Vector::Make(columnar::String());
  out->AppendString("pre");
  ASSERT_EQ(*dec.GetBatchWithDict(*dict, out.get(), 1000), 1000);
  ASSERT_EQ(*dec.GetBatchWithDict(*dict, out.get(), 2000), 1500);
  ASSERT_EQ(out->size(), 2501);
  EXPECT_EQ(out->GetString(0), "pre");
  for (int i = 0; i < 2500; ++i) ASSERT_EQ(out->GetString(i + 1), words[idx[i]]) << i;
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size(), 2).ok());
  auto small = columnar::Vector::Make(columnar::String());
  small->AppendString("x");
  small->AppendString("y");
  EXPECT_TRUE(dec.GetBatchWithDict(*small, out.get(), 2500).status().IsCorruption());
}

// The 16-byte-slot gather for short dictionaries (entries of 0..16 bytes, the last slot full
// to its edge) returns what the general gather returns, appended after existing values and
// across batch sizes that split runs; an index past the dictionary is Corruption in both run
// kinds.
TEST(RleBitPacked, ShortDictionarySlotsGatherLikeTheGeneralPath) {
  std::mt19937_64 rng(18);
  const int entries = 45;
  auto dict = columnar::Vector::Make(columnar::String());
  Buffer slots;
  slots.ResizeZeroed(16 * entries);
  std::vector<uint8_t> lens(entries);
  for (int e = 0; e < entries; ++e) {
    std::string w(e == entries - 1 ? 16 : static_cast<size_t>(rng() % 17), '\0');
    for (auto& c : w) c = static_cast<char>(rng());
    dict->AppendString(w);
    std::memcpy(slots.data() + 16 * e, w.data(), w.size());
    lens[e] = static_cast<uint8_t>(w.size());
  }
  auto idx = MakeValues(rng, 6, 5000);
  for (auto& i : idx) i %= entries;
  Buffer enc = Encode(idx, 6);
  RleBitPackedDecoder general, fast;
  ASSERT_TRUE(general.Reset(enc.data(), enc.size(), 6).ok());
  ASSERT_TRUE(fast.Reset(enc.data(), enc.size(), 6).ok());
  auto want = columnar::Vector::Make(columnar::String());
  auto got = columnar::Vector::Make(columnar::String());
  want->AppendString("before");
  got->AppendString("before");
  int64_t done = 0;
  while (done < 5000) {
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(1 + rng() % 1500), 5000 - done);
    ASSERT_EQ(*general.GetBatchWithDict(*dict, want.get(), k), k);
    auto n = fast.GetBatchWithShortDict(slots.data(), lens.data(), entries, got.get(), k);
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    ASSERT_EQ(*n, k);
    done += k;
  }
  ASSERT_EQ(got->size(), 5001);
  for (int64_t i = 0; i <= 5000; ++i) ASSERT_EQ(got->GetString(i), want->GetString(i)) << i;
  EXPECT_EQ(got->bytes().size(), want->bytes().size());
  Buffer rle = Encode(std::vector<uint32_t>(20, 3), 2);
  ASSERT_TRUE(fast.Reset(rle.data(), rle.size(), 2).ok());
  EXPECT_TRUE(fast.GetBatchWithShortDict(slots.data(), lens.data(), 3, got.get(), 20).status().IsCorruption());
  Buffer lit = Encode({0, 1, 0, 1, 3, 1, 0, 1}, 2);
  ASSERT_TRUE(fast.Reset(lit.data(), lit.size(), 2).ok());
  EXPECT_TRUE(fast.GetBatchWithShortDict(slots.data(), lens.data(), 3, got.get(), 8).status().IsCorruption());
  EXPECT_EQ(got->size(), 5001);  // failed batches append nothing
}

}  // namespace
}  // namespace shoal::parquet
