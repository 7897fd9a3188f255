#include <gtest/gtest.h>

#include "sql/write/dml_test_table.h"
#include "table/row_changes.h"

namespace shoal::sql {
namespace {

using dml_testing::DmlFixture;
using dml_testing::Row;
using dml_testing::TableOptions;
using dml_testing::Texts;

// 30 rows: id 0..29, v = id % 7 (NULL when id % 5 == 4), s cycles a/b/c (NULL when id % 6 == 5),
// p = id % 3.
std::vector<Row> Sample() {
  std::vector<Row> rows;
  const char* letters[] = {"a", "b", "c"};
  for (int64_t i = 0; i < 30; ++i) {
    Row r;
    r.id = i;
    if (i % 5 != 4) r.v = i % 7;
    if (i % 6 != 5) r.s = letters[i % 3];
    r.p = static_cast<int32_t>(i % 3);
    rows.push_back(r);
  }
  return rows;
}

template <typename Pred>
std::vector<Row> Without(std::vector<Row> rows, Pred pred) {
  std::vector<Row> out;
  for (auto& r : rows) {
    if (!pred(r)) out.push_back(r);
  }
  return out;
}

class DmlTest : public DmlFixture {};

TEST_F(DmlTest, DeleteWithDeletionVectorsKeepsDataFiles) {
  Create("t", {});
  Append("t", Sample(), 10, 4);
  auto c = Exec("t", "DELETE FROM t WHERE v > 3");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto expected = Without(Sample(), [](const Row& r) { return r.v && *r.v > 3; });
  EXPECT_EQ(c->deleted, 30 - static_cast<int64_t>(expected.size()));
  EXPECT_EQ(TableRows("t"), Texts(expected));
  EXPECT_EQ(RawRows("t"), 30);  // rows stay in the files, masked by DVs
  int with_dv = 0;
  auto latest = Latest("t");  // held: a temporary's files() would dangle in the loop
  for (const auto& f : latest->files()) with_dv += f.deletion_vector ? 1 : 0;
  EXPECT_EQ(with_dv, 3);
}

TEST_F(DmlTest, DeleteCopyOnWriteRewritesFiles) {
  Create("t", TableOptions().Dvs(false));
  Append("t", Sample(), 10, 4);
  auto c = Exec("t", "DELETE FROM t AS x WHERE x.s = 'b' OR x.v IS NULL");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto expected = Without(Sample(), [](const Row& r) { return (r.s && *r.s == "b") || !r.v; });
  EXPECT_EQ(c->deleted, 30 - static_cast<int64_t>(expected.size()));
  EXPECT_EQ(TableRows("t"), Texts(expected));
  int64_t raw = 0;
  auto latest = Latest("t");  // held: a temporary's files() would dangle in the loop
  for (const auto& f : latest->files()) {
    EXPECT_FALSE(f.deletion_vector.has_value());
    raw += table::LiveRows(f);
  }
  EXPECT_EQ(raw, static_cast<int64_t>(expected.size()));
}

TEST_F(DmlTest, DeleteRemovesFilesWhoseRowsAllMatch) {
  Create("t", {});
  Append("t", Sample(), 10);
  auto c = Exec("t", "DELETE FROM t WHERE id < 10");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->deleted, 10);
  auto files = Latest("t")->files();
  EXPECT_EQ(files.size(), 2u);
  for (const auto& f : files) EXPECT_FALSE(f.deletion_vector.has_value());
  EXPECT_EQ(Count("SELECT count(*) FROM t"), 20);
}

TEST_F(DmlTest, DeleteOnPartitionColumnsRemovesFilesWithoutReading) {
  Create("t", TableOptions().Partitioned());
  Append("t", Sample(), 10);
  // Remove the data files of partition p=1: a metadata-only delete must not need them.
  auto c = Exec("t", "DELETE FROM t WHERE p = 1");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->deleted, 10);
  EXPECT_EQ(TableRows("t"), Texts(Without(Sample(), [](const Row& r) { return *r.p == 1; })));
  auto c2 = Exec("t", "DELETE FROM t");
  ASSERT_TRUE(c2.ok()) << c2.status().ToString();
  EXPECT_EQ(c2->deleted, 20);
  EXPECT_EQ(Count("SELECT count(*) FROM t"), 0);
}

