// The file-level conflict matrix (Delta's conflict suites, in our own words), each scenario
// under both isolation levels: a winner commits between the loser's Begin and Commit.
#include <gtest/gtest.h>

#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using columnar::Value;
using testing_support::MakeAdd;
using testing_support::MakeMetadata;
using testing_support::MakeProtocol;
using testing_support::Op;
using testing_support::TableSpec;
using testing_support::TestTable;

class ConflictMatrix : public ::testing::TestWithParam<IsolationLevel> {
 protected:
  bool Serializable() const { return GetParam() == IsolationLevel::kSerializable; }

  TestTable MakeTable(TableSpec spec = {}, std::vector<delta::AddFile> files = {}) {
    spec.isolation = IsolationLevelName(GetParam());
    TestTable t(fs_, "/t", spec);
    if (files.empty()) {
      files = {MakeAdd("a1.parquet", spec.partitioned ? std::optional<std::string>("d1") : std::nullopt, 0, 99),
               MakeAdd("a2.parquet", spec.partitioned ? std::optional<std::string>("d2") : std::nullopt, 100, 199)};
    }
    t.Create(files);
    return t;
  }

  static void ExpectCommits(Transaction& t, int64_t version) {
    auto r = t.Commit();
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->version, version);
  }
  static void ExpectConflict(Transaction& t, ConflictKind kind) {
    auto r = t.Commit();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().conflict(), kind) << r.status().ToString();
  }

  // Begins an OPTIMIZE that compacts a1 and a2 (100 live rows each) into one file `output`.
  static std::unique_ptr<Transaction> BeginCompactionOfBoth(TestTable& table, const delta::AddFile& a1,
                                                           const delta::AddFile& a2, const std::string& output) {
    auto t = table.Begin(Op("OPTIMIZE"));
    EXPECT_TRUE(t->AddCompactedFile(MakeAdd(output, std::nullopt, 0, 199, 200), {a1, a2}, {100, 100}).ok());
    return t;
  }

  std::shared_ptr<io::FileSystem> fs_ = std::make_shared<io::MemoryFileSystem>();
};

TEST_P(ConflictMatrix, BlindAppendsNeverConflict) {
  auto table = MakeTable();
  auto loser = table.Begin();
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin();
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 0, 10));
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  auto snap = table.Snap();
  EXPECT_EQ(snap->files().size(), 4u);
  ASSERT_TRUE(snap->latest_commit_info());
  EXPECT_EQ(snap->latest_commit_info()->IsBlindAppend(), true);
  EXPECT_EQ(snap->latest_commit_info()->ReadVersion(), 0);
  EXPECT_EQ(snap->latest_commit_info()->IsolationLevel(), IsolationLevelName(GetParam()));
}

TEST_P(ConflictMatrix, DisjointAppIdsDoNotConflict) {
  auto table = MakeTable();
  TransactionOptions lo, wo;
  lo.app_txn = delta::Txn{"app-a", 1, std::nullopt};
  wo.app_txn = delta::Txn{"app-b", 1, std::nullopt};
  auto loser = table.Begin(lo);
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin(wo);
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 0, 10));
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  auto snap = table.Snap();
  EXPECT_EQ(snap->AppTransactionVersion("app-a"), 1);
  EXPECT_EQ(snap->AppTransactionVersion("app-b"), 1);
}

TEST_P(ConflictMatrix, ReadPartitionVersusNonBlindAddInSamePartitionConflicts) {
  auto table = MakeTable(TableSpec().Partitioned());
  auto loser = table.Begin();
  loser->ReadPredicate(table.Pred("date", "=", Value::String("d1")), "date = 'd1'");
  loser->AddFile(MakeAdd("l.parquet", "d1", 0, 10));
  auto winner = table.Begin();
  winner->ReadPredicate(table.Pred("date", "=", Value::String("d3")), "date = 'd3'");
  winner->AddFile(MakeAdd("w.parquet", "d1", 0, 10));
  ExpectCommits(*winner, 1);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentAppend);
  EXPECT_EQ(r.status().message(),
            "Files were added to partition [date=d1] by a concurrent update at version 1. Please "
            "try the operation again.");
  EXPECT_STREQ(r.status().ErrorName(), "ConcurrentAppendException");
}

