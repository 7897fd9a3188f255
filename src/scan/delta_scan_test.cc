// DeltaScan on generated tables: partition and statistics pruning (checked against a full scan
// filtered by brute force, with randomized filters), metrics, deletion vectors, missing columns.
#include "scan/delta_scan.h"

#include <gtest/gtest.h>

#include <random>

#include "delta/deletion_vector.h"
#include "delta/stats_json.h"
#include "parquet/file_writer.h"
#include "scan/scan_test_support.h"
#include "support/testdata.h"

namespace shoal::scan {
namespace {

using columnar::Value;
using testing_support::Drain;

constexpr char kSchema[] =
    R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
    R"({"name":"part","type":"integer","nullable":true,"metadata":{}},)"
    R"({"name":"v","type":"double","nullable":true,"metadata":{}}]})";

// A table of `files` files partitioned by part = file % 3; file f holds ids
// [f*100, f*100+100) in row groups of 25 rows, v = id / 2.
struct GeneratedTable {
  testing::TempDir dir;
  std::shared_ptr<io::FileSystem> fs = io::LocalFileSystem();
  int files = 8;

  void Write(const std::vector<delta::Action>& extra = {}) {
    std::vector<delta::Action> actions;
    delta::Protocol p;
    p.min_reader_version = 1;
    p.min_writer_version = 2;
    actions.push_back(p);
    delta::Metadata m;
    m.id = "test";
    m.schema_string = kSchema;
    m.partition_columns = {"part"};
    actions.push_back(m);
    columnar::Schema file_schema;
    file_schema.fields = {{"id", columnar::Int64(), true}, {"v", columnar::Float64(), true}};
    for (int f = 0; f < files; ++f) {
      std::string name = "part=" + std::to_string(f % 3) + "/f" + std::to_string(f) + ".parquet";
      ASSERT_TRUE(fs->CreateDirs(dir.Join("part=" + std::to_string(f % 3))).ok());
      auto props = parquet::WriterProperties::Builder().max_row_group_rows(25).Build();
      auto w = parquet::ParquetWriter::Open(fs, dir.Join(name), file_schema, props);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      auto ids = columnar::Vector::Make(columnar::Int64());
      auto vs = columnar::Vector::Make(columnar::Float64());
      for (int i = 0; i < 100; ++i) {
        ids->Append<int64_t>(f * 100 + i);
        vs->Append<double>((f * 100 + i) / 2.0);
      }
      auto schema = std::make_shared<columnar::Schema>(file_schema);
      ASSERT_TRUE((*w)->WriteBatch(columnar::RecordBatch(schema, {ids, vs}, 100)).ok());
      ASSERT_TRUE((*w)->Close().ok());
      delta::AddFile a;
      a.path = name;
      a.partition_values["part"] = std::to_string(f % 3);
      a.size = 1;
      delta::FileStats st;
      st.num_records = 100;
      st.min_values[{"id"}] = f * 100;
      st.max_values[{"id"}] = f * 100 + 99;
      st.null_count[{"id"}] = 0;
      a.stats = delta::SerializeStatsJson(st);
      actions.push_back(a);
    }
    for (const auto& e : extra) actions.push_back(e);
    ASSERT_TRUE(fs->CreateDirs(dir.Join("_delta_log")).ok());
    ASSERT_TRUE(fs->PutIfAbsent(dir.Join("_delta_log/00000000000000000000.json"), delta::SerializeCommit(actions)).ok());
  }
};

expr::ExprPtr Cmp(const char* op, int col, columnar::TypePtr t, Value v) {
  auto e = expr::Call(op, {expr::ColumnRef(col, t, "c" + std::to_string(col)), expr::Literal(std::move(v))});
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return *e;
}

struct ScanResult {
  std::vector<std::tuple<int64_t, int32_t, double>> rows;
  ScanMetrics metrics;
};

ScanResult RunScan(const DeltaTable& t, std::vector<expr::ExprPtr> filters, int threads = 1) {
  DeltaScanOptions o;
  o.columns = {0, 1, 2};
  o.filters = std::move(filters);
  o.batch_rows = 10;
  auto scan = t.Plan(o);
  EXPECT_TRUE(scan.ok()) << scan.status().ToString();
  auto batches = Drain(**scan, threads);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  ScanResult r;
  for (const auto& b : *batches) {
    for (int64_t i = 0; i < b->num_rows; ++i) {
      r.rows.emplace_back(b->column(0)->Get<int64_t>(i), b->column(1)->Get<int32_t>(i), b->column(2)->Get<double>(i));
    }
  }
  r.metrics = (*scan)->metrics();
  return r;
}

TEST(DeltaScan, FullScanReadsEveryRowWithPartitionConstants) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  auto r = RunScan(**t, {});
  ASSERT_EQ(r.rows.size(), 800u);
  for (const auto& [id, part, v] : r.rows) {
    EXPECT_EQ(part, (id / 100) % 3);
    EXPECT_EQ(v, id / 2.0);
  }
  EXPECT_EQ(r.metrics.files_total, 8);
  EXPECT_EQ(r.metrics.files_read, 8);
  EXPECT_EQ(r.metrics.row_groups_total, 32);
  EXPECT_EQ(r.metrics.row_groups_read, 32);
  EXPECT_EQ(r.metrics.rows_scanned, 800);
  EXPECT_GT(r.metrics.bytes_read, 0);
  // Order keys keep file order with one thread and with several.
  auto r4 = RunScan(**t, {}, 4);
  EXPECT_EQ(r4.rows, r.rows);
}

TEST(DeltaScan, PartitionFilterPrunesFilesExactly) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  auto r = RunScan(**t, {Cmp("=", 1, columnar::Int32(), Value::Int32(2))});
  EXPECT_EQ(r.metrics.files_read, 2);  // files 2 and 5
  EXPECT_EQ(r.metrics.files_pruned_partition, 6);
  EXPECT_EQ(r.rows.size(), 200u);
}

