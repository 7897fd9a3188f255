// DataFileWriter with LocalSort (shoal.localSort.* table properties): sorted files, sorting
// metadata, the external-sort path, and selective row-group statistics.
#include <gtest/gtest.h>

#include <algorithm>

#include "delta/table_path.h"
#include "io/memory_file_system.h"
#include "parquet/file_reader.h"
#include "table/data_file_writer.h"
#include "table/local_sort_test_support.h"
#include "table/table_creator.h"

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
  o.target_file_size = 200 << 10;
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
  const std::map<std::string, std::string> props = {{"shoal.localSort.columns", "s,d"}};
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
  auto created = CreateTable(fs, "/p", "t", RowSchema(), {"low"}, {{"shoal.localSort.columns", "low,s"}});
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

TEST(LocalSortProperties, ParsesAndValidatesTheShoalKeys) {
  auto p = ParseTableProperties({{"shoal.localSort.columns", " a , b"},
                                 {"shoal.localSort.mode", "ZOrder"},
                                 {"shoal.localSort.memoryLimit", "64mb"},
                                 {"shoal.localSort.auto", "true"}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->local_sort_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p->local_sort_mode, LocalSortMode::kZOrder);
  EXPECT_EQ(p->local_sort_memory_limit, 64 << 20);
  EXPECT_TRUE(p->local_sort_auto);
  auto d = ParseTableProperties({});
  EXPECT_TRUE(d->local_sort_columns.empty());
  EXPECT_EQ(d->local_sort_mode, LocalSortMode::kLexicographic);
  EXPECT_EQ(d->local_sort_memory_limit, 256 << 20);
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"shoal.localSort.mode", "hilbert"},
           {"shoal.localSort.memoryLimit", "-1"},
           {"shoal.localSort.memoryLimit", "lots"},
           {"shoal.localSort.auto", "maybe"},
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
