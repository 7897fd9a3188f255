#include "parquet/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace shoal::parquet {
namespace {

template <typename T>
T Decode(const std::string& s) {
  T v;
  EXPECT_EQ(s.size(), sizeof(T));
  std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

TEST(Statistics, IntegersMatchBruteForce) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> v(1000);
  for (auto& x : v) x = static_cast<int64_t>(rng());
  StatsAccumulator a(StatsKind::kInt64);
  a.UpdateFixed(v.data(), 400);
  StatsAccumulator b(StatsKind::kInt64);
  b.UpdateFixed(v.data() + 400, 600);
  a.Merge(b);
  bool exact;
  EXPECT_EQ(Decode<int64_t>(a.EncodedMin(&exact)), *std::min_element(v.begin(), v.end()));
  EXPECT_EQ(Decode<int64_t>(a.EncodedMax(&exact)), *std::max_element(v.begin(), v.end()));
}

TEST(Statistics, UnsignedOrderForUInt64) {
  uint64_t v[] = {1, std::numeric_limits<uint64_t>::max(), 5};
  StatsAccumulator a(StatsKind::kUInt64);
  a.UpdateFixed(v, 3);
  bool exact;
  EXPECT_EQ(Decode<uint64_t>(a.EncodedMin(&exact)), 1u);
  EXPECT_EQ(Decode<uint64_t>(a.EncodedMax(&exact)), std::numeric_limits<uint64_t>::max());
  Statistics s = a.ToThrift();
  EXPECT_FALSE(s.min.has_value()) << "deprecated min/max only for signed orders";
  EXPECT_TRUE(s.min_value.has_value());
}

TEST(Statistics, FloatsIgnoreNaNAndWriteSignedZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float v[] = {nan, 0.0f, 3.5f, nan, -1.0f};
  StatsAccumulator a(StatsKind::kFloat);
  a.UpdateFixed(v, 5);
  bool exact;
  EXPECT_EQ(Decode<float>(a.EncodedMin(&exact)), -1.0f);
  EXPECT_EQ(Decode<float>(a.EncodedMax(&exact)), 3.5f);

  // Only zeros: min is written as -0.0 and max as +0.0, whichever zeros occurred.
  double z[] = {0.0, 0.0};
  StatsAccumulator b(StatsKind::kDouble);
  b.UpdateFixed(z, 2);
  double mn = Decode<double>(b.EncodedMin(&exact)), mx = Decode<double>(b.EncodedMax(&exact));
  EXPECT_TRUE(mn == 0 && std::signbit(mn));
  EXPECT_TRUE(mx == 0 && !std::signbit(mx));
  double nz[] = {-0.0};
  StatsAccumulator c(StatsKind::kDouble);
  c.UpdateFixed(nz, 1);
  EXPECT_FALSE(std::signbit(Decode<double>(c.EncodedMax(&exact))));
}

TEST(Statistics, AllNaNHasNoMinMax) {
  double v[] = {std::nan(""), std::nan("")};
  StatsAccumulator a(StatsKind::kDouble);
  a.UpdateFixed(v, 2);
  a.AddNulls(3);
  EXPECT_FALSE(a.has_min_max());
  Statistics s = a.ToThrift();
  EXPECT_FALSE(s.min_value.has_value());
  EXPECT_FALSE(s.max_value.has_value());
  EXPECT_EQ(s.null_count, 3);
}

TEST(Statistics, BinaryBoundsTruncatedStillBoundEveryValue) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::string> vals(20);
    std::vector<int64_t> offsets{0};
    std::string bytes;
    for (auto& s : vals) {
      int len = static_cast<int>(rng() % 100);
      for (int i = 0; i < len; ++i) {
        // bias towards 0xFF and multi-byte UTF-8 lead bytes to hit the rounding corner cases
        uint8_t c = static_cast<uint8_t>(rng() % 4 == 0 ? 0xFF : rng() % 3 == 0 ? 0xE2 : 'a' + rng() % 26);
        s.push_back(static_cast<char>(c));
      }
      bytes += s;
      offsets.push_back(static_cast<int64_t>(bytes.size()));
    }
    StatsAccumulator a(StatsKind::kBytes, 16);
    a.UpdateByteArrays(offsets.data(), reinterpret_cast<const uint8_t*>(bytes.data()), 20);
    bool min_exact, max_exact;
    std::string lo = a.EncodedMin(&min_exact), hi = a.EncodedMax(&max_exact);
    for (const std::string& s : vals) {
      // unsigned byte-wise comparison
      auto ucmp = [](const std::string& x, const std::string& y) {
        int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));
        return c != 0 ? c : (x.size() < y.size() ? -1 : x.size() > y.size());
      };
      EXPECT_LE(ucmp(lo, s), 0);
      EXPECT_GE(ucmp(hi, s), 0) << "truncated max below a value";
    }
    if (!max_exact) {
      EXPECT_LE(hi.size(), 20u);
    }
  }
}

