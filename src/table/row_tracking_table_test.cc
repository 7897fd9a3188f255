// Row tracking end to end on real files: ids assigned on write, unique, stable across DV
// deletes, OPTIMIZE, ZORDER BY and REORG (materialized row id column), hidden from readers,
// and ZORDER BY vs a concurrent DML translated through the row ids in both commit orders.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "table/live_rows_reader.h"
#include "table/maintenance_test_table.h"
#include "table/optimize.h"
#include "table/row_id_columns.h"
#include "table/row_tracking_test_support.h"
#include "txn/row_id_remap.h"
#include "txn/row_tracking.h"

namespace shoal::table {
namespace {

using testing_support::MaintenanceTable;

using testing_support::Props;

const Props kRowTracking = {{"delta.enableDeletionVectors", "true"}, {"delta.enableRowTracking", "true"}};

std::map<int64_t, int64_t> RowIdsById(const MaintenanceTable& t) {
  return testing_support::RowIdsByKey(t.fs(), t.root(), "id");
}

void ExpectUniqueIds(const std::map<int64_t, int64_t>& ids) {
  std::set<int64_t> seen;
  for (const auto& [id, row_id] : ids) EXPECT_TRUE(seen.insert(row_id).second) << "row id " << row_id << " twice";
}

int64_t HighWaterMark(const MaintenanceTable& t) {
  auto snap = t.Snap();
  auto it = snap->domain_metadata().find(txn::kRowTrackingDomain);
  if (it == snap->domain_metadata().end()) return -1;
  return *txn::ParseRowIdHighWaterMark(it->second);
}

// OPTIMIZE (ZORDER BY `zorder` when not empty) or REORG PURGE, committed.
void Rewrite(MaintenanceTable& t, const std::vector<std::string>& zorder, bool purge = false) {
  auto table = scan::DeltaTable::Open(t.fs(), t.root());
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto txn = t.Begin("OPTIMIZE");
  OptimizeOptions o;
  o.zorder_by = zorder;
  o.threads = 1;
  auto r = purge ? PurgeDeletionVectors(**table, txn.get(), o) : OptimizeTable(**table, txn.get(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto c = txn->Commit();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
}

TEST(RowTrackingTable, IdsAreAssignedOnWriteAndStayStableThroughRewrites) {
  MaintenanceTable t(kRowTracking);
  t.Append({1, 2, 3, 4});
  t.Append({5, 6, 7});
  t.Append({8, 9, 10, 11, 12});
  auto ids = RowIdsById(t);
  ASSERT_EQ(ids.size(), 12u);
  std::set<int64_t> all;
  for (const auto& [id, row_id] : ids) all.insert(row_id);
  EXPECT_EQ(*all.begin(), 0);
  EXPECT_EQ(*all.rbegin(), 11);  // fresh, consecutive ranges per file
  EXPECT_EQ(HighWaterMark(t), 11);

  t.DeletePositions(0, {1});  // id 2
  ids.erase(2);
  EXPECT_EQ(RowIdsById(t), ids);

  Rewrite(t, {});  // bin-packing
  EXPECT_EQ(t.Snap()->files().size(), 1u);
  EXPECT_EQ(RowIdsById(t), ids);
  EXPECT_GT(HighWaterMark(t), 11);  // the output took a fresh (unused) range

  Rewrite(t, {"name"});  // ZORDER BY permutes rows: "n10" < "n2"
  EXPECT_EQ(RowIdsById(t), ids);

  t.DeletePositions(0, {0, 3});
  auto after_delete = RowIdsById(t);
  EXPECT_EQ(after_delete.size(), 9u);
  Rewrite(t, {}, /*purge=*/true);
  EXPECT_EQ(RowIdsById(t), after_delete);
  ExpectUniqueIds(after_delete);
  for (const auto& [id, row_id] : after_delete) EXPECT_EQ(row_id, ids.at(id));

  // Readers see the logical columns only, and the log is valid.
  auto rows = t.Rows();
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(std::count(rows[0].begin(), rows[0].end(), '|'), 1) << rows[0];
  EXPECT_EQ(t.Violations(), "");
}

TEST(RowTrackingTable, EveryAddOfTheLogHasABaseRowIdAndADisjointRange) {
  MaintenanceTable t(kRowTracking);
  t.Append({1, 2, 3});
  t.Append({4, 5});
  std::vector<std::pair<int64_t, int64_t>> ranges;
  auto snap = t.Snap();
  for (const auto& f : snap->files()) {
    ASSERT_TRUE(f.base_row_id.has_value()) << f.path;
    ASSERT_TRUE(f.default_row_commit_version.has_value()) << f.path;
    ranges.push_back({*f.base_row_id, *f.base_row_id + *txn::NumRecordsOf(f)});
  }
  std::sort(ranges.begin(), ranges.end());
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_LE(ranges[0].second, ranges[1].first);
}

// A DML (row deletes by id) and ZORDER BY (name) from the same snapshot; `zorder_first` says
// which commits first. Both must commit and exactly the deleted ids be gone.
void ZOrderVsDelete(bool zorder_first) {
  MaintenanceTable t(kRowTracking);
  t.Append({1, 2, 3, 4, 5, 6});
  t.Append({7, 8, 9, 10, 11, 12});
  auto before = RowIdsById(t);
  auto snap = t.Snap();
  auto table = scan::DeltaTable::Open(t.fs(), t.root());
  ASSERT_TRUE(table.ok());
  auto zorder = t.Begin("OPTIMIZE");
  OptimizeOptions o;
  o.zorder_by = {"name"};
  o.threads = 1;
  ASSERT_TRUE(OptimizeTable(**table, zorder.get(), o).ok());
  auto dml = t.Begin("DELETE");
  // Delete id 2 (file 0, position 1) and id 12 (file 1, position 5).
  ASSERT_TRUE(dml->DeleteRows(snap->files()[0], [] { delta::DeletionVector d; d.Add(1); return d; }()).ok());
  ASSERT_TRUE(dml->DeleteRows(snap->files()[1], [] { delta::DeletionVector d; d.Add(5); return d; }()).ok());
  auto first = zorder_first ? zorder->Commit() : dml->Commit();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = zorder_first ? dml->Commit() : zorder->Commit();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  std::vector<std::string> want;
  for (int64_t id : {1, 3, 4, 5, 6, 7, 8, 9, 10, 11}) want.push_back(std::to_string(id) + "|n" + std::to_string(id));
  std::sort(want.begin(), want.end());
  EXPECT_EQ(t.Rows(), want);
  auto after = RowIdsById(t);
  before.erase(2);
  before.erase(12);
  EXPECT_EQ(after, before);
  EXPECT_EQ(t.Violations(), "");
  // The ZORDER rewrite won or lost, the files are its outputs now.
  auto final_snap = t.Snap();
  for (const auto& f : final_snap->files()) {
    EXPECT_NE(f.path, snap->files()[0].path);
    EXPECT_NE(f.path, snap->files()[1].path);
  }
}

TEST(RowTrackingTable, ZOrderCommittedFirstDoesNotConflictWithDelete) { ZOrderVsDelete(true); }
TEST(RowTrackingTable, DeleteCommittedFirstDoesNotConflictWithZOrder) { ZOrderVsDelete(false); }

TEST(RowTrackingTable, ZOrderWithoutRowTrackingStillConflicts) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "true"}});
  t.Append({1, 2, 3, 4, 5, 6});
  t.Append({7, 8, 9, 10, 11, 12});
  auto snap = t.Snap();
  auto table = scan::DeltaTable::Open(t.fs(), t.root());
  ASSERT_TRUE(table.ok());
  auto zorder = t.Begin("OPTIMIZE");
  OptimizeOptions o;
  o.zorder_by = {"name"};
  ASSERT_TRUE(OptimizeTable(**table, zorder.get(), o).ok());
  auto dml = t.Begin("DELETE");
  ASSERT_TRUE(dml->DeleteRows(snap->files()[0], [] { delta::DeletionVector d; d.Add(1); return d; }()).ok());
  ASSERT_TRUE(zorder->Commit().ok());
  auto r = dml->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteDelete) << r.status().ToString();
}

}  // namespace
}  // namespace shoal::table