TEST_P(ConflictMatrix, ReadPartitionVersusBlindAppendInSamePartitionConflictsOnlyWhenSerializable) {
  auto table = MakeTable(TableSpec().Partitioned());
  auto loser = table.Begin();
  loser->ReadPredicate(table.Pred("date", "=", Value::String("d1")), "date = 'd1'");
  loser->AddFile(MakeAdd("l.parquet", "d1", 0, 10));
  auto winner = table.Begin();
  winner->AddFile(MakeAdd("w.parquet", "d1", 0, 10));
  ExpectCommits(*winner, 1);
  if (Serializable()) {
    ExpectConflict(*loser, ConflictKind::kConcurrentAppend);
  } else {
    ExpectCommits(*loser, 2);
  }
}

TEST_P(ConflictMatrix, ReadPartitionVersusAddInOtherPartitionDoesNotConflict) {
  auto table = MakeTable(TableSpec().Partitioned());
  auto loser = table.Begin();
  loser->ReadPredicate(table.Pred("date", "=", Value::String("d1")), "date = 'd1'");
  loser->AddFile(MakeAdd("l.parquet", "d1", 0, 10));
  auto winner = table.Begin();
  winner->ReadPredicate(table.Pred("date", "=", Value::String("d2")), "date = 'd2'");
  winner->AddFile(MakeAdd("w.parquet", "d2", 0, 10));
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
}

TEST_P(ConflictMatrix, DataPredicateJudgedByStatistics) {
  auto table = MakeTable();
  auto loser = table.Begin();
  loser->ReadPredicate(table.Pred("id", "=", Value::Int64(5)), "id = 5");
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 5, 5));
  auto far = table.Begin();
  far->ReadPredicate(table.Pred("id", ">", Value::Int64(1000)), "id > 1000");
  far->AddFile(MakeAdd("far.parquet", std::nullopt, 1000, 2000));
  ExpectCommits(*far, 1);
  auto near = table.Begin(TransactionOptions{}, /*snap=*/nullptr);
  near->ReadPredicate(table.Pred("id", ">", Value::Int64(1000)), "id > 1000");
  near->AddFile(MakeAdd("near.parquet", std::nullopt, 0, 10));
  ExpectCommits(*near, 2);
  ExpectConflict(*loser, ConflictKind::kConcurrentAppend);  // near.parquet may hold id 5
}

TEST_P(ConflictMatrix, ReadNothingVersusMetadataChangeConflicts) {
  auto table = MakeTable();
  auto loser = table.Begin();
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin();
  TableSpec spec;
  spec.isolation = IsolationLevelName(GetParam());
  spec.extra_config["delta.appendOnly"] = "false";
  winner->UpdateMetadata(MakeMetadata(spec));
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kMetadataChanged);
}

TEST_P(ConflictMatrix, BothUpgradeProtocolConflicts) {
  auto table = MakeTable();
  delta::Protocol p;
  p.min_reader_version = 1;
  p.min_writer_version = 3;
  auto loser = table.Begin();
  loser->UpdateProtocol(p);
  auto winner = table.Begin();
  winner->UpdateProtocol(p);
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kProtocolChanged);
}

TEST_P(ConflictMatrix, RemovedFileThatWasReadConflicts) {
  auto table = MakeTable();
  auto snap = table.Snap();
  auto loser = table.Begin();
  loser->ReadPredicate(table.Pred("id", "<", Value::Int64(50)), "id < 50");
  loser->ReadFile(*table.FindFile(*snap, "a1.parquet"));
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin();
  ASSERT_TRUE(winner->RemoveFile(*table.FindFile(*snap, "a1.parquet")).ok());
  ExpectCommits(*winner, 1);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteRead);
  EXPECT_NE(r.status().message().find("a1.parquet"), std::string::npos);
  EXPECT_NE(r.status().message().find("version 1"), std::string::npos);
}

