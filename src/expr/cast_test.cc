#include "expr/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/value_text.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT

// "text" of the cast result, "NULL", or "ERR:<code> <message>".
std::string C(const Value& v, const TypePtr& to, bool try_cast = false) {
  auto r = CastValue(v, to, try_cast);
  if (!r.ok()) return "ERR:" + std::string(r.status().ErrorName()) + " " + r.status().message();
  EXPECT_TRUE(r->type()->Equals(*to));
  return r->ToString();
}

TEST(Cast, IntegerNarrowingChecksRange) {
  EXPECT_EQ(C(Value::Int32(127), Int8()), "127");
  EXPECT_EQ(C(Value::Int32(-128), Int8()), "-128");
  EXPECT_EQ(C(Value::Int32(300), Int8()), "ERR:ConversionException Could not convert INT value 300 to TINYINT");
  EXPECT_EQ(C(Value::Int32(300), Int8(), true), "NULL");
  EXPECT_EQ(C(Value::Int64(INT64_MIN), Int32(), true), "NULL");
  EXPECT_EQ(C(Value::Int64(-1), UInt64(), true), "NULL");
  EXPECT_EQ(C(Value::Int64(INT64_MAX), UInt64()), "9223372036854775807");
  EXPECT_EQ(C(Value::Int32(5), Int64()), "5");
}

TEST(Cast, DoubleToIntegerTruncatesTowardZero) {  // Spark: CAST(2.7D AS INT) = 2
  EXPECT_EQ(C(Value::Double(2.5), Int32()), "2");
  EXPECT_EQ(C(Value::Double(-2.5), Int32()), "-2");
  EXPECT_EQ(C(Value::Double(2.9999), Int32()), "2");
  EXPECT_EQ(C(Value::Double(-0.9), Int32()), "0");
  EXPECT_EQ(C(Value::Double(2147483647.9), Int32()), "2147483647");
  EXPECT_EQ(C(Value::Double(2147483648.0), Int32(), true), "NULL");
  EXPECT_EQ(C(Value::Double(-2147483648.9), Int32()), "-2147483648");
  EXPECT_EQ(C(Value::Double(-2147483649.0), Int32(), true), "NULL");
  EXPECT_EQ(C(Value::Double(9.3e18), Int64(), true), "NULL");
  EXPECT_EQ(C(Value::Double(-9223372036854775808.0), Int64()), "-9223372036854775808");
  EXPECT_EQ(C(Value::Double(std::nan("")), Int64(), true), "NULL");
  EXPECT_EQ(C(Value::Double(INFINITY), Int8(), true), "NULL");
  EXPECT_EQ(C(Value::Double(1e300), Float32(), true), "NULL");
  EXPECT_EQ(C(Value::Double(INFINITY), Float32()), "Infinity");
}

TEST(Cast, DecimalRescaleRoundsHalfAwayFromZeroButToIntegersTruncates) {
  EXPECT_EQ(C(Value::Decimal(5, 3, 12345), Decimal(4, 2)), "12.35");
  EXPECT_EQ(C(Value::Decimal(5, 3, -12345), Decimal(4, 2)), "-12.35");
  EXPECT_EQ(C(Value::Decimal(5, 3, 12344), Decimal(4, 2)), "12.34");
  EXPECT_EQ(C(Value::Decimal(4, 2, 1234), Decimal(10, 5)), "12.34000");
  EXPECT_EQ(C(Value::Decimal(4, 2, 1234), Decimal(3, 2), true), "NULL");
  EXPECT_EQ(C(Value::Decimal(4, 2, 1299), Int32()), "12");  // Spark: CAST(12.99 AS INT) = 12
  EXPECT_EQ(C(Value::Decimal(4, 2, -1299), Int32()), "-12");
  EXPECT_EQ(C(Value::Decimal(38, 0, Pow10(37)), Decimal(38, 2), true), "NULL");
  EXPECT_EQ(C(Value::Int32(123), Decimal(5, 2)), "123.00");
  EXPECT_EQ(C(Value::Int32(1234), Decimal(5, 2), true), "NULL");
  EXPECT_EQ(C(Value::Decimal(20, 2, Pow10(19) + 5), Decimal(20, 1)), "100000000000000000.1");
}

