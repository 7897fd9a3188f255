// RowGroupPruner: randomized soundness against brute-force evaluation (shoal-written files with
// tiny pages and row groups, DuckDB-written files, parquet-testing files), plus targeted cases
// for each level of the stack.
#include "scan/row_group_pruner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "io/file_system.h"
#include "io/memory_file_system.h"
#include "parquet/file_writer.h"
#include "scan/pruning_oracle_test_support.h"
#include "support/testdata.h"

namespace shoal::scan {
namespace {

using columnar::TypeId;
using columnar::Value;
using columnar::Vector;
using columnar::VectorPtr;
using expr::ExprPtr;
using pruning_test::Extra;
using pruning_test::PredicateGenerator;
using pruning_test::Tally;

// ---------------------------------------------------------------- synthetic files

struct Spec {
  bool sorted = false;
  int64_t rows = 1500;
  int64_t domain = 50;     // distinct values per column (about)
  double null_rate = 0.1;
};

std::vector<columnar::Field> SyntheticFields() {
  return {{"i32", columnar::Int32(), true},        {"i64", columnar::Int64(), true},
          {"f64", columnar::Float64(), true},      {"f32", columnar::Float32(), true},
          {"s", columnar::String(), true},         {"d", columnar::Date(), true},
          {"ts", columnar::Timestamp(), true},     {"dec", columnar::Decimal(10, 2), true},
          {"b", columnar::Boolean(), true},        {"i16", columnar::Int16(), true},
          {"bin", columnar::Binary(), true},       {"dec38", columnar::Decimal(30, 3), true}};
}

// Values of one column as Values (NULLs included), sorted when asked.
std::vector<Value> ColumnValues(const columnar::TypePtr& t, const Spec& spec, std::mt19937& rng) {
  std::vector<Value> out;
  std::string prefix = "a-long-shared-prefix-" + std::string(rng() % 80, 'x');
  for (int64_t i = 0; i < spec.rows; ++i) {
    if (std::uniform_real_distribution<double>(0, 1)(rng) < spec.null_rate) {
      out.push_back(Value::Null(t));
      continue;
    }
    int64_t k = static_cast<int64_t>(rng() % static_cast<uint64_t>(spec.domain)) - spec.domain / 3;
    switch (t->id()) {
      case TypeId::kInt32: out.push_back(Value::Integer(t, k * 3)); break;
      case TypeId::kInt16: out.push_back(Value::Integer(t, k)); break;
      case TypeId::kInt64: out.push_back(Value::Int64(k * 1000000007LL)); break;
      case TypeId::kDouble: {
        int r = static_cast<int>(rng() % 40);
        out.push_back(Value::Double(r == 0 ? NAN : r == 1 ? -0.0 : r == 2 ? 0.0 : static_cast<double>(k) / 4));
        break;
      }
      case TypeId::kFloat: {
        int r = static_cast<int>(rng() % 40);
        out.push_back(Value::Float(r == 0 ? NAN : r == 1 ? -0.0f : static_cast<float>(k) / 2));
        break;
      }
      case TypeId::kString: {
        std::string s = prefix + std::to_string(k + 1000);
        if (k % 7 == 0) s = std::to_string(k);  // short ones too
        if (k % 11 == 0) s += "\xc3\xa9\xe2\x82\xac";  // multi-byte UTF-8 at the end
        out.push_back(Value::String(s));
        break;
      }
      case TypeId::kBinary: out.push_back(Value::Binary(std::string(1, static_cast<char>(k & 0xff)) + prefix)); break;
      case TypeId::kDate: out.push_back(Value::Date(static_cast<int32_t>(k * 17))); break;
      case TypeId::kTimestamp: out.push_back(Value::Timestamp(k * 3600000000LL + 123)); break;
      case TypeId::kDecimal: out.push_back(Value::Decimal(t->precision(), t->scale(), static_cast<__int128>(k) * 137)); break;
      case TypeId::kBoolean: out.push_back(Value::Boolean(k & 1)); break;
      default: ADD_FAILURE() << t->ToString();
    }
  }
  if (spec.sorted) {
    bool nulls_first = rng() % 2;
    std::stable_sort(out.begin(), out.end(), [&](const Value& a, const Value& b) {
      if (a.is_null() || b.is_null()) return nulls_first ? (a.is_null() && !b.is_null()) : (!a.is_null() && b.is_null());
      return a.Compare(b) < 0;
    });
  }
  return out;
}

columnar::BatchPtr SyntheticBatch(const Spec& spec, std::mt19937& rng) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = SyntheticFields();
  std::vector<VectorPtr> cols;
  for (const auto& f : schema->fields) {
    auto v = Vector::Make(f.type, spec.rows);
    for (const Value& x : ColumnValues(f.type, spec, rng)) {
      if (x.is_null()) {
        v->AppendNull();
      } else {
        v->AppendFrom(*x.Broadcast(1), 0, 1);
      }
    }
    cols.push_back(v);
  }
  return std::make_shared<columnar::RecordBatch>(schema, cols, spec.rows);
}

parquet::WriterProperties RandomProperties(std::mt19937& rng, const columnar::Schema& schema) {
  parquet::WriterProperties::Builder b;
  b.max_row_group_rows(50 + rng() % 400);
  b.data_page_rows(5 + rng() % 60);
  b.statistics_truncate_bytes(rng() % 3 == 0 ? 0 : 4 + rng() % 30);
  b.data_page_version(rng() % 2 ? parquet::DataPageVersion::kV1 : parquet::DataPageVersion::kV2);
  if (rng() % 4 == 0) b.dictionary(false);
  // A small dictionary page: fallback to PLAIN mid-chunk for columns whose dictionary outgrows it
  // (those with mostly distinct values skip the dictionary from the first page).
  if (rng() % 4 == 0) b.dictionary_page_bytes(64 + rng() % 512);
  if (rng() % 3 == 0) b.compression(parquet::CompressionCodec::kSnappy);
  for (const auto& f : schema.fields) {
    if (rng() % 2) b.bloom_filter(f.name, 50 + rng() % 500, 0.05);
  }
  return b.Build();
}

struct Fixture {
  std::unique_ptr<parquet::ParquetReader> reader;
  std::vector<PrunerColumn> columns;
  std::vector<columnar::BatchPtr> data;  // per row group, output shape
};

// Output columns: the file's top-level leaf fields, then a partition constant and an absent
// column.
Fixture Open(std::shared_ptr<io::FileSystem> fs, const std::string& path, bool with_extras) {
  Fixture f;
  auto r = parquet::ParquetReader::Open(fs, path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return f;
  f.reader = std::move(*r);
  const auto& ps = f.reader->parquet_schema();
  std::vector<int> fields;
  for (size_t i = 0; i < ps.fields().size(); ++i) {
    const auto& node = ps.fields()[i];
    if (node.kind != parquet::FieldNode::Kind::kLeaf) continue;
    if (ps.leaves()[node.leaf].physical == parquet::PhysicalType::kInt96) continue;
    fields.push_back(static_cast<int>(i));
    f.columns.push_back({node.type, node.leaf, std::nullopt, false});
  }
  std::vector<Extra> extras;
  if (with_extras) {
    extras.push_back({columnar::Int32(), Value::Integer(columnar::Int32(), 42)});
    extras.push_back({columnar::Int64(), std::nullopt});
    f.columns.push_back({columnar::Int32(), -1, Value::Integer(columnar::Int32(), 42), false});
    f.columns.push_back({columnar::Int64(), -1, std::nullopt, true});
  }
  f.data = pruning_test::ReadRowGroups(*f.reader, fields, extras);
  return f;
}

void RunRandomPredicates(const Fixture& f, int count, uint32_t seed, const PruneOptions& options, Tally* tally) {
  PredicateGenerator gen(f.data, seed);
  for (int i = 0; i < count; ++i) {
    auto conjuncts = gen.Conjuncts();
    pruning_test::CheckPruner(*f.reader, f.columns, conjuncts, f.data, options, tally);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

PruneOptions Only(int level) {
  PruneOptions o;
  o.stats = level == 0;
  o.page_index = level == 1;
  o.dictionary = level == 2;
  o.bloom = level == 3;
  return o;
}

TEST(RowGroupPruner, RandomizedFilesNeverExcludeAMatchingRow) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  std::mt19937 rng(20261129);
  Tally all, sorted_all;
  Tally level[4];
  for (int file = 0; file < 40; ++file) {
    Spec spec;
    spec.sorted = file % 2 == 0;
    spec.rows = 300 + rng() % 1500;
    spec.domain = file % 3 == 0 ? 8 : file % 3 == 1 ? 60 : 5000;
    spec.null_rate = file % 5 == 0 ? 0.0 : file % 5 == 1 ? 0.6 : 0.1;
    auto batch = SyntheticBatch(spec, rng);
    auto props = RandomProperties(rng, *batch->schema);
    {
      auto w = parquet::ParquetWriter::Open(fs, "/r.parquet", *batch->schema, props);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      ASSERT_TRUE((*w)->WriteBatch(*batch).ok());
      ASSERT_TRUE((*w)->Close().ok());
    }
    Fixture f = Open(fs, "/r.parquet", true);
    ASSERT_TRUE(f.reader);
    ASSERT_EQ(f.data.size(), static_cast<size_t>(f.reader->num_row_groups()));
    uint32_t seed = static_cast<uint32_t>(rng());
    RunRandomPredicates(f, 60, seed, PruneOptions{}, spec.sorted ? &sorted_all : &all);
    if (HasFatalFailure()) return;
    for (int l = 0; l < 4; ++l) {
      RunRandomPredicates(f, 25, seed + 1, Only(l), &level[l]);
      if (HasFatalFailure()) return;
    }
  }
  // Thousands of (predicate, row group) checks, and every level actually prunes something.
  EXPECT_GT(all.checks + sorted_all.checks, 5000);
  EXPECT_GT(sorted_all.row_groups_skipped, sorted_all.checks / 20);
  EXPECT_GT(sorted_all.rows_excluded, 0);
  EXPECT_GT(sorted_all.counters.pages_pruned_index, 0);
  EXPECT_GT(level[0].counters.row_groups_pruned_stats, 0);
  EXPECT_GT(level[1].counters.pages_pruned_index, 0);
  EXPECT_GT(level[1].counters.row_groups_pruned_page_index, 0);
  EXPECT_GT(level[2].counters.row_groups_pruned_dictionary, 0);
  EXPECT_GT(level[3].counters.row_groups_pruned_bloom, 0);
  std::cout << "checks " << all.checks + sorted_all.checks << ", sorted: skipped " << sorted_all.row_groups_skipped
            << " of " << sorted_all.checks << ", rows excluded " << sorted_all.rows_excluded << " of "
            << sorted_all.rows_total << "; levels alone skipped: stats " << level[0].row_groups_skipped
            << ", page index " << level[1].row_groups_skipped << " (pages " << level[1].counters.pages_pruned_index
            << "/" << level[1].counters.pages_total << "), dictionary " << level[2].row_groups_skipped
            << ", bloom " << level[3].row_groups_skipped << " of " << level[3].checks << "\n";
}

// ---------------------------------------------------------------- targeted cases

struct Written {
  std::shared_ptr<io::MemoryFileSystem> fs = std::make_shared<io::MemoryFileSystem>();
  Fixture f;
};

// x: 0..n-1 ascending (BIGINT), s: "k" + (x / 10) (STRING), with pages of 10 rows and row
// groups of `group` rows.
Written SortedFile(int64_t n, int64_t group, parquet::WriterProperties::Builder b = {}) {
  Written w;
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"x", columnar::Int64(), false}, {"s", columnar::String(), true}};
  auto x = Vector::Make(columnar::Int64(), n), s = Vector::Make(columnar::String(), n);
  for (int64_t i = 0; i < n; ++i) {
    x->Append<int64_t>(i);
    s->AppendString(std::string("k").append(std::to_string(1000 + i / 10)));
  }
  columnar::RecordBatch batch(schema, {x, s}, n);
  b.max_row_group_rows(group).data_page_rows(10);
  auto wr = parquet::ParquetWriter::Open(w.fs, "/s.parquet", *schema, b.Build());
  EXPECT_TRUE(wr.ok());
  EXPECT_TRUE((*wr)->WriteBatch(batch).ok());
  EXPECT_TRUE((*wr)->Close().ok());
  w.f = Open(w.fs, "/s.parquet", false);
  return w;
}

ExprPtr Cmp(const char* op, int column, const columnar::TypePtr& t, Value v) {
  return *expr::Call(op, {expr::ColumnRef(column, t, "c"), expr::Literal(std::move(v))});
}

TEST(RowGroupPruner, PageIndexNarrowsRowsToMatchingPages) {
  Written w = SortedFile(1000, 1000);
  RowGroupPruner p({Cmp(">=", 0, columnar::Int64(), Value::Int64(455)), Cmp("<", 0, columnar::Int64(), Value::Int64(472))},
                   w.f.columns);
  auto v = p.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_FALSE(v->skip);
  EXPECT_EQ(v->rows.ToString(), "[450, 480)");
  EXPECT_EQ(v->counters.pages_total, 100);
  EXPECT_EQ(v->counters.pages_pruned_index, 97);
  EXPECT_EQ(v->counters.rows_pruned_index, 970);
  EXPECT_GT(v->counters.bytes_read, 0);
}

TEST(RowGroupPruner, PageIndexIntersectsAcrossColumnsAndHandlesOr) {
  Written w = SortedFile(1000, 1000);
  // x in [100, 300) AND s = 'k1025' (rows 250..259).
  RowGroupPruner p({Cmp(">=", 0, columnar::Int64(), Value::Int64(100)), Cmp("<", 0, columnar::Int64(), Value::Int64(300)),
                    Cmp("=", 1, columnar::String(), Value::String("k1025"))},
                   w.f.columns);
  auto v = p.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->rows.ToString(), "[250, 260)");
  // x < 15 OR s = 'k1090': two ranges.
  auto either = expr::Or({Cmp("<", 0, columnar::Int64(), Value::Int64(15)), Cmp("=", 1, columnar::String(), Value::String("k1090"))});
  RowGroupPruner q({*either}, w.f.columns);
  v = q.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->rows.ToString(), "[0, 20) [900, 910)");
}

