#include "columnar/vector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/value.h"
#include "columnar/value_text.h"

namespace shoal::columnar {
namespace {

std::string Json(const Vector& v, int64_t i) {
  std::string s;
  AppendJson(v, i, &s);
  return s;
}

TEST(Vector, AppendAndGatherStringsWithNulls) {
  auto v = Vector::Make(String());
  v->AppendString("a");
  v->AppendNull();
  v->AppendString("ccc");
  uint32_t sel[] = {2, 1, 0, 2};
  auto g = Gather(*v, sel, 4);
  ASSERT_EQ(g->size(), 4);
  EXPECT_EQ(g->GetString(0), "ccc");
  EXPECT_TRUE(g->IsNull(1));
  EXPECT_EQ(g->GetString(2), "a");
  EXPECT_EQ(g->GetString(3), "ccc");
}

TEST(Vector, GatherStringsByRunsMatchesRowByRow) {
  // Runs of consecutive rows (copied in one piece), single rows, repeats and out-of-order
  // indices, with NULLs and empty strings inside the runs.
  auto v = Vector::Make(String());
  for (int i = 0; i < 500; ++i) {
    if (i % 13 == 0) v->AppendNull();
    else if (i % 17 == 0) v->AppendString("");
    else v->AppendString(std::string(static_cast<size_t>(i % 23), static_cast<char>('a' + i % 26)) + std::to_string(i));
  }
  std::vector<uint32_t> sel;
  for (uint32_t i = 0; i < 500; ++i) {
    if (i % 11 != 10) sel.push_back(i);  // keeps ~90%: runs of 10
  }
  for (uint32_t i : {7u, 7u, 3u, 499u, 0u, 1u, 2u}) sel.push_back(i);
  auto g = Gather(*v, sel.data(), static_cast<int64_t>(sel.size()));
  ASSERT_EQ(g->size(), static_cast<int64_t>(sel.size()));
  for (size_t k = 0; k < sel.size(); ++k) {
    ASSERT_EQ(g->IsNull(static_cast<int64_t>(k)), v->IsNull(sel[k])) << k;
    if (!v->IsNull(sel[k])) {
      ASSERT_EQ(g->GetString(static_cast<int64_t>(k)), v->GetString(sel[k])) << k;
    }
  }
  EXPECT_EQ(g->offsets()[0], 0);
  EXPECT_EQ(static_cast<size_t>(g->offsets()[g->size()]), g->bytes().size());
}

// A coded vector over `dict` with random codes and NULLs, and the same rows flat (the reference).
std::pair<VectorPtr, VectorPtr> RandomCoded(const VectorPtr& dict, int64_t n, uint32_t seed) {
  auto coded = Vector::MakeCoded(dict, n);
  auto flat = Vector::Make(dict->type());
  uint32_t x = seed;
  uint8_t* val = n > 0 ? coded->MutableValidity() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    bool null = (x >> 16) % 5 == 0;
    int32_t code = null ? 0 : static_cast<int32_t>((x >> 8) % dict->size());
    coded->mutable_codes()[i] = code;
    val[i] = null ? 0 : 1;
    if (null) flat->AppendNull();
    else flat->AppendString(dict->GetString(code));
  }
  return {coded, flat};
}

void ExpectSameStrings(const Vector& a, const Vector& b) {
  ASSERT_EQ(a.size(), b.size());
  for (int64_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.IsNull(i), b.IsNull(i)) << i;
    if (!a.IsNull(i)) {
      ASSERT_EQ(a.GetString(i), b.GetString(i)) << i;
    }
  }
}

TEST(Vector, DictionaryCodedMatchesFlatThroughEveryOperation) {
  auto dict = Vector::Make(String());
  for (const char* s : {"", "AIR", "MAIL", "a longer value than sixteen bytes", "SHIP"}) dict->AppendString(s);
  auto [coded, flat] = RandomCoded(dict, 300, 7);
  ASSERT_TRUE(coded->IsDictionary());
  ExpectSameStrings(*coded, *flat);
  auto decoded = Decode(coded);
  EXPECT_FALSE(decoded->IsDictionary());
  ExpectSameStrings(*decoded, *flat);
  std::vector<uint32_t> sel;
  for (uint32_t i = 0; i < 300; i += 3) sel.push_back(i);
  auto g = Gather(*coded, sel.data(), static_cast<int64_t>(sel.size()));
  EXPECT_TRUE(g->IsDictionary());
  ExpectSameStrings(*g, *Gather(*flat, sel.data(), static_cast<int64_t>(sel.size())));
  std::vector<int64_t> osel = {5, -1, 0, 299, -1};
  auto gn = GatherOrNull(*coded, osel.data(), 5);
  ExpectSameStrings(*gn, *GatherOrNull(*flat, osel.data(), 5));
  ExpectSameStrings(*coded->Slice(17, 50), *flat->Slice(17, 50));
  auto [coded2, flat2] = RandomCoded(dict, 40, 99);
  auto cat = Concat({coded, coded2});
  EXPECT_TRUE(cat->IsDictionary());
  ExpectSameStrings(*cat, *Concat({flat, flat2}));
  auto other = Vector::Make(String());
  other->AppendString("x");
  auto [coded3, flat3] = RandomCoded(other, 10, 3);
  auto mixed = Concat({coded, coded3, flat2});
  EXPECT_FALSE(mixed->IsDictionary());
  ExpectSameStrings(*mixed, *Concat({flat, flat3, flat2}));
  auto appended = Vector::Make(String());
  appended->AppendString("first");
  appended->AppendFrom(*coded, 10, 20);
  auto expect = Vector::Make(String());
  expect->AppendString("first");
  expect->AppendFrom(*flat, 10, 20);
  ExpectSameStrings(*appended, *expect);
  RecordBatch b(nullptr, {coded, flat}, 300);
  EXPECT_TRUE(HasCodedColumns(b));
  DecodeColumns(&b);
  EXPECT_FALSE(HasCodedColumns(b));
  ExpectSameStrings(*b.columns[0], *flat);
}

