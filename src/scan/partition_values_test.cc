#include "scan/partition_values.h"

#include <gtest/gtest.h>

#include "columnar/datetime.h"

namespace shoal::scan {
namespace {

using columnar::Value;

Value Parse(const std::optional<std::string>& s, const columnar::TypePtr& t) {
  auto r = ParsePartitionValue(s, t, "p");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : Value();
}

TEST(PartitionValues, ParsesEachTypeFromDeltaText) {
  EXPECT_EQ(Parse("42", columnar::Int32()), Value::Int32(42));
  EXPECT_EQ(Parse("-7", columnar::Int64()), Value::Int64(-7));
  EXPECT_EQ(Parse("-128", columnar::Int8()), Value::Integer(columnar::Int8(), -128));
  EXPECT_EQ(Parse("true", columnar::Boolean()), Value::Boolean(true));
  EXPECT_EQ(Parse("false", columnar::Boolean()), Value::Boolean(false));
  EXPECT_EQ(Parse("1.5", columnar::Float64()), Value::Double(1.5));
  EXPECT_EQ(Parse("123.45", columnar::Decimal(10, 2)), Value::Decimal(10, 2, 12345));
  EXPECT_EQ(Parse("2021-09-08", columnar::Date()), Value::Date(*columnar::ParseDate("2021-09-08")));
  EXPECT_EQ(Parse("abc", columnar::String()), Value::String("abc"));
  EXPECT_EQ(Parse(std::string("\x01\x02", 2), columnar::Binary()), Value::Binary(std::string("\x01\x02", 2)));
}

TEST(PartitionValues, TimestampsInBothSpecFormsAreUtc) {
  int64_t want = *columnar::ParseTimestamp("2021-09-08 11:11:11.123456");
  EXPECT_EQ(Parse("2021-09-08 11:11:11.123456", columnar::Timestamp()).GetInt(), want);
  EXPECT_EQ(Parse("2021-09-08T11:11:11.123456Z", columnar::Timestamp()).GetInt(), want);
  EXPECT_EQ(Parse("2021-09-08 11:11:11", columnar::TimestampNtz()).GetInt(),
            *columnar::ParseTimestamp("2021-09-08 11:11:11"));
  EXPECT_EQ(Parse("2021-09-08 11:11:11", columnar::TimestampNtz()).type()->id(), columnar::TypeId::kTimestampNtz);
}

TEST(PartitionValues, MissingNullAndEmptyAreNull) {
  EXPECT_TRUE(Parse(std::nullopt, columnar::Int32()).is_null());
  EXPECT_TRUE(Parse("", columnar::Int32()).is_null());
  EXPECT_TRUE(Parse("", columnar::String()).is_null());
  EXPECT_EQ(Parse(std::nullopt, columnar::Date()).type()->id(), columnar::TypeId::kDate);
}

TEST(PartitionValues, MalformedTextIsCorruptionNamingColumnAndValue) {
  auto r = ParsePartitionValue(std::string("12x"), columnar::Int32(), "year");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("year"), std::string::npos);
  EXPECT_NE(r.status().message().find("12x"), std::string::npos);
  EXPECT_FALSE(ParsePartitionValue(std::string("300"), columnar::Int8(), "b").ok());
  EXPECT_FALSE(ParsePartitionValue(std::string("yes"), columnar::Boolean(), "b").ok());
  EXPECT_FALSE(ParsePartitionValue(std::string("2021-13-01"), columnar::Date(), "d").ok());
  EXPECT_FALSE(ParsePartitionValue(std::string("12345"), columnar::Decimal(3, 2), "d").ok());
}

}  // namespace
}  // namespace shoal::scan