TEST(Statistics, TruncateMaxRoundsUpUtf8AndBinary) {
  bool exact;
  EXPECT_EQ(TruncateMax("abcdef", 3, false, &exact), "abd");
  EXPECT_FALSE(exact);
  EXPECT_EQ(TruncateMax("ab\xff\xff\xff", 3, false, &exact), "ac");
  EXPECT_EQ(TruncateMax("\xff\xff\xff\xff", 3, false, &exact), "\xff\xff\xff\xff");
  EXPECT_TRUE(exact);
  EXPECT_EQ(TruncateMax("short", 10, true, &exact), "short");
  EXPECT_TRUE(exact);
  // "é" is C3 A9: cutting at 2 bytes of "aéb" keeps "a" + next code point after é ("ê").
  EXPECT_EQ(TruncateMax("a\xc3\xa9xyz", 3, true, &exact), "a\xc3\xaa");
  EXPECT_EQ(TruncateMin("a\xc3\xa9xyz", 2, true, &exact), "a");
  EXPECT_FALSE(exact);
}

TEST(Statistics, DecimalBytesCompareAsSignedNumbers) {
  EXPECT_LT(CompareEncoded(StatsKind::kSignedBytes, std::string("\xff", 1), std::string("\x01", 1)), 0);
  EXPECT_GT(CompareEncoded(StatsKind::kSignedBytes, std::string("\x01\x00", 2), std::string("\x7f", 1)), 0);
  EXPECT_EQ(CompareEncoded(StatsKind::kSignedBytes, std::string("\xff\xff", 2), std::string("\xff", 1)), 0);
  EXPECT_LT(CompareEncoded(StatsKind::kBytes, std::string("\x01", 1), std::string("\xff", 1)), 0);
}

LeafColumn Leaf(PhysicalType t, columnar::TypePtr type, Conversion c = Conversion::kNone) {
  LeafColumn l;
  l.physical = t;
  l.type = std::move(type);
  l.conversion = c;
  l.dotted_path = std::string("c");
  return l;
}

TEST(Statistics, DecodeTrustsDeprecatedMinMaxOnlyForSignedOrder) {
  SchemaElement e;
  e.type = PhysicalType::kByteArray;
  e.converted_type = ConvertedType::kUtf8;
  Statistics s;
  s.min = "a";
  s.max = "z";
  auto r = DecodeStatistics(s, Leaf(PhysicalType::kByteArray, columnar::String()), e, std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->min.has_value());

  SchemaElement i;
  i.type = PhysicalType::kInt32;
  Statistics t;
  int32_t lo = -5, hi = 9;
  t.min = std::string(reinterpret_cast<char*>(&lo), 4);
  t.max = std::string(reinterpret_cast<char*>(&hi), 4);
  auto q = DecodeStatistics(t, Leaf(PhysicalType::kInt32, columnar::Int32()), i, std::nullopt);
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE(q->min.has_value());
  EXPECT_EQ(q->min->GetInt(), -5);
  EXPECT_EQ(q->max->GetInt(), 9);
}

TEST(Statistics, DecodeIgnoresMinMaxOfUndefinedColumnOrder) {
  SchemaElement e;
  e.type = PhysicalType::kByteArray;
  Statistics s;
  s.min_value = "a";
  s.max_value = "z";
  auto none = DecodeStatistics(s, Leaf(PhysicalType::kByteArray, columnar::Binary()), e, std::nullopt);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->min.has_value()) << "unsigned order without a column order";
  auto typed = DecodeStatistics(s, Leaf(PhysicalType::kByteArray, columnar::Binary()), e, ColumnOrder{1});
  ASSERT_TRUE(typed.ok());
  ASSERT_TRUE(typed->min.has_value());
  EXPECT_EQ(typed->max->GetString(), "z");
  auto unknown = DecodeStatistics(s, Leaf(PhysicalType::kByteArray, columnar::Binary()), e, ColumnOrder{9});
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->min.has_value());
}