TEST(RowGroupPruner, StatisticsSkipWholeRowGroupsFirst) {
  Written w = SortedFile(1000, 100);
  RowGroupPruner p({Cmp(">", 0, columnar::Int64(), Value::Int64(850))}, w.f.columns);
  int skipped = 0;
  for (int g = 0; g < w.f.reader->num_row_groups(); ++g) {
    auto v = p.Evaluate(*w.f.reader, g);
    ASSERT_TRUE(v.ok());
    if (v->skip) {
      ++skipped;
      EXPECT_EQ(v->counters.row_groups_pruned_stats, 1);
      EXPECT_EQ(v->counters.bytes_read, 0);  // statistics live in the footer
    }
  }
  EXPECT_EQ(skipped, 8);
  EXPECT_FALSE(p.Evaluate(*w.f.reader, 10).ok());
  EXPECT_FALSE(p.Evaluate(*w.f.reader, -1).ok());
}

TEST(RowGroupPruner, DictionarySkipsChunksWithoutAMatchingEntry) {
  // s takes values "k1000".."k1099" in groups of ten rows; statistics and page index off, so
  // only the dictionary can tell that 'k1000x' (inside [min, max]) is absent.
  parquet::WriterProperties::Builder b;
  b.statistics(false);
  Written w = SortedFile(1000, 1000, b);
  PruneOptions o;
  o.bloom = false;
  RowGroupPruner p({Cmp("=", 1, columnar::String(), Value::String("k1000x"))}, w.f.columns, o);
  auto v = p.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->skip);
  EXPECT_EQ(v->counters.row_groups_pruned_dictionary, 1);
  // NULL handling: without statistics the null count is unknown, so IS NULL cannot prune here...
  RowGroupPruner q({expr::IsNull(expr::ColumnRef(1, columnar::String(), "s"))}, w.f.columns, o);
  v = q.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->skip);
  // ...but with a null count of 0 the dictionary level alone rules out IS NULL, and
  // `s = 'k1000x' OR s IS NULL` too.
  Written with_stats = SortedFile(1000, 1000);
  PruneOptions dict_only{false, false, true, false};
  auto is_null = expr::IsNull(expr::ColumnRef(1, columnar::String(), "s"));
  RowGroupPruner q2({*expr::Or({Cmp("=", 1, columnar::String(), Value::String("k1000x")), is_null})},
                    with_stats.f.columns, dict_only);
  v = q2.Evaluate(*with_stats.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->skip);
  EXPECT_EQ(v->counters.row_groups_pruned_dictionary, 1);
  RowGroupPruner r({Cmp("=", 1, columnar::String(), Value::String("k1042"))}, w.f.columns, o);
  v = r.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->skip);
}

