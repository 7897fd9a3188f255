// shoal/distributed.h: planning a table's files, reading a subset of them at a pinned version,
// staging inserts without committing and committing many workers' files in one commit.
#include "shoal/distributed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

class DistributedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
    worker_ = db_->Connect();
    root_ = dir_.path() + "/t";
    Q("CREATE TABLE t (id BIGINT, p INT, s STRING) PARTITIONED BY (p) "
      "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    for (int k = 0; k < 4; ++k) {  // versions 1..4, one file per partition value each
      Q("INSERT INTO t SELECT id, CAST(id % 2 AS INT), 's' || CAST(id AS STRING) FROM range(" +
        std::to_string(k * 100) + ", " + std::to_string(k * 100 + 100) + ") AS r(id)");
    }
  }
  std::vector<std::string> Q(const std::string& sql, Connection* c = nullptr) {
    auto r = (c ? c : con_.get())->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  }
  std::vector<std::string> Paths(const TableFilePlan& plan) {
    std::vector<std::string> out;
    for (const auto& f : plan.files) out.push_back(f.path);
    return out;
  }
  size_t ParquetFiles() {
    size_t n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root_)) {
      n += e.path().extension() == ".parquet";
    }
    return n;
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
  std::unique_ptr<Connection> worker_;
  std::string root_;
};

TEST_F(DistributedTest, PlanPrunesByPartitionAndStatistics) {
  auto all = PlanTableFiles(*con_, root_, "");
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->version, 4);
  EXPECT_EQ(all->files_total, 8);
  EXPECT_EQ(all->files.size(), 8u);
  EXPECT_EQ(all->column_names, (std::vector<std::string>{"id", "p", "s"}));
  EXPECT_EQ(all->column_types, (std::vector<std::string>{"BIGINT", "INT", "STRING"}));
  EXPECT_EQ(all->partition_columns, (std::vector<std::string>{"p"}));
  for (const auto& f : all->files) {
    EXPECT_GT(f.size_bytes, 0);
    EXPECT_EQ(f.num_records, 50);
    ASSERT_EQ(f.partition_values.size(), 1u);
    EXPECT_TRUE(f.partition_values[0] == "0" || f.partition_values[0] == "1");
  }
  auto some = PlanTableFiles(*con_, root_, "p = 1 AND id >= 150 AND id < 250");
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  EXPECT_EQ(some->files.size(), 2u);  // p = 1 of versions 2 and 3
  auto old = PlanTableFiles(*con_, root_, "", 2);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->version, 2);
  EXPECT_EQ(old->files.size(), 4u);
}

TEST_F(DistributedTest, PlanErrorsNameTheProblem) {
  auto missing_column = PlanTableFiles(*con_, root_, "nope > 1");
  ASSERT_FALSE(missing_column.ok());
  EXPECT_EQ(missing_column.status().code(), StatusCode::kBinder);
  EXPECT_NE(missing_column.status().message().find("nope"), std::string::npos);
  auto not_boolean = PlanTableFiles(*con_, root_, "id + 1");
  EXPECT_EQ(not_boolean.status().code(), StatusCode::kInvalidArgument);
  auto no_table = PlanTableFiles(*con_, dir_.path() + "/none", "");
  EXPECT_EQ(no_table.status().code(), StatusCode::kCatalog);
  auto no_version = PlanTableFiles(*con_, root_, "", 99);
  EXPECT_FALSE(no_version.ok());
}

TEST_F(DistributedTest, SplitsReadExactlyTheirFilesAndTogetherTheTable) {
  Q("DELETE FROM t WHERE id % 10 = 3");  // deletion vectors, version 5
  auto plan = PlanTableFiles(*con_, root_, "");
  ASSERT_TRUE(plan.ok());
  std::vector<std::string> paths = Paths(*plan);
  std::vector<std::string> a(paths.begin(), paths.begin() + 3), b(paths.begin() + 3, paths.end());
  std::vector<std::string> got;
  for (const auto& split : {a, b}) {
    ASSERT_TRUE(RegisterTableFiles(*worker_, "split", root_, plan->version, split).ok());
    auto rows = Q("SELECT id, p, s FROM split WHERE id < 1000", worker_.get());
    EXPECT_FALSE(rows.empty());
    got.insert(got.end(), rows.begin(), rows.end());
  }
  std::vector<std::string> want = Q("SELECT id, p, s FROM t WHERE id < 1000");
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(want.size(), 360u);
  // Pinned: a commit after the plan does not change what a split reads.
  Q("DELETE FROM t WHERE id < 50");
  ASSERT_TRUE(RegisterTableFiles(*worker_, "split", root_, plan->version, paths).ok());
  EXPECT_EQ(Q("SELECT count(*) FROM split", worker_.get()), std::vector<std::string>{"360"});
}

