// Read fractions and storage measured on a sample (layout_measure.h) and the sample itself
// (layout_sample.h): what the model cannot see — a column that is a function of the sort key,
// clustering the current order already has — and that the advisor keeps such an order.
#include "table/layout_measure.h"

#include <gtest/gtest.h>

#include <functional>

#include "scan/delta_scan.h"
#include "support/testdata.h"
#include "table/data_file_writer.h"
#include "table/table_creator.h"
#include "txn/transaction.h"

namespace shoal::table {
namespace {

namespace c = columnar;

SortKey Lex(std::vector<std::string> cols) { return SortKey{LocalSortMode::kLexicographic, std::move(cols)}; }
SortKey Z(std::vector<std::string> cols) { return SortKey{LocalSortMode::kZOrder, std::move(cols)}; }

// A well-mixed hash of i (splitmix64's finalizer): values of nearby i are unrelated.
uint64_t Scramble(int64_t i) {
  uint64_t x = static_cast<uint64_t>(i) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Columns named `names`, row i of column k = f(k, i); granules of `granule` rows in arrival order.
LayoutSample Sample(int64_t rows, int64_t granule, std::vector<std::string> names,
                    const std::function<int64_t(size_t, int64_t)>& f) {
  auto schema = std::make_shared<c::Schema>();
  std::vector<c::VectorPtr> cols;
  for (const auto& n : names) {
    schema->fields.push_back({n, c::Int64(), true});
    cols.push_back(c::Vector::Make(c::Int64(), rows));
  }
  LayoutSample s;
  for (int64_t i = 0; i < rows; ++i) {
    for (size_t k = 0; k < names.size(); ++k) cols[k]->Append<int64_t>(f(k, i));
    s.granule.push_back(static_cast<uint32_t>(i / granule));
  }
  s.rows = c::RecordBatch(schema, std::move(cols), rows);
  s.rows_scanned = rows;
  return s;
}

TableStats TwoColumns(int64_t rows, const std::string& a, const std::string& b) {
  TableStats s;
  s.rows = rows;
  s.bytes = rows * 16;
  s.rows_per_granule = 1000;
  s.columns = {ColumnStats{a, true, false, 0}, ColumnStats{b, true, false, 0}};
  return s;
}

QueryShape Shape(std::vector<ShapeTerm> terms) {
  QueryShape q;
  q.terms = std::move(terms);
  q.Normalize();
  return q;
}

void AddQueries(QueryHistory* h, const QueryShape& shape, double selectivity, int n, int64_t rows, int64_t bytes) {
  for (int i = 0; i < n; ++i) {
    QueryLogEntry e;
    e.shape = shape;
    e.rows_total = rows;
    e.rows_out = static_cast<int64_t>(selectivity * static_cast<double>(rows));
    e.bytes_read = bytes;
    h->Add(e);
  }
}

TEST(LayoutMeasure, SortingByAColumnPrunesFiltersOnItsFunction) {
  // b = 7 * a: the model cannot know that sorting by a also sorts b; the sample shows it.
  constexpr int64_t n = 100000;
  SampleMeasureOptions o;
  o.rows_per_granule = 1000;
  SampleLayoutMeasure m(Sample(n, 1000, {"a", "b", "r"},
                               [](size_t k, int64_t i) {
                                 int64_t a = static_cast<int64_t>(Scramble(i) % 5000);
                                 return k == 0 ? a : k == 1 ? 7 * a : static_cast<int64_t>(Scramble(i + n) % 5000);
                               }),
                        o);
  QueryShape on_b = Shape({{"b", PredicateClass::kRange}});
  const SortKey by_a = Lex({"a"}), by_r = Lex({"r"}), by_nope = Lex({"nope"});
  auto sorted_by_a = m.ReadFraction(&by_a, on_b, {0.01});
  auto sorted_by_r = m.ReadFraction(&by_r, on_b, {0.01});
  auto current = m.ReadFraction(nullptr, on_b, {0.01});
  ASSERT_TRUE(sorted_by_a && sorted_by_r && current);
  EXPECT_LT(*sorted_by_a, 0.05);
  EXPECT_GT(*sorted_by_r, 0.9);
  EXPECT_GT(*current, 0.9);
  TableStats stats;
  stats.rows = n;
  stats.rows_per_granule = 1000;
  EXPECT_DOUBLE_EQ(ModelReadFraction(Lex({"a"}), on_b, {0.01}, stats), 1.0);
  // Equality and IS NULL shapes are measured too; an unknown column is not measurable.
  auto eq = m.ReadFraction(&by_a, Shape({{"b", PredicateClass::kEq}}), {0.0002});
  ASSERT_TRUE(eq);
  EXPECT_LT(*eq, 0.03);
  auto nulls = m.ReadFraction(&by_a, Shape({{"b", PredicateClass::kIsNull}}), {0.0});
  ASSERT_TRUE(nulls);
  EXPECT_EQ(*nulls, 0.0);
  EXPECT_FALSE(m.ReadFraction(&by_a, Shape({{"nope", PredicateClass::kEq}}), {0.01}));
  EXPECT_FALSE(m.ReadFraction(&by_nope, on_b, {0.01}));
}

TEST(LayoutMeasure, ArrivalClusteredDataKeepsItsOrderOverAZOrder) {
  // t grows with arrival (a time column); u is random. A range on t dominates the workload.
  const int64_t n = 100000;
  auto f = [](size_t k, int64_t i) { return k == 0 ? i / 100 : static_cast<int64_t>(Scramble(i) % 100000); };
  SampleMeasureOptions o;
  o.rows_per_granule = 1000;
  SampleLayoutMeasure m(Sample(n, 1000, {"t", "u"}, f), o);
  QueryShape on_t = Shape({{"t", PredicateClass::kRange}});
  auto current = m.ReadFraction(nullptr, on_t, {0.01});
  const SortKey z_tu = Z({"t", "u"});
  auto z = m.ReadFraction(&z_tu, on_t, {0.01});
  ASSERT_TRUE(current && z);
  EXPECT_LT(*current, 0.05);
  EXPECT_GT(*z, 2 * *current);
  // Sorting by u destroys the clustering the files have: more bytes, too.
  EXPECT_GT(m.StorageRatio(Lex({"u"})), 1.0);

  QueryHistory h;
  TableStats stats = TwoColumns(n, "t", "u");
  AddQueries(&h, on_t, 0.01, 50, n, static_cast<int64_t>(0.02 * static_cast<double>(stats.bytes)));
  AddQueries(&h, Shape({{"u", PredicateClass::kEq}}), 0.00001, 2, n, stats.bytes);
  LayoutAdvice a = AdviseLayout(h, stats, SortKey{}, {}, &m);
  ASSERT_TRUE(a.measured);
  auto choice = ChooseKey(a, std::nullopt, h, stats, {}, &m);
  ASSERT_TRUE(choice.has_value());
  EXPECT_TRUE(choice->current_order) << "chose " << choice->key.ToString();
  EXPECT_TRUE(choice->key.empty());
  for (const KeyScore& k : a.ranked) {
    if (k.key.mode == LocalSortMode::kZOrder) {
      EXPECT_LT(k.score, a.current.score) << k.key.ToString();
    }
  }
}

TEST(LayoutMeasure, AKeyThatBeatsTheCurrentOrderIsChosen) {
  // Unclustered data, equality filters on a: sorting by a is measured to pay off.
  constexpr int64_t n = 50000;
  auto f = [](size_t k, int64_t i) { return static_cast<int64_t>(Scramble(i + static_cast<int64_t>(k) * n) % 1000); };
  SampleMeasureOptions o;
  o.rows_per_granule = 1000;
  SampleLayoutMeasure m(Sample(n, 1000, {"a", "b"}, f), o);
  QueryHistory h;
  TableStats stats = TwoColumns(n, "a", "b");
  AddQueries(&h, Shape({{"a", PredicateClass::kEq}}), 0.001, 20, n, stats.bytes);
  LayoutAdvice a = AdviseLayout(h, stats, SortKey{}, {}, &m);
  auto choice = ChooseKey(a, std::nullopt, h, stats, {}, &m);
  ASSERT_TRUE(choice.has_value());
  EXPECT_FALSE(choice->current_order);
  EXPECT_EQ(choice->key, Lex({"a"}));
  ASSERT_FALSE(choice->shapes.empty());
  EXPECT_TRUE(choice->shapes[0].measured);
  EXPECT_LT(choice->shapes[0].read_fraction, 0.1);
}

TEST(LayoutMeasure, TinyAndEmptySamplesDoNotCrash) {
  SampleMeasureOptions o;
  o.table_rows = 1'000'000'000;
  SampleLayoutMeasure empty(Sample(0, 1, {"a"}, [](size_t, int64_t) { return int64_t{0}; }), o);
  const SortKey by_a = Lex({"a"}), z_a = Z({"a"});
  EXPECT_FALSE(empty.ReadFraction(&by_a, Shape({{"a", PredicateClass::kEq}}), {0.5}));
  EXPECT_EQ(empty.StorageRatio(Lex({"a"})), 1.0);
  SampleLayoutMeasure one(Sample(3, 1, {"a"}, [](size_t, int64_t i) { return i; }), o);
  auto r = one.ReadFraction(&z_a, Shape({{"a", PredicateClass::kRange}}), {2.0});
  ASSERT_TRUE(r);
  EXPECT_LE(*r, 1.0);
  EXPECT_FALSE(one.ReadFraction(&by_a, Shape({{"a", PredicateClass::kEq}}), {}));
}

TEST(LayoutMeasure, AnEqualitySelectivityTheSampleCannotCoverEnds) {
  // Three distinct values, half the rows null, and a recorded selectivity of 0.9 (the history
  // may predate the data): the synthetic IN list takes every value and stops.
  SampleMeasureOptions o;
  o.rows_per_granule = 100;
  LayoutSample sample;
  auto schema = std::make_shared<c::Schema>();
  schema->fields.push_back({"a", c::Int64(), true});
  auto a = c::Vector::Make(c::Int64());
  for (int64_t i = 0; i < 6000; ++i) {
    if (i % 2) {
      a->Append<int64_t>(i % 3);
    } else {
      a->AppendNull();
    }
    sample.granule.push_back(static_cast<uint32_t>(i / 100));
  }
  sample.rows = c::RecordBatch(schema, {a}, 6000);
  sample.rows_scanned = 6000;
  SampleLayoutMeasure m(std::move(sample), o);
  const SortKey by_a = Lex({"a"});
  auto r = m.ReadFraction(&by_a, Shape({{"a", PredicateClass::kEq}}), {0.9});
  ASSERT_TRUE(r);
  EXPECT_GT(*r, 0.0);
  EXPECT_LE(*r, 1.0);
}

TEST(LayoutSample, DrawsBoundedRowsInArrivalOrderFromTheTablesFiles) {
  shoal::testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  const std::string root = dir.Join("t");
  c::Schema schema;
  schema.fields = {{"id", c::Int64(), false}, {"v", c::Int64(), true}, {"p", c::Int64(), false}};
  ASSERT_TRUE(CreateTable(fs, root, "t", schema, {"p"}, {}).ok());
  for (int file = 0; file < 3; ++file) {
    auto table = scan::DeltaTable::Open(fs, root);
    ASSERT_TRUE(table.ok());
    auto w = DataFileWriter::Make(fs, root, (*table)->snapshot()->metadata(), {});
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    auto s = std::make_shared<c::Schema>(schema);
    std::vector<c::VectorPtr> cols = {c::Vector::Make(c::Int64()), c::Vector::Make(c::Int64()),
                                      c::Vector::Make(c::Int64())};
    for (int64_t i = 0; i < 30000; ++i) {
      cols[0]->Append<int64_t>(file * 30000 + i);
      if (i % 10 == 0) {
        cols[1]->AppendNull();
      } else {
        cols[1]->Append<int64_t>(i);
      }
      cols[2]->Append<int64_t>(file);
    }
    ASSERT_TRUE((*w)->Write(c::RecordBatch(s, std::move(cols), 30000)).ok());
    auto adds = (*w)->Finish();
    ASSERT_TRUE(adds.ok());
    txn::TransactionOptions to;
    auto t = txn::Transaction::Begin(fs, root, (*table)->snapshot(), to);
    ASSERT_TRUE(t.ok());
    for (auto& a : *adds) (*t)->AddFile(std::move(a));
    ASSERT_TRUE((*t)->Commit().ok());
  }
  auto table = scan::DeltaTable::Open(fs, root);
  ASSERT_TRUE(table.ok());
  LayoutSampleOptions o;
  o.max_rows = 9000;
  o.rows_per_granule = 1000;
  // The partition column p and an unknown column are left out; id and v are sampled.
  auto s = SampleTable(fs, *(*table)->snapshot(), *(*table)->schema(), {"V", "p", "nope"}, o);
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->rows.num_columns(), 2u);
  EXPECT_EQ(s->rows.schema->fields[0].name, "v");
  EXPECT_EQ(s->rows.schema->fields[1].name, "id");
  EXPECT_EQ(s->rows_scanned, 90000);
  EXPECT_GT(s->rows.num_rows, 7000);
  EXPECT_LT(s->rows.num_rows, 11000);
  ASSERT_EQ(s->granule.size(), static_cast<size_t>(s->rows.num_rows));
  int64_t nulls = 0;
  for (int64_t i = 0; i < s->rows.num_rows; ++i) {
    nulls += s->rows.column(0)->IsNull(i) ? 1 : 0;
    if (i > 0) {
      EXPECT_LE(s->granule[static_cast<size_t>(i - 1)], s->granule[static_cast<size_t>(i)]);
    }
  }
  EXPECT_GT(nulls, 0);
  // A budget smaller than one row group still samples one.
  o.max_rows_scanned = 10;
  auto small = SampleTable(fs, *(*table)->snapshot(), *(*table)->schema(), {"id"}, o);
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->rows_scanned, 30000);
}

}  // namespace
}  // namespace shoal::table
