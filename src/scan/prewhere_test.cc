// Prewhere (late materialization) against two oracles: the plain scan (prewhere off) and a
// brute-force evaluation of the filter on the in-memory rows the files were written from.
#include "scan/prewhere.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "delta/deletion_vector.h"
#include "parquet/file_writer.h"
#include "scan/file_set_scan.h"
#include "scan/scan_test_support.h"
#include "support/testdata.h"

namespace shoal::scan {
namespace {

using columnar::Value;
using columnar::VectorPtr;
using expr::ExprPtr;
using testing_support::Drain;
using testing_support::RowsAsJson;

// Table columns of the random files; "p" is a partition column, "z" is absent from the files.
struct Table {
  std::shared_ptr<TableSchema> schema = std::make_shared<TableSchema>();
  columnar::Schema file_schema;
  void Add(const std::string& name, columnar::TypePtr type, bool in_file, bool partition = false) {
    TableColumn col = ColumnForType(name, type, true);
    col.is_partition = partition;
    schema->schema.fields.push_back({name, type, true});
    schema->columns.push_back(col);
    if (in_file) file_schema.fields.push_back({name, type, true});
  }
};

Table MakeTable() {
  Table t;
  t.Add("a", columnar::Int64(), true);               // random, 10% NULL
  t.Add("b", columnar::Int32(), true);               // ascending: page index prunes
  t.Add("c", columnar::Float64(), true);
  t.Add("s", columnar::String(), true);              // low cardinality: dictionary
  t.Add("u", columnar::String(), true);              // high cardinality
  t.Add("f", columnar::Boolean(), true);
  t.Add("l", columnar::List(columnar::Int32()), true);
  t.Add("p", columnar::Int32(), false, true);
  t.Add("z", columnar::Int64(), false);
  return t;
}

// A scan of the random table's files under `root`: columns `proj` in that order, `filters`.
FileSetScanSpec RandomTableScan(const std::shared_ptr<io::FileSystem>& fs, const std::string& root, const Table& t,
                                const std::vector<int>& proj, const std::vector<ExprPtr>& filters,
                                FileSetScanSpec::Prewhere mode, int64_t batch_rows) {
  FileSetScanSpec spec;
  spec.fs = fs;
  spec.table_root = root;
  spec.table = t.schema;
  spec.columns = proj;
  spec.filters = filters;
  spec.batch_rows = batch_rows;
  spec.prewhere = mode;
  return spec;
}

struct Data {
  std::vector<VectorPtr> cols;  // file columns a b c s u f l
  int64_t rows = 0;
};

Data MakeData(std::mt19937_64& rng, int64_t rows) {
  Data d;
  d.rows = rows;
  auto a = columnar::Vector::Make(columnar::Int64());
  auto b = columnar::Vector::Make(columnar::Int32());
  auto c = columnar::Vector::Make(columnar::Float64());
  auto s = columnar::Vector::Make(columnar::String());
  auto u = columnar::Vector::Make(columnar::String());
  auto f = columnar::Vector::Make(columnar::Boolean());
  auto l = columnar::Vector::Make(columnar::List(columnar::Int32()));
  for (int64_t i = 0; i < rows; ++i) {
    if (rng() % 10 == 0) a->AppendNull(); else a->Append<int64_t>(static_cast<int64_t>(rng() % 1000));
    b->Append<int32_t>(static_cast<int32_t>(i / 3));
    if (rng() % 20 == 0) {
      c->AppendNull();
    } else if (rng() % 25 == 0) {
      c->Append<double>(std::numeric_limits<double>::quiet_NaN());
    } else {
      c->Append<double>(static_cast<double>(rng() % 10000) / 100.0);
    }
    if (rng() % 15 == 0) {
      s->AppendNull();
    } else {
      s->AppendString(std::string("k").append(std::to_string(rng() % 12)));
    }
    u->AppendString(std::string("u").append(std::to_string(rng() % 100000)) + std::string(rng() % 5, 'x'));
    if (rng() % 7 == 0) f->AppendNull(); else f->Append<uint8_t>(rng() % 2);
    if (rng() % 9 == 0) {
      l->AppendNull();
    } else {
      int k = static_cast<int>(rng() % 3);
      for (int j = 0; j < k; ++j) l->child(0)->Append<int32_t>(static_cast<int32_t>(rng() % 50));
      l->AppendListEnd();
    }
  }
  d.cols = {a, b, c, s, u, f, l};
  return d;
}

void WriteRandomFile(std::mt19937_64& rng, const std::shared_ptr<io::FileSystem>& fs, const std::string& path,
                     const Table& t, const Data& d) {
  parquet::WriterProperties::Builder pb;
  pb.max_row_group_rows(200 + static_cast<int64_t>(rng() % 800));
  pb.data_page_rows(16 + static_cast<int64_t>(rng() % 200));
  pb.data_page_version(rng() % 2 ? parquet::DataPageVersion::kV1 : parquet::DataPageVersion::kV2);
  const parquet::CompressionCodec codecs[] = {parquet::CompressionCodec::kUncompressed,
                                              parquet::CompressionCodec::kZstd,
                                              parquet::CompressionCodec::kSnappy};
  pb.compression(codecs[rng() % 3]);
  for (const char* col : {"a", "b", "c", "s", "u", "f"}) pb.dictionary(col, rng() % 2 == 0);
  // A small dictionary page: columns whose dictionary outgrows it fall back to plain pages
  // part-way (those with mostly distinct values skip the dictionary from the first page).
  if (rng() % 3 == 0) pb.dictionary_page_bytes(64 + static_cast<int64_t>(rng() % 512));
  if (rng() % 2) pb.encoding("a", parquet::Encoding::kDeltaBinaryPacked);
  if (rng() % 2) pb.encoding("b", parquet::Encoding::kDeltaBinaryPacked);
  if (rng() % 2) pb.encoding("c", parquet::Encoding::kByteStreamSplit);
  if (rng() % 2) pb.encoding("u", rng() % 2 ? parquet::Encoding::kDeltaLengthByteArray
                                            : parquet::Encoding::kDeltaByteArray);
  if (rng() % 3 == 0) pb.page_index(false);
  auto w = parquet::ParquetWriter::Open(fs, path, t.file_schema, pb.Build());
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  auto schema = std::make_shared<columnar::Schema>(t.file_schema);
  // Several writes so batches and row groups do not line up.
  int64_t at = 0;
  while (at < d.rows) {
    int64_t n = std::min<int64_t>(d.rows - at, 1 + static_cast<int64_t>(rng() % 900));
    auto part = columnar::SliceBatch(columnar::RecordBatch(schema, d.cols, d.rows), at, n);
    ASSERT_TRUE((*w)->WriteBatch(*part).ok());
    at += n;
  }
  ASSERT_TRUE((*w)->Close().ok());
}

ExprPtr Col(const Table& t, const std::vector<int>& proj, int out) {
  int c = proj[out];
  return expr::ColumnRef(out, t.schema->schema.fields[c].type, t.schema->schema.fields[c].name);
}

ExprPtr Cmp(const char* op, ExprPtr l, Value v) {
  auto e = expr::Call(op, {std::move(l), expr::Literal(std::move(v))});
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return *e;
}

// A random predicate over output column `out` (table column proj[out]).
ExprPtr RandomPredicate(std::mt19937_64& rng, const Table& t, const std::vector<int>& proj, int out) {
  const std::string& name = t.schema->schema.fields[proj[out]].name;
  ExprPtr col = Col(t, proj, out);
  const char* ops[] = {"<", "<=", ">", ">=", "=", "<>"};
  const char* op = ops[rng() % 6];
  int kind = static_cast<int>(rng() % 10);
  if (kind == 0) return expr::IsNull(col, rng() % 2 == 0);
  if (name == "a" || name == "z") {
    if (kind == 1) {
      auto e = expr::In(col, {expr::Literal(Value::Int64(static_cast<int64_t>(rng() % 1000))),
                              expr::Literal(Value::Int64(static_cast<int64_t>(rng() % 1000)))});
      return *e;
    }
    return Cmp(op, col, Value::Int64(static_cast<int64_t>(rng() % 1000)));
  }
  if (name == "b" || name == "p") return Cmp(op, col, Value::Int32(static_cast<int32_t>(rng() % 1200)));
  if (name == "c") {
    if (kind == 1) return Cmp(op, col, Value::Double(std::numeric_limits<double>::quiet_NaN()));
    return Cmp(op, col, Value::Double(static_cast<double>(rng() % 10000) / 100.0));
  }
  if (name == "s") {
    // Dictionary-encoded in about half the files: evaluated on the dictionary, then on indices.
    if (kind <= 3) {
      std::vector<ExprPtr> list;
      for (int i = 0; i < 1 + static_cast<int>(rng() % 3); ++i) {
        list.push_back(expr::Literal(Value::String("k" + std::to_string(rng() % 14))));
      }
      return *expr::In(col, std::move(list), kind == 3);
    }
    return Cmp(op, col, Value::String("k" + std::to_string(rng() % 12)));
  }
  if (name == "u") return Cmp(rng() % 2 ? "<" : ">", col, Value::String("u" + std::to_string(rng() % 100000)));
  if (name == "f") return Cmp("=", col, Value::Boolean(rng() % 2));
  return expr::IsNull(col, rng() % 2 == 0);  // l
}

// Brute force: the filter on the in-memory rows (partition value p, NULL z), minus deleted rows.
std::vector<std::string> Oracle(const Table& t, const std::vector<int>& proj, const std::vector<ExprPtr>& filters,
                                const std::vector<Data>& files, const std::vector<int32_t>& pvals,
                                const std::vector<delta::DeletionVector>& dvs, bool row_address) {
  std::vector<columnar::BatchPtr> out;
  for (size_t fi = 0; fi < files.size(); ++fi) {
    const Data& d = files[fi];
    std::vector<VectorPtr> cols;
    auto schema = std::make_shared<columnar::Schema>();
    for (int c : proj) {
      const std::string& name = t.schema->schema.fields[c].name;
      schema->fields.push_back(t.schema->schema.fields[c]);
      if (name == "p") cols.push_back(Value::Int32(pvals[fi]).Broadcast(d.rows));
      else if (name == "z") cols.push_back(columnar::Vector::MakeNull(columnar::Int64(), d.rows));
      else cols.push_back(d.cols[c]);
    }
    auto ids = columnar::Vector::Make(columnar::Int64());
    auto pos = columnar::Vector::Make(columnar::Int64());
    for (int64_t i = 0; i < d.rows; ++i) {
      ids->Append<int64_t>(static_cast<int64_t>(fi));
      pos->Append<int64_t>(i);
    }
    if (row_address) {
      schema->fields.push_back({kFileIdColumn, columnar::Int64(), false});
      schema->fields.push_back({kRowIndexColumn, columnar::Int64(), false});
      cols.push_back(ids);
      cols.push_back(pos);
    }
    columnar::RecordBatch b(schema, cols, d.rows);
    std::vector<uint32_t> alive;
    for (int64_t i = 0; i < d.rows; ++i) {
      if (!dvs[fi].Contains(static_cast<uint64_t>(i))) alive.push_back(static_cast<uint32_t>(i));
    }
    std::vector<uint32_t> sel = alive, next;
    expr::EvalContext ctx;
    for (const ExprPtr& f : filters) {
      auto k = expr::EvaluateFilterOn(*f, b, sel, ctx, &next);
      EXPECT_TRUE(k.ok()) << k.status().ToString();
      sel.swap(next);
    }
    out.push_back(columnar::GatherBatch(b, sel.data(), static_cast<int64_t>(sel.size())));
  }
  return RowsAsJson(out);
}

class PrewhereRandomized : public ::testing::TestWithParam<int> {};

TEST_P(PrewhereRandomized, MatchesPlainScanAndBruteForce) {
  std::mt19937_64 rng(static_cast<uint64_t>(GetParam()) * 7919 + 17);
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  Table t = MakeTable();
  std::vector<Data> data;
  std::vector<FileTask> tasks;
  std::vector<int32_t> pvals;
  std::vector<delta::DeletionVector> dvs;
  int nfiles = 1 + static_cast<int>(rng() % 3);
  int p_index = t.schema->Find("p");
  for (int fi = 0; fi < nfiles; ++fi) {
    data.push_back(MakeData(rng, 300 + static_cast<int64_t>(rng() % 3000)));
    std::string path = dir.Join(std::string("f").append(std::to_string(fi)).append(".parquet"));
    WriteRandomFile(rng, fs, path, t, data.back());
    if (HasFatalFailure()) return;
    FileTask task;
    task.path = path;
    task.id = fi;
    task.partition_values.resize(t.schema->columns.size());
    pvals.push_back(static_cast<int32_t>(rng() % 1200));
    task.partition_values[p_index] = Value::Int32(pvals.back());
    delta::DeletionVector dv;
    if (rng() % 2) {
      int mode = static_cast<int>(rng() % 3);
      for (int64_t i = 0; i < data.back().rows; ++i) {
        bool del = mode == 0 ? rng() % 4 == 0 : mode == 1 ? (i / 500) % 2 == 1 : rng() % 50 == 0;
        if (del) dv.Add(static_cast<uint64_t>(i));
      }
      if (!dv.IsEmpty()) {
        delta::DeletionVectorWriteOptions wo;
        wo.max_inline_bytes = rng() % 2 ? 0 : 1 << 20;
        auto desc = delta::WriteDeletionVector(*fs, dir.path(), dv, wo);
        ASSERT_TRUE(desc.ok()) << desc.status().ToString();
        task.deletion_vector = *desc;
      }
    }
    dvs.push_back(std::move(dv));
    tasks.push_back(std::move(task));
  }
  for (int round = 0; round < 6; ++round) {
    // Random projection (distinct columns, random order) and conjunction over it.
    std::vector<int> all(t.schema->columns.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    std::shuffle(all.begin(), all.end(), rng);
    std::vector<int> proj(all.begin(), all.begin() + 1 + static_cast<int64_t>(rng() % all.size()));
    std::vector<ExprPtr> filters;
    int nf = static_cast<int>(rng() % 4);
    for (int k = 0; k < nf; ++k) {
      int out = static_cast<int>(rng() % proj.size());
      ExprPtr p = RandomPredicate(rng, t, proj, out);
      if (rng() % 4 == 0) {
        ExprPtr q = RandomPredicate(rng, t, proj, static_cast<int>(rng() % proj.size()));
        p = *expr::Or({p, q});
      }
      filters.push_back(p);
    }
    bool row_address = rng() % 2;
    auto run = [&](FileSetScanSpec::Prewhere mode, int64_t batch_rows, bool coded = false) -> std::vector<std::string> {
      FileSetScanSpec spec = RandomTableScan(fs, dir.path(), t, proj, filters, mode, batch_rows);
      spec.with_row_address = row_address;
      spec.coded_strings = coded;
      FileSetScan scan(spec, tasks);
      auto batches = Drain(scan, 1 + static_cast<int>(rng() % 2));
      EXPECT_TRUE(batches.ok()) << batches.status().ToString();
      if (!batches.ok()) return {};
      for (auto& b : *batches) {
        for (const auto& c : b->columns) {
          EXPECT_TRUE(coded || !c->IsDictionary()) << "a coded column nobody asked for";
        }
        columnar::DecodeColumns(b.get());
      }
      ScanMetrics m = scan.metrics();
      int64_t deleted = 0;
      for (const auto& dv : dvs) deleted += static_cast<int64_t>(dv.Cardinality());
      EXPECT_LE(m.rows_deleted_dv, deleted);
      return RowsAsJson(*batches);
    };
    std::vector<std::string> want = Oracle(t, proj, filters, data, pvals, dvs, row_address);
    std::string what;
    for (const auto& f : filters) what += f->ToString() + " AND ";
    std::vector<std::string> plain = run(FileSetScanSpec::Prewhere::kOff, 1 + static_cast<int64_t>(rng() % 700));
    std::vector<std::string> on = run(FileSetScanSpec::Prewhere::kOn, 1 + static_cast<int64_t>(rng() % 700));
    std::vector<std::string> autom = run(FileSetScanSpec::Prewhere::kAuto, 1 + static_cast<int64_t>(rng() % 700));
    std::sort(want.begin(), want.end());
    std::sort(plain.begin(), plain.end());
    std::sort(on.begin(), on.end());
    std::sort(autom.begin(), autom.end());
    ASSERT_EQ(plain, want) << what;
    ASSERT_EQ(on, want) << what;
    ASSERT_EQ(autom, want) << what;
    // Dictionary-coded strings (decoded above) in every mode give the same rows.
    for (auto mode : {FileSetScanSpec::Prewhere::kOff, FileSetScanSpec::Prewhere::kOn, FileSetScanSpec::Prewhere::kAuto}) {
      std::vector<std::string> coded = run(mode, 1 + static_cast<int64_t>(rng() % 700), true);
      std::sort(coded.begin(), coded.end());
      ASSERT_EQ(coded, want) << what << " (coded strings, mode " << static_cast<int>(mode) << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PrewhereRandomized, ::testing::Range(0, 24));

// A filter whose survivors cluster in a few pages: Prewhere reads the other columns' pages only
// where survivors are, every page is accounted for, and the rows equal the plain scan's.
TEST(PrewhereScan, ClusteredSurvivorsLeaveTheOtherColumnsPagesUnread) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  columnar::Schema schema;
  schema.fields = {{"k", columnar::Int64(), true}, {"u", columnar::String(), true}, {"d", columnar::Float64(), true}};
  auto table = std::make_shared<TableSchema>();
  for (const auto& f : schema.fields) {
    table->schema.fields.push_back(f);
    table->columns.push_back(ColumnForType(f.name, f.type, true));
  }
  std::mt19937_64 rng(3);
  const int64_t rows = 20000;
  auto k = columnar::Vector::Make(columnar::Int64());
  auto u = columnar::Vector::Make(columnar::String());
  auto d = columnar::Vector::Make(columnar::Float64());
  for (int64_t i = 0; i < rows; ++i) {
    k->Append<int64_t>(i + static_cast<int64_t>(rng() % 400));
    // The first page draws from 20 users, so the writer keeps a dictionary the later ones overflow.
    u->AppendString("user" + std::to_string(rng() % (i < 500 ? 20 : 1000000)));
    if (i % 11 == 0) d->AppendNull(); else d->Append<double>(static_cast<double>(rng() % 1000) / 8);
  }
  // Small pages and a small dictionary: "u" falls back to plain pages after the first ones.
  auto props = parquet::WriterProperties::Builder().data_page_rows(500).dictionary_page_bytes(2000).Build();
  std::string path = dir.Join("c.parquet");
  auto w = parquet::ParquetWriter::Open(fs, path, schema, props);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->WriteBatch(columnar::RecordBatch(std::make_shared<columnar::Schema>(schema), {k, u, d}, rows)).ok());
  ASSERT_TRUE((*w)->Close().ok());
  FileTask task;
  task.path = path;
  task.id = 0;
  for (int64_t bound : {1, 700, 5000, 15000}) {
    auto run = [&](FileSetScanSpec::Prewhere mode, ScanMetrics* m) -> std::vector<std::string> {
      FileSetScanSpec spec;
      spec.fs = fs;
      spec.table = table;
      spec.columns = {1, 2, 0};
      spec.filters = {Cmp(">=", expr::ColumnRef(2, columnar::Int64(), "k"), Value::Int64(bound)),
                      Cmp("<", expr::ColumnRef(2, columnar::Int64(), "k"), Value::Int64(bound + 300))};
      spec.prewhere = mode;
      spec.prune.page_index = false;
      spec.batch_rows = 1000;
      FileSetScan scan(spec, {task});
      auto batches = Drain(scan);
      EXPECT_TRUE(batches.ok()) << batches.status().ToString();
      *m = scan.metrics();
      return batches.ok() ? RowsAsJson(*batches) : std::vector<std::string>{};
    };
    ScanMetrics off, on;
    std::vector<std::string> plain = run(FileSetScanSpec::Prewhere::kOff, &off);
    std::vector<std::string> lazy = run(FileSetScanSpec::Prewhere::kOn, &on);
    ASSERT_FALSE(plain.empty());
    EXPECT_EQ(lazy, plain) << "bound " << bound;
    // Every data page of the three columns is read or counted as skipped.
    EXPECT_GE(on.pages_read + on.pages_skipped_prewhere, 3 * 40) << "bound " << bound;
    // k's 40 pages and its dictionary, then up to four pages (and maybe the dictionary) of each
    // other column.
    EXPECT_LE(on.pages_read, 41 + 2 * 5) << "bound " << bound;
    EXPECT_GT(off.pages_read, 100) << "bound " << bound;
  }
}

// `column IS NULL` is decided from the definition levels alone (the column's kept values are
// all NULL and never read): on NULL runs longer than a page (all-NULL and no-NULL pages), NULLs
// at random places, v1 and v2 pages, dictionary or plain, it matches the plain scan and brute
// force, also beside other conjuncts on the same column, on a nested column (which must take
// the value path), a partition column and an absent column.
TEST(PrewhereScan, IsNullFromDefinitionLevelsMatchesPlainScanAndBruteForce) {
  for (int seed = 0; seed < 8; ++seed) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed) + 500);
    testing::TempDir dir;
    auto fs = io::LocalFileSystem();
    Table t = MakeTable();
    Data d = MakeData(rng, 2500 + static_cast<int64_t>(rng() % 1000));
    auto a = columnar::Vector::Make(columnar::Int64());
    auto s = columnar::Vector::Make(columnar::String());
    for (int64_t i = 0; i < d.rows; ++i) {
      const int64_t run = (i / 300) % 3, run_s = ((i + 130) / 300) % 3;
      if (run == 0 || (run == 2 && rng() % 5 == 0)) a->AppendNull(); else a->Append<int64_t>(i % 1000);
      if (run_s == 0 || (run_s == 2 && rng() % 7 == 0)) {
        s->AppendNull();
      } else {
        s->AppendString(std::string("k").append(std::to_string(i % 9)));
      }
    }
    d.cols[0] = a;
    d.cols[3] = s;
    std::string path = dir.Join("n.parquet");
    WriteRandomFile(rng, fs, path, t, d);
    if (HasFatalFailure()) return;
    FileTask task;
    task.path = path;
    task.id = 0;
    task.partition_values.resize(t.schema->columns.size());
    task.partition_values[t.schema->Find("p")] = Value::Int32(7);
    std::vector<int> proj(t.schema->columns.size());
    for (size_t i = 0; i < proj.size(); ++i) proj[i] = static_cast<int>(i);
    std::shuffle(proj.begin(), proj.end(), rng);
    auto out_of = [&](const char* name) {
      int c = t.schema->Find(name);
      return static_cast<int>(std::find(proj.begin(), proj.end(), c) - proj.begin());
    };
    ExprPtr ca = Col(t, proj, out_of("a")), cs = Col(t, proj, out_of("s")), cb = Col(t, proj, out_of("b"));
    std::vector<std::vector<ExprPtr>> cases = {
        {expr::IsNull(ca)},
        {expr::IsNull(ca), expr::IsNull(cs)},
        {expr::IsNull(cs), Cmp("<", cb, Value::Int32(600))},
        {expr::IsNull(ca), Cmp("<", ca, Value::Int64(5))},
        {expr::IsNull(ca, true), expr::IsNull(cs)},
        {expr::IsNull(Col(t, proj, out_of("l")))},
        {expr::IsNull(Col(t, proj, out_of("z"))), expr::IsNull(cs)},
        {expr::IsNull(Col(t, proj, out_of("p")))},
    };
    for (const auto& filters : cases) {
      std::string what;
      for (const auto& f : filters) what += f->ToString() + " AND ";
      auto run = [&](FileSetScanSpec::Prewhere mode) -> std::vector<std::string> {
        FileSetScan scan(RandomTableScan(fs, dir.path(), t, proj, filters, mode, 1 + static_cast<int64_t>(rng() % 500)),
                         {task});
        auto batches = Drain(scan, 1 + static_cast<int>(rng() % 2));
        EXPECT_TRUE(batches.ok()) << batches.status().ToString();
        if (!batches.ok()) return {};
        std::vector<std::string> rows = RowsAsJson(*batches);
        std::sort(rows.begin(), rows.end());
        return rows;
      };
      std::vector<std::string> want =
          Oracle(t, proj, filters, {d}, {7}, {delta::DeletionVector()}, false);
      std::sort(want.begin(), want.end());
      ASSERT_EQ(run(FileSetScanSpec::Prewhere::kOff), want) << "seed " << seed << ": " << what;
      ASSERT_EQ(run(FileSetScanSpec::Prewhere::kOn), want) << "seed " << seed << ": " << what;
      ASSERT_EQ(run(FileSetScanSpec::Prewhere::kAuto), want) << "seed " << seed << ": " << what;
    }
  }
}