TEST_F(DistributedTest, RegisteringAFileTheVersionDoesNotHoldIsAnError) {
  Status st = RegisterTableFiles(*worker_, "split", root_, 4, {"p=1/nope.parquet"});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("nope.parquet"), std::string::npos);
}

TEST_F(DistributedTest, StagedInsertsCommitInOneCommitOnce) {
  std::vector<std::string> actions;
  int64_t rows = 0;
  for (int w = 0; w < 3; ++w) {
    auto staged = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT id, 7, 'w' FROM range(" +
                                            std::to_string(1000 + w * 10) + ", " + std::to_string(1010 + w * 10) +
                                            ") AS r(id)");
    ASSERT_TRUE(staged.ok()) << staged.status().ToString();
    EXPECT_EQ(staged->read_version, 4);
    EXPECT_EQ(staged->rows, 10);
    EXPECT_EQ(staged->add_actions.size(), 1u);
    actions.insert(actions.end(), staged->add_actions.begin(), staged->add_actions.end());
    rows += staged->rows;
  }
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE p = 7"), std::vector<std::string>{"0"});  // nothing visible yet
  EXPECT_FALSE(worker_->in_transaction());
  StagedCommitOptions o;
  o.read_version = 4;
  o.app_id = "job-7";
  o.app_version = 0;
  auto c = CommitStagedFiles(*con_, root_, actions, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->version, 5);
  EXPECT_EQ(c->files, 3);
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE p = 7"), std::vector<std::string>{"30"});
  // The same job resubmitted (planned after the first run): its app transaction is there,
  // nothing is committed.
  auto again = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 7, 'x'");
  ASSERT_TRUE(again.ok());
  o.read_version = -1;
  const size_t files_before = ParquetFiles();
  auto replay = CommitStagedFiles(*con_, root_, again->add_actions, o);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_TRUE(replay->already_committed);
  EXPECT_EQ(replay->version, 5);
  EXPECT_EQ(ParquetFiles(), files_before - 1);  // the replay's staged file is deleted
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE p = 7"), std::vector<std::string>{"30"});
}

TEST_F(DistributedTest, TwoRunsOfOneJobCommitOnce) {
  auto first = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 5, 'a'");
  auto second = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 5, 'a'");
  ASSERT_TRUE(first.ok() && second.ok());
  StagedCommitOptions o;
  o.read_version = 4;
  o.app_id = "job-9";
  o.app_version = 0;
  ASSERT_TRUE(CommitStagedFiles(*con_, root_, first->add_actions, o).ok());
  // The second run planned against version 4 too: it meets the first run's txn action, Delta's
  // ConcurrentTransactionException, and its staged file is deleted.
  const size_t files_before = ParquetFiles();
  auto c = CommitStagedFiles(*con_, root_, second->add_actions, o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().conflict(), ConflictKind::kConcurrentTransaction) << c.status().ToString();
  EXPECT_EQ(ParquetFiles(), files_before - 1);
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE p = 5"), std::vector<std::string>{"1"});
}

