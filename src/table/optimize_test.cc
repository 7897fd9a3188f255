#include "table/optimize.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>

#include "expr/expr.h"
#include "table/optimize_test_table.h"
#include "txn/compaction_map.h"

namespace shoal::table {
namespace {

using testing_support::OptimizeTestTable;
using testing_support::TestRow;

// Rows id in [first, first+n), in descending id order (so "in order" is not just "sorted").
std::vector<TestRow> Block(int64_t first, int64_t n, const std::string& part = "x") {
  std::vector<TestRow> rows;
  for (int64_t i = n - 1; i >= 0; --i) rows.push_back({first + i, (first + i) * 7 % 1000, (first + i) % 13, part});
  return rows;
}

Result<OptimizeResult> RunOptimize(OptimizeTestTable& t, OptimizeOptions o = {}, txn::Transaction* use = nullptr,
                           std::shared_ptr<const scan::DeltaTable> table = nullptr) {
  std::unique_ptr<txn::Transaction> own;
  if (!table) table = t.Table();
  if (!use) {
    own = t.Begin("OPTIMIZE", table->snapshot());
    use = own.get();
  }
  auto r = OptimizeTable(*table, use, o);
  if (!r.ok() || !own) return r;
  auto c = own->Commit();
  if (!c.ok()) return c.status();
  return r;
}

TEST(Optimize, CompactsSmallFilesAndKeepsEachSourceContiguousInOrder) {
  OptimizeTestTable t;
  std::vector<TestRow> expected;
  for (int i = 0; i < 6; ++i) {
    auto rows = Block(i * 100, 100);
    t.Append(rows);
    expected.insert(expected.end(), rows.begin(), rows.end());
  }
  std::sort(expected.begin(), expected.end());
  auto before = t.Snap();
  ASSERT_EQ(before->files().size(), 6u);
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 6);
  EXPECT_EQ(r->metrics.num_files_added, 1);
  auto after = t.Snap();
  ASSERT_EQ(after->files().size(), 1u);
  EXPECT_EQ(t.Rows(), expected);
  const delta::AddFile& out = after->files()[0];
  EXPECT_FALSE(out.data_change);
  ASSERT_TRUE(out.tags && out.tags->count(txn::kCompactedFromTag));
  auto sources = txn::ParseCompactedFrom(out.tags->at(txn::kCompactedFromTag));
  ASSERT_TRUE(sources.ok());
  ASSERT_EQ(sources->size(), 6u);
  // The output is the sources' rows, concatenated in tag order, each in its own order.
  std::vector<TestRow> concat;
  for (const auto& s : *sources) {
    const delta::AddFile* f = t.FindFile(*before, s.path);
    ASSERT_NE(f, nullptr);
    auto rows = t.FileRows(*f);
    EXPECT_EQ(s.live_rows, static_cast<int64_t>(rows.size()));
    concat.insert(concat.end(), rows.begin(), rows.end());
  }
  EXPECT_EQ(t.FileRows(out), concat);
}

TEST(Optimize, DropsDeletedRowsOfCompactedFiles) {
  OptimizeTestTable t;
  t.Append(Block(0, 100));
  t.Append(Block(100, 100));
  auto snap = t.Snap();
  std::string first = snap->files()[0].path;
  t.DeletePositions(first, {0, 5, 99});
  auto expected = t.Rows();
  ASSERT_EQ(expected.size(), 197u);
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_deletion_vectors_removed, 1);
  EXPECT_EQ(r->metrics.num_deletion_vector_rows_removed, 3);
  auto after = t.Snap();
  ASSERT_EQ(after->files().size(), 1u);
  EXPECT_FALSE(after->files()[0].deletion_vector);
  EXPECT_EQ(t.Rows(), expected);
}

TEST(Optimize, FileWithManyDeletedRowsIsRewrittenAlone) {
  OptimizeTestTable t;
  t.Append(Block(0, 100));
  std::string path = t.Snap()->files()[0].path;
  t.DeletePositions(path, {1, 2, 3, 4, 5, 6});  // 6% > 5%
  auto expected = t.Rows();
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_added, 1);
  auto after = t.Snap();
  ASSERT_EQ(after->files().size(), 1u);
  EXPECT_NE(after->files()[0].path, path);
  EXPECT_FALSE(after->files()[0].deletion_vector);
  EXPECT_EQ(t.Rows(), expected);
}