TEST_P(ConflictMatrix, BothRemoveSameFileConflicts) {
  auto table = MakeTable();
  auto snap = table.Snap();
  auto loser = table.Begin();
  ASSERT_TRUE(loser->RemoveFile(*table.FindFile(*snap, "a2.parquet")).ok());
  auto winner = table.Begin();
  ASSERT_TRUE(winner->RemoveFile(*table.FindFile(*snap, "a2.parquet")).ok());
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kConcurrentDeleteDelete);
}

TEST_P(ConflictMatrix, ReadWholeTableVersusNonBlindAddConflicts) {
  auto table = MakeTable();
  auto loser = table.Begin();
  loser->ReadWholeTable();
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin();
  winner->ReadPredicate(table.Pred("id", ">", Value::Int64(100000)), "id > 100000");
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 500000, 600000));
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kConcurrentAppend);
}

TEST_P(ConflictMatrix, ReadWholeTableVersusBlindAppendConflictsOnlyWhenSerializable) {
  auto table = MakeTable();
  auto loser = table.Begin();
  loser->ReadWholeTable();
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin();
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 0, 10));
  ExpectCommits(*winner, 1);
  if (Serializable()) {
    auto r = loser->Commit();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentAppend);
    EXPECT_NE(r.status().message().find("the root of the table"), std::string::npos);
  } else {
    ExpectCommits(*loser, 2);
  }
}

TEST_P(ConflictMatrix, DataChangeFreeRewriteVersusAddDoesNotConflict) {
  auto table = MakeTable();
  auto snap = table.Snap();
  auto loser = table.Begin();  // OPTIMIZE-like: rewrites a1 without changing data
  ASSERT_TRUE(loser->AddCompactedFile(MakeAdd("c.parquet", std::nullopt, 0, 99),
                                      {*table.FindFile(*snap, "a1.parquet")}, {100})
                  .ok());
  auto winner = table.Begin();
  winner->ReadWholeTable();
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 0, 10));
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  auto after = table.Snap();
  EXPECT_EQ(after->latest_commit_info()->IsolationLevel(), "SnapshotIsolation");
  EXPECT_EQ(table.FindFile(*after, "a1.parquet"), nullptr);
  EXPECT_NE(table.FindFile(*after, "c.parquet"), nullptr);
  EXPECT_NE(table.FindFile(*after, "w.parquet"), nullptr);
}

TEST_P(ConflictMatrix, DataChangeFreeRewriteVersusDeleteOfItsSourceConflicts) {
  auto table = MakeTable();
  auto snap = table.Snap();
  auto loser = table.Begin();
  ASSERT_TRUE(loser->AddCompactedFile(MakeAdd("c.parquet", std::nullopt, 0, 99),
                                      {*table.FindFile(*snap, "a1.parquet")}, {100})
                  .ok());
  auto winner = table.Begin();
  ASSERT_TRUE(winner->RemoveFile(*table.FindFile(*snap, "a1.parquet")).ok());
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kConcurrentDeleteDelete);
}

TEST_P(ConflictMatrix, ConcurrentCreateOfSameTableConflicts) {
  TableSpec spec;
  spec.isolation = IsolationLevelName(GetParam());
  auto make = [&] {
    auto t = Transaction::Begin(fs_, "/new", nullptr, Op("CREATE TABLE"));
    EXPECT_TRUE(t.ok());
    (*t)->UpdateProtocol(MakeProtocol(spec));
    (*t)->UpdateMetadata(MakeMetadata(spec));
    return std::move(t).value();
  };
  auto loser = make();
  auto winner = make();
  ExpectCommits(*winner, 0);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kProtocolChanged);
  EXPECT_NE(r.status().message().find("empty directory"), std::string::npos);
}