TEST(RowGroupPruner, BloomFilterSkipsAbsentEqualityAndInValues) {
  parquet::WriterProperties::Builder b;
  b.statistics(false).dictionary(false).bloom_filter("x", 1000, 0.001).bloom_filter("s", 1000, 0.001);
  Written w = SortedFile(1000, 1000, b);
  PruneOptions o;
  o.dictionary = false;
  auto x = expr::ColumnRef(0, columnar::Int64(), "x");
  RowGroupPruner absent({*expr::In(x, {expr::Literal(Value::Int64(5000)), expr::Literal(Value::Int64(-3))})},
                        w.f.columns, o);
  auto v = absent.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->skip);
  EXPECT_EQ(v->counters.row_groups_pruned_bloom, 1);
  RowGroupPruner present({*expr::In(x, {expr::Literal(Value::Int64(5000)), expr::Literal(Value::Int64(7))})},
                         w.f.columns, o);
  v = present.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->skip);
  // NOT IN and <> never use the filter.
  RowGroupPruner negated({*expr::In(x, {expr::Literal(Value::Int64(5000))}, true)}, w.f.columns, o);
  v = negated.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->skip);
  // A widening cast over the column: CAST(x AS DECIMAL) = 5000.00 is undone exactly.
  auto cast = expr::Cast(x, columnar::Decimal(22, 2));
  ASSERT_TRUE(cast.ok());
  RowGroupPruner casted({*expr::Call("=", {*cast, expr::Literal(Value::Decimal(22, 2, 500000))})}, w.f.columns, o);
  v = casted.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->skip);
}

