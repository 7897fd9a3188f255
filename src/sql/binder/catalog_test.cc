// Base table names resolve to <warehouse>/<name> Delta tables; time travel through SQL.
#include "sql/binder/catalog.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

namespace fs = std::filesystem;

TEST(Catalog, BaseTableNameResolvesToWarehouseDirectory) {
  SHOAL_REQUIRE_TESTDATA();
  testing::TempDir wh;
  fs::copy(testing::TestDataDir() + "/delta-golden/golden/time-travel-start-start20-start40/delta",
           wh.Join("events"), fs::copy_options::recursive);
  auto db = Database::Open(wh.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto con = (*db)->Connect();
  auto r = con->Query("SELECT count(*) FROM events");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->GetText(0, 0), "30");
  auto old = con->Query("SELECT count(*) FROM events VERSION AS OF 1");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->GetText(0, 0), "20");
  auto aliased = con->Query("SELECT count(e.id) FROM events AS e");
  EXPECT_TRUE(aliased.ok()) << aliased.status().ToString();
  auto missing = con->Query("SELECT * FROM nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("Table with name nope does not exist"), std::string::npos)
      << missing.status().ToString();
}

TEST(Catalog, TimeTravelValuesAreChecked) {
  EXPECT_TRUE(EvaluateTimeTravel(TimeTravel::Kind::kVersion, columnar::Value::Int64(3)).ok());
  EXPECT_FALSE(EvaluateTimeTravel(TimeTravel::Kind::kVersion, columnar::Value::String("x")).ok());
  auto ts = EvaluateTimeTravel(TimeTravel::Kind::kTimestamp, columnar::Value::String("1970-01-01 00:00:01"));
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->timestamp_ms, 1000);
  EXPECT_FALSE(EvaluateTimeTravel(TimeTravel::Kind::kTimestamp, columnar::Value::String("soon")).ok());
}

}  // namespace
}  // namespace shoal::sql