TEST_P(ConflictMatrix, SameAppIdConflicts) {
  auto table = MakeTable();
  TransactionOptions lo, wo;
  lo.app_txn = delta::Txn{"stream", 1, std::nullopt};
  wo.app_txn = delta::Txn{"stream", 2, std::nullopt};
  auto loser = table.Begin(lo);
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  auto winner = table.Begin(wo);
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 0, 10));
  ExpectCommits(*winner, 1);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentTransaction);
  EXPECT_STREQ(r.status().ErrorName(), "ConcurrentTransactionException");
}

TEST_P(ConflictMatrix, ReplayOfCommittedAppTransactionIsNoOp) {
  auto table = MakeTable();
  TransactionOptions o;
  o.app_txn = delta::Txn{"stream", 7, std::nullopt};
  auto first = table.Begin(o);
  first->AddFile(MakeAdd("l.parquet", std::nullopt, 0, 10));
  ExpectCommits(*first, 1);
  auto replay = table.Begin(o);
  replay->AddFile(MakeAdd("l-again.parquet", std::nullopt, 0, 10));
  auto r = replay->Commit();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->already_committed);
  EXPECT_EQ(r->version, 1);
  auto snap = table.Snap();
  EXPECT_EQ(snap->version(), 1);
  EXPECT_EQ(table.FindFile(*snap, "l-again.parquet"), nullptr);
}

TEST_P(ConflictMatrix, BothGeneratingIdentityValuesConflicts) {
  TableSpec spec = TableSpec().Identity();
  auto table = MakeTable(spec);
  spec.isolation = IsolationLevelName(GetParam());
  auto loser = table.Begin();
  loser->SetGeneratesIdentityValues(true);
  loser->UpdateMetadata(MakeMetadata(spec, 10));
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 1, 10));
  auto winner = table.Begin();
  winner->SetGeneratesIdentityValues(true);
  winner->UpdateMetadata(MakeMetadata(spec, 10));
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 1, 10));
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kMetadataChanged);
}

TEST_P(ConflictMatrix, IdentityHighWaterMarkChangeAdoptedByNonGeneratingWriter) {
  TableSpec spec = TableSpec().Identity();
  auto table = MakeTable(spec);
  spec.isolation = IsolationLevelName(GetParam());
  auto loser = table.Begin();  // explicit ids: generates none
  loser->AddFile(MakeAdd("l.parquet", std::nullopt, 500, 510));
  auto winner = table.Begin();
  winner->SetGeneratesIdentityValues(true);
  winner->UpdateMetadata(MakeMetadata(spec, 10));
  winner->AddFile(MakeAdd("w.parquet", std::nullopt, 1, 10));
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  EXPECT_EQ(table.Snap()->metadata(), MakeMetadata(spec, 10));
}

// ---- compactions racing compactions and whole-file DML (DESIGN.md section 1: plain OPTIMIZE
// and REORG cannot conflict with DML or with each other when deletion vectors are on).

delta::DeletionVector DvOf(const TestTable& t, const std::string& path) {
  auto snap = t.Snap();
  const delta::AddFile* f = t.FindFile(*snap, path);
  EXPECT_NE(f, nullptr) << path;
  if (!f || !f->deletion_vector) return {};
  auto dv = delta::DeletionVector::Load(*t.fs(), t.root(), *f->deletion_vector);
  EXPECT_TRUE(dv.ok()) << dv.status().ToString();
  return dv.ok() ? *dv : delta::DeletionVector{};
}

delta::DeletionVector RowRange(uint64_t begin, uint64_t end) {
  delta::DeletionVector dv;
  dv.AddRange(begin, end);
  return dv;
}