TEST(RowGroupPruner, ConstantAndAbsentColumnsPruneByValue) {
  Written w = SortedFile(100, 100);
  std::vector<PrunerColumn> cols = w.f.columns;
  cols.push_back({columnar::Int32(), -1, Value::Integer(columnar::Int32(), 7), false});
  cols.push_back({columnar::Int64(), -1, std::nullopt, true});
  RowGroupPruner p({Cmp("=", 2, columnar::Int32(), Value::Integer(columnar::Int32(), 8))}, cols);
  EXPECT_TRUE(p.Evaluate(*w.f.reader, 0)->skip);
  RowGroupPruner q({Cmp("=", 2, columnar::Int32(), Value::Integer(columnar::Int32(), 7))}, cols);
  EXPECT_FALSE(q.Evaluate(*w.f.reader, 0)->skip);
  RowGroupPruner r({expr::IsNull(expr::ColumnRef(3, columnar::Int64(), "g"), true)}, cols);
  EXPECT_TRUE(r.Evaluate(*w.f.reader, 0)->skip);
  RowGroupPruner none({}, cols);
  auto v = none.Evaluate(*w.f.reader, 0);
  EXPECT_FALSE(v->skip);
  EXPECT_EQ(v->rows.Count(), 100);
}

TEST(RowGroupPruner, DisabledLevelsDoNotPrune) {
  Written w = SortedFile(1000, 1000);
  PruneOptions off{false, false, false, false};
  RowGroupPruner p({Cmp(">", 0, columnar::Int64(), Value::Int64(5000))}, w.f.columns, off);
  auto v = p.Evaluate(*w.f.reader, 0);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->skip);
  EXPECT_EQ(v->rows.Count(), 1000);
  EXPECT_EQ(v->counters.bytes_read, 0);
}