// The verdict is decided once per partition tuple: many files share each tuple, a NULL value
// and an empty string are different tuples, and every file of a pruned tuple is counted.
TEST(DeltaScan, PartitionVerdictsPerTupleKeepNullApartAndCountEveryFile) {
  GeneratedTable g;
  g.files = 30;
  std::vector<delta::Action> extra;
  for (int k = 0; k < 5; ++k) {  // files that must never be read (they do not exist)
    delta::AddFile a;
    a.path = "part=__HIVE_DEFAULT_PARTITION__/missing" + std::to_string(k) + ".parquet";
    a.partition_values["part"] = std::nullopt;
    a.size = 1;
    extra.push_back(a);
  }
  g.Write(extra);
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  auto r = RunScan(**t, {expr::IsNull(expr::ColumnRef(1, columnar::Int32(), "part"), /*negated=*/true)});
  EXPECT_EQ(r.rows.size(), 3000u);
  EXPECT_EQ(r.metrics.files_read, 30);
  EXPECT_EQ(r.metrics.files_pruned_partition, 5);
  auto one = RunScan(**t, {Cmp("=", 1, columnar::Int32(), Value::Int32(1))});
  EXPECT_EQ(one.metrics.files_read, 10);
  EXPECT_EQ(one.metrics.files_pruned_partition, 25);
  for (const auto& [id, part, v] : one.rows) EXPECT_EQ(part, 1);
  EXPECT_EQ(one.rows.size(), 1000u);
}

// A list of 6,008 files is judged on two threads (kParallelPlanFiles): real files 0-3 first,
// then 6,000 files that do not exist (their stats and partitions must prune them), then real
// files 4-7 (added again, so they move to the end: the second half); the kept files stay in file
// order across the halves and every pruned file is counted once.
TEST(DeltaScan, PlanningManyFilesOnTwoThreadsKeepsFileOrderAndCounts) {
  GeneratedTable g;
  std::vector<delta::Action> ghosts;
  for (int k = 0; k < 6000; ++k) {
    delta::AddFile a;
    a.partition_values["part"] = std::to_string(k % 3);
    a.path = "part=" + *a.partition_values["part"] + "/ghost" + std::to_string(k) + ".parquet";
    a.size = 1;
    delta::FileStats st;
    st.num_records = 10;
    st.min_values[{"id"}] = 1000000 + k;
    st.max_values[{"id"}] = 1000009 + k;
    st.null_count[{"id"}] = 0;
    a.stats = delta::SerializeStatsJson(st);
    ghosts.push_back(a);
  }
  g.Write(ghosts);
  auto first = delta::Snapshot::Load(g.fs, g.dir.path());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::vector<delta::Action> again;  // real files 4-7, added again: they move to the end
  for (const delta::AddFile& f : (*first)->files()) {
    for (const char* name : {"/f4.", "/f5.", "/f6.", "/f7."}) {
      if (f.path.find(name) != std::string::npos) again.push_back(f);
    }
  }
  ASSERT_EQ(again.size(), 4u);
  ASSERT_TRUE(g.fs->PutIfAbsent(g.dir.Join("_delta_log/00000000000000000001.json"), delta::SerializeCommit(again)).ok());
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ((*t)->snapshot()->num_files(), 6008u);

  auto r = RunScan(**t, {Cmp("<", 0, columnar::Int64(), Value::Int64(800))});
  ASSERT_EQ(r.rows.size(), 800u);
  for (size_t i = 0; i < r.rows.size(); ++i) EXPECT_EQ(std::get<0>(r.rows[i]), static_cast<int64_t>(i));
  EXPECT_EQ(r.metrics.files_total, 6008);
  EXPECT_EQ(r.metrics.files_pruned_stats, 6000);
  EXPECT_EQ(r.metrics.files_read, 8);

  auto p = RunScan(**t, {Cmp("=", 1, columnar::Int32(), Value::Int32(1)), Cmp("<", 0, columnar::Int64(), Value::Int64(800))});
  EXPECT_EQ(p.rows.size(), 300u);  // files 1, 4 and 7
  EXPECT_EQ(p.metrics.files_pruned_partition, 4000 + 5);
  EXPECT_EQ(p.metrics.files_pruned_stats, 2000);
  EXPECT_EQ(p.metrics.files_read, 3);
}

