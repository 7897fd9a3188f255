#include "txn/row_tracking.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "io/memory_file_system.h"
#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using testing_support::MakeAdd;
using testing_support::TableSpec;
using testing_support::TestTable;

// A table that supports row tracking (rowTracking + domainMetadata writer features).
TableSpec RowTrackingSpec(bool enabled = true) {
  TableSpec spec;
  spec.deletion_vectors = true;
  if (enabled) spec.extra_config["delta.enableRowTracking"] = "true";
  return spec;
}

class RowTrackingTest : public ::testing::Test {
 protected:
  void SetUp() override { fs_ = std::make_shared<io::MemoryFileSystem>(); }

  // Writes version 0 of a row-tracking table holding `files` (already with ids when given).
  std::unique_ptr<TestTable> MakeTable(const std::vector<delta::AddFile>& files, bool supported = true,
                                       bool enabled = true) {
    auto t = std::make_unique<TestTable>(fs_, "/t", RowTrackingSpec(enabled));
    std::vector<delta::Action> actions;
    delta::CommitInfo ci;
    ci.json["txnId"] = "fixture-0";
    actions.push_back(ci);
    delta::Protocol p = testing_support::MakeProtocol(t->spec());
    if (supported) {
      p.writer_features->push_back("domainMetadata");
      p.writer_features->push_back("rowTracking");
    }
    actions.push_back(p);
    actions.push_back(testing_support::MakeMetadata(t->spec()));
    int64_t hwm = -1;
    for (const auto& f : files) {
      actions.push_back(f);
      if (f.base_row_id) hwm = std::max(hwm, *f.base_row_id + *NumRecordsOf(f) - 1);
    }
    if (hwm >= 0) actions.push_back(RowIdHighWaterMarkDomain(hwm));
    EXPECT_TRUE(fs_->CreateDirs("/t/_delta_log").ok());
    EXPECT_TRUE(fs_->PutIfAbsent("/t/_delta_log/" + delta::CommitFileName(0), delta::SerializeCommit(actions)).ok());
    return t;
  }

  int64_t Hwm(const TestTable& t) {
    auto snap = t.Snap();
    auto it = snap->domain_metadata().find(kRowTrackingDomain);
    if (it == snap->domain_metadata().end()) return -1;
    return *ParseRowIdHighWaterMark(it->second);
  }

  std::shared_ptr<io::FileSystem> fs_;
};

delta::AddFile WithIds(delta::AddFile a, int64_t base, int64_t version) {
  a.base_row_id = base;
  a.default_row_commit_version = version;
  return a;
}

TEST(RowTrackingDomain, RoundTripsTheHighWaterMark) {
  auto d = RowIdHighWaterMarkDomain(41);
  EXPECT_EQ(d.domain, "delta.rowTracking");
  EXPECT_EQ(d.configuration, "{\"rowIdHighWaterMark\":41}");
  EXPECT_EQ(*ParseRowIdHighWaterMark(d), 41);
  d.configuration = "{\"other\":1}";
  EXPECT_EQ(ParseRowIdHighWaterMark(d).status().code(), StatusCode::kCorruption);
  d.configuration = "not json";
  EXPECT_FALSE(ParseRowIdHighWaterMark(d).ok());
}

TEST(RowTrackingAssign, GivesConsecutiveRangesAndKeepsExistingIds) {
  std::vector<delta::Action> actions;
  actions.push_back(MakeAdd("a", std::nullopt, 0, 9, 10));
  actions.push_back(WithIds(MakeAdd("old", std::nullopt, 0, 9, 5), 100, 3));
  actions.push_back(MakeAdd("b", std::nullopt, 0, 9, 7));
  actions.push_back(MakeAdd("empty", std::nullopt, 0, 9, 0));
  int64_t hwm = 104;
  ASSERT_TRUE(AssignRowIds(&actions, 9, &hwm).ok());
  const auto& a = std::get<delta::AddFile>(actions[0]);
  const auto& old = std::get<delta::AddFile>(actions[1]);
  const auto& b = std::get<delta::AddFile>(actions[2]);
  EXPECT_EQ(*a.base_row_id, 105);
  EXPECT_EQ(*a.default_row_commit_version, 9);
  EXPECT_EQ(*old.base_row_id, 100);
  EXPECT_EQ(*old.default_row_commit_version, 3);
  EXPECT_EQ(*b.base_row_id, 115);
  EXPECT_EQ(hwm, 121);
}

TEST(RowTrackingAssign, RefusesAnAddWithoutNumRecords) {
  std::vector<delta::Action> actions;
  delta::AddFile a = MakeAdd("nostats", std::nullopt, 0, 9, 10);
  a.stats.reset();
  actions.push_back(a);
  int64_t hwm = -1;
  Status st = AssignRowIds(&actions, 1, &hwm);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("nostats"), std::string::npos);
}

