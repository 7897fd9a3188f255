// The files a transactional read records (TransactionReadSource): a file the statement read and
// a concurrent commit deleted fails the commit with ConcurrentDeleteReadException; files pruned
// by partition values or log statistics were not read and do not conflict; the transaction's own
// staged files and row deletions do not disturb its commit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

std::vector<std::string> MustQuery(Connection& c, const std::string& sql) {
  auto r = c.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  std::vector<std::string> out;
  if (!r.ok()) return out;
  for (int64_t i = 0; i < r->num_rows(); ++i) {
    std::string line;
    for (int c = 0; c < r->num_columns(); ++c) {
      if (c) line += '|';
      line += r->GetText(i, c);
    }
    out.push_back(line);
  }
  return out;
}

class TransactionReadFiles : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    a_ = db_->Connect();
    b_ = db_->Connect();
  }

  std::string Props() const { return " TBLPROPERTIES ('delta.isolationLevel' = '" + GetParam() + "')"; }

  // Partition x = 1 in two files, x = 2 in one.
  void CreatePartitioned() {
    MustQuery(*a_, "CREATE TABLE t (x INT, v STRING) PARTITIONED BY (x)" + Props());
    MustQuery(*a_, "INSERT INTO t VALUES (1, 's1')");
    MustQuery(*a_, "INSERT INTO t VALUES (1, 's2')");
    MustQuery(*a_, "INSERT INTO t VALUES (2, 's3')");
  }

  // Expects `a_`'s COMMIT to fail with ConcurrentDeleteReadException.
  void ExpectDeleteReadOnCommit() {
    auto r = a_->Query("COMMIT");
    ASSERT_FALSE(r.ok()) << "the reader committed although a file it read was deleted";
    EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteRead) << r.status().ToString();
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> a_, b_;
};

TEST_P(TransactionReadFiles, InsertSelectOfADeletedFileFailsWithDeleteRead) {
  CreatePartitioned();
  MustQuery(*a_, "BEGIN");
  MustQuery(*a_, "INSERT INTO t SELECT 9, v FROM t WHERE x = 1");
  MustQuery(*b_, "DELETE FROM t WHERE x = 1");
  ExpectDeleteReadOnCommit();
  EXPECT_EQ(MustQuery(*a_, "SELECT x, v FROM t ORDER BY x, v"), std::vector<std::string>{"2|s3"});
}

TEST_P(TransactionReadFiles, SelectThenWriteFailsWhenTheReadFileIsDeleted) {
  CreatePartitioned();
  MustQuery(*a_, "BEGIN");
  EXPECT_EQ(MustQuery(*a_, "SELECT count(*) FROM t WHERE x = 1"), std::vector<std::string>{"2"});
  MustQuery(*a_, "INSERT INTO t VALUES (3, 'mine')");
  MustQuery(*b_, "DELETE FROM t WHERE x = 1");
  ExpectDeleteReadOnCommit();
}

TEST_P(TransactionReadFiles, FilePrunedByPartitionWasNotRead) {
  CreatePartitioned();
  MustQuery(*a_, "BEGIN");
  MustQuery(*a_, "INSERT INTO t SELECT 9, v FROM t WHERE x = 1");
  MustQuery(*b_, "DELETE FROM t WHERE x = 2");
  MustQuery(*a_, "COMMIT");
  EXPECT_EQ(MustQuery(*a_, "SELECT x, v FROM t ORDER BY x, v"),
            (std::vector<std::string>{"1|s1", "1|s2", "9|s1", "9|s2"}));
}

TEST_P(TransactionReadFiles, FilePrunedByStatisticsWasNotRead) {
  MustQuery(*a_, "CREATE TABLE t (id BIGINT, v STRING)" + Props());
  MustQuery(*a_, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  MustQuery(*a_, "INSERT INTO t VALUES (100, 'c'), (101, 'd')");
  MustQuery(*a_, "BEGIN");
  MustQuery(*a_, "INSERT INTO t SELECT id + 1000, v FROM t WHERE id < 10");
  MustQuery(*b_, "DELETE FROM t WHERE id >= 100");  // every row of the pruned file: removed outright
  MustQuery(*a_, "COMMIT");
  EXPECT_EQ(MustQuery(*a_, "SELECT id FROM t ORDER BY id"), (std::vector<std::string>{"1", "2", "1001", "1002"}));

  MustQuery(*a_, "BEGIN");
  MustQuery(*a_, "INSERT INTO t SELECT id + 2000, v FROM t WHERE id < 10");
  MustQuery(*b_, "DELETE FROM t WHERE id <= 2");  // the file that was read
  ExpectDeleteReadOnCommit();
}

TEST_P(TransactionReadFiles, OwnStagedFilesAndRowDeletesCommit) {
  CreatePartitioned();
  MustQuery(*a_, "BEGIN");
  MustQuery(*a_, "INSERT INTO t VALUES (1, 's4')");
  MustQuery(*a_, "DELETE FROM t WHERE v = 's1'");
  MustQuery(*a_, "INSERT INTO t SELECT 9, v FROM t WHERE x = 1");
  MustQuery(*b_, "DELETE FROM t WHERE x = 2");  // a file this transaction did not read
  MustQuery(*a_, "COMMIT");
  EXPECT_EQ(MustQuery(*a_, "SELECT x, v FROM t ORDER BY x, v"),
            (std::vector<std::string>{"1|s2", "1|s4", "9|s2", "9|s4"}));
}

TEST_P(TransactionReadFiles, ReadOnlyTransactionCommitsDespiteConcurrentDelete) {
  CreatePartitioned();
  MustQuery(*a_, "BEGIN");
  EXPECT_EQ(MustQuery(*a_, "SELECT count(*) FROM t WHERE x = 1"), std::vector<std::string>{"2"});
  MustQuery(*b_, "DELETE FROM t WHERE x = 1");
  MustQuery(*a_, "COMMIT");  // nothing to commit: it read one consistent snapshot
}

INSTANTIATE_TEST_SUITE_P(Isolation, TransactionReadFiles, ::testing::Values("WriteSerializable", "Serializable"));

}  // namespace
}  // namespace shoal::sql