TEST(DeltaScan, StatsPruneFilesAndRowGroups) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  auto r = RunScan(**t, {Cmp(">=", 0, columnar::Int64(), Value::Int64(330)),
                     Cmp("<", 0, columnar::Int64(), Value::Int64(340))});
  EXPECT_EQ(r.metrics.files_read, 1);
  EXPECT_EQ(r.metrics.row_groups_read, 1);
  ASSERT_EQ(r.rows.size(), 10u);
  EXPECT_EQ(std::get<0>(r.rows[0]), 330);
}

TEST(DeltaScan, AnInterruptStopsAScanWhoseFilterEmptiesEveryBatch) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  DeltaScanOptions o;
  o.columns = {0, 1, 2};
  o.filters = {Cmp("=", 2, columnar::Float64(), Value::Double(0.25))};  // no row; no statistic prunes it
  o.batch_rows = 10;
  std::atomic<bool> interrupted{false};
  for (bool set : {false, true}) {
    interrupted = set;
    auto scan = (*t)->Plan(o);
    ASSERT_TRUE(scan.ok()) << scan.status().ToString();
    (*scan)->SetInterrupt(&interrupted);
    auto local = (*scan)->MakeLocal();
    columnar::BatchPtr batch;
    uint64_t order = 0;
    auto next = (*scan)->Next(local.get(), &batch, &order);
    if (set) {
      ASSERT_FALSE(next.ok());
      EXPECT_EQ(next.status().code(), StatusCode::kInterrupted) << next.status().ToString();
    } else {
      ASSERT_TRUE(next.ok()) << next.status().ToString();
      EXPECT_FALSE(*next);  // read to the end: nothing passed
      EXPECT_GT((*scan)->metrics().rows_scanned, 0);
    }
  }
}

TEST(DeltaScan, RandomizedFiltersMatchBruteForce) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  auto all = RunScan(**t, {}).rows;
  std::mt19937 rng(42);
  const char* ops[] = {"=", "<", "<=", ">", ">=", "<>"};
  for (int iter = 0; iter < 40; ++iter) {
    const char* op1 = ops[rng() % 6];
    int64_t k1 = static_cast<int64_t>(rng() % 900) - 50;
    const char* op2 = ops[rng() % 6];
    int32_t k2 = static_cast<int32_t>(rng() % 4);
    std::vector<expr::ExprPtr> filters;
    filters.push_back(Cmp(op1, 0, columnar::Int64(), Value::Int64(k1)));
    if (iter % 2) filters.push_back(Cmp(op2, 1, columnar::Int32(), Value::Int32(k2)));
    auto cmp = [](const std::string& op, int64_t a, int64_t b) {
      if (op == "=") return a == b;
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      if (op == ">=") return a >= b;
      return a != b;
    };
    decltype(all) want;
    for (const auto& row : all) {
      if (!cmp(op1, std::get<0>(row), k1)) continue;
      if (iter % 2 && !cmp(op2, std::get<1>(row), k2)) continue;
      want.push_back(row);
    }
    auto got = RunScan(**t, filters, 1 + iter % 3);
    EXPECT_EQ(got.rows, want) << "id " << op1 << " " << k1 << (iter % 2 ? std::string(" and part ") + op2 + std::to_string(k2) : "");
    if (want.size() < 100) {
      EXPECT_LT(got.metrics.row_groups_read, 32) << op1 << k1;
    }
  }
}