TEST(Optimize, LeavesASingleCleanFileAndLargeFilesAlone) {
  OptimizeTestTable t;
  t.Append(Block(0, 100));
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_added, 0);
  EXPECT_EQ(r->metrics.total_considered_files, 1);
  EXPECT_EQ(r->metrics.total_files_skipped, 1);
  EXPECT_EQ(r->metrics.num_batches, 0);
  t.Append(Block(100, 100));
  OptimizeOptions o;
  o.min_file_size = 10;  // every file counts as large
  auto r2 = RunOptimize(t, o);
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(r2->metrics.num_files_added, 0);
  EXPECT_EQ(t.Snap()->files().size(), 2u);
}

TEST(Optimize, BinsCloseAtTheTargetSize) {
  OptimizeTestTable t;
  for (int i = 0; i < 6; ++i) t.Append(Block(i * 100, 100));
  auto snap = t.Snap();
  int64_t size = snap->files()[0].size;
  OptimizeOptions o;
  o.target_file_size = size * 2 + size / 2;  // two files per bin
  o.min_file_size = size * 10;
  auto expected = t.Rows();
  auto r = RunOptimize(t, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 6);
  EXPECT_EQ(r->metrics.num_files_added, 3);
  EXPECT_EQ(t.Snap()->files().size(), 3u);
  EXPECT_EQ(t.Rows(), expected);
}

TEST(Optimize, CompactsEachPartitionSeparately) {
  OptimizeTestTable t(/*partitioned=*/true);
  for (int i = 0; i < 3; ++i) {
    t.Append(Block(i * 100, 50, "x"));
    t.Append(Block(i * 100 + 50, 50, "y"));
  }
  t.Append(Block(1000, 10, "z"));  // alone: left as is
  auto expected = t.Rows();
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.partitions_optimized, 2);
  EXPECT_EQ(r->metrics.num_files_added, 2);
  EXPECT_EQ(r->metrics.total_files_skipped, 1);
  auto after = t.Snap();
  ASSERT_EQ(after->files().size(), 3u);
  for (const auto& f : after->files()) {
    auto rows = t.FileRows(f);
    ASSERT_FALSE(rows.empty());
    for (const auto& row : rows) EXPECT_EQ(std::optional<std::string>(row.part), f.partition_values.at("part"));
  }
  EXPECT_EQ(t.Rows(), expected);
}

expr::ExprPtr PartEquals(const scan::TableSchema& schema, const std::string& column, const std::string& value) {
  int idx = schema.Find(column);
  auto call = expr::Call("=", {expr::ColumnRef(idx, schema.schema.fields[idx].type, column),
                               expr::Literal(columnar::Value::String(value))});
  EXPECT_TRUE(call.ok()) << call.status().ToString();
  return *call;
}

TEST(Optimize, WhereSelectsPartitions) {
  OptimizeTestTable t(true);
  for (int i = 0; i < 2; ++i) {
    t.Append(Block(i * 100, 50, "x"));
    t.Append(Block(i * 100 + 50, 50, "y"));
  }
  auto table = t.Table();
  OptimizeOptions o;
  o.partition_filter = PartEquals(*table->schema(), "part", "x");
  auto r = RunOptimize(t, o, nullptr, table);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.total_considered_files, 2);
  EXPECT_EQ(r->metrics.num_files_added, 1);
  int x = 0, y = 0;
  auto snap = t.Snap();  // held: a temporary's files() would dangle in the loop
  for (const auto& f : snap->files()) (f.partition_values.at("part") == "x" ? x : y)++;
  EXPECT_EQ(x, 1);
  EXPECT_EQ(y, 2);
}

TEST(Optimize, WhereOnADataColumnIsRejected) {
  OptimizeTestTable t(true);
  t.Append(Block(0, 10, "x"));
  auto table = t.Table();
  OptimizeOptions o;
  o.partition_filter = PartEquals(*table->schema(), "s", "v");
  auto r = RunOptimize(t, o, nullptr, table);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Predicate references non-partition column 's'. Only the partition columns may be referenced: [part]");
}

