// Prepared transactions: PREPARE writes the file, COMMIT PREPARED from a fresh process state
// runs the commit loop (detecting conflicts with commits made in between), ROLLBACK PREPARED
// deletes the staged files.
#include <gtest/gtest.h>

#include "support/testdata.h"
#include "txn/prepared.h"
#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using columnar::Value;
using testing_support::MakeAdd;
using testing_support::Rows;
using testing_support::Op;
using testing_support::TableSpec;
using testing_support::TestTable;

class Prepared : public ::testing::Test {
 protected:
  void SetUp() override {
    TableSpec spec;
    spec.partitioned = true;
    spec.deletion_vectors = true;
    table_ = std::make_unique<TestTable>(io::LocalFileSystem(), dir_.Join("t"), spec);
    table_->Create({MakeAdd("a1.parquet", "d1", 0, 99), MakeAdd("a2.parquet", "d2", 100, 199)});
  }
  // Stages a data file on disk, as a writer would before PREPARE.
  delta::AddFile Stage(const std::string& name, const std::string& date) {
    EXPECT_TRUE(table_->fs()->WriteAtomic(table_->root() + "/" + name, "PAR1...PAR1").ok());
    return MakeAdd(name, date, 0, 10);
  }
  bool Exists(const std::string& rel) {
    auto e = table_->fs()->Exists(table_->root() + "/" + rel);
    return e.ok() && *e;
  }

  shoal::testing::TempDir dir_;
  std::unique_ptr<TestTable> table_;
};

TEST_F(Prepared, CommitPreparedFromFreshStateCommitsAndForgetsTheFile) {
  {
    auto t = table_->Begin(Op("WRITE"));
    t->ReadPredicate(table_->Pred("date", "=", Value::String("d1")), "date = 'd1'");
    t->AddFile(Stage("p.parquet", "d1"));
    ASSERT_TRUE(PrepareTransaction(*t, "tx-1").ok());
  }
  EXPECT_TRUE(Exists("_shoal/prepared/tx-1.json"));
  auto listed = ListPrepared(*table_->fs(), table_->root());
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].id, "tx-1");
  EXPECT_EQ((*listed)[0].read_version, 0);
  EXPECT_EQ((*listed)[0].staged_files, std::vector<std::string>{table_->root() + "/p.parquet"});

  auto r = CommitPrepared(table_->fs(), table_->root(), "tx-1", BindSimplePredicate);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->version, 1);
  EXPECT_FALSE(Exists("_shoal/prepared/tx-1.json"));
  EXPECT_TRUE(Exists("p.parquet"));
  auto snap = table_->Snap();
  EXPECT_NE(table_->FindFile(*snap, "p.parquet"), nullptr);
  EXPECT_EQ(snap->latest_commit_info()->IsBlindAppend(), false);
  EXPECT_TRUE(ListPrepared(*table_->fs(), table_->root())->empty());
}

TEST_F(Prepared, ConflictWithCommitMadeInBetweenIsDetectedAndCleansUp) {
  {
    auto t = table_->Begin();
    t->ReadPredicate(table_->Pred("date", "=", Value::String("d1")), "date = 'd1'");
    t->AddFile(Stage("p.parquet", "d1"));
    ASSERT_TRUE(PrepareTransaction(*t, "tx-2").ok());
  }
  auto w = table_->Begin();  // a non-blind writer adds to d1 in between
  w->ReadPredicate(table_->Pred("date", "=", Value::String("d1")), "date = 'd1'");
  w->AddFile(MakeAdd("w.parquet", "d1", 0, 10));
  ASSERT_TRUE(w->Commit().ok());

  auto r = CommitPrepared(table_->fs(), table_->root(), "tx-2", BindSimplePredicate);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentAppend) << r.status().ToString();
  EXPECT_FALSE(Exists("_shoal/prepared/tx-2.json"));
  EXPECT_FALSE(Exists("p.parquet"));
}

TEST_F(Prepared, PredicateInOtherPartitionDoesNotConflictAfterRebinding) {
  {
    auto t = table_->Begin();
    t->ReadPredicate(table_->Pred("date", "=", Value::String("d2")), "date = 'd2'");
    t->AddFile(Stage("p.parquet", "d2"));
    ASSERT_TRUE(PrepareTransaction(*t, "tx-3").ok());
  }
  auto w = table_->Begin();
  w->ReadPredicate(table_->Pred("date", "=", Value::String("d1")), "date = 'd1'");
  w->AddFile(MakeAdd("w.parquet", "d1", 0, 10));
  ASSERT_TRUE(w->Commit().ok());
  auto r = CommitPrepared(table_->fs(), table_->root(), "tx-3", BindSimplePredicate);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->version, 2);
}

