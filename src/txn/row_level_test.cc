// Row-level concurrency on tables with deletion vectors: disjoint row deletions of one file
// both commit with the union DV, same-row deletions conflict, and pending deletions follow a
// concurrent plain OPTIMIZE onto its output file.
#include <gtest/gtest.h>

#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using columnar::Value;
using testing_support::MakeAdd;
using testing_support::Rows;
using testing_support::Op;
using testing_support::TableSpec;
using testing_support::TestTable;

struct RowLevelParam {
  IsolationLevel level;
  bool partitioned;
};

class RowLevel : public ::testing::TestWithParam<RowLevelParam> {
 protected:
  TestTable MakeTable(delta::StringMap extra = {}) {
    TableSpec spec;
    spec.partitioned = GetParam().partitioned;
    spec.deletion_vectors = true;
    spec.isolation = IsolationLevelName(GetParam().level);
    spec.extra_config = std::move(extra);
    TestTable t(fs_, "/t", spec);
    t.Create({MakeAdd("a1.parquet", Date("d1"), 0, 99), MakeAdd("a2.parquet", Date("d1"), 100, 199)});
    return t;
  }
  std::optional<std::string> Date(const char* d) const {
    return GetParam().partitioned ? std::optional<std::string>(d) : std::nullopt;
  }
  delta::AddFile File(const TestTable& t, const std::string& path) {
    auto snap = t.Snap();
    const delta::AddFile* f = t.FindFile(*snap, path);
    EXPECT_NE(f, nullptr) << path;
    return f ? *f : delta::AddFile{};
  }
  delta::DeletionVector DvOf(const TestTable& t, const std::string& path) {
    delta::AddFile f = File(t, path);
    if (!f.deletion_vector) return {};
    auto dv = delta::DeletionVector::Load(*fs_, t.root(), *f.deletion_vector);
    EXPECT_TRUE(dv.ok()) << dv.status().ToString();
    return dv.ok() ? *dv : delta::DeletionVector{};
  }
  static int64_t MustCommit(Transaction& t) {
    auto r = t.Commit();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->version : -1;
  }

  std::shared_ptr<io::FileSystem> fs_ = std::make_shared<io::MemoryFileSystem>();
};

TEST_P(RowLevel, DisjointRowDeletesOfOneFileBothCommitWithUnionDv) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({1, 2})).ok());
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a1, Rows({5})).ok());
  EXPECT_EQ(MustCommit(*winner), 1);
  auto winner_dv = File(table, "a1.parquet").deletion_vector;
  EXPECT_EQ(MustCommit(*loser), 2);

  auto snap = table.Snap();
  EXPECT_EQ(snap->files().size(), 2u);  // a1 once, a2
  EXPECT_EQ(DvOf(table, "a1.parquet"), Rows({1, 2, 5}));
  // The loser's remove names the file with the winner's DV (log replay cancels that add).
  auto text = fs_->ReadAll("/t/_delta_log/" + delta::CommitFileName(2));
  ASSERT_TRUE(text.ok());
  auto actions = delta::ParseCommitFile(*text, "v2");
  ASSERT_TRUE(actions.ok());
  bool saw_remove = false;
  for (const auto& a : *actions) {
    if (auto* r = std::get_if<delta::RemoveFile>(&a)) {
      saw_remove = true;
      EXPECT_EQ(r->path, "a1.parquet");
      EXPECT_EQ(r->deletion_vector, winner_dv);
    }
  }
  EXPECT_TRUE(saw_remove);
}

TEST_P(RowLevel, SameRowDeletedTwiceConflicts) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({3, 4})).ok());
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a1, Rows({4, 9})).ok());
  EXPECT_EQ(MustCommit(*winner), 1);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteDelete);
  EXPECT_NE(r.status().message().find("a1.parquet, row 4"), std::string::npos) << r.status().message();
}

TEST_P(RowLevel, ReaderOfOtherRowsDoesNotConflictReaderOfDeletedRowDoes) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto unaffected = table.Begin();
  unaffected->ReadRows(a1, Rows({1, 2}));
  unaffected->AddFile(MakeAdd("u.parquet", Date("d9"), 1000, 1001));
  auto affected = table.Begin();
  affected->ReadRows(a1, Rows({7}));
  affected->AddFile(MakeAdd("v.parquet", Date("d9"), 1000, 1001));
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a1, Rows({7})).ok());
  EXPECT_EQ(MustCommit(*winner), 1);
  EXPECT_EQ(MustCommit(*unaffected), 2);
  auto r = affected->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteRead);
}