TEST(RowGroupPruner, CorruptPageIndexAndDictionaryOffsetsNeverPruneWrongly) {
  Written w = SortedFile(400, 400, parquet::WriterProperties::Builder().bloom_filter("x"));
  std::string original = *w.fs->ReadAll("/s.parquet");
  parquet::FileMetaData meta = w.f.reader->metadata();
  std::mt19937 rng(5);
  for (int iter = 0; iter < 300; ++iter) {
    parquet::FileMetaData m = meta;
    auto& chunk = m.row_groups[0].columns[rng() % 2];
    auto& md = *chunk.meta_data;
    int64_t size = static_cast<int64_t>(original.size());
    auto pick = [&](int64_t good) -> int64_t {
      switch (rng() % 6) {
        case 0: return size + static_cast<int64_t>(rng() % 100);
        case 1: return -static_cast<int64_t>(rng() % 100);
        case 2: return good + static_cast<int64_t>(rng() % 7) - 3;
        case 3: return static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
        case 4: return int64_t{1} << 60;
        default: return good;
      }
    };
    if (chunk.column_index_offset) chunk.column_index_offset = pick(*chunk.column_index_offset);
    if (chunk.offset_index_offset) chunk.offset_index_offset = pick(*chunk.offset_index_offset);
    if (chunk.column_index_length) chunk.column_index_length = static_cast<int32_t>(pick(*chunk.column_index_length));
    if (md.dictionary_page_offset) md.dictionary_page_offset = pick(*md.dictionary_page_offset);
    if (md.bloom_filter_offset) md.bloom_filter_offset = pick(*md.bloom_filter_offset);
    if (md.bloom_filter_length) md.bloom_filter_length = static_cast<int32_t>(pick(*md.bloom_filter_length));
    std::string footer;
    parquet::EncodeFileMetaData(m, &footer);
    uint32_t len = 0;
    std::memcpy(&len, original.data() + original.size() - 8, 4);
    std::string bytes = original.substr(0, original.size() - 8 - len) + footer;
    uint32_t n = static_cast<uint32_t>(footer.size());
    bytes.append(reinterpret_cast<const char*>(&n), 4);
    bytes += "PAR1";
    w.fs->SetContents("/c.parquet", bytes);
    auto r = parquet::ParquetReader::Open(w.fs, "/c.parquet");
    ASSERT_TRUE(r.ok());
    // Rows 0..399 exist; x = 123 and s = 'k1012' must survive whatever the indexes say.
    RowGroupPruner p({Cmp("=", 0, columnar::Int64(), Value::Int64(123)), Cmp("=", 1, columnar::String(), Value::String("k1012"))},
                     w.f.columns);
    auto v = p.Evaluate(**r, 0);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_FALSE(v->skip);
    EXPECT_TRUE(v->rows.Contains(123)) << v->rows.ToString();
  }
}

