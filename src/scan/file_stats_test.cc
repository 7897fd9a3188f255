#include "scan/file_stats.h"

#include <gtest/gtest.h>

#include "columnar/datetime.h"
#include "expr/can_match.h"

namespace shoal::scan {
namespace {

using columnar::Value;

TableColumn Col(const std::string& name, columnar::TypePtr t, std::string physical = "") {
  TableColumn c = ColumnForType(name, t, true);
  if (!physical.empty()) c.physical_name = physical;
  return c;
}

delta::FileStats Stats(const std::string& json) {
  auto s = delta::ParseStatsJson(json);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : delta::FileStats{};
}

TEST(FileStats, DecodesTypedMinMaxAndCounts) {
  auto s = Stats(R"({"numRecords":10,"minValues":{"a":1,"s":"abc","d":"2020-01-02","x":"1.50"},
                    "maxValues":{"a":9,"s":"abd","d":"2020-03-04","x":2.25},
                    "nullCount":{"a":0,"s":3}})");
  auto a = ColumnStatsFor(s, Col("a", columnar::Int64()));
  EXPECT_EQ(*a.min, Value::Int64(1));
  EXPECT_EQ(*a.max, Value::Int64(9));
  EXPECT_EQ(a.null_count, 0);
  EXPECT_EQ(a.row_count, 10);
  auto str = ColumnStatsFor(s, Col("s", columnar::String()));
  EXPECT_EQ(*str.min, Value::String("abc"));
  EXPECT_EQ(str.null_count, 3);
  auto d = ColumnStatsFor(s, Col("d", columnar::Date()));
  EXPECT_EQ(*d.max, Value::Date(*columnar::ParseDate("2020-03-04")));
  auto x = ColumnStatsFor(s, Col("x", columnar::Decimal(5, 2)));
  EXPECT_EQ(*x.min, Value::Decimal(5, 2, 150));
  EXPECT_EQ(*x.max, Value::Decimal(5, 2, 225));
}

TEST(FileStats, UsesPhysicalNamesUnderColumnMapping) {
  auto s = Stats(R"({"numRecords":1,"minValues":{"col-1a2b":5},"maxValues":{"col-1a2b":6}})");
  auto c = ColumnStatsFor(s, Col("id", columnar::Int32(), "col-1a2b"));
  ASSERT_TRUE(c.min.has_value());
  EXPECT_EQ(*c.min, Value::Int32(5));
}

TEST(FileStats, TimestampBoundsWidenByOneMillisecond) {
  auto s = Stats(R"({"numRecords":1,"minValues":{"t":"2020-01-01T00:00:00.123Z"},
                    "maxValues":{"t":"2020-01-01T00:00:00.123Z"}})");
  auto c = ColumnStatsFor(s, Col("t", columnar::Timestamp()));
  int64_t t = *columnar::ParseTimestamp("2020-01-01 00:00:00.123");
  EXPECT_EQ(c.min->GetInt(), t - 1000);
  EXPECT_EQ(c.max->GetInt(), t + 1000);
  // A value with microseconds inside the truncated millisecond must not be pruned.
  auto pred = expr::Call("=", {expr::ColumnRef(0, columnar::Timestamp(), "t"),
                               expr::Literal(Value::Timestamp(t + 456))});
  ASSERT_TRUE(pred.ok());
  VectorStatsProvider p({c});
  EXPECT_NE(expr::CanMatch(**pred, p), expr::TriState::kFalse);
}

TEST(FileStats, LongStringMaxIsWidened) {
  std::string prefix(32, 'a');
  auto s = Stats(R"({"numRecords":1,"minValues":{"s":")" + prefix + R"("},"maxValues":{"s":")" + prefix + R"("}})");
  auto c = ColumnStatsFor(s, Col("s", columnar::String()));
  EXPECT_GT(c.max->GetString(), prefix + "zzz");
  EXPECT_EQ(c.min->GetString(), prefix);
}

TEST(FileStats, LooseBoundsDropCountsButKeepMinMax) {
  auto s = Stats(R"({"numRecords":4,"tightBounds":false,"minValues":{"a":1},"maxValues":{"a":3},"nullCount":{"a":4}})");
  auto c = ColumnStatsFor(s, Col("a", columnar::Int32()));
  EXPECT_TRUE(c.min.has_value());
  EXPECT_FALSE(c.null_count.has_value());
  EXPECT_FALSE(c.row_count.has_value());
}

TEST(FileStats, WrongJsonTypesAreUnknownNotErrors) {
  auto s = Stats(R"({"numRecords":1,"minValues":{"a":"x","d":5},"maxValues":{"a":3,"d":"nope"}})");
  EXPECT_FALSE(ColumnStatsFor(s, Col("a", columnar::Int32())).min.has_value());
  EXPECT_FALSE(ColumnStatsFor(s, Col("d", columnar::Date())).max.has_value());
  EXPECT_FALSE(ColumnStatsFor(s, Col("missing", columnar::Int32())).min.has_value());
}

TEST(FileStats, FloatBoundsStepOutward) {
  auto s = Stats(R"({"numRecords":1,"minValues":{"f":0.1},"maxValues":{"f":0.1}})");
  auto c = ColumnStatsFor(s, Col("f", columnar::Float32()));
  EXPECT_LE(static_cast<float>(c.min->GetDouble()), 0.1f);
  EXPECT_GE(static_cast<float>(c.max->GetDouble()), 0.1f);
}

}  // namespace
}  // namespace shoal::scan
