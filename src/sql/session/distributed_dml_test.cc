// shoal/distributed.h for UPDATE / DELETE / MERGE: workers stage a statement on disjoint file
// sets at a pinned version, the coordinator commits all their changes as one transaction with
// the ordinary row-level conflict rules. The oracle is the same statement run locally on a
// twin table built by the same statements.
#include <gtest/gtest.h>

#include <filesystem>

#include "shoal/distributed.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

class DistributedDmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
    for (int w = 0; w < 2; ++w) workers_.push_back(db_->Connect());
    root_ = dir_.path() + "/t";
    // t is changed distributed, u (its twin) locally.
    for (const char* name : {"t", "u"}) {
      const std::string n = name;
      Q("CREATE TABLE " + n + " (id BIGINT, p INT, s STRING) PARTITIONED BY (p) "
        "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.enableChangeDataFeed' = 'true')");
      for (int k = 0; k < 3; ++k) {  // one file per partition value each: 6 files of 50 rows
        Q("INSERT INTO " + n + " SELECT id, CAST(id % 2 AS INT), 's' || CAST(id AS STRING) FROM range(" +
          std::to_string(k * 100) + ", " + std::to_string(k * 100 + 100) + ") AS r(id)");
      }
      Q("DELETE FROM " + n + " WHERE id % 10 = 3");  // existing deletion vectors
    }
  }
  std::vector<std::string> Q(const std::string& sql, Connection* c = nullptr) {
    auto r = (c ? c : con_.get())->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  }
  std::vector<std::string> Table(const std::string& name) { return Q("SELECT * FROM " + name + " ORDER BY id"); }
  int64_t Version(const std::string& name) {
    auto plan = PlanTableFiles(*con_, dir_.path() + "/" + name, "");
    return plan.ok() ? plan->version : -1;
  }
  size_t DataFiles() {
    size_t n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root_)) {
      n += e.path().extension() == ".parquet";
    }
    return n;
  }
  // Plans `sql` on t at the latest version and stages it on two workers (files alternating).
  std::vector<StagedChanges> Stage(const std::string& sql, int64_t* version = nullptr) {
    auto plan = PlanStatementFiles(*con_, root_, sql);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    if (!plan.ok()) return {};
    if (version) *version = plan->version;
    std::vector<std::vector<std::string>> paths(2);
    for (size_t i = 0; i < plan->files.size(); ++i) paths[i % 2].push_back(plan->files[i].path);
    std::vector<StagedChanges> out;
    for (size_t w = 0; w < 2; ++w) {
      auto staged = StageStatement(*workers_[w], root_, sql, plan->version, paths[w]);
      EXPECT_TRUE(staged.ok()) << staged.status().ToString();
      if (staged.ok()) out.push_back(std::move(*staged));
    }
    return out;
  }
  int64_t Affected(const std::vector<StagedChanges>& changes) {
    int64_t n = 0;
    for (const auto& c : changes) n += c.metrics.empty() ? 0 : c.metrics[0];
    return n;
  }
  std::string Sql(const std::string& text, const std::string& table) {
    std::string out = text;
    const std::string mark = "{t}";
    out.replace(out.find(mark), mark.size(), table);
    return out;
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
  std::vector<std::unique_ptr<Connection>> workers_;
  std::string root_;
};

TEST_F(DistributedDmlTest, UpdateAndDeleteEqualTheLocalStatementInOneCommit) {
  for (const std::string text :
       {"UPDATE {t} SET s = upper(s), id = id + 1000 WHERE id % 7 = 1 AND id < 250",
        "DELETE FROM {t} WHERE id % 5 = 0 OR s = 's101'", "UPDATE {t} AS x SET s = 'all' WHERE x.p = 1",
        "DELETE FROM {t} WHERE id > 1000"}) {
    const int64_t before = Version("t");
    auto changes = Stage(Sql(text, "delta.`" + root_ + "`"));
    ASSERT_EQ(changes.size(), 2u);
    auto committed = CommitStagedChanges(*con_, root_, changes);
    ASSERT_TRUE(committed.ok()) << text << ": " << committed.status().ToString();
    auto local = Q(Sql(text, "u"));
    ASSERT_EQ(local.size(), 1u);
    EXPECT_EQ(std::to_string(Affected(changes)), local[0]) << text;
    EXPECT_EQ(committed->version, before + 1) << text;
    EXPECT_EQ(Version("t"), before + 1) << text;
    EXPECT_EQ(Table("t"), Table("u")) << text;
  }
  // The change data feed of the distributed commits equals the local one's.
  const std::string cdf =
      "SELECT id, p, s, _change_type, _commit_version FROM table_changes('{t}', 4) ORDER BY _commit_version, id, "
      "_change_type";
  EXPECT_EQ(Q(Sql(cdf, "t")), Q(Sql(cdf, "u")));
  EXPECT_FALSE(Q(Sql(cdf, "t")).empty());
}