// ---------------------------------------------------------------- other writers' files

TEST(RowGroupPruner, ParquetTestingFilesWithPageIndexAndBloomFilters) {
  SHOAL_REQUIRE_TESTDATA();
  auto fs = io::LocalFileSystem();
  std::string dir = testing::TestDataDir() + "/parquet-testing/data/";
  Tally tally;
  for (const char* name :
       {"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet", "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet", "int32_with_null_pages.parquet",
        "binary_truncated_min_max.parquet", "floating_orders_nan_count.parquet", "nan_in_stats.parquet",
        "single_nan.parquet", "sort_columns.parquet", "alltypes_dictionary.parquet", "dict-page-offset-zero.parquet",
        "byte_array_decimal.parquet", "fixed_length_decimal.parquet", "int32_decimal.parquet", "int64_decimal.parquet",
        "nulls.snappy.parquet", "rle-dict-snappy-checksum.parquet", "plain-dict-uncompressed-checksum.parquet",
        "delta_byte_array.parquet", "fixed_length_byte_array.parquet"}) {
    SCOPED_TRACE(name);
    Fixture f = Open(fs, dir + name, false);
    if (!f.reader || f.columns.empty() || f.data.empty()) continue;
    int64_t before = tally.checks;
    RunRandomPredicates(f, 60, 99, PruneOptions{}, &tally);
    if (HasFatalFailure()) return;
    for (int l = 0; l < 4; ++l) RunRandomPredicates(f, 15, 100 + l, Only(l), &tally);
    if (HasFatalFailure()) return;
    EXPECT_GT(tally.checks, before);
  }
  EXPECT_GT(tally.counters.pages_pruned_index, 0);
  EXPECT_GT(tally.counters.row_groups_pruned_bloom + tally.counters.row_groups_pruned_dictionary, 0);
  std::cout << "parquet-testing: " << tally.checks << " checks, skipped " << tally.row_groups_skipped
            << ", pages pruned " << tally.counters.pages_pruned_index << "/" << tally.counters.pages_total
            << ", dictionary " << tally.counters.row_groups_pruned_dictionary << ", bloom "
            << tally.counters.row_groups_pruned_bloom << "\n";
}