TEST(Optimize, MetricsJsonHasDeltaKeys) {
  OptimizeTestTable t;
  t.Append(Block(0, 10));
  t.Append(Block(10, 10));
  auto r = RunOptimize(t);
  ASSERT_TRUE(r.ok());
  auto j = nlohmann::json::parse(r->metrics.ToJson());
  EXPECT_EQ(j["numFilesAdded"], 1);
  EXPECT_EQ(j["numFilesRemoved"], 2);
  EXPECT_EQ(j["filesRemoved"]["totalFiles"], 2);
  EXPECT_EQ(j["filesAdded"]["totalSize"], t.Snap()->files()[0].size);
  EXPECT_EQ(j["partitionsOptimized"], 1);
  EXPECT_TRUE(j["zOrderStats"].is_null());
  EXPECT_EQ(j["numBatches"], 1);
  EXPECT_EQ(j["totalConsideredFiles"], 2);
  EXPECT_EQ(j["totalFilesSkipped"], 0);
  auto params = OptimizeOperationParameters({"(part = 'x')"}, {"a", "b"});
  EXPECT_EQ(params["predicate"], "[\"(part = 'x')\"]");
  EXPECT_EQ(params["zOrderBy"], "[\"a\",\"b\"]");
}

// ---- ZORDER