TEST(Cast, DecimalDoubleConversions) {
  EXPECT_EQ(C(Value::Decimal(3, 2, 150), Float64()), "1.5");
  EXPECT_EQ(C(Value::Decimal(3, 1, 1), Float64()), "0.1");
  EXPECT_EQ(C(Value::Double(0.125), Decimal(4, 2)), "0.13");
  EXPECT_EQ(C(Value::Double(-0.125), Decimal(4, 2)), "-0.13");
  EXPECT_EQ(C(Value::Double(1e10), Decimal(5, 0), true), "NULL");
  EXPECT_EQ(C(Value::Double(std::nan("")), Decimal(5, 0), true), "NULL");
  EXPECT_EQ(C(Value::Decimal(38, 10, Pow10(37)), Float64()), "1e+27");
}

TEST(Cast, StringToNumbers) {
  EXPECT_EQ(C(Value::String(" 42 "), Int32()), "42");
  EXPECT_EQ(C(Value::String("+7"), Int8()), "7");
  EXPECT_EQ(C(Value::String("abc"), Int32()), "ERR:ConversionException Could not convert string 'abc' to INT");
  EXPECT_EQ(C(Value::String("abc"), Int32(), true), "NULL");
  EXPECT_EQ(C(Value::String(""), Int32(), true), "NULL");
  EXPECT_EQ(C(Value::String("128"), Int8(), true), "NULL");
  EXPECT_EQ(C(Value::String("1.5"), Float64()), "1.5");
  EXPECT_EQ(C(Value::String("NaN"), Float64()), "NaN");
  EXPECT_EQ(C(Value::String("-inf"), Float64()), "-Infinity");
  EXPECT_EQ(C(Value::String("0x10"), Float64(), true), "NULL");
  EXPECT_EQ(C(Value::String("1.005"), Decimal(4, 2)), "1.01");
  EXPECT_EQ(C(Value::String("1e2"), Decimal(5, 1)), "100.0");
  EXPECT_EQ(C(Value::String("99999"), Decimal(4, 0), true), "NULL");
}

TEST(Cast, StringToBoolean) {
  for (const char* t : {"true", "TRUE", "t", "T", "1", " True "}) EXPECT_EQ(C(Value::String(t), Boolean()), "true") << t;
  for (const char* f : {"false", "False", "f", "0"}) EXPECT_EQ(C(Value::String(f), Boolean()), "false") << f;
  EXPECT_EQ(C(Value::String("yes"), Boolean(), true), "NULL");
  EXPECT_EQ(C(Value::String("2"), Boolean()), "ERR:ConversionException Could not convert string '2' to BOOLEAN");
}

TEST(Cast, StringToTemporal) {
  EXPECT_EQ(C(Value::String("2024-02-29"), Date()), "2024-02-29");
  EXPECT_EQ(C(Value::String("2023-02-29"), Date(), true), "NULL");
  EXPECT_EQ(C(Value::String("2024-01-02 03:04:05"), Date()), "2024-01-02");
  EXPECT_EQ(C(Value::String("2024-01-02 03:04:05.5"), Timestamp()), "2024-01-02 03:04:05.5");
  EXPECT_EQ(C(Value::String("2024-01-02"), Timestamp()), "2024-01-02 00:00:00");
  EXPECT_EQ(C(Value::String("12:34:56"), Time()), "12:34:56");
  EXPECT_EQ(C(Value::String("nope"), Timestamp(), true), "NULL");
}