TEST_F(Prepared, UnbindablePredicateMakesTheTransactionDependOnTheWholeTable) {
  {
    auto t = table_->Begin();
    t->ReadPredicate(table_->Pred("date", "=", Value::String("d2")), "date = 'd2'");
    t->AddFile(Stage("p.parquet", "d2"));
    ASSERT_TRUE(PrepareTransaction(*t, "tx-4").ok());
  }
  auto w = table_->Begin();
  w->ReadPredicate(table_->Pred("date", "=", Value::String("d1")), "date = 'd1'");
  w->AddFile(MakeAdd("w.parquet", "d1", 0, 10));
  ASSERT_TRUE(w->Commit().ok());
  auto r = CommitPrepared(table_->fs(), table_->root(), "tx-4", /*rebinder=*/nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentAppend);
}

TEST_F(Prepared, RowDeletesSurvivePrepareAndMergeWithConcurrentDv) {
  auto a1 = *table_->FindFile(*table_->Snap(), "a1.parquet");
  {
    auto t = table_->Begin(Op("DELETE"));
    ASSERT_TRUE(t->DeleteRows(a1, Rows({1, 2})).ok());
    ASSERT_TRUE(PrepareTransaction(*t, "tx-5").ok());
  }
  auto w = table_->Begin();
  ASSERT_TRUE(w->DeleteRows(a1, Rows({7})).ok());
  ASSERT_TRUE(w->Commit().ok());
  auto r = CommitPrepared(table_->fs(), table_->root(), "tx-5", BindSimplePredicate);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto snap = table_->Snap();
  auto dv = delta::DeletionVector::Load(*table_->fs(), table_->root(),
                                        *table_->FindFile(*snap, "a1.parquet")->deletion_vector);
  ASSERT_TRUE(dv.ok());
  EXPECT_EQ(*dv, Rows({1, 2, 7}));
  EXPECT_EQ(snap->latest_commit_info()->Operation(), "DELETE");
}

TEST_F(Prepared, RollbackDeletesStagedFilesAndThePreparedFile) {
  {
    auto t = table_->Begin();
    t->AddFile(Stage("p1.parquet", "d1"));
    t->AddFile(Stage("p2.parquet", "d2"));
    ASSERT_TRUE(PrepareTransaction(*t, "tx-6").ok());
  }
  ASSERT_TRUE(RollbackPrepared(*table_->fs(), table_->root(), "tx-6").ok());
  EXPECT_FALSE(Exists("p1.parquet"));
  EXPECT_FALSE(Exists("p2.parquet"));
  EXPECT_FALSE(Exists("_shoal/prepared/tx-6.json"));
  EXPECT_EQ(table_->Snap()->version(), 0);
  auto again = RollbackPrepared(*table_->fs(), table_->root(), "tx-6");
  EXPECT_EQ(again.code(), StatusCode::kTransaction);
}

TEST_F(Prepared, SameIdCannotBePreparedTwiceAndBadIdsAreRejected) {
  auto t = table_->Begin();
  t->AddFile(Stage("p.parquet", "d1"));
  ASSERT_TRUE(PrepareTransaction(*t, "dup").ok());
  EXPECT_EQ(PrepareTransaction(*t, "dup").code(), StatusCode::kTransaction);
  EXPECT_EQ(PrepareTransaction(*t, "../escape").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PrepareTransaction(*t, "").code(), StatusCode::kInvalidArgument);
}

TEST_F(Prepared, CorruptPreparedFileIsReportedNotTrusted) {
  ASSERT_TRUE(table_->fs()->CreateDirs(table_->root() + "/_shoal/prepared").ok());
  ASSERT_TRUE(table_->fs()->WriteAtomic(table_->root() + "/_shoal/prepared/bad.json",
                                        "{\"formatVersion\":1,\"txnId\":3}").ok());
  auto r = CommitPrepared(table_->fs(), table_->root(), "bad", BindSimplePredicate);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
  EXPECT_TRUE(Exists("_shoal/prepared/bad.json"));
}

}  // namespace
}  // namespace shoal::txn