struct Range {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  void Add(int64_t v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  int64_t width() const { return hi >= lo ? hi - lo : 0; }
};

// Average per-file width of a and b.
std::pair<double, double> AverageWidths(OptimizeTestTable& t) {
  auto snap = t.Snap();
  double wa = 0, wb = 0;
  for (const auto& f : snap->files()) {
    Range a, b;
    for (const auto& r : t.FileRows(f)) {
      a.Add(r.a);
      b.Add(r.b);
    }
    wa += static_cast<double>(a.width());
    wb += static_cast<double>(b.width());
  }
  double n = static_cast<double>(snap->files().size());
  return {wa / n, wb / n};
}

TEST(OptimizeZOrder, NarrowsPerFileRangesOfBothColumns) {
  OptimizeTestTable t;
  std::mt19937_64 rng(42);
  constexpr int64_t kMax = 1000000;
  for (int f = 0; f < 8; ++f) {
    std::vector<TestRow> rows;
    for (int i = 0; i < 2500; ++i) {
      int64_t id = f * 2500 + i;
      rows.push_back({id, static_cast<int64_t>(rng() % kMax), static_cast<int64_t>(rng() % kMax), "x"});
    }
    t.Append(rows);
  }
  auto [a0, b0] = AverageWidths(t);
  EXPECT_GT(a0, 0.95 * kMax);
  EXPECT_GT(b0, 0.95 * kMax);
  auto expected = t.Rows();
  int64_t total = 0;
  auto held = t.Snap();  // a temporary's files() would dangle in the loop
  for (const auto& f : held->files()) total += f.size;
  OptimizeOptions o;
  o.zorder_by = {"A", "b"};  // names are case-insensitive
  o.target_file_size = total / 16 + 1;
  auto r = RunOptimize(t, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 8);
  EXPECT_EQ(r->metrics.num_files_added, 16);
  EXPECT_TRUE(r->metrics.zorder);
  auto j = nlohmann::json::parse(r->metrics.ToJson());
  EXPECT_EQ(j["zOrderStats"]["numOutputCubes"], 16);
  EXPECT_EQ(t.Rows(), expected);
  auto snap = t.Snap();
  ASSERT_EQ(snap->files().size(), 16u);
  for (const auto& f : snap->files()) {
    EXPECT_FALSE(f.data_change);
    EXPECT_FALSE(f.tags && f.tags->count(txn::kCompactedFromTag)) << "ZORDER output must not claim order";
  }
  // 16 equal slices of a 2-d z-curve are 4x4 grid cells: a quarter of each range.
  auto [a1, b1] = AverageWidths(t);
  EXPECT_LT(a1, 0.4 * kMax);
  EXPECT_LT(b1, 0.4 * kMax);
}

TEST(OptimizeZOrder, SkewedColumnStillSplitsItsOtherValuesAcrossFiles) {
  OptimizeTestTable t;
  std::mt19937_64 rng(5);
  constexpr int64_t kMax = 1000000;
  std::vector<TestRow> rows;
  for (int i = 0; i < 20000; ++i) {
    int64_t a = i % 10 == 0 ? 1 + static_cast<int64_t>(rng() % kMax) : 0;  // 90% zeros
    rows.push_back({i, a, static_cast<int64_t>(rng() % kMax), "x"});
  }
  for (int f = 0; f < 4; ++f) t.Append(std::vector<TestRow>(rows.begin() + f * 5000, rows.begin() + (f + 1) * 5000));
  int64_t total = 0;
  auto held = t.Snap();  // a temporary's files() would dangle in the loop
  for (const auto& f : held->files()) total += f.size;
  OptimizeOptions o;
  o.zorder_by = {"a", "b"};
  o.target_file_size = total / 40 + 1;
  auto r = RunOptimize(t, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  int files_with_others = 0;
  double width_sum = 0;
  int measured = 0;
  auto after = t.Snap();  // a temporary's files() would dangle in the loop
  for (const auto& f : after->files()) {
    Range a;
    int n = 0;
    for (const auto& row : t.FileRows(f)) {
      if (row.a == 0) continue;
      a.Add(row.a);
      ++n;
    }
    if (n == 0) continue;
    ++files_with_others;
    if (n >= 50) {
      width_sum += static_cast<double>(a.width());
      ++measured;
    }
  }
  EXPECT_GE(files_with_others, 3);
  ASSERT_GT(measured, 0);
  EXPECT_LT(width_sum / measured, 0.5 * kMax);
}

TEST(OptimizeZOrder, RejectsPartitionAndUnknownColumns) {
  OptimizeTestTable t(true);
  t.Append(Block(0, 10, "x"));
  OptimizeOptions o;
  o.zorder_by = {"part"};
  auto r = RunOptimize(t, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "part is a partition column. Z-Ordering can only be performed on data columns");
  o.zorder_by = {"nope"};
  r = RunOptimize(t, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "Z-Ordering column nope does not exist in data schema.");
}

TEST(OptimizeZOrder, RewritesEvenASingleFilePartition) {
  OptimizeTestTable t;
  t.Append(Block(0, 100));
  OptimizeOptions o;
  o.zorder_by = {"b"};
  auto r = RunOptimize(t, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_added, 1);
  auto rows = t.FileRows(t.Snap()->files()[0]);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end(), [](const TestRow& x, const TestRow& y) { return x.b < y.b; }));
}

// ---- REORG ... APPLY (PURGE)