TEST(RowGroupPruner, DuckDbWrittenFiles) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  Tally tally;
  for (int sorted = 0; sorted < 2; ++sorted) {
    std::string path = dir.Join(sorted ? "sorted.parquet" : "random.parquet");
    std::string select =
        "SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 7919) % 2000 - 700)::INT END AS i32, "
        "((i * 104729) % 100000 - 50000)::BIGINT AS i64, "
        "CASE WHEN i % 97 = 0 THEN 'NaN'::DOUBLE ELSE ((i * 31) % 1000) / 8.0 END AS f64, "
        "CASE WHEN i % 11 = 0 THEN NULL ELSE 'shared-prefix-long-string-' || ((i * 37) % 3000)::VARCHAR END AS s, "
        "(DATE '2020-01-01' + ((i * 13) % 900)::INT) AS d, "
        "((i * 17) % 5000 / 100.0)::DECIMAL(10,2) AS dec, "
        "(i % 3 = 0) AS b "
        "FROM range(0, 30000) t(i)";
    std::string order = sorted ? " ORDER BY i64, s" : "";
    std::string sql = "COPY (" + select + order + ") TO '" + path + "' (FORMAT parquet, ROW_GROUP_SIZE 4096)";
    std::string out;
    ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\" 2>&1", &out), 0) << out;
    Fixture f = Open(fs, path, true);
    ASSERT_TRUE(f.reader);
    RunRandomPredicates(f, 150, 7 + sorted, PruneOptions{}, &tally);
    if (HasFatalFailure()) return;
    for (int l = 0; l < 4; ++l) RunRandomPredicates(f, 25, 70 + l, Only(l), &tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tally.row_groups_skipped, 0);
  std::cout << "duckdb: " << tally.checks << " checks, skipped " << tally.row_groups_skipped << ", pages pruned "
            << tally.counters.pages_pruned_index << "/" << tally.counters.pages_total << ", dictionary "
            << tally.counters.row_groups_pruned_dictionary << ", bloom " << tally.counters.row_groups_pruned_bloom
            << "\n";
}

}  // namespace
}  // namespace shoal::scan