TEST(Statistics, DecodeFixesSignedZerosDropsNaNAndKeepsExactness) {
  SchemaElement e;
  e.type = PhysicalType::kDouble;
  Statistics s;
  double lo = 0.0, hi = -0.0;
  s.min_value = std::string(reinterpret_cast<char*>(&lo), 8);
  s.max_value = std::string(reinterpret_cast<char*>(&hi), 8);
  auto r = DecodeStatistics(s, Leaf(PhysicalType::kDouble, columnar::Float64()), e, ColumnOrder{1});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(std::signbit(r->min->GetDouble()));
  EXPECT_FALSE(std::signbit(r->max->GetDouble()));
  double nan = std::nan("");
  s.max_value = std::string(reinterpret_cast<char*>(&nan), 8);
  auto n = DecodeStatistics(s, Leaf(PhysicalType::kDouble, columnar::Float64()), e, ColumnOrder{1});
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->min.has_value());
  EXPECT_FALSE(n->max.has_value());

  SchemaElement b;
  b.type = PhysicalType::kByteArray;
  Statistics t;
  t.min_value = "ab";
  t.max_value = "ac";
  t.is_max_value_exact = false;
  auto x = DecodeStatistics(t, Leaf(PhysicalType::kByteArray, columnar::String()), b, ColumnOrder{1});
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(x->min_exact);
  EXPECT_FALSE(x->max_exact);
}

TEST(Statistics, DecodeRejectsWrongSizedBound) {
  SchemaElement e;
  e.type = PhysicalType::kInt64;
  Statistics s;
  s.min_value = "abc";
  s.max_value = "abc";
  auto r = DecodeStatistics(s, Leaf(PhysicalType::kInt64, columnar::Int64()), e, ColumnOrder{1});
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
}

TEST(Statistics, DecodeDecimalFromBigEndianBytes) {
  SchemaElement e;
  e.type = PhysicalType::kFixedLenByteArray;
  e.type_length = 2;
  e.converted_type = ConvertedType::kDecimal;
  Statistics s;
  s.min_value = std::string("\xff\x38", 2);  // -200
  s.max_value = std::string("\x01\x2c", 2);  // 300
  auto r = DecodeStatistics(s, Leaf(PhysicalType::kFixedLenByteArray, columnar::Decimal(20, 2), Conversion::kBytesToDecimal),
                            e, ColumnOrder{1});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->min.has_value());
  EXPECT_TRUE(r->min->GetDecimal() == -200);
  EXPECT_TRUE(r->max->GetDecimal() == 300);
}

// DECIMAL(p <= 18) stored as INT64 (and p <= 9 as INT32) has no value conversion; its bounds
// must still be decimals so they compare with decimal literals by value.
TEST(Statistics, DecodeDecimalStoredAsPlainIntegers) {
  for (auto [physical, precision] : {std::pair{PhysicalType::kInt64, 15}, std::pair{PhysicalType::kInt32, 9}}) {
    SchemaElement e;
    e.type = physical;
    e.converted_type = ConvertedType::kDecimal;
    Statistics s;
    if (physical == PhysicalType::kInt64) {
      int64_t lo = -250, hi = 1234;
      s.min_value = std::string(reinterpret_cast<const char*>(&lo), 8);
      s.max_value = std::string(reinterpret_cast<const char*>(&hi), 8);
    } else {
      int32_t lo = -250, hi = 1234;
      s.min_value = std::string(reinterpret_cast<const char*>(&lo), 4);
      s.max_value = std::string(reinterpret_cast<const char*>(&hi), 4);
    }
    auto r = DecodeStatistics(s, Leaf(physical, columnar::Decimal(precision, 2), Conversion::kNone), e, ColumnOrder{1});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_TRUE(r->min.has_value() && r->max.has_value());
    EXPECT_TRUE(r->min->GetDecimal() == -250);
    EXPECT_TRUE(r->max->GetDecimal() == 1234);
    auto literal = columnar::Value::Decimal(precision, 2, 1000);  // 10.00 lies inside [-2.50, 12.34]
    EXPECT_LT(r->min->Compare(literal), 0);
    EXPECT_GT(r->max->Compare(literal), 0);
  }
}

}  // namespace
}  // namespace shoal::parquet