TEST_P(RowLevel, ChainOfWinnersMergesEveryDv) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({50})).ok());
  for (uint64_t row : {10, 20, 30}) {
    auto w = table.Begin();
    ASSERT_TRUE(w->DeleteRows(File(table, "a1.parquet"), Rows({row})).ok());
    MustCommit(*w);
  }
  EXPECT_EQ(MustCommit(*loser), 4);
  EXPECT_EQ(DvOf(table, "a1.parquet"), Rows({10, 20, 30, 50}));
}

TEST_P(RowLevel, LargeDvFilesOfLostAttemptsAreDeleted) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  delta::DeletionVector many;
  for (uint64_t r = 0; r < 2000; r += 3) many.Add(r);
  delta::DeletionVector other;
  for (uint64_t r = 1; r < 2000; r += 3) other.Add(r);
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a1, other).ok());
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, many).ok());
  MustCommit(*winner);
  MustCommit(*loser);
  delta::DeletionVector both = many;
  both.UnionWith(other);
  EXPECT_EQ(DvOf(table, "a1.parquet"), both);
  auto listing = fs_->List("/t");
  ASSERT_TRUE(listing.ok());
  int dv_files = 0;
  for (const auto& f : *listing) dv_files += f.name.rfind("deletion_vector_", 0) == 0;
  EXPECT_EQ(dv_files, 2);  // the winner's and the loser's final one
}

TEST_P(RowLevel, DmlLoserTranslatesDeletionsOntoPlainOptimizeOutput) {
  auto table = MakeTable();
  {  // rows 0 and 10 of a1 are deleted before the race
    auto t = table.Begin();
    ASSERT_TRUE(t->DeleteRows(File(table, "a1.parquet"), Rows({0, 10})).ok());
    MustCommit(*t);
  }
  auto a1 = File(table, "a1.parquet");
  auto a2 = File(table, "a2.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({20, 30})).ok());
  auto optimize = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(optimize->AddCompactedFile(MakeAdd("c.parquet", Date("d1"), 0, 199, 198), {a2, a1},
                                         {100, 98})
                  .ok());
  EXPECT_EQ(MustCommit(*optimize), 2);
  EXPECT_EQ(MustCommit(*loser), 3);
  auto snap = table.Snap();
  EXPECT_EQ(snap->files().size(), 1u);
  // a1 starts at 100 in c; rows 20 and 30 have 2 deleted rows before them.
  EXPECT_EQ(DvOf(table, "c.parquet"), Rows({118, 128}));
}

TEST_P(RowLevel, ZorderLikeRewriteWithoutRowMappingConflictsWithDml) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({20})).ok());
  auto zorder = table.Begin(Op("OPTIMIZE"));
  zorder->SetDataChange(false);
  ASSERT_TRUE(zorder->RemoveFile(a1).ok());
  auto out = MakeAdd("z.parquet", Date("d1"), 0, 99);
  out.data_change = false;
  zorder->AddFile(out);
  MustCommit(*zorder);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteDelete);
}

TEST_P(RowLevel, RowLevelOffFallsBackToFileLevel) {
  auto table = MakeTable({{"shoal.rowLevelConcurrency", "false"}});
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({1})).ok());
  auto reader = table.Begin();
  reader->ReadRows(a1, Rows({2}));
  reader->AddFile(MakeAdd("r.parquet", Date("d9"), 1000, 1001));
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a1, Rows({5})).ok());
  MustCommit(*winner);
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteDelete);
  auto r2 = reader->Commit();
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.status().conflict(), ConflictKind::kConcurrentDeleteRead);
}

TEST_P(RowLevel, RowLevelOffStillTranslatesThroughPlainOptimizeWithDeletionVectors) {
  auto table = MakeTable({{"shoal.rowLevelConcurrency", "false"}});
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({3})).ok());
  auto optimize = table.Begin(Op("OPTIMIZE"));
  ASSERT_TRUE(optimize->AddCompactedFile(MakeAdd("c.parquet", Date("d1"), 0, 99), {a1}, {100}).ok());
  MustCommit(*optimize);
  MustCommit(*loser);
  EXPECT_EQ(DvOf(table, "c.parquet"), Rows({3}));
}

TEST_P(RowLevel, SerializableAppendJudgedAgainstUpdatePredicate) {
  auto table = MakeTable();
  auto a1 = File(table, "a1.parquet");
  auto loser = table.Begin();  // UPDATE ... WHERE id = 5: delete row 5, add the new version
  loser->ReadPredicate(table.Pred("id", "=", Value::Int64(5)), "id = 5");
  ASSERT_TRUE(loser->DeleteRows(a1, Rows({5})).ok());
  loser->AddFile(MakeAdd("upd.parquet", Date("d1"), 5, 5, 1));
  auto far = table.Begin();  // a non-blind writer adding ids far away
  far->ReadPredicate(table.Pred("id", ">", Value::Int64(5000)), "id > 5000");
  far->AddFile(MakeAdd("far.parquet", Date("d1"), 5000, 6000));
  MustCommit(*far);
  EXPECT_EQ(MustCommit(*loser), 2);
}