TEST_F(DistributedDmlTest, AResubmittedJobCommitsOnce) {
  StagedCommitOptions o;
  o.app_id = "job-1";
  o.app_version = 0;
  const std::string sql = "UPDATE delta.`" + root_ + "` SET s = s || '!' WHERE id < 120";
  auto first = CommitStagedChanges(*con_, root_, Stage(sql), o);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_FALSE(first->already_committed);
  const auto after = Table("t");
  const size_t files = DataFiles();
  auto again = CommitStagedChanges(*con_, root_, Stage(sql), o);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->already_committed);
  EXPECT_EQ(again->version, first->version);
  EXPECT_EQ(Version("t"), first->version);
  EXPECT_EQ(Table("t"), after);
  EXPECT_EQ(DataFiles(), files);  // the replay's staged files are gone
}

TEST_F(DistributedDmlTest, TwoJobsOnDisjointRowsOfTheSameFilesBothCommit) {
  const std::string a = "UPDATE {t} SET s = 'a' WHERE id % 4 = 0";
  const std::string b = "UPDATE {t} SET s = 'b' WHERE id % 4 = 2";
  const std::string path = "delta.`" + root_ + "`";
  int64_t va = -1, vb = -1;
  auto ja = Stage(Sql(a, path), &va);
  auto jb = Stage(Sql(b, path), &vb);
  ASSERT_EQ(va, vb);
  auto ca = CommitStagedChanges(*con_, root_, ja);
  ASSERT_TRUE(ca.ok()) << ca.status().ToString();
  auto cb = CommitStagedChanges(*con_, root_, jb);
  ASSERT_TRUE(cb.ok()) << cb.status().ToString();  // rebased: its DVs merged with a's
  EXPECT_EQ(cb->version, ca->version + 1);
  Q(Sql(a, "u"));
  Q(Sql(b, "u"));
  EXPECT_EQ(Table("t"), Table("u"));
}

TEST_F(DistributedDmlTest, OverlappingRowsGiveTheLocalEnginesConflict) {
  const std::string a = "UPDATE {t} SET s = 'a' WHERE id < 100";
  const std::string b = "DELETE FROM {t} WHERE id < 50";
  // The oracle: the same two statements as concurrent local transactions on u.
  auto l1 = db_->Connect();
  auto l2 = db_->Connect();
  Q("BEGIN", l1.get());
  Q("BEGIN", l2.get());
  Q(Sql(a, "u"), l1.get());
  Q(Sql(b, "u"), l2.get());
  Q("COMMIT", l1.get());
  auto local = l2->Query("COMMIT");
  ASSERT_FALSE(local.ok());
  ASSERT_TRUE(local.status().IsConflict()) << local.status().ToString();

  const std::string path = "delta.`" + root_ + "`";
  auto ja = Stage(Sql(a, path));
  auto jb = Stage(Sql(b, path));
  ASSERT_TRUE(CommitStagedChanges(*con_, root_, ja).ok());
  const int64_t version = Version("t");
  const size_t files = DataFiles();
  auto cb = CommitStagedChanges(*con_, root_, jb);
  ASSERT_FALSE(cb.ok());
  EXPECT_TRUE(cb.status().IsConflict()) << cb.status().ToString();
  EXPECT_EQ(cb.status().conflict(), local.status().conflict())
      << cb.status().ToString() << " vs local " << local.status().ToString();
  EXPECT_EQ(Version("t"), version);
  EXPECT_LT(DataFiles(), files);  // the loser's staged change data files were removed
}