TEST(ConjunctOrder, PutsTheCheapestMostSelectiveConjunctFirst) {
  ConjunctOrder order({1, 1, 1});
  for (int i = 0; i < ConjunctOrder::kReorderEvery; ++i) {
    order.Record(0, 1000, 900, 1000);   // keeps 90%
    order.Record(1, 1000, 10, 1000);    // keeps 1%, same cost
    order.Record(2, 1000, 10, 100000);  // keeps 1%, 100x the cost
  }
  EXPECT_EQ(order.order(), (std::vector<int>{1, 0, 2}));
}

TEST(ConjunctOrder, StartsWithTheCheapestByStaticCost) {
  ConjunctOrder order({16, 4, 8});
  EXPECT_EQ(order.order(), (std::vector<int>{1, 2, 0}));
}

TEST(PrewherePolicy, TurnsLazyReadingOffWhenTheFilterKeepsMostRows) {
  PrewherePolicy p(0.6);
  EXPECT_TRUE(p.Lazy());
  for (int i = 0; i < 10; ++i) p.Record(1000, 950);
  int lazy = 0;
  for (int i = 0; i < 128; ++i) lazy += p.Lazy();
  EXPECT_LE(lazy, 2);  // only the periodic probes
  for (int i = 0; i < 20; ++i) p.Record(1000, 10);
  EXPECT_TRUE(p.Lazy());
}

}  // namespace
}  // namespace shoal::scan

