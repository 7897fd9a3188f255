#include "expr/coercion.h"

#include <gtest/gtest.h>

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT

std::string Common(const TypePtr& a, const TypePtr& b) {
  auto r = CommonType(a, b);
  return r.ok() ? (*r)->ToString() : "error";
}

TEST(Coercion, CommonTypeTable) {
  struct Row {
    TypePtr a, b;
    const char* expect;
  } rows[] = {
      {Int8(), Int16(), "SMALLINT"},
      {Int32(), Int64(), "BIGINT"},
      {Int16(), Int32(), "INT"},
      {Int64(), UInt64(), "DECIMAL(20,0)"},
      {Int32(), Decimal(5, 2), "DECIMAL(12,2)"},
      {Int64(), Decimal(10, 3), "DECIMAL(22,3)"},
      {Decimal(5, 2), Decimal(10, 4), "DECIMAL(10,4)"},
      {Decimal(38, 0), Decimal(38, 10), "DECIMAL(38,0)"},
      {Decimal(10, 2), Float64(), "DOUBLE"},
      {Float32(), Float64(), "DOUBLE"},
      {Float32(), Float32(), "FLOAT"},
      {Float32(), Int32(), "DOUBLE"},
      {Int32(), Float64(), "DOUBLE"},
      {NullType(), Date(), "DATE"},
      {String(), NullType(), "STRING"},
      {String(), Date(), "DATE"},
      {Timestamp(), String(), "TIMESTAMP"},
      {String(), Int32(), "INT"},
      {Date(), Timestamp(), "TIMESTAMP"},
      {Int32(), Date(), "error"},
      {Boolean(), Int32(), "error"},
      {List(Int32()), List(Int64()), "ARRAY<BIGINT>"},
      {Map(String(), Int8()), Map(String(), Decimal(4, 1)), "MAP<STRING, DECIMAL(4,1)>"},
      {List(Int32()), List(Date()), "error"},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(Common(r.a, r.b), r.expect) << r.a->ToString() << " vs " << r.b->ToString();
    EXPECT_EQ(Common(r.b, r.a), r.expect) << "symmetric: " << r.b->ToString() << " vs " << r.a->ToString();
  }
}

TEST(Coercion, StructFieldNamesComeFromTheLeft) {
  EXPECT_EQ(Common(Struct({{"a", Int32()}}), Struct({{"b", Float64()}})), "STRUCT<a: DOUBLE>");
  EXPECT_EQ(Common(Struct({{"a", Int32()}}), Struct({{"a", Int32()}, {"b", Int32()}})), "error");
}

TEST(Coercion, ImplicitCastCosts) {
  EXPECT_EQ(ImplicitCastCost(Int32(), Int32()), 0);
  EXPECT_GT(ImplicitCastCost(Int32(), Int64()), 0);
  EXPECT_LT(ImplicitCastCost(Int32(), Int64()), ImplicitCastCost(Int32(), Float64()));
  EXPECT_EQ(ImplicitCastCost(Int64(), Int32()), -1);
  EXPECT_EQ(ImplicitCastCost(Float64(), Int64()), -1);
  EXPECT_GE(ImplicitCastCost(Int32(), Decimal(10, 0)), 0);
  EXPECT_EQ(ImplicitCastCost(Int32(), Decimal(9, 0)), -1);
  EXPECT_EQ(ImplicitCastCost(Decimal(10, 2), Decimal(5, 2)), -1);
  EXPECT_GE(ImplicitCastCost(Date(), Timestamp()), 0);
  EXPECT_EQ(ImplicitCastCost(Timestamp(), Date()), -1);
  EXPECT_GE(ImplicitCastCost(NullType(), List(Int32())), 0);
  EXPECT_GE(ImplicitCastCost(List(Int32()), List(Int64())), 0);
}

TEST(Coercion, IntegerLiteralTyping) {
  EXPECT_EQ(IntegerLiteral("1")->type()->ToString(), "INT");
  EXPECT_EQ(IntegerLiteral("-2147483648")->type()->ToString(), "INT");
  EXPECT_EQ(IntegerLiteral("2147483648")->type()->ToString(), "BIGINT");
  EXPECT_EQ(IntegerLiteral("-9223372036854775808")->GetInt(), INT64_MIN);
  auto big = IntegerLiteral("9223372036854775808");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->type()->ToString(), "DECIMAL(38,0)");
  EXPECT_EQ(big->ToString(), "9223372036854775808");
  EXPECT_TRUE(IntegerLiteral(std::string(38, '9')).ok());
  EXPECT_EQ(IntegerLiteral(std::string(39, '9')).status().code(), StatusCode::kOutOfRange);
  EXPECT_FALSE(IntegerLiteral("12a").ok());
}

TEST(Coercion, DecimalAndFloatLiteralTyping) {
  auto d = DecimalLiteral("1.50");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->type()->ToString(), "DECIMAL(3,2)");
  EXPECT_EQ(d->ToString(), "1.50");
  EXPECT_EQ(DecimalLiteral(".5")->type()->ToString(), "DECIMAL(1,1)");
  EXPECT_EQ(DecimalLiteral("-0.05")->ToString(), "-0.05");
  EXPECT_EQ(DecimalLiteral("123.")->type()->ToString(), "DECIMAL(3,0)");
  EXPECT_EQ(FloatLiteral("1e3")->type()->ToString(), "DOUBLE");
  EXPECT_EQ(FloatLiteral("1e3")->GetDouble(), 1000.0);
  EXPECT_FALSE(FloatLiteral("1e").ok());
}

TEST(Coercion, BoundedDecimalFollowsSpark) {
  EXPECT_EQ(BoundedDecimal(10, 2)->ToString(), "DECIMAL(10,2)");
  EXPECT_EQ(BoundedDecimal(39, 10)->ToString(), "DECIMAL(38,9)");
  EXPECT_EQ(BoundedDecimal(77, 38)->ToString(), "DECIMAL(38,6)");
  EXPECT_EQ(BoundedDecimal(50, 4)->ToString(), "DECIMAL(38,4)");
}

}  // namespace
}  // namespace shoal::expr