TEST_F(RowTrackingTest, CommitAssignsIdsAndUpdatesTheHighWaterMark) {
  auto table = MakeTable({WithIds(MakeAdd("f0", std::nullopt, 0, 9, 10), 0, 0)});
  auto txn = table->Begin();
  txn->AddFile(MakeAdd("f1", std::nullopt, 10, 19, 20));
  txn->AddFile(MakeAdd("f2", std::nullopt, 30, 39, 5));
  auto r = txn->Commit();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto snap = table->Snap();
  const auto* f1 = table->FindFile(*snap, "f1");
  const auto* f2 = table->FindFile(*snap, "f2");
  ASSERT_TRUE(f1 && f2);
  EXPECT_EQ(*f1->base_row_id, 10);
  EXPECT_EQ(*f1->default_row_commit_version, 1);
  EXPECT_EQ(*f2->base_row_id, 30);
  EXPECT_EQ(Hwm(*table), 34);
}

TEST_F(RowTrackingTest, TablesWithoutTheFeatureGetNoIds) {
  auto table = MakeTable({}, /*supported=*/false, /*enabled=*/false);
  auto txn = table->Begin();
  txn->AddFile(MakeAdd("f1", std::nullopt, 10, 19, 20));
  ASSERT_TRUE(txn->Commit().ok());
  auto snap = table->Snap();
  EXPECT_FALSE(table->FindFile(*snap, "f1")->base_row_id.has_value());
  EXPECT_EQ(Hwm(*table), -1);
}

TEST_F(RowTrackingTest, DeletionVectorReAddKeepsItsIds) {
  auto table = MakeTable({WithIds(MakeAdd("f0", std::nullopt, 0, 9, 10), 0, 0)});
  auto snap = table->Snap();
  auto txn = table->Begin({}, snap);
  ASSERT_TRUE(txn->DeleteRows(*table->FindFile(*snap, "f0"), testing_support::Rows({3})).ok());
  ASSERT_TRUE(txn->Commit().ok());
  auto after = table->Snap();
  const auto* f0 = table->FindFile(*after, "f0");
  ASSERT_TRUE(f0 && f0->deletion_vector);
  EXPECT_EQ(*f0->base_row_id, 0);
  EXPECT_EQ(*f0->default_row_commit_version, 0);
  EXPECT_EQ(Hwm(*table), 9);
}

TEST_F(RowTrackingTest, RebaseReassignsIdsFromTheWinnersHighWaterMark) {
  auto table = MakeTable({WithIds(MakeAdd("f0", std::nullopt, 0, 9, 10), 0, 0)});
  auto snap = table->Snap();
  auto loser = table->Begin({}, snap);
  auto winner = table->Begin({}, snap);
  loser->AddFile(MakeAdd("loser", std::nullopt, 0, 9, 4));
  winner->AddFile(MakeAdd("winner", std::nullopt, 0, 9, 6));
  auto w = winner->Commit();
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  auto l = loser->Commit();
  ASSERT_TRUE(l.ok()) << l.status().ToString();  // both updating the domain is no conflict
  EXPECT_EQ(l->version, 2);
  auto after = table->Snap();
  const auto* wf = table->FindFile(*after, "winner");
  const auto* lf = table->FindFile(*after, "loser");
  EXPECT_EQ(*wf->base_row_id, 10);
  EXPECT_EQ(*wf->default_row_commit_version, 1);
  EXPECT_EQ(*lf->base_row_id, 16);
  EXPECT_EQ(*lf->default_row_commit_version, 2);
  EXPECT_EQ(Hwm(*table), 19);
}

TEST_F(RowTrackingTest, EnablingBackfillsExistingFiles) {
  auto table = MakeTable({MakeAdd("f0", std::nullopt, 0, 9, 10), MakeAdd("f1", std::nullopt, 0, 9, 3)},
                         /*supported=*/false, /*enabled=*/false);
  auto snap = table->Snap();
  auto txn = table->Begin({}, snap);
  delta::Metadata m = snap->metadata();
  m.configuration["delta.enableRowTracking"] = "true";
  delta::Protocol p = snap->protocol();
  p.writer_features->push_back("domainMetadata");
  p.writer_features->push_back("rowTracking");
  txn->UpdateProtocol(p);
  txn->UpdateMetadata(m);
  auto r = txn->Commit();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto after = table->Snap();
  const auto* f0 = table->FindFile(*after, "f0");
  const auto* f1 = table->FindFile(*after, "f1");
  EXPECT_EQ(*f0->base_row_id, 0);
  EXPECT_EQ(*f1->base_row_id, 10);
  EXPECT_EQ(after->files().size(), 2u);
  EXPECT_EQ(Hwm(*table), 12);
}

TEST_F(RowTrackingTest, EnablingConflictsWithAConcurrentFileChange) {
  auto table = MakeTable({MakeAdd("f0", std::nullopt, 0, 9, 10)}, /*supported=*/false, /*enabled=*/false);
  auto snap = table->Snap();
  auto enabler = table->Begin({}, snap);
  delta::Metadata m = snap->metadata();
  m.configuration["delta.enableRowTracking"] = "true";
  delta::Protocol p = snap->protocol();
  p.writer_features->push_back("domainMetadata");
  p.writer_features->push_back("rowTracking");
  enabler->UpdateProtocol(p);
  enabler->UpdateMetadata(m);
  auto other = table->Begin({}, snap);
  other->AddFile(MakeAdd("f9", std::nullopt, 0, 9, 10));
  ASSERT_TRUE(other->Commit().ok());
  auto r = enabler->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentTransaction) << r.status().ToString();
}

}  // namespace
}  // namespace shoal::txn
