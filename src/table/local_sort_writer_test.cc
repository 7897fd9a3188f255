// DataFileWriter with LocalSort (shoal.localSort.* table properties): sorted files, sorting
// metadata, the external-sort path, and selective row-group statistics.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <sstream>

#include "delta/table_path.h"
#include "io/memory_file_system.h"
#include "parquet/file_reader.h"
#include "table/data_file_writer.h"
#include "table/local_sort_test_support.h"
#include "table/table_creator.h"
#include "support/testdata.h"

namespace shoal::table {
namespace {

using namespace testing_rows;

delta::Metadata MetadataOf(const std::vector<delta::Action>& actions) {
  for (const auto& a : actions) {
    if (auto* m = std::get_if<delta::Metadata>(&a)) return *m;
  }
  return {};
}

struct Written {
  std::vector<std::vector<Row>> files;  // rows of each file, in file order
  std::vector<parquet::FileMetaData> footers;
  std::vector<int64_t> sizes;  // bytes on disk per file
  int64_t peak = 0;
  int runs = 0;
};

Result<Written> WriteTable(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                           const std::vector<Row>& rows, std::map<std::string, std::string> props,
                           DataFileWriterOptions o = {}, int64_t batch_rows = 3000) {
  ASSIGN_OR_RETURN(auto created, CreateTable(fs, root, "t", RowSchema(), {}, props));
  ASSIGN_OR_RETURN(auto writer, DataFileWriter::Make(fs, root, MetadataOf(created), o));
  c::RecordBatch all = ToBatch(rows);
  for (int64_t pos = 0; pos < all.num_rows; pos += batch_rows) {
    RETURN_NOT_OK(writer->Write(*c::SliceBatch(all, pos, std::min(batch_rows, all.num_rows - pos))));
  }
  ASSIGN_OR_RETURN(auto adds, writer->Finish());
  Written w;
  w.peak = writer->local_sort_peak_memory_bytes();
  w.runs = writer->local_sort_runs_spilled();
  for (const auto& add : adds) {
    ASSIGN_OR_RETURN(std::string path, delta::ResolveTablePath(root, add.path));
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    ASSIGN_OR_RETURN(auto batches, reader->ReadAll());
    std::vector<Row> file;
    for (const auto& b : batches) {
      auto got = FromBatch(*b);
      file.insert(file.end(), got.begin(), got.end());
    }
    w.files.push_back(std::move(file));
    w.footers.push_back(reader->metadata());
    w.sizes.push_back(add.size);
  }
  return w;
}

std::vector<std::string> SortedKeys(const std::vector<std::vector<Row>>& files) {
  std::vector<std::string> keys;
  for (const auto& f : files) {
    for (const auto& r : f) keys.push_back(RowKey(r));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

int64_t RawBytesOf(const std::vector<Row>& rows) {
  c::RecordBatch b = ToBatch(rows);
  int64_t n = 0;
  for (const auto& col : b.columns) n += static_cast<int64_t>(col->values().size() + col->bytes().size() + col->validity().size());
  return n;
}

// [min, max] of an INT64 column chunk per row group, from the footer statistics.
std::vector<std::pair<int64_t, int64_t>> Int64Ranges(const parquet::FileMetaData& m, int leaf) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& rg : m.row_groups) {
    const auto& st = rg.columns[static_cast<size_t>(leaf)].meta_data->statistics;
    if (!st || !st->min_value || !st->max_value) continue;  // an all-NULL group
    int64_t lo, hi;
    std::memcpy(&lo, st->min_value->data(), 8);
    std::memcpy(&hi, st->max_value->data(), 8);
    out.push_back({lo, hi});
  }
  return out;
}

int OverlappingPairs(const std::vector<std::pair<int64_t, int64_t>>& r) {
  int n = 0;
  for (size_t a = 0; a < r.size(); ++a) {
    for (size_t b = a + 1; b < r.size(); ++b) n += r[a].first <= r[b].second && r[b].first <= r[a].second;
  }
  return n;
}

TEST(LocalSortWriter, SortsEveryFileAndRecordsSortingColumns) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(20000, 21);
  DataFileWriterOptions o;
  o.target_file_size = 48 << 10;
  o.max_row_group_rows = 2000;
  auto w = WriteTable(fs, "/t", rows, {{"shoal.localSort.columns", "low, dt"}}, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_GT(w->files.size(), 1u);
  EXPECT_EQ(w->runs, 0);
  std::vector<std::vector<Row>> input = {rows};
  EXPECT_EQ(SortedKeys(w->files), SortedKeys(input));
  for (size_t f = 0; f < w->files.size(); ++f) {
    const auto& file = w->files[f];
    for (size_t i = 1; i < file.size(); ++i) {
      ASSERT_LE(CompareOn(file[i - 1], file[i], {"low", "dt"}), 0) << "file " << f << " row " << i;
    }
    ASSERT_GE(w->footers[f].row_groups.size(), 1u);
    for (const auto& rg : w->footers[f].row_groups) {
      ASSERT_EQ(rg.sorting_columns.size(), 2u);
      EXPECT_EQ(rg.sorting_columns[0].column_idx, 6);  // low
      EXPECT_EQ(rg.sorting_columns[1].column_idx, 4);  // dt
      EXPECT_FALSE(rg.sorting_columns[0].descending);
      EXPECT_TRUE(rg.sorting_columns[0].nulls_first);
    }
  }
}

TEST(LocalSortWriter, ExternalSortPathWritesTheSameFilesAsTheInMemoryPath) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(40000, 22);
  const std::map<std::string, std::string> props = {{"shoal.localSort.columns", "s,d"},
                                                    {"shoal.localSort.scope", "write"}};
  auto mem = WriteTable(fs, "/a", rows, props);
  DataFileWriterOptions o;
  const int64_t limit = RawBytesOf(rows) / 8;
  o.local_sort_memory_limit = limit;
  auto ext = WriteTable(fs, "/b", rows, props, o);
  ASSERT_TRUE(mem.ok()) << mem.status().ToString();
  ASSERT_TRUE(ext.ok()) << ext.status().ToString();
  EXPECT_EQ(mem->runs, 0);
  EXPECT_GE(ext->runs, 4);
  EXPECT_LT(ext->peak, 2 * limit) << ext->peak << " vs limit " << limit;
  ASSERT_EQ(mem->files.size(), 1u);
  ASSERT_EQ(ext->files.size(), 1u);
  ASSERT_EQ(ext->files[0].size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(RowKey(ext->files[0][i]), RowKey(mem->files[0][i])) << i;
  for (size_t i = 1; i < rows.size(); ++i) ASSERT_LE(CompareOn(ext->files[0][i - 1], ext->files[0][i], {"s", "d"}), 0);
  auto left = fs->List("/b/_shoal/tmp");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

// A write larger than the sort's memory spills sorted runs and merges them into one sorted
// stream, which is cut into files by their size on disk: each file is sorted, the files follow
// each other in key order (disjoint ranges), every file but the last reaches the target, and
// the row groups are the sorted files' small ones.
TEST(LocalSortWriter, SpilledStreamIsCutIntoFilesOfDisjointKeyRangesAtTheTargetSize) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(60000, 26);
  DataFileWriterOptions o;
  o.local_sort_memory_limit = RawBytesOf(rows) / 10;
  o.target_file_size = 256 << 10;
  o.sorted_max_row_group_rows = 1500;
  auto w = WriteTable(fs, "/t", rows, {{"shoal.localSort.columns", "s,i"}, {"shoal.localSort.scope", "write"}}, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_GE(w->runs, 5);
  ASSERT_GE(w->files.size(), 3u);
  std::vector<std::vector<Row>> input = {rows};
  EXPECT_EQ(SortedKeys(w->files), SortedKeys(input));
  const Row* prev = nullptr;
  for (size_t f = 0; f < w->files.size(); ++f) {
    for (const Row& r : w->files[f]) {
      if (prev) {
        ASSERT_LE(CompareOn(*prev, r, {"s", "i"}), 0) << "file " << f;
      }
      prev = &r;
    }
    // Cut when the bytes written and the open row group's estimate reach the target.
    if (f + 1 < w->files.size()) {
      EXPECT_GE(w->sizes[f], *o.target_file_size * 9 / 10) << "file " << f;
    }
    EXPECT_LT(w->sizes[f], 2 * *o.target_file_size) << "file " << f;
    for (const auto& rg : w->footers[f].row_groups) EXPECT_LE(rg.num_rows, 1500);
  }
  auto left = fs->List("/t/_shoal/tmp");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

// File scope (the default): a write larger than the sort memory is sorted a memory's worth of
// rows at a time, each written as its own sorted file(s), without spilling; nothing is lost.
TEST(LocalSortWriter, FileScopeSortsEachMemoryOfRowsIntoItsOwnFilesWithoutSpilling) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(60000, 28);
  DataFileWriterOptions o;
  const int64_t limit = RawBytesOf(rows) / 6;
  o.local_sort_memory_limit = limit;
  auto w = WriteTable(fs, "/t", rows, {{"shoal.localSort.columns", "i"}}, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->runs, 0);
  EXPECT_LT(w->peak, 2 * limit);
  ASSERT_GE(w->files.size(), 6u);
  ASSERT_LE(w->files.size(), 20u);
  std::vector<std::vector<Row>> input = {rows};
  EXPECT_EQ(SortedKeys(w->files), SortedKeys(input));
  int breaks = 0;  // places where one file's last row sorts after the next file's first
  for (size_t f = 0; f < w->files.size(); ++f) {
    for (size_t i = 1; i < w->files[f].size(); ++i) {
      ASSERT_LE(CompareOn(w->files[f][i - 1], w->files[f][i], {"i"}), 0) << "file " << f << " row " << i;
    }
    if (f > 0) breaks += CompareOn(w->files[f - 1].back(), w->files[f].front(), {"i"}) > 0;
  }
  EXPECT_GE(breaks, 5);  // each memory's worth sorted on its own, not the write as a whole
}

// Sorted files get the smaller row groups by default (and an explicit smaller limit wins);
// unsorted files keep the general limit.
TEST(LocalSortWriter, SortedFilesDefaultToSmallRowGroups) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(150000, 27);
  auto sorted = WriteTable(fs, "/s", rows, {{"shoal.localSort.columns", "dt"}}, {}, 50000);
  auto plain = WriteTable(fs, "/u", rows, {}, {}, 50000);
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  ASSERT_EQ(sorted->files.size(), 1u);
  ASSERT_EQ(plain->files.size(), 1u);
  DataFileWriterOptions defaults;
  EXPECT_EQ(
      sorted->footers[0].row_groups.size(),
      static_cast<size_t>((150000 + defaults.sorted_max_row_group_rows - 1) / defaults.sorted_max_row_group_rows));
  EXPECT_EQ(plain->footers[0].row_groups.size(), 1u);
  DataFileWriterOptions o;
  o.max_row_group_rows = 40000;
  auto smaller = WriteTable(fs, "/m", rows, {{"shoal.localSort.columns", "dt"}}, o, 50000);
  ASSERT_TRUE(smaller.ok()) << smaller.status().ToString();
  EXPECT_EQ(smaller->footers[0].row_groups.size(), 4u);
}

TEST(LocalSortWriter, SortedRowGroupsHaveDisjointRangesWhereUnsortedOverlap) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(20000, 23);
  DataFileWriterOptions o;
  o.max_row_group_rows = 1000;
  auto sorted = WriteTable(fs, "/s", rows, {{"shoal.localSort.columns", "dec"}}, o);
  auto plain = WriteTable(fs, "/u", rows, {}, o);
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  ASSERT_TRUE(plain.ok());
  auto rs = Int64Ranges(sorted->footers[0], 5);  // dec: INT64 unscaled
  auto ru = Int64Ranges(plain->footers[0], 5);
  ASSERT_GE(rs.size(), 15u);  // leading all-NULL groups have no bounds
  ASSERT_GE(ru.size(), 19u);
  // Sorted: neighbours may share a boundary value, nothing more.
  int sorted_overlaps = OverlappingPairs(rs);
  EXPECT_LE(sorted_overlaps, static_cast<int>(rs.size()));
  int plain_overlaps = OverlappingPairs(ru);
  EXPECT_EQ(plain_overlaps, static_cast<int>(ru.size() * (ru.size() - 1) / 2));
  for (size_t i = 1; i < rs.size(); ++i) EXPECT_LE(rs[i - 1].second, rs[i].first);
}

TEST(LocalSortWriter, ZOrderModeNarrowsEveryColumnAndWritesNoSortingColumns) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(32000, 24);
  DataFileWriterOptions o;
  o.max_row_group_rows = 2000;
  auto z = WriteTable(fs, "/z", rows, {{"shoal.localSort.columns", "dec,i"}, {"shoal.localSort.mode", "zorder"}}, o);
  auto plain = WriteTable(fs, "/u", rows, {}, o);
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  ASSERT_TRUE(plain.ok());
  std::vector<std::vector<Row>> input = {rows};
  EXPECT_EQ(SortedKeys(z->files), SortedKeys(input));
  for (const auto& rg : z->footers[0].row_groups) EXPECT_TRUE(rg.sorting_columns.empty());
  auto width = [](const std::vector<std::pair<int64_t, int64_t>>& r) {
    long double total = 0;
    for (const auto& [lo, hi] : r) total += static_cast<long double>(hi) - lo;
    return total / r.size();
  };
  for (int leaf : {5, 1}) {
    auto rz = Int64Ranges(z->footers[0], leaf);
    auto ru = Int64Ranges(plain->footers[0], leaf);
    EXPECT_LT(width(rz), width(ru) * 0.6) << "leaf " << leaf;
  }
}