TEST_F(DistributedTest, OverwriteRemovesEveryFileInTheSameCommit) {
  auto staged = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 0, 'only'");
  ASSERT_TRUE(staged.ok());
  StagedCommitOptions o;
  o.overwrite = true;
  auto c = CommitStagedFiles(*con_, root_, staged->add_actions, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(Q("SELECT * FROM t"), std::vector<std::string>{"1|0|only"});
}

// WriteSerializable: a concurrent blind append does not conflict with an overwrite; the result
// is the serial order overwrite, then append (as Delta's INSERT OVERWRITE).
TEST_F(DistributedTest, OverwriteAfterAConcurrentBlindAppendKeepsTheAppend) {
  auto staged = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 0, 'only'");
  ASSERT_TRUE(staged.ok());
  Q("INSERT INTO t VALUES (9, 9, 'late')");
  StagedCommitOptions o;
  o.overwrite = true;
  o.read_version = 4;
  auto c = CommitStagedFiles(*con_, root_, staged->add_actions, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(Q("SELECT * FROM t ORDER BY id"), (std::vector<std::string>{"1|0|only", "9|9|late"}));
}

TEST_F(DistributedTest, OverwriteAfterAConcurrentAppendConflictsUnderSerializable) {
  Q("ALTER TABLE t SET TBLPROPERTIES ('delta.isolationLevel' = 'Serializable')");
  auto staged = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 0, 'only'");
  ASSERT_TRUE(staged.ok());
  Q("INSERT INTO t VALUES (9, 9, 'late')");
  StagedCommitOptions o;
  o.overwrite = true;
  o.read_version = 5;
  const size_t files_before = ParquetFiles();
  auto c = CommitStagedFiles(*con_, root_, staged->add_actions, o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kConflict);
  EXPECT_EQ(c.status().conflict(), ConflictKind::kConcurrentAppend);
  EXPECT_EQ(ParquetFiles(), files_before - 1);
  EXPECT_EQ(Q("SELECT count(*) FROM t"), std::vector<std::string>{"401"});
}

TEST_F(DistributedTest, BadStagedActionsCommitNothing) {
  auto bad = [&](const std::vector<std::string>& actions) {
    auto c = CommitStagedFiles(*con_, root_, actions);
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument) << c.status().ToString();
  };
  bad({"{\"remove\":{\"path\":\"x.parquet\",\"dataChange\":true}}"});
  bad({"{\"add\":{\"path\":\"../escape.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":0,"
       "\"dataChange\":true}}"});
  bad({"{\"add\":{\"path\":\"missing.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":0,"
       "\"dataChange\":true}}"});
  auto staged = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 1, 0, 'a'");
  ASSERT_TRUE(staged.ok());
  bad({staged->add_actions[0], staged->add_actions[0]});
  EXPECT_EQ(Q("SELECT count(*) FROM t"), std::vector<std::string>{"400"});
  // Discarding deletes the staged file, but never a live one.
  const size_t files_before = ParquetFiles();
  ASSERT_TRUE(DiscardStagedFiles(*con_, root_, staged->add_actions).ok());
  EXPECT_EQ(ParquetFiles(), files_before - 1);
  auto live = PlanTableFiles(*con_, root_, "");
  ASSERT_TRUE(live.ok());
  auto committed = StageInsert(*worker_, "INSERT INTO delta.`" + root_ + "` SELECT 2, 0, 'b'");
  ASSERT_TRUE(committed.ok());
  ASSERT_TRUE(CommitStagedFiles(*con_, root_, committed->add_actions).ok());
  ASSERT_TRUE(DiscardStagedFiles(*con_, root_, committed->add_actions).ok());
  EXPECT_EQ(Q("SELECT count(*) FROM t"), std::vector<std::string>{"401"});
}

TEST_F(DistributedTest, StageInsertRefusesOtherStatementsAndCleansUpAfterErrors) {
  EXPECT_EQ(StageInsert(*worker_, "DELETE FROM t").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(StageInsert(*worker_, "INSERT OVERWRITE t SELECT 1, 0, 'a'").status().code(),
            StatusCode::kInvalidArgument);
  const size_t files_before = ParquetFiles();
  // Fails at the cast after files may have been written: nothing stays, no transaction open.
  auto failed = StageInsert(*worker_, "INSERT INTO t SELECT CAST(s AS BIGINT), 0, s FROM t");
  EXPECT_FALSE(failed.ok());
  EXPECT_FALSE(worker_->in_transaction());
  EXPECT_EQ(ParquetFiles(), files_before);
  ASSERT_TRUE(worker_->Begin().ok());
  EXPECT_EQ(StageInsert(*worker_, "INSERT INTO t SELECT 1, 0, 'a'").status().code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(worker_->Rollback().ok());
}

}  // namespace
}  // namespace shoal
