// LocalSort layouts end to end on real tables: property validation at CREATE/ALTER time,
// OPTIMIZE re-sorting files not sorted by the current key (and a second OPTIMIZE doing
// nothing), the automatic key from the query history, and randomized checks that sorted
// layouts (lexicographic, z-order, automatic) return exactly the rows an unsorted table does.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "delta/table_path.h"
#include "parquet/file_reader.h"
#include "scan/delta_scan.h"
#include "support/testdata.h"
#include "table/alter_schema.h"
#include "table/data_file_writer.h"
#include "table/layout_choice.h"
#include "table/local_sort_test_support.h"
#include "table/optimize.h"
#include "table/table_creator.h"
#include "txn/transaction.h"

namespace shoal::table {
namespace {

using namespace testing_rows;

class LayoutTable {
 public:
  using Props = std::map<std::string, std::string>;
  explicit LayoutTable(Props props, const std::string& name = "t")
      : fs_(io::LocalFileSystem()), root_(dir_.Join(name)) {
    props.emplace("delta.enableDeletionVectors", "true");
    auto st = CreateTable(fs_, root_, name, RowSchema(), {}, props);
    EXPECT_TRUE(st.ok()) << st.status().ToString();
  }

  io::FileSystem& fs() { return *fs_; }
  const std::string& root() const { return root_; }
  std::shared_ptr<const scan::DeltaTable> Table() const {
    auto t = scan::DeltaTable::Open(fs_, root_);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return *t;
  }
  std::unique_ptr<txn::Transaction> Begin(const std::string& op) {
    txn::TransactionOptions o;
    o.operation = op;
    o.max_backoff_ms = 0;
    auto t = txn::Transaction::Begin(fs_, root_, Table()->snapshot(), o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return std::move(t).value();
  }

  // One data file of `rows`; `unsorted` turns LocalSort off for this write.
  void Append(const std::vector<Row>& rows, bool unsorted = false) {
    DataFileWriterOptions o;
    o.target_file_size = int64_t{1} << 40;
    o.max_row_group_rows = 500;  // several row groups per file
    if (unsorted) o.local_sort_columns = std::vector<std::string>();
    auto w = DataFileWriter::Make(fs_, root_, Table()->snapshot()->metadata(), o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    ASSERT_TRUE((*w)->Write(ToBatch(rows)).ok());
    auto adds = (*w)->Finish();
    ASSERT_TRUE(adds.ok()) << adds.status().ToString();
    auto t = Begin("WRITE");
    for (auto& a : *adds) t->AddFile(a);
    auto r = t->Commit();
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  // Deletes the rows whose id is in `ids` with deletion vectors.
  void DeleteIds(const std::set<int64_t>& ids) {
    auto table = Table();
    auto t = Begin("DELETE");
    for (const auto& f : table->snapshot()->files()) {
      auto full = delta::ResolveTablePath(root_, f.path);
      auto reader = parquet::ParquetReader::Open(fs_, *full);
      ASSERT_TRUE(reader.ok());
      auto batches = (*reader)->ReadAll();
      ASSERT_TRUE(batches.ok());
      delta::DeletionVector dv;
      uint64_t pos = 0;
      bool any = false;
      for (const auto& b : *batches) {
        for (int64_t r = 0; r < b->num_rows; ++r, ++pos) {
          if (ids.count(b->column(0)->Get<int64_t>(r))) dv.Add(pos), any = true;
        }
      }
      if (any) {
        ASSERT_TRUE(t->DeleteRows(f, dv).ok());
      }
    }
    ASSERT_TRUE(t->Commit().ok());
  }

  Result<OptimizeResult> Optimize(OptimizeOptions o = {}) {
    auto table = Table();
    auto t = Begin("OPTIMIZE");
    ASSIGN_OR_RETURN(auto r, OptimizeTable(*table, t.get(), o));
    RETURN_NOT_OK(t->Commit().status());
    return r;
  }

  // Rows matching `filters` (over all columns) as sorted RowKeys.
  std::vector<std::string> Query(const std::vector<expr::ExprPtr>& filters) const {
    scan::DeltaScanOptions o;
    for (int c = 0; c < 7; ++c) o.columns.push_back(c);
    o.filters = filters;
    auto table = Table();
    auto scan = table->Plan(o);
    EXPECT_TRUE(scan.ok()) << scan.status().ToString();
    std::vector<std::string> keys;
    auto local = (*scan)->MakeLocal();
    while (true) {
      columnar::BatchPtr b;
      uint64_t order = 0;
      auto more = (*scan)->Next(local.get(), &b, &order);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok() || !*more) break;
      for (const Row& r : FromBatch(*b)) keys.push_back(RowKey(r));
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  std::vector<parquet::FileMetaData> Footers() const {
    std::vector<parquet::FileMetaData> out;
    auto table = Table();
    for (const auto& f : table->snapshot()->files()) {
      auto reader = parquet::ParquetReader::Open(fs_, *delta::ResolveTablePath(root_, f.path));
      EXPECT_TRUE(reader.ok());
      out.push_back((*reader)->metadata());
    }
    return out;
  }

 private:
  testing::TempDir dir_;
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
};

bool AllSortedBy(const LayoutTable& t, const SortKey& key) {
  auto table = t.Table();
  for (const auto& f : t.Footers()) {
    if (!FileSortedBy(f, *table->schema(), key)) return false;
  }
  return true;
}

TEST(LayoutValidation, CreateTableRejectsBadSortColumnsAndCreatesNothing) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  c::Schema schema = RowSchema();
  schema.fields.push_back({"nested", c::Struct({{"x", c::Int64(), true}}), true});
  struct Case {
    std::string columns, expect;
  } cases[] = {{"i, nope", "'nope'"}, {"i, I", "twice"}, {"nested", "'nested'"}};
  for (const auto& c : cases) {
    std::string root = dir.Join("bad");
    auto r = CreateTable(fs, root, "bad", schema, {}, {{"shoal.localSort.columns", c.columns}});
    ASSERT_FALSE(r.ok()) << c.columns;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << r.status().ToString();
    EXPECT_NE(r.status().message().find("shoal.localSort.columns"), std::string::npos);
    EXPECT_FALSE(*fs->Exists(io::JoinPath(root, "_delta_log/00000000000000000000.json")));
  }
  EXPECT_TRUE(CreateTable(fs, dir.Join("good"), "good", schema, {}, {{"shoal.localSort.columns", "low, I"}}).ok());
}

TEST(LayoutValidation, SetPropertiesRejectsBadSortColumns) {
  LayoutTable t(LayoutTable::Props{});
  auto snap = t.Table()->snapshot();
  auto bad = SetProperties(snap->metadata(), snap->protocol(), {{"shoal.localSort.columns", "i, missing"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'missing'"), std::string::npos) << bad.status().ToString();
  auto dup = SetProperties(snap->metadata(), snap->protocol(), {{"shoal.localSort.columns", "s,S"}});
  ASSERT_FALSE(dup.ok());
  EXPECT_TRUE(SetProperties(snap->metadata(), snap->protocol(), {{"shoal.localSort.columns", "s"}}).ok());
}

TEST(OptimizeResort, RewritesOnlyUnsortedFilesAndASecondRunIsANoOp) {
  LayoutTable t(LayoutTable::Props{{"shoal.localSort.columns", "i"}});
  auto rows = RandomRows(6000, 7);
  std::vector<Row> a(rows.begin(), rows.begin() + 2000), b(rows.begin() + 2000, rows.begin() + 4000),
      c(rows.begin() + 4000, rows.end());
  t.Append(a, /*unsorted=*/true);
  t.Append(b, /*unsorted=*/false);  // sorted by the key already
  t.Append(c, /*unsorted=*/true);
  SortKey key{LocalSortMode::kLexicographic, {"i"}};
  EXPECT_FALSE(AllSortedBy(t, key));
  std::string sorted_path;
  {
    auto table = t.Table();
    for (const auto& f : table->snapshot()->files()) {
      auto reader = parquet::ParquetReader::Open(io::LocalFileSystem(), *delta::ResolveTablePath(t.root(), f.path));
      if (FileSortedBy((*reader)->metadata(), *table->schema(), key)) sorted_path = f.path;
    }
  }
  ASSERT_FALSE(sorted_path.empty());
  auto before = t.Query({});
  OptimizeOptions o;
  o.min_file_size = 1;  // no file counts as small: only the re-sort selects files
  auto r = t.Optimize(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 2);
  EXPECT_TRUE(AllSortedBy(t, key));
  bool kept = false;
  auto after = t.Table();
  for (const auto& f : after->snapshot()->files()) kept |= f.path == sorted_path;
  EXPECT_TRUE(kept);
  EXPECT_EQ(t.Query({}), before);
  auto again = t.Optimize(o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->metrics.num_files_removed, 0);
  EXPECT_EQ(again->metrics.num_files_added, 0);
  // Plain OPTIMIZE (small files) merges the sorted files into one sorted file; then nothing.
  auto merged = t.Optimize();
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(t.Table()->snapshot()->files().size(), 1u);
  EXPECT_TRUE(AllSortedBy(t, key));
  EXPECT_EQ(t.Optimize()->metrics.num_files_removed, 0);
  EXPECT_EQ(t.Query({}), before);
}

TEST(OptimizeResort, ZOrderKeysAreRecognizedByTheFooter) {
  LayoutTable t(LayoutTable::Props{{"shoal.localSort.columns", "i, d"}, {"shoal.localSort.mode", "zorder"}});
  auto rows = RandomRows(3000, 9);
  t.Append(rows, /*unsorted=*/true);
  t.Append(rows, /*unsorted=*/false);
  SortKey key{LocalSortMode::kZOrder, {"i", "d"}};
  EXPECT_FALSE(AllSortedBy(t, key));
  OptimizeOptions o;
  o.min_file_size = 1;
  auto r = t.Optimize(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 1);
  EXPECT_TRUE(AllSortedBy(t, key));
  EXPECT_EQ(t.Optimize(o)->metrics.num_files_removed, 0);
}

void RecordQueries(io::FileSystem& fs, const std::string& root, const std::string& column, PredicateClass op,
                   int n, int64_t rows) {
  QueryLogLimits limits;
  limits.compact_check_every = 0;
  for (int k = 0; k < n; ++k) {
    QueryLogEntry e;
    e.shape.terms = {{column, op}};
    e.rows_total = rows;
    e.rows_out = rows / 100;
    e.bytes_read = 100000;
    ASSERT_TRUE(AppendQueryLogEntry(fs, root, e, limits).ok());
  }
}

TEST(AutoLayout, OptimizeChoosesAKeyFromTheHistoryAndWritesUseIt) {
  LayoutTable t(LayoutTable::Props{{"shoal.localSort.auto", "true"}});
  auto rows = RandomRows(60000, 11);
  t.Append(std::vector<Row>(rows.begin(), rows.begin() + 30000));
  t.Append(std::vector<Row>(rows.begin() + 30000, rows.end()));
  EXPECT_FALSE(ReadLayoutChoice(t.fs(), t.root()));
  RecordQueries(t.fs(), t.root(), "dt", PredicateClass::kRange, 30, 60000);
  RecordQueries(t.fs(), t.root(), "low", PredicateClass::kEq, 2, 60000);
  auto before = t.Query({});
  OptimizeOptions o;
  o.min_file_size = 1;
  auto r = t.Optimize(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto choice = ReadLayoutChoice(t.fs(), t.root());
  ASSERT_TRUE(choice);
  ASSERT_FALSE(choice->key.empty());
  EXPECT_EQ(choice->key.columns.front(), "dt") << choice->key.ToString();
  EXPECT_EQ(r->metrics.num_files_removed, 2);
  EXPECT_TRUE(AllSortedBy(t, choice->key));
  EXPECT_EQ(t.Query({}), before);
  EXPECT_EQ(t.Optimize(o)->metrics.num_files_removed, 0);  // stable history: no flapping
  t.Append(RandomRows(1000, 12));  // a plain write uses the automatic key
  EXPECT_TRUE(AllSortedBy(t, choice->key));
}

TEST(AutoLayout, AnExplicitKeyWinsAndAStaleAutoKeyIsIgnored) {
  LayoutTable t(LayoutTable::Props{{"shoal.localSort.auto", "true"}});
  LayoutChoice stale;
  stale.key = SortKey{LocalSortMode::kLexicographic, {"dropped_column"}};
  ASSERT_TRUE(WriteLayoutChoice(t.fs(), t.root(), stale).ok());
  t.Append(RandomRows(500, 1));  // must not fail
  auto props = ParseTableProperties({{"shoal.localSort.auto", "true"}, {"shoal.localSort.columns", "s"}});
  ASSERT_TRUE(props.ok());
  LayoutChoice fine;
  fine.key = SortKey{LocalSortMode::kLexicographic, {"i"}};
  EXPECT_EQ(EffectiveSortKey(*props, fine, RowSchema()).columns, std::vector<std::string>{"s"});
  props->local_sort_columns.clear();
  EXPECT_EQ(EffectiveSortKey(*props, fine, RowSchema()).columns, std::vector<std::string>{"i"});
  EXPECT_TRUE(EffectiveSortKey(*props, stale, RowSchema()).empty());
  props->local_sort_auto = false;
  EXPECT_TRUE(EffectiveSortKey(*props, fine, RowSchema()).empty());
}

// A random conjunct over RowSchema columns (id 0, i 1, d 2, s 3, dt 4, dec 5, low 6).
expr::ExprPtr RandomPredicate(std::mt19937_64& rng) {
  auto col = [](int c) {
    c::Schema s = RowSchema();
    return expr::ColumnRef(c, s.fields[static_cast<size_t>(c)].type, s.fields[static_cast<size_t>(c)].name);
  };
  const char* ops[] = {"=", "<", "<=", ">", ">=", "<>"};
  std::string op = ops[rng() % 6];
  switch (rng() % 6) {
    case 0: {
      int64_t v = static_cast<int64_t>(rng() % 7) - 3;
      if (rng() % 2) v = static_cast<int64_t>(rng());
      return *expr::Call(op, {col(1), expr::Literal(c::Value::Int64(v))});
    }
    case 1: {
      double v = (static_cast<double>(rng() % 20001) - 10000) / 7.0;
      if (rng() % 4 == 0) v = 0.0;
      return *expr::Call(op, {col(2), expr::Literal(c::Value::Double(v))});
    }
    case 2: {
      const char* vs[] = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "B"};
      return *expr::Call(op, {col(6), expr::Literal(c::Value::String(vs[rng() % 6]))});
    }
    case 3: {
      const char* vs[] = {"a", "common-prefix-longer-than-key-", "Z", ""};
      return *expr::Call(op, {col(3), expr::Literal(c::Value::String(vs[rng() % 4]))});
    }
    case 4: return expr::IsNull(col(static_cast<int>(1 + rng() % 6)), rng() % 2 == 0);
    default: {
      int64_t v = static_cast<int64_t>(rng() % 40000);
      return *expr::Call(op, {col(0), expr::Literal(c::Value::Int64(v))});
    }
  }
}

TEST(SortedLayouts, RandomPredicatesReturnTheSameRowsAsUnsorted) {
  std::vector<std::unique_ptr<LayoutTable>> tables;
  tables.push_back(std::make_unique<LayoutTable>(std::map<std::string, std::string>{}, "plain"));
  tables.push_back(std::make_unique<LayoutTable>(
      std::map<std::string, std::string>{{"shoal.localSort.columns", "low, d, s"}}, "lex"));
  tables.push_back(std::make_unique<LayoutTable>(
      std::map<std::string, std::string>{{"shoal.localSort.columns", "i, d"}, {"shoal.localSort.mode", "zorder"}},
      "z"));
  tables.push_back(std::make_unique<LayoutTable>(std::map<std::string, std::string>{{"shoal.localSort.auto", "true"}},
                                                 "auto"));
  LayoutChoice choice;
  choice.key = SortKey{LocalSortMode::kLexicographic, {"dt", "i"}};
  ASSERT_TRUE(WriteLayoutChoice(tables[3]->fs(), tables[3]->root(), choice).ok());
  auto rows = RandomRows(12000, 2024);
  std::mt19937_64 rng(5);
  std::set<int64_t> deleted;
  for (int k = 0; k < 600; ++k) deleted.insert(static_cast<int64_t>(rng() % 12000));
  for (auto& t : tables) {
    for (int part = 0; part < 3; ++part) {
      t->Append(std::vector<Row>(rows.begin() + part * 4000, rows.begin() + (part + 1) * 4000));
    }
    t->DeleteIds(deleted);
  }
  EXPECT_TRUE(AllSortedBy(*tables[1], SortKey{LocalSortMode::kLexicographic, {"low", "d", "s"}}));
  EXPECT_TRUE(AllSortedBy(*tables[3], choice.key));
  auto all = tables[0]->Query({});
  EXPECT_EQ(all.size(), 12000 - deleted.size());
  int nonempty = 0;
  for (int iter = 0; iter < 150; ++iter) {
    std::vector<expr::ExprPtr> filters;
    int n = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < n; ++k) filters.push_back(RandomPredicate(rng));
    auto expect = tables[0]->Query(filters);
    nonempty += !expect.empty();
    for (size_t t = 1; t < tables.size(); ++t) {
      ASSERT_EQ(tables[t]->Query(filters), expect) << "table " << t << " filter " << filters[0]->ToString();
    }
  }
  EXPECT_GT(nonempty, 40);
}

}  // namespace
}  // namespace shoal::table