TEST(LocalSortWriter, PartitionedTablesSortWithinFilesUnderOneMemoryBudget) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(30000, 25);
  auto created = CreateTable(fs, "/p", "t", RowSchema(), {"low"},
                             {{"shoal.localSort.columns", "low,s"}, {"shoal.localSort.scope", "write"}});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  DataFileWriterOptions o;
  const int64_t limit = RawBytesOf(rows) / 10;
  o.local_sort_memory_limit = limit;
  auto writer = DataFileWriter::Make(fs, "/p", MetadataOf(*created), o);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  c::RecordBatch all = ToBatch(rows);
  for (int64_t pos = 0; pos < all.num_rows; pos += 2000) {
    ASSERT_TRUE((*writer)->Write(*c::SliceBatch(all, pos, std::min<int64_t>(2000, all.num_rows - pos))).ok());
  }
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok()) << adds.status().ToString();
  EXPECT_EQ(adds->size(), 6u);  // five values and NULL
  EXPECT_GT((*writer)->local_sort_runs_spilled(), 0);
  EXPECT_LT((*writer)->local_sort_peak_memory_bytes(), 2 * limit);
  int64_t total = 0;
  for (const auto& add : *adds) {
    auto path = delta::ResolveTablePath("/p", add.path);
    ASSERT_TRUE(path.ok());
    auto reader = parquet::ParquetReader::Open(fs, *path);
    ASSERT_TRUE(reader.ok());
    // Only s is a sorting column in the file: low is the partition column.
    ASSERT_EQ((*reader)->metadata().row_groups[0].sorting_columns.size(), 1u);
    EXPECT_EQ((*reader)->metadata().row_groups[0].sorting_columns[0].column_idx, 3);
    auto batches = (*reader)->ReadAll({3});
    ASSERT_TRUE(batches.ok());
    std::optional<std::string> prev;
    bool first = true;
    for (const auto& b : *batches) {
      for (int64_t i = 0; i < b->num_rows; ++i, ++total) {
        std::optional<std::string> cur;
        if (b->column(0)->IsValid(i)) cur = std::string(b->column(0)->GetString(i));
        if (!first) {
          ASSERT_LE(Cmp(prev, cur), 0);
        }
        prev = cur;
        first = false;
      }
    }
  }
  EXPECT_EQ(total, 30000);
}