TEST(Purge, RewritesOnlyFilesWithDeletionVectors) {
  OptimizeTestTable t;
  t.Append(Block(0, 100));
  t.Append(Block(100, 100));
  t.Append(Block(200, 3));
  auto snap = t.Snap();
  std::string with_dv = snap->files()[0].path, clean = snap->files()[1].path, gone = snap->files()[2].path;
  t.DeletePositions(with_dv, {10, 20});
  t.DeletePositions(gone, {0, 1, 2});
  auto expected = t.Rows();
  auto table = t.Table();
  auto txn = t.Begin("REORG", table->snapshot());
  auto r = PurgeDeletionVectors(*table, txn.get(), {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(r->metrics.num_files_removed, 2);
  EXPECT_EQ(r->metrics.num_files_added, 1);  // the fully deleted file has no output
  EXPECT_EQ(r->metrics.num_deletion_vector_rows_removed, 5);
  auto after = t.Snap();
  ASSERT_EQ(after->files().size(), 2u);
  EXPECT_NE(t.FindFile(*after, clean), nullptr);
  EXPECT_EQ(t.FindFile(*after, with_dv), nullptr);
  for (const auto& f : after->files()) EXPECT_FALSE(f.deletion_vector);
  EXPECT_EQ(t.Rows(), expected);
}

// ---- concurrency: OPTIMIZE / ZORDER / REORG against a concurrent DELETE (both commit orders)

enum class Op { kCompact, kZOrder, kPurge };

struct Race {
  Status maintenance;
  Status dml;
};

// Starts the maintenance operation and a DELETE of rows 3 and 7 of the second file on the same
// snapshot, commits them in the given order, and returns both outcomes.
Race RunRace(OptimizeTestTable& t, Op op, bool dml_first, const std::string& target) {
  auto table = t.Table();
  auto snap = table->snapshot();
  auto m = t.Begin("OPTIMIZE", snap);
  OptimizeOptions o;
  if (op == Op::kZOrder) o.zorder_by = {"a"};
  auto staged = op == Op::kPurge ? PurgeDeletionVectors(*table, m.get(), o) : OptimizeTable(*table, m.get(), o);
  EXPECT_TRUE(staged.ok()) << staged.status().ToString();
  EXPECT_GT(staged->metrics.num_files_added, 0);
  auto d = t.Begin("DELETE", snap);
  delta::DeletionVector rows;
  rows.Add(3);
  rows.Add(7);
  const delta::AddFile* f = t.FindFile(*snap, target);
  EXPECT_NE(f, nullptr);
  if (f) {
    EXPECT_TRUE(d->DeleteRows(*f, rows).ok());
  }
  Race out;
  if (dml_first) {
    out.dml = d->Commit().status();
    out.maintenance = m->Commit().status();
  } else {
    out.maintenance = m->Commit().status();
    out.dml = d->Commit().status();
  }
  return out;
}

// Four 100-row files; the second has row 0 deleted already (so PURGE rewrites it).
// Returns the second file's path.
std::string SetUpRaceTable(OptimizeTestTable& t, std::vector<TestRow>* expected_after_delete) {
  for (int i = 0; i < 4; ++i) t.Append(Block(i * 100, 100));
  auto snap = t.Snap();
  std::string second = snap->files()[1].path;
  auto rows = t.FileRows(snap->files()[1]);
  t.DeletePositions(second, {0});
  // The DELETE of the race removes positions 3 and 7 of the second file.
  std::vector<int64_t> gone = {rows[0].id, rows[3].id, rows[7].id};
  for (const auto& r : t.Rows()) {
    if (std::find(gone.begin(), gone.end(), r.id) == gone.end()) expected_after_delete->push_back(r);
  }
  return second;
}

class OptimizeRace : public ::testing::TestWithParam<std::tuple<Op, bool>> {};

TEST_P(OptimizeRace, CompactionAndDeleteBothCommitAndTheDeletionSurvives) {
  auto [op, dml_first] = GetParam();
  OptimizeTestTable t;
  std::vector<TestRow> expected;
  std::string target = SetUpRaceTable(t, &expected);
  Race race = RunRace(t, op, dml_first, target);
  EXPECT_TRUE(race.dml.ok()) << race.dml.ToString();
  EXPECT_TRUE(race.maintenance.ok()) << race.maintenance.ToString();
  EXPECT_EQ(t.Rows(), expected);
}

INSTANTIATE_TEST_SUITE_P(BothOrders, OptimizeRace,
                         ::testing::Combine(::testing::Values(Op::kCompact, Op::kPurge), ::testing::Bool()));

TEST(OptimizeZOrderRace, ZOrderConflictsWithADeleteOfItsFilesInEitherOrder) {
  for (bool dml_first : {true, false}) {
    OptimizeTestTable t;
    std::vector<TestRow> expected;
    std::string target = SetUpRaceTable(t, &expected);
    auto before = t.Rows();
    Race race = RunRace(t, Op::kZOrder, dml_first, target);
    Status winner = dml_first ? race.dml : race.maintenance;
    Status loser = dml_first ? race.maintenance : race.dml;
    EXPECT_TRUE(winner.ok()) << winner.ToString();
    ASSERT_TRUE(loser.IsConflict()) << loser.ToString();
    EXPECT_STREQ(loser.ErrorName(), "ConcurrentDeleteDeleteException") << loser.ToString();
    EXPECT_EQ(t.Rows(), dml_first ? expected : before);
  }
}

}  // namespace
}  // namespace shoal::table