TEST_F(DmlTest, DeleteReadSetIsRowLevelWithDeletionVectors) {
  Create("t", {});
  Append("t", Sample(), 30);
  auto p = Prepare("t", "DELETE FROM t WHERE id IN (3, 4)");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const auto& read = (*p)->txn->read_set();
  ASSERT_EQ(read.predicates.size(), 1u);
  ASSERT_EQ(read.files.size(), 1u);
  ASSERT_TRUE(read.files.begin()->second.matched_rows.has_value());
  EXPECT_EQ(read.files.begin()->second.matched_rows->ToVector(), (std::vector<uint64_t>{3, 4}));
}

TEST_F(DmlTest, DeleteReadSetIsFileLevelWhenRowLevelConcurrencyIsOff) {
  Create("t", TableOptions().Property("shoal.rowLevelConcurrency", "false"));
  Append("t", Sample(), 30);
  auto p = Prepare("t", "DELETE FROM t WHERE id IN (3, 4)");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const auto& read = (*p)->txn->read_set();
  ASSERT_EQ(read.files.size(), 1u);
  EXPECT_FALSE(read.files.begin()->second.matched_rows.has_value());
}

TEST_F(DmlTest, UpdateWritesNewRowVersions) {
  for (bool dvs : {true, false}) {
    SCOPED_TRACE(dvs);
    std::string t = dvs ? "t1" : "t2";
    Create(t, TableOptions().Dvs(dvs));
    Append(t, Sample(), 10, 4);
    auto c = Exec(t, "UPDATE " + t + " SET v = v * 10, s = s || '!' WHERE id % 4 = 1");
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    auto expected = Sample();
    int64_t n = 0;
    for (auto& r : expected) {
      if (*r.id % 4 != 1) continue;
      ++n;
      if (r.v) r.v = *r.v * 10;
      if (r.s) r.s = *r.s + "!";
    }
    EXPECT_EQ(c->updated, n);
    EXPECT_EQ(TableRows(t), Texts(expected));
  }
}

TEST_F(DmlTest, UpdateMovesRowsBetweenPartitions) {
  Create("t", TableOptions().Partitioned());
  Append("t", Sample(), 10);
  auto c = Exec("t", "UPDATE t SET p = 7 WHERE s = 'a'");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto expected = Sample();
  for (auto& r : expected) {
    if (r.s && *r.s == "a") r.p = 7;
  }
  EXPECT_EQ(TableRows("t"), Texts(expected));
  EXPECT_EQ(Count("SELECT count(*) FROM t WHERE p = 7"), c->updated);
  bool dir = false;
  auto latest = Latest("t");  // held: a temporary's files() would dangle in the loop
  for (const auto& f : latest->files()) dir = dir || f.path.rfind("p=7/", 0) == 0;
  EXPECT_TRUE(dir);
}

TEST_F(DmlTest, UpdateCastsToColumnTypeAndEnforcesNotNull) {
  Create("t", TableOptions().VNotNull());
  std::vector<Row> rows = {{1, 1, "x", 0}, {2, 2, "y", 0}};
  Append("t", rows);
  auto c = Exec("t", "UPDATE t SET v = 2.6 WHERE id = 1");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(TableRows("t"), (std::multiset<std::string>{"1|2|x|0", "2|2|y|0"}));  // truncated, as Spark casts
  auto bad = Exec("t", "UPDATE t SET v = NULL WHERE id = 2");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kConstraint) << bad.status().ToString();
}

