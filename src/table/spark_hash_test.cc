#include "table/spark_hash.h"

#include <gtest/gtest.h>

namespace shoal::table {
namespace {

// Expected values: the Spark SQL reference's and PySpark's documented examples of `hash`.
TEST(SparkHash, MatchesSparkDocumentedExamples) {
  EXPECT_EQ(SparkHashBytes("ABC", kSparkHashSeed), -757602832);  // hash('ABC')
  EXPECT_EQ(SparkHashBytes("DEF", SparkHashBytes("ABC", kSparkHashSeed)), 599895104);  // hash('ABC','DEF')
  // hash('Spark', array(123), 2): each argument continues from the previous hash; an array
  // hashes its elements in turn.
  int32_t h = SparkHashBytes("Spark", kSparkHashSeed);
  h = SparkHashInt(123, h);
  h = SparkHashInt(2, h);
  EXPECT_EQ(h, -1321691492);
}

TEST(SparkHash, PartitionIsANonNegativeRemainder) {
  EXPECT_EQ(SparkPartition(-7, 3), 2);
  EXPECT_EQ(SparkPartition(7, 3), 1);
  EXPECT_EQ(SparkPartition(-757602832, 1), 0);
}

}  // namespace
}  // namespace shoal::table