namespace shoal::scan {
namespace {

// A scan asked for coded strings hands out a dictionary-encoded chunk's strings coded (no copy),
// with or without a filter on them, and the values are the plain scan's.
TEST(CodedStringScan, DictionaryEncodedChunksComeOutCoded) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  columnar::Schema schema;
  schema.fields = {{"k", columnar::Int64(), true}, {"s", columnar::String(), true}};
  auto table = std::make_shared<TableSchema>();
  for (const auto& f : schema.fields) {
    table->schema.fields.push_back(f);
    table->columns.push_back(ColumnForType(f.name, f.type, true));
  }
  const int64_t rows = 5000;
  auto k = columnar::Vector::Make(columnar::Int64());
  auto s = columnar::Vector::Make(columnar::String());
  for (int64_t i = 0; i < rows; ++i) {
    k->Append<int64_t>(i);
    if (i % 13 == 0) s->AppendNull(); else s->AppendString("mode" + std::to_string(i % 7));
  }
  auto props = parquet::WriterProperties::Builder().data_page_rows(700).max_row_group_rows(2000).Build();
  std::string path = dir.Join("s.parquet");
  auto w = parquet::ParquetWriter::Open(fs, path, schema, props);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->WriteBatch(columnar::RecordBatch(std::make_shared<columnar::Schema>(schema), {k, s}, rows)).ok());
  ASSERT_TRUE((*w)->Close().ok());
  FileTask task;
  task.path = path;
  task.id = 0;
  const std::vector<std::vector<ExprPtr>> filter_sets = {
      {},
      {Cmp("<>", expr::ColumnRef(1, columnar::String(), "s"), Value::String("mode3"))},
      {Cmp(">", expr::ColumnRef(0, columnar::Int64(), "k"), Value::Int64(100))}};
  for (const auto& filters : filter_sets) {
    for (auto mode : {FileSetScanSpec::Prewhere::kOff, FileSetScanSpec::Prewhere::kOn}) {
      auto run = [&](bool coded, int64_t* coded_columns) -> std::vector<std::string> {
        FileSetScanSpec spec;
        spec.fs = fs;
        spec.table = table;
        spec.columns = {0, 1};
        spec.filters = filters;
        spec.prewhere = mode;
        spec.coded_strings = coded;
        FileSetScan scan(spec, {task});
        auto batches = Drain(scan);
        EXPECT_TRUE(batches.ok()) << batches.status().ToString();
        if (!batches.ok()) return {};
        for (auto& b : *batches) {
          *coded_columns += b->columns[1]->IsDictionary() ? 1 : 0;
          columnar::DecodeColumns(b.get());
        }
        return RowsAsJson(*batches);
      };
      int64_t plain_coded = 0, coded_coded = 0;
      std::vector<std::string> plain = run(false, &plain_coded);
      std::vector<std::string> coded = run(true, &coded_coded);
      ASSERT_FALSE(plain.empty());
      EXPECT_EQ(coded, plain) << filters.size() << " filters, mode " << static_cast<int>(mode);
      EXPECT_EQ(plain_coded, 0);
      EXPECT_GT(coded_coded, 0) << filters.size() << " filters, mode " << static_cast<int>(mode);
    }
  }
}

}  // namespace
}  // namespace shoal::scan
