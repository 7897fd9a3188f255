// DML target scans record their filter shapes in the query log of tables with
// shoal.localSort.auto (doc/local_sort.md "Query log"): DELETE / UPDATE WHERE and MERGE's
// target-only ON conjuncts are logged like a SELECT's WHERE, once per statement; tables without
// the property log nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "shoal/database.h"
#include "support/testdata.h"
#include "table/query_log.h"

namespace shoal {
namespace {

class DmlQueryLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 1;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
  }

  void Run(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }

  // The table's directory under the warehouse.
  std::string Root(const std::string& name) const {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_.path())) {
      if (e.is_directory() && e.path().filename() == name &&
          std::filesystem::exists(e.path() / "_delta_log")) {
        return e.path().string();
      }
    }
    ADD_FAILURE() << "no table directory " << name;
    return dir_.Join(name);
  }

  // count per shape key ("a=", "a<,b=" ...).
  std::map<std::string, double> Shapes(const std::string& name) const {
    auto fs = io::LocalFileSystem();
    auto h = table::ReadQueryHistory(*fs, Root(name));
    EXPECT_TRUE(h.ok()) << h.status().ToString();
    std::map<std::string, double> out;
    if (h.ok()) {
      for (const auto& s : h->shapes) out[s.shape.Key()] += s.count;
    }
    return out;
  }

  shoal::testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(DmlQueryLogTest, DeleteUpdateAndMergeRecordTheirTargetFilters) {
  Run("CREATE TABLE t (id BIGINT, k BIGINT, s STRING) TBLPROPERTIES ('shoal.localSort.auto' = 'true')");
  Run("INSERT INTO t SELECT i AS id, i % 7 AS k, 'v' || CAST(i AS STRING) AS s FROM range(1000) AS r(i)");
  Run("CREATE TABLE src (id BIGINT, s STRING)");
  Run("INSERT INTO src VALUES (5, 'x'), (6, 'y'), (5000, 'z')");
  EXPECT_TRUE(Shapes("t").empty());

  Run("DELETE FROM t WHERE id < 10");
  auto after_delete = Shapes("t");
  EXPECT_EQ(after_delete["id<"], 1) << ::testing::PrintToString(after_delete);

  Run("UPDATE t SET s = 'u' WHERE k = 3 AND id >= 500");
  Run("UPDATE t SET s = 'u' WHERE k = 4");
  auto after_update = Shapes("t");
  EXPECT_EQ(after_update["id<"], 1);
  EXPECT_EQ(after_update["id<,k="], 1) << ::testing::PrintToString(after_update);
  EXPECT_EQ(after_update["k="], 1);

  // MERGE: the ON's target-only conjunct (t.k = 2) is logged by the statement (it is evaluated in
  // the join, not pushed into the target scan).
  Run("MERGE INTO t USING src ON t.id = src.id AND t.k = 2 WHEN MATCHED THEN UPDATE SET s = src.s");
  auto after_merge = Shapes("t");
  EXPECT_EQ(after_merge["k="], 2) << ::testing::PrintToString(after_merge);

  // A DELETE without WHERE has no filter: nothing is logged.
  double total = 0;
  for (const auto& [k, v] : after_merge) total += v;
  Run("DELETE FROM t");
  double total_after = 0;
  for (const auto& [k, v] : Shapes("t")) total_after += v;
  EXPECT_EQ(total_after, total);
}

TEST_F(DmlQueryLogTest, TablesWithoutAutoLayoutLogNothing) {
  Run("CREATE TABLE p (id BIGINT, k BIGINT)");
  Run("INSERT INTO p SELECT i AS id, i % 3 AS k FROM range(100) AS r(i)");
  Run("DELETE FROM p WHERE id < 10");
  Run("UPDATE p SET k = 9 WHERE k = 1");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(Root("p")) / "_shoal" / "query_log"));
}

}  // namespace
}  // namespace shoal