TEST(Vector, DictionaryCodedAllNullOverEmptyDictionaryDecodes) {
  auto dict = Vector::Make(Binary());
  auto coded = Vector::MakeCoded(dict, 3);
  for (int i = 0; i < 3; ++i) coded->mutable_codes()[i] = 0;
  coded->MutableValidity()[0] = 0;
  coded->MutableValidity()[1] = 0;
  coded->MutableValidity()[2] = 0;
  auto flat = Decode(coded);
  ASSERT_EQ(flat->size(), 3);
  EXPECT_EQ(flat->CountNulls(), 3);
}

TEST(Vector, NestedListOfStructRoundTripsThroughValues) {
  auto t = List(Struct({{"a", Int32()}, {"b", String()}}));
  auto v = Vector::Make(t);
  Value row = Value::Nested(t, {Value::Nested(t->element(), {Value::Int32(1), Value::String("x")}),
                                Value::Nested(t->element(), {Value::Null(Int32()), Value::String("y")})});
  row.AppendTo(v.get());
  v->AppendNull();
  row.AppendTo(v.get());
  EXPECT_EQ(Json(*v, 0), R"([{"a":1,"b":"x"},{"a":null,"b":"y"}])");
  EXPECT_EQ(Json(*v, 1), "null");
  EXPECT_EQ(Value::FromVector(*v, 2), row);
  int64_t sel[] = {2, -1, 0};
  auto g = GatherOrNull(*v, sel, 3);
  EXPECT_EQ(Json(*g, 0), Json(*v, 0));
  EXPECT_EQ(Json(*g, 1), "null");
  EXPECT_EQ(TextOf(*g, 2), "[{'a': 1, 'b': 'x'}, {'a': NULL, 'b': 'y'}]");
}

TEST(Vector, MapJsonIsArrayOfKeyValueObjects) {
  auto t = Map(String(), Int64());
  auto v = Vector::Make(t);
  Value::Nested(t, {Value::Nested(t->element(), {Value::String("k"), Value::Int64(7)})}).AppendTo(v.get());
  EXPECT_EQ(Json(*v, 0), R"([{"key":"k","value":7}])");
  EXPECT_EQ(TextOf(*v, 0), "{k=7}");
}

TEST(Vector, AppendFromRebasesOffsets) {
  auto a = Vector::Make(String());
  a->AppendString("xy");
  auto b = Vector::Make(String());
  b->AppendString("1");
  b->AppendString("22");
  a->AppendFrom(*b, 1, 1);
  EXPECT_EQ(a->GetString(1), "22");
  auto c = Concat({a, b});
  EXPECT_EQ(c->size(), 4);
  EXPECT_EQ(c->GetString(3), "22");
}

TEST(Vector, BroadcastFixedAndString) {
  auto v = Value::Int64(5).Broadcast(3);
  EXPECT_EQ(v->size(), 3);
  EXPECT_EQ(v->Get<int64_t>(2), 5);
  auto s = Value::String("ab").Broadcast(2);
  EXPECT_EQ(s->GetString(1), "ab");
}

TEST(ValueText, FloatsAndSpecials) {
  EXPECT_EQ(FormatDouble(10.1), "10.1");
  EXPECT_EQ(FormatDouble(static_cast<double>(1.1f)), "1.100000023841858");
  EXPECT_EQ(FormatDouble(std::nan("")), "NaN");
  auto v = Vector::Make(Float64());
  v->Append(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(Json(*v, 0), "\"-Infinity\"");
}

TEST(Decimal, FormatAndParseExactly) {
  EXPECT_EQ(FormatDecimal(12345, 2), "123.45");
  EXPECT_EQ(FormatDecimal(-5, 2), "-0.05");
  EXPECT_EQ(FormatDecimal(0, 3), "0.000");
  EXPECT_EQ(*ParseDecimal("123.45", 5, 2), 12345);
  EXPECT_EQ(*ParseDecimal("-0.055", 5, 2), -6);  // half away from zero
  EXPECT_EQ(*ParseDecimal("1e2", 5, 0), 100);
  EXPECT_FALSE(ParseDecimal("1000", 3, 0).has_value());
  EXPECT_FALSE(ParseDecimal("1x", 3, 0).has_value());
  EXPECT_EQ(Int128ToString(Pow10(38) - 1), std::string(38, '9'));
}

TEST(DateTime, CivilRoundTripAndFormats) {
  for (int64_t d = -800000; d < 800000; d += 97) {
    CivilDate c = CivilFromDays(d);
    ASSERT_EQ(DaysFromCivil(c.year, c.month, c.day), d);
  }
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(1500000), "1970-01-01 00:00:01.5");
  EXPECT_EQ(*ParseDate("2024-02-29"), DaysFromCivil(2024, 2, 29));
  EXPECT_FALSE(ParseDate("2023-02-29").has_value());
  EXPECT_EQ(*ParseTimestamp("1970-01-01T00:00:01.5Z"), 1500000);
  EXPECT_EQ(*ParseTimestamp("1970-01-01 01:00:00+01:00"), 0);
}

}  // namespace
}  // namespace shoal::columnar