// High-cardinality columns overflow the dictionary, so their later pages use the data files'
// fallback encodings (DELTA_BINARY_PACKED ints, DELTA_LENGTH_BYTE_ARRAY strings): shoal and
// DuckDB must both read the sorted file back row for row.
TEST(LocalSortWriter, SortedFileWithDeltaEncodingsReadsBackInShoalAndDuckDb) {
  std::mt19937_64 rng(31);
  std::vector<Row> rows(150000);
  const char* lows[] = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK"};
  for (size_t r = 0; r < rows.size(); ++r) {
    Row& x = rows[r];
    x.id = static_cast<int64_t>(r);
    if (rng() % 10) x.i = static_cast<int64_t>(rng());
    if (rng() % 10) x.s = "value-" + std::to_string(rng() % 1000000000) + "-with-a-shared-tail";
    if (rng() % 10) x.dt = static_cast<int32_t>(rng() % 3000) - 500;
    if (rng() % 10) x.dec = static_cast<int64_t>(rng() % 2000001) - 1000000;
    if (rng() % 10) x.low = lows[rng() % 5];
  }
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  auto w = WriteTable(fs, root, rows, {{"shoal.localSort.columns", "low,dt"}}, {}, 20000);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_EQ(w->files.size(), 1u);
  std::vector<Row> want = rows;
  std::stable_sort(want.begin(), want.end(),
                   [](const Row& a, const Row& b) { return CompareOn(a, b, {"low", "dt"}) < 0; });
  ASSERT_EQ(w->files[0].size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(RowKey(w->files[0][i]), RowKey(want[i])) << i;
  auto uses = [&](int leaf, parquet::Encoding e) {
    for (const auto& rg : w->footers[0].row_groups) {
      const auto& enc = rg.columns[static_cast<size_t>(leaf)].meta_data->encodings;
      if (std::find(enc.begin(), enc.end(), e) != enc.end()) return true;
    }
    return false;
  };
  EXPECT_TRUE(uses(1, parquet::Encoding::kDeltaBinaryPacked));    // i
  EXPECT_TRUE(uses(3, parquet::Encoding::kDeltaLengthByteArray));  // s

  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  std::string file;
  auto listed = fs->List(root);
  ASSERT_TRUE(listed.ok());
  for (const auto& f : *listed) {
    if (f.name.size() > 8 && f.name.compare(f.name.size() - 8, 8, ".parquet") == 0) file = root + "/" + f.name;
  }
  ASSERT_FALSE(file.empty());
  std::string out;
  std::string sql = "SELECT id, i::VARCHAR AS i, s, date_diff('day', DATE '1970-01-01', dt) AS dt, "
                    "CAST(dec * 100 AS BIGINT) AS dec, low FROM read_parquet('" + file +
                    "', file_row_number=true) ORDER BY file_row_number";
  ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
  std::istringstream lines(out);
  std::string line;
  size_t k = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    ASSERT_LT(k, want.size());
    auto j = nlohmann::json::parse(line);
    const Row& r = want[k++];
    ASSERT_EQ(j["id"].get<int64_t>(), r.id) << k;
    ASSERT_EQ(j["i"].is_null() ? std::string("N") : j["i"].get<std::string>(), r.i ? std::to_string(*r.i) : "N") << k;
    ASSERT_EQ(j["s"].is_null() ? std::string("N") : j["s"].get<std::string>(), r.s ? *r.s : "N") << k;
    ASSERT_EQ(j["dt"].is_null() ? INT64_MIN : j["dt"].get<int64_t>(), r.dt ? *r.dt : INT64_MIN) << k;
    ASSERT_EQ(j["dec"].is_null() ? INT64_MIN : j["dec"].get<int64_t>(), r.dec ? *r.dec : INT64_MIN) << k;
    ASSERT_EQ(j["low"].is_null() ? std::string("N") : j["low"].get<std::string>(), r.low ? *r.low : "N") << k;
  }
  EXPECT_EQ(k, want.size());
}

