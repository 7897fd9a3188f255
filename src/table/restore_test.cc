#include "table/restore.h"

#include <chrono>

#include <gtest/gtest.h>

#include "table/alter_schema.h"
#include "table/maintenance_test_table.h"
#include "table/vacuum.h"

namespace shoal::table {
namespace {

using testing_support::MaintenanceTable;
using testing_support::Props;

Result<RestoreMetrics> RestoreTo(MaintenanceTable& t, int64_t version) {
  auto current = t.Snap();
  auto target = t.Snap(version);
  auto txn = t.Begin("RESTORE");
  auto m = StageRestore(txn.get(), *t.fs(), *current, *target);
  if (!m.ok()) return m;
  auto c = txn->Commit();
  if (!c.ok()) return c.status();
  return m;
}

TEST(Restore, RoundTripMatchesEveryVersionRowByRow) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "true"}});
  t.Append({1, 2, 3});           // v1
  t.Append({4, 5});              // v2
  t.DeletePositions(0, {0, 2});  // v3: DV on the first file
  {
    auto snap = t.Snap();
    auto rm = t.Begin("DELETE");
    for (const auto& f : snap->files()) {
      if (!f.deletion_vector) {
        ASSERT_TRUE(rm->RemoveFile(f).ok());  // v4: drop the other file
      }
    }
    ASSERT_TRUE(rm->Commit().ok());
  }
  std::vector<std::vector<std::string>> rows;
  for (int64_t v = 0; v <= 4; ++v) rows.push_back(t.Rows(v));
  ASSERT_EQ(rows[4], (std::vector<std::string>{"2|n2"}));

  auto m = RestoreTo(t, 2);  // v5
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(t.Rows(), rows[2]);
  EXPECT_EQ(m->num_of_files_after_restore, 2);
  EXPECT_EQ(m->num_restored_files, 2);  // file 1 without its DV, file 2
  EXPECT_EQ(m->num_removed_files, 1);   // file 1 with the DV
  auto snap2 = t.Snap(2);
  int64_t size2 = 0;
  for (const auto& f : snap2->files()) size2 += f.size;
  EXPECT_EQ(m->table_size_after_restore, size2);
  EXPECT_EQ(m->restored_files_size, size2);

  // Forward again: back to the state of v3, then v0 (empty).
  ASSERT_TRUE(RestoreTo(t, 3).ok());
  EXPECT_EQ(t.Rows(), rows[3]);
  ASSERT_TRUE(RestoreTo(t, 0).ok());
  EXPECT_EQ(t.Rows(), rows[0]);
  EXPECT_TRUE(t.Rows().empty());
  ASSERT_TRUE(RestoreTo(t, 1).ok());
  EXPECT_EQ(t.Rows(), rows[1]);
  EXPECT_EQ(t.Violations(), "");
  // Every restore commit has dataChange=true actions.
  auto log = t.fs()->ReadAll(t.root() + "/_delta_log/00000000000000000005.json");
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->find("\"dataChange\":false"), std::string::npos);
}

TEST(Restore, RestoresMetadataButNeverDowngradesProtocol) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "false"}});
  t.Append({1});  // v1
  auto snap = t.Snap();
  auto set = SetProperties(snap->metadata(), snap->protocol(), {{"delta.enableDeletionVectors", "true"}});
  ASSERT_TRUE(set.ok());
  {
    auto txn = t.Begin("SET TBLPROPERTIES");
    txn->UpdateMetadata(set->metadata);
    txn->UpdateProtocol(*set->protocol);
    ASSERT_TRUE(txn->Commit().ok());  // v2
  }
  ASSERT_TRUE(RestoreTo(t, 1).ok());
  auto now = t.Snap();
  EXPECT_EQ(now->metadata(), t.Snap(1)->metadata());
  EXPECT_EQ(now->protocol(), t.Snap(2)->protocol());
  EXPECT_EQ(t.Rows(), (std::vector<std::string>{"1|n1"}));
  EXPECT_EQ(t.Violations(), "");
}

TEST(Restore, RefusesFutureVersionsAndVacuumedFiles) {
  MaintenanceTable t;
  t.Append({1});  // v1
  {
    auto snap = t.Snap();
    auto rm = t.Begin("DELETE");
    ASSERT_TRUE(rm->RemoveFile(snap->files().front()).ok());
    ASSERT_TRUE(rm->Commit().ok());  // v2
  }
  auto txn = t.Begin("RESTORE");
  auto future = StageRestore(txn.get(), *t.fs(), *t.Snap(1), *t.Snap(2));
  ASSERT_FALSE(future.ok());
  EXPECT_EQ(future.status().message(), "Cannot restore table to version 2. Available versions: [0, 1].");

  VacuumOptions o;
  o.retention_ms = 0;
  o.retention_check = false;
  int64_t later = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count() + 10000;
  o.clock_ms = [later] { return later; };
  auto v = Vacuum(t.fs(), *t.Snap(), o);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ASSERT_EQ(v->files.size(), 1u);
  auto r = RestoreTo(t, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with("Not all files from version 1 are available in file system"))
      << r.status().message();
  EXPECT_EQ(t.Snap()->version(), 2);  // nothing committed
}

}  // namespace
}  // namespace shoal::table