TEST_F(DmlTest, UpdateEnforcesCheckConstraints) {
  Create("t", TableOptions().Property("delta.constraints.positive", "v > 0"));
  Append("t", {{1, 1, "x", 0}});
  auto bad = Exec("t", "UPDATE t SET v = -1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kConstraint) << bad.status().ToString();
  EXPECT_TRUE(Exec("t", "UPDATE t SET v = 5").ok());
  EXPECT_EQ(TableRows("t"), (std::multiset<std::string>{"1|5|x|0"}));
}

TEST_F(DmlTest, UpdateRejectsUnknownColumnsAndAggregates) {
  Create("t", {});
  Append("t", Sample());
  EXPECT_EQ(Exec("t", "UPDATE t SET nope = 1").status().code(), StatusCode::kBinder);
  EXPECT_FALSE(Exec("t", "UPDATE t SET v = sum(v)").ok());
}

class MergeTest : public DmlFixture {
 protected:
  void SetUp() override {
    DmlFixture::SetUp();
    Create("t", {});
    Append("t", {{1, 10, "a", 0}, {2, 20, "b", 1}, {3, 30, "c", 2}, {4, std::nullopt, "d", 0}}, 2);
    Create("src", {});
    Append("src", {{2, 200, "B", 1}, {3, 300, "C", 2}, {5, 500, "E", 0}, {std::nullopt, 600, "N", 0}});
  }
};

TEST_F(MergeTest, UpdatesDeletesAndInsertsInClauseOrder) {
  auto c = Exec("t",
                "MERGE INTO t USING src AS s ON t.id = s.id "
                "WHEN MATCHED AND s.v > 250 THEN DELETE "
                "WHEN MATCHED THEN UPDATE SET v = s.v, s = s.s "
                "WHEN NOT MATCHED AND s.id IS NOT NULL THEN INSERT (id, v) VALUES (s.id, s.v)");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->updated, 1);
  EXPECT_EQ(c->deleted, 1);
  EXPECT_EQ(c->inserted, 1);
  EXPECT_EQ(TableRows("t"), (std::multiset<std::string>{"1|10|a|0", "2|200|B|1", "4|NULL|d|0", "5|500|NULL|NULL"}));
}

TEST_F(MergeTest, NotMatchedBySourceAndStarActions) {
  auto c = Exec("t",
                "MERGE INTO t AS x USING src AS y ON x.id = y.id "
                "WHEN MATCHED THEN UPDATE SET * "
                "WHEN NOT MATCHED THEN INSERT * "
                "WHEN NOT MATCHED BY SOURCE AND x.v IS NULL THEN DELETE "
                "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = x.v + 1");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->updated, 3);   // 2, 3 matched; 1 by source
  EXPECT_EQ(c->deleted, 1);   // 4
  EXPECT_EQ(c->inserted, 2);  // 5 and the NULL id (NULL never matches)
  EXPECT_EQ(TableRows("t"), (std::multiset<std::string>{"1|11|a|0", "2|200|B|1", "3|300|C|2", "5|500|E|0",
                                                         "NULL|600|N|0"}));
}

TEST_F(MergeTest, MultipleSourceRowsMatchingOneTargetRowIsAnError) {
  Append("src", {{2, 201, "B2", 1}});
  auto c = Exec("t", "MERGE INTO t USING src ON t.id = src.id WHEN MATCHED THEN UPDATE SET v = src.v");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kConstraint);
  EXPECT_NE(c.status().message().find("multiple source rows matched"), std::string::npos);
  // An unconditional DELETE as the only MATCHED clause tolerates duplicates.
  auto d = Exec("t", "MERGE INTO t USING src ON t.id = src.id WHEN MATCHED THEN DELETE");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->deleted, 2);
}

TEST_F(MergeTest, SourceMayBeAQuery) {
  auto c = Exec("t",
                "MERGE INTO t USING (SELECT id, v * 2 AS v FROM src WHERE id < 3) AS q ON t.id = q.id "
                "WHEN MATCHED THEN UPDATE SET v = q.v");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->updated, 1);
  EXPECT_EQ(Count("SELECT v FROM t WHERE id = 2"), 400);
}

// ---- row-level concurrency through the transaction layer