// The actions of commit `version`.
std::vector<delta::Action> CommitActions(const TestTable& t, int64_t version) {
  auto text = t.fs()->ReadAll(t.root() + "/_delta_log/" + delta::CommitFileName(version));
  EXPECT_TRUE(text.ok());
  if (!text.ok()) return {};
  auto actions = delta::ParseCommitFile(*text, "commit");
  EXPECT_TRUE(actions.ok());
  return actions.ok() ? *actions : std::vector<delta::Action>{};
}

TEST_P(ConflictMatrix, TwoPlainCompactionsOfTheSameFilesDoNotConflictWithDeletionVectors) {
  auto table = MakeTable(TableSpec().DeletionVectors());
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  const delta::AddFile a2 = *table.FindFile(*snap, "a2.parquet");
  auto loser = BeginCompactionOfBoth(table, a1, a2, "c-loser.parquet");
  auto winner = BeginCompactionOfBoth(table, a1, a2, "c-winner.parquet");
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  auto after = table.Snap();
  ASSERT_EQ(after->files().size(), 1u);  // the loser dropped its output: no row twice
  EXPECT_EQ(after->files()[0].path, "c-winner.parquet");
  for (const auto& a : CommitActions(table, 2)) {
    EXPECT_FALSE(std::holds_alternative<delta::AddFile>(a));
    EXPECT_FALSE(std::holds_alternative<delta::RemoveFile>(a));
  }
}

TEST_P(ConflictMatrix, CompactionLoserKeepsOutputsOfSourcesTheWinnerDidNotCompact) {
  auto table = MakeTable(TableSpec().DeletionVectors());
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  const delta::AddFile a2 = *table.FindFile(*snap, "a2.parquet");
  auto loser = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(loser->AddCompactedFile(MakeAdd("l1.parquet", std::nullopt, 0, 99), {a1}, {100}).ok());
  ASSERT_TRUE(loser->AddCompactedFile(MakeAdd("l2.parquet", std::nullopt, 100, 199), {a2}, {100}).ok());
  auto winner = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(winner->AddCompactedFile(MakeAdd("w1.parquet", std::nullopt, 0, 99), {a1}, {100}).ok());
  ExpectCommits(*winner, 1);
  ExpectCommits(*loser, 2);
  auto after = table.Snap();
  EXPECT_EQ(after->files().size(), 2u);
  EXPECT_NE(table.FindFile(*after, "w1.parquet"), nullptr);
  EXPECT_NE(table.FindFile(*after, "l2.parquet"), nullptr);
  EXPECT_EQ(table.FindFile(*after, "l1.parquet"), nullptr);
}

TEST_P(ConflictMatrix, TwoCompactionsOfTheSameFilesConflictWithoutDeletionVectors) {
  auto table = MakeTable();
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  auto loser = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(loser->AddCompactedFile(MakeAdd("c-loser.parquet", std::nullopt, 0, 99), {a1}, {100}).ok());
  auto winner = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(winner->AddCompactedFile(MakeAdd("c-winner.parquet", std::nullopt, 0, 99), {a1}, {100}).ok());
  ExpectCommits(*winner, 1);
  ExpectConflict(*loser, ConflictKind::kConcurrentDeleteDelete);
}

TEST_P(ConflictMatrix, RewriteWithoutRowMappingConflictsWithPlainCompaction) {
  auto table = MakeTable(TableSpec().DeletionVectors());
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  auto zorder = table.Begin(Op("OPTIMIZE"));  // ZORDER BY: rows permuted, no mapping
  zorder->SetDataChange(false);
  ASSERT_TRUE(zorder->RemoveFile(a1).ok());
  zorder->AddFile(MakeAdd("z.parquet", std::nullopt, 0, 99));
  auto optimize = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(optimize->AddCompactedFile(MakeAdd("c.parquet", std::nullopt, 0, 99), {a1}, {100}).ok());
  ExpectCommits(*optimize, 1);
  ExpectConflict(*zorder, ConflictKind::kConcurrentDeleteDelete);
}