TEST_F(DistributedDmlTest, BadStatementsAreNamedErrorsAndCommitNothing) {
  const int64_t before = Version("t");
  const size_t files = DataFiles();
  auto missing = PlanStatementFiles(*con_, root_, "UPDATE delta.`" + root_ + "` SET s = 'x' WHERE nope = 1");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kBinder) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos) << missing.status().ToString();
  auto select = PlanStatementFiles(*con_, root_, "SELECT * FROM delta.`" + root_ + "`");
  ASSERT_FALSE(select.ok());
  EXPECT_EQ(select.status().code(), StatusCode::kInvalidArgument) << select.status().ToString();
  auto other = PlanStatementFiles(*con_, root_, "DELETE FROM u WHERE id = 1");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), StatusCode::kInvalidArgument) << other.status().ToString();
  auto two = StageStatement(*con_, root_, "DELETE FROM delta.`" + root_ + "`; SELECT 1", before, {});
  EXPECT_FALSE(two.ok());
  EXPECT_EQ(Version("t"), before);
  EXPECT_EQ(DataFiles(), files);
  EXPECT_EQ(Table("t"), Table("u"));
}

TEST_F(DistributedDmlTest, ChangesThatDoNotFitCommitNothing) {
  const std::string sql = "UPDATE delta.`" + root_ + "` SET s = 'x' WHERE id < 120";
  auto changes = Stage(sql);
  ASSERT_EQ(changes.size(), 2u);
  const int64_t before = Version("t");
  // A worker's changes twice: the same files in two workers' sets.
  auto twice = CommitStagedChanges(*con_, root_, {changes[0], changes[0]});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().code(), StatusCode::kInvalidArgument) << twice.status().ToString();
  StagedChanges broken = changes[1];
  broken.transaction = "{not json";
  auto bad = CommitStagedChanges(*con_, root_, {changes[0], broken});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << bad.status().ToString();
  StagedCommitOptions o;
  o.read_version = before - 1;
  auto stale = CommitStagedChanges(*con_, root_, changes, o);
  EXPECT_EQ(stale.status().code(), StatusCode::kInvalidArgument) << stale.status().ToString();
  EXPECT_EQ(Version("t"), before);
  // Discarding removes the staged files; the table is unchanged.
  const size_t files = DataFiles();
  ASSERT_TRUE(DiscardStagedChanges(*con_, root_, changes).ok());
  EXPECT_LT(DataFiles(), files);
  EXPECT_EQ(Table("t"), Table("u"));
}

TEST_F(DistributedDmlTest, AMergeSplitsIntoMatchedClausesInsertsAndMatchedRows) {
  auto parts = SplitMergeStatement(*con_, root_,
                                   "MERGE INTO t AS x USING src ON x.id = src.id WHEN MATCHED AND src.k = 1 THEN DELETE "
                                   "WHEN NOT MATCHED THEN INSERT * WHEN MATCHED THEN UPDATE SET s = src.s "
                                   "WHEN NOT MATCHED BY SOURCE THEN DELETE",
                                   "split", "row_no");
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->source_name, "src");
  EXPECT_EQ(parts->matched_sql,
            "MERGE INTO t AS x USING src ON (x.id = src.id) WHEN MATCHED AND (src.k = 1) THEN DELETE WHEN MATCHED "
            "THEN UPDATE SET s = src.s WHEN NOT MATCHED BY SOURCE THEN DELETE");
  EXPECT_EQ(parts->insert_sql, "MERGE INTO t AS x USING src ON (x.id = src.id) WHEN NOT MATCHED THEN INSERT *");
  EXPECT_EQ(parts->matched_rows_sql, "SELECT DISTINCT src.row_no FROM src JOIN split AS x ON (x.id = src.id)");
  // Only inserts: no matched statement; the target's name is its alias.
  auto inserts = SplitMergeStatement(*con_, root_, "MERGE INTO t USING s2 AS y ON t.id = y.id WHEN NOT MATCHED THEN "
                                     "INSERT *", "split", "r");
  ASSERT_TRUE(inserts.ok()) << inserts.status().ToString();
  EXPECT_EQ(inserts->matched_sql, "");
  EXPECT_EQ(inserts->matched_rows_sql, "SELECT DISTINCT y.r FROM s2 AS y JOIN split AS t ON (t.id = y.id)");
  for (const std::string& bad : std::vector<std::string>{
           "MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE",
        "MERGE INTO t USING db.src s ON t.id = s.id WHEN MATCHED THEN DELETE",
        "MERGE INTO delta.`" + root_ + "` USING src ON id = src.id WHEN MATCHED THEN DELETE",
        "MERGE INTO u USING src ON u.id = src.id WHEN MATCHED THEN DELETE", "DELETE FROM t"}) {
    auto r = SplitMergeStatement(*con_, root_, bad, "split", "r");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad << ": " << r.status().ToString();
  }
}

}  // namespace
}  // namespace shoal