class DmlConcurrencyTest : public DmlFixture {
 protected:
  // Two statements prepared on the same snapshot, committed in order; returns the second's
  // commit status.
  Status Race(const std::string& first, const std::string& second) {
    auto a = Prepare("t", first);
    if (!a.ok()) return a.status();
    auto b = Prepare("t", second);
    if (!b.ok()) return b.status();
    auto ca = (*a)->txn->Commit();
    if (!ca.ok()) return ca.status().WithContext("first");
    auto cb = (*b)->txn->Commit();
    return cb.ok() ? Status::OK() : cb.status();
  }
};

TEST_F(DmlConcurrencyTest, UpdatesOfDifferentRowsOfOneFileBothCommit) {
  Create("t", {});
  Append("t", Sample(), 30);
  Status s = Race("UPDATE t SET v = 100 WHERE id = 3", "UPDATE t SET v = 200 WHERE id = 6");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Count("SELECT v FROM t WHERE id = 3"), 100);
  EXPECT_EQ(Count("SELECT v FROM t WHERE id = 6"), 200);
  EXPECT_EQ(Count("SELECT count(*) FROM t"), 30);
}

TEST_F(DmlConcurrencyTest, UpdatesOfDifferentRowsOfOnePartitionFileBothCommit) {
  Create("t", TableOptions().Partitioned());
  Append("t", Sample(), 30);
  // ids 3 and 6 are both in partition p = 0, one file.
  Status s = Race("UPDATE t SET v = 100 WHERE id = 3", "DELETE FROM t WHERE id = 6");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Count("SELECT v FROM t WHERE id = 3"), 100);
  EXPECT_EQ(Count("SELECT count(*) FROM t"), 29);
}

TEST_F(DmlConcurrencyTest, UpdatesOfTheSameRowConflict) {
  Create("t", {});
  Append("t", Sample(), 30);
  Status s = Race("UPDATE t SET v = 100 WHERE id = 3", "UPDATE t SET v = 200 WHERE id = 3");
  ASSERT_TRUE(s.IsConflict()) << s.ToString();
  EXPECT_STREQ(s.ErrorName(), "ConcurrentDeleteDeleteException");
}

TEST_F(DmlConcurrencyTest, DeleteAndUpdateOfTheSameRowConflict) {
  Create("t", {});
  Append("t", Sample(), 30);
  Status s = Race("DELETE FROM t WHERE id = 3", "UPDATE t SET v = 200 WHERE id = 3");
  ASSERT_TRUE(s.IsConflict()) << s.ToString();
  EXPECT_STREQ(s.ErrorName(), "ConcurrentDeleteDeleteException");
}

TEST_F(DmlConcurrencyTest, MergesOfDifferentRowsBothCommit) {
  Create("t", {});
  Append("t", Sample(), 30);
  Status s = Race("MERGE INTO t USING (SELECT 3 AS id) AS s ON t.id = s.id AND t.id = 3 WHEN MATCHED THEN DELETE",
                  "MERGE INTO t USING (SELECT 6 AS id) AS s ON t.id = s.id AND t.id = 6 WHEN MATCHED THEN DELETE");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Count("SELECT count(*) FROM t"), 28);
}

TEST_F(DmlConcurrencyTest, RowLevelOffConflictsPerFile) {
  Create("t", TableOptions().Property("shoal.rowLevelConcurrency", "false"));
  Append("t", Sample(), 30);
  Status s = Race("UPDATE t SET v = 100 WHERE id = 3", "UPDATE t SET v = 200 WHERE id = 6");
  ASSERT_TRUE(s.IsConflict()) << s.ToString();
  EXPECT_STREQ(s.ErrorName(), "ConcurrentDeleteDeleteException");
}

TEST_F(DmlConcurrencyTest, WithoutDeletionVectorsConflictsPerFile) {
  Create("t", TableOptions().Dvs(false));
  Append("t", Sample(), 30);
  Status s = Race("UPDATE t SET v = 100 WHERE id = 3", "DELETE FROM t WHERE id = 6");
  ASSERT_TRUE(s.IsConflict()) << s.ToString();
  EXPECT_STREQ(s.ErrorName(), "ConcurrentDeleteDeleteException");
}

}  // namespace
}  // namespace shoal::sql
