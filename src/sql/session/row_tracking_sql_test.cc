// Row tracking through SQL: UPDATE and MERGE keep the ids of the rows it rewrites (materialized row id
// column in the new row versions), OPTIMIZE ZORDER BY keeps them too, and ALTER TABLE SET
// TBLPROPERTIES ('delta.enableRowTracking' = 'true') backfills ids of the existing files.
#include <gtest/gtest.h>

#include <set>

#include "shoal/database.h"
#include "table/maintenance_test_table.h"
#include "table/row_tracking_test_support.h"
#include "txn/row_tracking.h"

namespace shoal::sql {
namespace {

using table::testing_support::MaintenanceTable;

class RowTrackingSql : public ::testing::Test {
 protected:
  void Open(MaintenanceTable& t) {
    auto db = Database::Open(t.warehouse());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
  }
  void Exec(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(RowTrackingSql, UpdateAndZOrderKeepRowIds) {
  MaintenanceTable t(table::testing_support::Props{{"delta.enableDeletionVectors", "true"},
                                                  {"delta.enableRowTracking", "true"}});
  t.Append({1, 2, 3, 4, 5});
  t.Append({6, 7, 8, 9, 10});
  Open(t);
  auto before = table::testing_support::RowIdsByKey(t.fs(), t.root(), "id");
  ASSERT_EQ(before.size(), 10u);
  Exec("UPDATE t SET name = 'changed' WHERE id IN (2, 7)");
  EXPECT_EQ(table::testing_support::RowIdsByKey(t.fs(), t.root(), "id"), before);
  Exec("OPTIMIZE t ZORDER BY (name)");
  EXPECT_EQ(table::testing_support::RowIdsByKey(t.fs(), t.root(), "id"), before);
  Exec("UPDATE t SET name = 'again' WHERE id = 2");
  EXPECT_EQ(table::testing_support::RowIdsByKey(t.fs(), t.root(), "id"), before);
  Exec("MERGE INTO t USING (SELECT 3 AS id, 'merged' AS name UNION ALL SELECT 11 AS id, 'new' AS name) s "
       "ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT *");
  auto merged = table::testing_support::RowIdsByKey(t.fs(), t.root(), "id");
  ASSERT_EQ(merged.size(), 11u);
  std::set<int64_t> old_ids;
  for (const auto& [id, row_id] : before) {
    EXPECT_EQ(merged.at(id), row_id) << "id " << id;
    old_ids.insert(row_id);
  }
  EXPECT_FALSE(old_ids.count(merged.at(11)));
  auto r = con_->Query("SELECT * FROM t WHERE id = 2");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->num_columns(), 2);  // the materialized columns stay hidden
  EXPECT_EQ(r->GetText(0, 1), "again");
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(RowTrackingSql, EnablingOnAnExistingTableBackfillsIds) {
  MaintenanceTable t(table::testing_support::Props{{"delta.enableDeletionVectors", "true"}});
  t.Append({1, 2, 3});
  t.Append({4, 5});
  Open(t);
  Exec("ALTER TABLE t SET TBLPROPERTIES ('delta.enableRowTracking' = 'true')");
  auto snap = t.Snap();
  EXPECT_FALSE(txn::MaterializedRowIdColumn(snap->metadata()).empty());
  for (const auto& f : snap->files()) EXPECT_TRUE(f.base_row_id.has_value()) << f.path;
  auto ids = table::testing_support::RowIdsByKey(t.fs(), t.root(), "id");
  std::set<int64_t> distinct;
  for (const auto& [id, row_id] : ids) distinct.insert(row_id);
  EXPECT_EQ(ids.size(), 5u);
  EXPECT_EQ(distinct.size(), 5u);
  Exec("INSERT INTO t VALUES (6, 'n6')");
  auto more = table::testing_support::RowIdsByKey(t.fs(), t.root(), "id");
  EXPECT_EQ(more.size(), 6u);
  EXPECT_FALSE(distinct.count(more.at(6)));
  EXPECT_EQ(t.Violations(), "");
}

}  // namespace
}  // namespace shoal::sql