TEST(Cast, DateTimestampConversions) {
  EXPECT_EQ(C(Value::Date(19723), Timestamp()), "2024-01-01 00:00:00");
  EXPECT_EQ(C(Value::Timestamp(19723 * kMicrosPerDay + 5), Date()), "2024-01-01");
  EXPECT_EQ(C(Value::Timestamp(-1), Date()), "1969-12-31");
  EXPECT_EQ(C(Value::Timestamp(-1), Time()), "23:59:59.999999");
  EXPECT_EQ(C(Value::Timestamp(0), TimestampNtz()), "1970-01-01 00:00:00");
}

TEST(Cast, AnythingToStringMatchesShellText) {
  EXPECT_EQ(C(Value::Boolean(true), String()), "true");
  EXPECT_EQ(C(Value::Double(0.1), String()), "0.1");
  EXPECT_EQ(C(Value::Decimal(5, 2, -5), String()), "-0.05");
  EXPECT_EQ(C(Value::Date(0), String()), "1970-01-01");
  EXPECT_EQ(C(Value::Binary("a\x01"), String()), std::string("a\x01"));
  EXPECT_EQ(C(Value::String("xy"), Binary()), "xy");
  Value list = Value::Nested(List(Int32()), {Value::Int32(1), Value::Null(Int32())});
  EXPECT_EQ(C(list, String()), "[1, NULL]");
}

TEST(Cast, NestedElementWise) {
  Value list = Value::Nested(List(String()), {Value::String("1"), Value::String("x"), Value::Null(String())});
  EXPECT_EQ(C(list, List(Int32()), true), "[1, NULL, NULL]");
  EXPECT_EQ(C(list, List(Int32())), "ERR:ConversionException Could not convert string 'x' to INT");
  Value st = Value::Nested(Struct({{"a", Int32()}, {"b", String()}}), {Value::Int32(1), Value::String("2")});
  EXPECT_EQ(C(st, Struct({{"x", Int64()}, {"y", Int64()}})), "{'x': 1, 'y': 2}");
  TypePtr m = Map(String(), Int32());
  Value entry = Value::Nested(m->element(), {Value::String("k"), Value::Int32(7)});
  EXPECT_EQ(C(Value::Nested(m, {entry}), Map(String(), Float64())), "{k=7.0}");
}

TEST(Cast, CanCastRejectsImpossibleCasts) {
  EXPECT_FALSE(CanCast(Date(), Boolean()));
  EXPECT_FALSE(CanCast(Int32(), Date()));
  EXPECT_FALSE(CanCast(List(Int32()), Int32()));
  EXPECT_FALSE(CanCast(Struct({{"a", Int32()}}), Struct({{"a", Int32()}, {"b", Int32()}})));
  EXPECT_TRUE(CanCast(NullType(), List(Int32())));
  EXPECT_TRUE(CanCast(Int32(), Boolean()));
  EXPECT_EQ(C(Value::Int32(0), Boolean()), "false");
  EXPECT_EQ(C(Value::Boolean(true), Int32()), "1");
}

TEST(Cast, IntegerToDoubleRoundTripsRandomValues) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    int32_t x = static_cast<int32_t>(rng());
    auto d = CastValue(Value::Int32(x), Float64());
    ASSERT_TRUE(d.ok());
    auto back = CastValue(*d, Int32());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->GetInt(), x);
  }
}

TEST(Cast, VectorKeepsNullsAndSharesSameType) {
  auto v = Vector::Make(Int32());
  v->Append<int32_t>(1);
  v->AppendNull();
  v->Append<int32_t>(1000);
  auto same = CastVector(v, Int32());
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->get(), v.get());
  auto out = CastVector(v, Int8(), true);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(TextOf(**out, 0), "1");
  EXPECT_TRUE((*out)->IsNull(1));
  EXPECT_TRUE((*out)->IsNull(2));
  // NULL rows never fail even when their slot holds an out-of-range value.
  auto w = Vector::Make(Int32());
  w->Append<int32_t>(100000);
  w->MutableValidity()[0] = 0;
  EXPECT_TRUE(CastVector(w, Int8()).ok());
}

}  // namespace
}  // namespace shoal::expr