TEST_P(RowLevel, OptimizeLoserCarriesDmlWinnersDeletionsOntoItsOutput) {
  for (const char* row_level : {"true", "false"}) {
    SCOPED_TRACE(row_level);
    fs_ = std::make_shared<io::MemoryFileSystem>();
    auto table = MakeTable({{"shoal.rowLevelConcurrency", row_level}});
    auto a1 = File(table, "a1.parquet");
    auto a2 = File(table, "a2.parquet");
    auto optimize = table.Begin(Op("OPTIMIZE"));
    ASSERT_TRUE(optimize->AddCompactedFile(MakeAdd("c.parquet", Date("d1"), 0, 199, 200), {a1, a2},
                                           {100, 100})
                    .ok());
    auto dml = table.Begin();
    ASSERT_TRUE(dml->DeleteRows(a2, Rows({3, 50})).ok());
    EXPECT_EQ(MustCommit(*dml), 1);
    EXPECT_EQ(MustCommit(*optimize), 2);
    auto snap = table.Snap();
    ASSERT_EQ(snap->files().size(), 1u);
    EXPECT_EQ(snap->files()[0].path, "c.parquet");
    EXPECT_EQ(DvOf(table, "c.parquet"), Rows({103, 150}));
  }
}

TEST_P(RowLevel, ReadFollowsCompactionSoLaterDeletionOfThatRowIsDetected) {
  for (uint64_t deleted : {20, 21}) {
    SCOPED_TRACE(deleted);
    fs_ = std::make_shared<io::MemoryFileSystem>();
    auto table = MakeTable();
    auto a1 = File(table, "a1.parquet");
    auto loser = table.Begin();
    loser->ReadRows(a1, Rows({20}));
    loser->AddFile(MakeAdd("l.parquet", Date("d9"), 1000, 1001));
    auto optimize = table.Begin(Op("OPTIMIZE"));
    ASSERT_TRUE(optimize->AddCompactedFile(MakeAdd("c.parquet", Date("d1"), 0, 99), {a1}, {100}).ok());
    MustCommit(*optimize);
    auto dml = table.Begin();
    ASSERT_TRUE(dml->DeleteRows(File(table, "c.parquet"), Rows({deleted})).ok());
    MustCommit(*dml);
    auto r = loser->Commit();
    if (deleted == 20) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteRead);
    } else {
      EXPECT_TRUE(r.ok()) << r.status().ToString();
    }
  }
}

// A row-level matcher that has read the added file and found no matching row.
class NoRowMatches final : public AddedRowsMatcher {
 public:
  Result<bool> AnyRowMatches(const std::string&, const delta::AddFile&, const expr::Expr&,
                             const scan::TableSchema&) override {
    ++calls;
    return false;
  }
  int calls = 0;
};

TEST_P(RowLevel, RowMatcherRefinesAppendCheckOnlyAtRowLevel) {
  for (const char* row_level : {"true", "false"}) {
    SCOPED_TRACE(row_level);
    fs_ = std::make_shared<io::MemoryFileSystem>();
    auto table = MakeTable({{"shoal.rowLevelConcurrency", row_level}});
    auto matcher = std::make_shared<NoRowMatches>();
    TransactionOptions o;
    o.matcher = matcher;
    auto loser = table.Begin(o);
    loser->ReadPredicate(table.Pred("id", "=", Value::Int64(5)), "id = 5");
    loser->AddFile(MakeAdd("l.parquet", Date("d1"), 5, 5, 1));
    auto winner = table.Begin();
    winner->ReadPredicate(table.Pred("id", "=", Value::Int64(7)), "id = 7");
    winner->AddFile(MakeAdd("w.parquet", Date("d1"), 0, 10));  // stats: may hold id 5
    MustCommit(*winner);
    auto r = loser->Commit();
    if (std::string(row_level) == "true") {
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(matcher->calls, 1);
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentAppend);
      EXPECT_EQ(matcher->calls, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Levels, RowLevel,
    ::testing::Values(RowLevelParam{IsolationLevel::kSerializable, false},
                      RowLevelParam{IsolationLevel::kWriteSerializable, false},
                      RowLevelParam{IsolationLevel::kSerializable, true},
                      RowLevelParam{IsolationLevel::kWriteSerializable, true}),
    [](const auto& info) {
      return std::string(IsolationLevelName(info.param.level)) +
             (info.param.partitioned ? "Partitioned" : "Unpartitioned");
    });

}  // namespace
}  // namespace shoal::txn