TEST(DeltaScan, DeletionVectorDropsRowsAcrossRowGroups) {
  GeneratedTable g;
  g.files = 1;
  g.Write();
  // Replace the file's add with one carrying an inline DV deleting rows 3, 30 and 99.
  delta::DeletionVector dv;
  dv.Add(3);
  dv.Add(30);
  dv.Add(99);
  auto desc = delta::WriteDeletionVector(*g.fs, g.dir.path(), dv, {.max_inline_bytes = 1000});
  ASSERT_TRUE(desc.ok()) << desc.status().ToString();
  auto snap0 = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(snap0.ok());
  delta::AddFile a = (*snap0)->snapshot()->files()[0];
  a.deletion_vector = *desc;
  delta::RemoveFile rm;
  rm.path = a.path;
  ASSERT_TRUE(g.fs->PutIfAbsent(g.dir.Join("_delta_log/00000000000000000001.json"),
                                delta::SerializeCommit({rm, a})).ok());
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  auto r = RunScan(**t, {});
  ASSERT_EQ(r.rows.size(), 97u);
  for (const auto& row : r.rows) {
    int64_t id = std::get<0>(row);
    EXPECT_TRUE(id != 3 && id != 30 && id != 99) << id;
  }
  EXPECT_EQ((*t)->EstimatedRows(), 97);
  // Time travel to version 0 sees every row again.
  TimeTravel at;
  at.version = 0;
  auto t0 = DeltaTable::Open(g.fs, g.dir.path(), at);
  ASSERT_TRUE(t0.ok());
  EXPECT_EQ(RunScan(**t0, {}).rows.size(), 100u);
  at.version = 7;
  EXPECT_FALSE(DeltaTable::Open(g.fs, g.dir.path(), at).ok());
}

TEST(DeltaScan, RowAddressesNameEachRowsFileAndPositionThroughDvAndFilter) {
  GeneratedTable g;
  g.files = 3;
  g.Write();
  auto t0 = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t0.ok());
  // Delete row 5 of the second file (by snapshot order) with a DV.
  delta::DeletionVector dv;
  dv.Add(5);
  auto desc = delta::WriteDeletionVector(*g.fs, g.dir.path(), dv, {.max_inline_bytes = 1000});
  ASSERT_TRUE(desc.ok()) << desc.status().ToString();
  delta::AddFile a = (*t0)->snapshot()->files()[1];
  a.deletion_vector = *desc;
  delta::RemoveFile rm;
  rm.path = a.path;
  ASSERT_TRUE(g.fs->PutIfAbsent(g.dir.Join("_delta_log/00000000000000000001.json"),
                                delta::SerializeCommit({rm, a})).ok());
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  DeltaScanOptions o;
  o.columns = {0};
  // id % 10 < 7 keeps rows 0-6 of every ten, so positions are not contiguous.
  auto mod = expr::Call("%", {expr::ColumnRef(0, columnar::Int64(), "id"), expr::Literal(Value::Int64(10))});
  ASSERT_TRUE(mod.ok());
  auto lt = expr::Call("<", {*mod, expr::Literal(Value::Int64(7))});
  ASSERT_TRUE(lt.ok());
  o.filters = {*lt};
  o.batch_rows = 16;
  o.with_row_address = true;
  auto scan = (*t)->Plan(o);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  ASSERT_EQ((*scan)->output_schema()->fields.size(), 3u);
  EXPECT_EQ((*scan)->output_schema()->fields[1].name, kFileIdColumn);
  EXPECT_EQ((*scan)->output_schema()->fields[2].name, kRowIndexColumn);
  auto batches = Drain(**scan, 2);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  const auto& files = (*t)->snapshot()->files();
  int64_t rows = 0;
  for (const auto& b : *batches) {
    for (int64_t i = 0; i < b->num_rows; ++i) {
      int64_t id = b->column(0)->Get<int64_t>(i);
      int64_t file = b->column(1)->Get<int64_t>(i);
      int64_t pos = b->column(2)->Get<int64_t>(i);
      ASSERT_GE(file, 0);
      ASSERT_LT(file, static_cast<int64_t>(files.size()));
      // File f of the generator holds ids f*100 + position.
      EXPECT_EQ(files[file].path.find("f" + std::to_string(id / 100) + ".parquet") != std::string::npos, true)
          << files[file].path << " id " << id;
      EXPECT_EQ(pos, id % 100);
      EXPECT_LT(id % 10, 7);
      EXPECT_FALSE(files[file].deletion_vector && pos == 5) << "deleted row returned";
      ++rows;
    }
  }
  EXPECT_EQ(rows, 3 * 70 - 1);
}

TEST(DeltaScan, EmptyProjectionCountsRows) {
  GeneratedTable g;
  g.Write();
  auto t = DeltaTable::Open(g.fs, g.dir.path());
  ASSERT_TRUE(t.ok());
  DeltaScanOptions o;
  auto scan = (*t)->Plan(o);
  ASSERT_TRUE(scan.ok());
  auto batches = Drain(**scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(testing_support::CountRows(*batches), 800);
}

TEST(DeltaScan, MissingTableIsAnError) {
  testing::TempDir dir;
  auto t = DeltaTable::Open(io::LocalFileSystem(), dir.path());
  EXPECT_FALSE(t.ok());
}

}  // namespace
}  // namespace shoal::scan