TEST_P(ConflictMatrix, DmlRemovingEveryRowOfAFileFollowsACompactionAsDeletionVector) {
  for (const char* row_level : {"true", "false"}) {
    SCOPED_TRACE(row_level);
    fs_ = std::make_shared<io::MemoryFileSystem>();
    auto table = MakeTable(TableSpec().DeletionVectors().Config("shoal.rowLevelConcurrency", row_level));
    auto snap = table.Snap();
    const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
    const delta::AddFile a2 = *table.FindFile(*snap, "a2.parquet");
    auto dml = table.Begin();  // DELETE of every row of a2
    dml->ReadPredicate(table.Pred("id", ">=", Value::Int64(100)), "id >= 100");
    dml->ReadFile(a2);
    ASSERT_TRUE(dml->RemoveFile(a2).ok());
    auto optimize = BeginCompactionOfBoth(table, a1, a2, "c.parquet");
    ExpectCommits(*optimize, 1);
    ExpectCommits(*dml, 2);
    auto after = table.Snap();
    ASSERT_EQ(after->files().size(), 1u);
    EXPECT_EQ(DvOf(table, "c.parquet"), RowRange(100, 200));
  }
}

// The compaction started before a DML deleted some rows of a2 and committed after it (rebased:
// it packed a2 without a DV); a second DML, begun after the first, deleted the rest of a2's
// rows by removing the file. Those rows are found in the output through the packed DV — no
// conflict (the stress test StressMT.RowLevelDmlWithOptimizeNeverAborts hit this as a
// ConcurrentDeleteDeleteException).
TEST_P(ConflictMatrix, DmlRemovingTheRestOfAFileFollowsACompactionRebasedOverAnEarlierDml) {
  auto table = MakeTable(TableSpec().DeletionVectors());
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  const delta::AddFile a2 = *table.FindFile(*snap, "a2.parquet");
  auto optimize = BeginCompactionOfBoth(table, a1, a2, "c.parquet");
  auto first = table.Begin();  // deletes rows 0..9 of a2
  ASSERT_TRUE(first->DeleteRows(a2, RowRange(0, 10)).ok());
  ExpectCommits(*first, 1);
  auto second = table.Begin();
  const delta::AddFile a2_now = *table.FindFile(*table.Snap(), "a2.parquet");
  second->ReadFile(a2_now);
  ASSERT_TRUE(second->RemoveFile(a2_now).ok());  // every live row of a2: 10..99
  ExpectCommits(*optimize, 2);
  ExpectCommits(*second, 3);
  auto after = table.Snap();
  ASSERT_EQ(after->files().size(), 1u);
  EXPECT_EQ(DvOf(table, "c.parquet"), RowRange(100, 200));
}

TEST_P(ConflictMatrix, CompactionLoserTurnsAWinnersWholeFileRemoveIntoADeletionVector) {
  auto table = MakeTable(TableSpec().DeletionVectors());
  auto snap = table.Snap();
  const delta::AddFile a1 = *table.FindFile(*snap, "a1.parquet");
  const delta::AddFile a2 = *table.FindFile(*snap, "a2.parquet");
  auto optimize = BeginCompactionOfBoth(table, a1, a2, "c.parquet");
  auto dml = table.Begin();
  ASSERT_TRUE(dml->RemoveFile(a1).ok());
  ExpectCommits(*dml, 1);
  ExpectCommits(*optimize, 2);
  auto after = table.Snap();
  ASSERT_EQ(after->files().size(), 1u);
  EXPECT_EQ(DvOf(table, "c.parquet"), RowRange(0, 100));
  for (const auto& a : CommitActions(table, 2)) {  // a1 is not removed a second time
    if (auto* r = std::get_if<delta::RemoveFile>(&a)) {
      EXPECT_NE(r->path, "a1.parquet");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothLevels, ConflictMatrix,
                         ::testing::Values(IsolationLevel::kSerializable,
                                           IsolationLevel::kWriteSerializable),
                         [](const auto& info) { return std::string(IsolationLevelName(info.param)); });

}  // namespace
}  // namespace shoal::txn
