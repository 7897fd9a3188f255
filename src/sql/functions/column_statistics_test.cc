// Column statistics from a Delta table's log, folded over its files, and the distinct-count
// estimate.
#include "sql/functions/column_statistics.h"

#include <gtest/gtest.h>

#include "support/sql_table_fixture.h"

namespace shoal::sql {
namespace {

using columnar::Value;

TEST(ColumnStatistics, DistinctFromBoundsByType) {
  EXPECT_EQ(EstimateDistinct(Value::Int64(10), Value::Int64(19), 1000), 10);
  EXPECT_EQ(EstimateDistinct(Value::Int64(0), Value::Int64(1000000), 500), 500);
  EXPECT_EQ(EstimateDistinct(Value::Date(100), Value::Date(129), 1000), 30);
  // DECIMAL(15,2) between 1.00 and 2.00: 101 values of one cent.
  EXPECT_EQ(EstimateDistinct(Value::Decimal(15, 2, 100), Value::Decimal(15, 2, 200), 1e6), 101);
  EXPECT_EQ(EstimateDistinct(Value::Double(0), Value::Double(1), 300), 300);
  EXPECT_EQ(EstimateDistinct(Value::String("apple"), Value::String("zebra"), 10000), 100);  // sqrt
  EXPECT_EQ(EstimateDistinct(Value::String("apple"), Value::String("zebra"), 50), 10);
  EXPECT_EQ(EstimateDistinct(Value::String("A"), Value::String("R"), 6e6), 18);  // one-character codes
  EXPECT_EQ(EstimateDistinct(Value::String("a"), Value::String("z"), 5), 5);
  EXPECT_EQ(EstimateDistinct(Value::String("x"), Value::String("x"), 1000), 1);
  EXPECT_EQ(EstimateDistinct(std::nullopt, std::nullopt, 10000), 100);
}

class DeltaColumnStatisticsTest : public testing::SqlTableTest {};

TEST_F(DeltaColumnStatisticsTest, FoldsEveryFilesStatistics) {
  Q("CREATE TABLE t (k BIGINT, s VARCHAR, n BIGINT)");
  Q("INSERT INTO t VALUES (5, 'b', NULL), (9, 'c', 1)");
  Q("INSERT INTO t VALUES (-3, 'a', NULL), (7, NULL, NULL), (8, 'd', 2)");
  auto table = scan::DeltaTable::Open(io::LocalFileSystem(), dir_.Join("t"));
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto k = DeltaColumnStatistics(**table, 0);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->min->GetInt(), -3);
  EXPECT_EQ(k->max->GetInt(), 9);
  EXPECT_EQ(k->null_count, 0);
  EXPECT_EQ(k->distinct_count, 5);  // min(5 rows, 9 - (-3) + 1)
  auto s = DeltaColumnStatistics(**table, 1);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->min->GetString(), "a");
  EXPECT_EQ(s->max->GetString(), "d");
  EXPECT_EQ(s->null_count, 1);
  auto n = DeltaColumnStatistics(**table, 2);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->null_count, 3);
  EXPECT_EQ(n->min->GetInt(), 1);
  EXPECT_EQ(n->max->GetInt(), 2);
  EXPECT_FALSE(DeltaColumnStatistics(**table, 3).has_value());
}

}  // namespace
}  // namespace shoal::sql