TEST(LocalSortProperties, ParsesAndValidatesTheShoalKeys) {
  auto p = ParseTableProperties({{"shoal.localSort.columns", " a , b"},
                                 {"shoal.localSort.mode", "ZOrder"},
                                 {"shoal.localSort.memoryLimit", "64mb"},
                                 {"shoal.localSort.scope", " Write"},
                                 {"shoal.localSort.auto", "true"}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->local_sort_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p->local_sort_mode, LocalSortMode::kZOrder);
  EXPECT_EQ(p->local_sort_memory_limit, 64 << 20);
  EXPECT_EQ(p->local_sort_scope, LocalSortScope::kWrite);
  EXPECT_TRUE(p->local_sort_auto);
  auto d = ParseTableProperties({});
  EXPECT_TRUE(d->local_sort_columns.empty());
  EXPECT_EQ(d->local_sort_mode, LocalSortMode::kLexicographic);
  EXPECT_EQ(d->local_sort_memory_limit, 256 << 20);
  EXPECT_EQ(d->local_sort_scope, LocalSortScope::kFile);
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{{"shoal.localSort.mode", "hilbert"},
                                                                             {"shoal.localSort.memoryLimit", "-1"},
                                                                             {"shoal.localSort.memoryLimit", "lots"},
                                                                             {"shoal.localSort.auto", "maybe"},
                                                                             {"shoal.localSort.scope", "table"},
                                                                             {"shoal.localSort.columns", "a,,b"},
                                                                             {"shoal.localSort.colums", "a"}}) {
    auto bad = ParseTableProperties({{k, v}});
    EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << k << "=" << v;
    EXPECT_NE(bad.status().message().find(k), std::string::npos) << bad.status().message();
  }
}

TEST(LocalSortProperties, ColumnsMustExistOnceWithSortableTypes) {
  c::Schema s = RowSchema();
  s.fields.push_back({"st", c::Struct({{"x", c::Int32(), true}}), true});
  TableProperties p;
  p.local_sort_columns = {"LOW", "dt"};
  EXPECT_TRUE(ValidateLocalSortColumns(p, s).ok());
  p.local_sort_columns = {"nope"};
  EXPECT_NE(ValidateLocalSortColumns(p, s).message().find("'nope'"), std::string::npos);
  p.local_sort_columns = {"dt", "DT"};
  EXPECT_FALSE(ValidateLocalSortColumns(p, s).ok());
  p.local_sort_columns = {"st"};
  EXPECT_NE(ValidateLocalSortColumns(p, s).message().find("STRUCT"), std::string::npos);

  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/v", "t", RowSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  DataFileWriterOptions o;
  o.local_sort_columns = std::vector<std::string>{"missing"};
  EXPECT_EQ(DataFileWriter::Make(fs, "/v", MetadataOf(*created), o).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal::table
