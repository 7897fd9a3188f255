#include "parquet/file_reader.h"

#include <gtest/gtest.h>

#include "columnar/value_text.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

std::string DataFile(const std::string& name) {
  return testing::TestDataDir() + "/parquet-testing/data/" + name;
}

std::vector<std::string> Texts(const columnar::Vector& v) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < v.size(); ++i) out.push_back(columnar::TextOf(v, i));
  return out;
}

TEST(ParquetReader, ReadsOneColumnOfAWideFileTouchingOnlyItsChunk) {
  SHOAL_REQUIRE_TESTDATA();
  ReadStats open_stats;
  auto reader = ParquetReader::Open(io::LocalFileSystem(), DataFile("alltypes_tiny_pages_plain.parquet"), {}, &open_stats);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ParquetReader& r = **reader;
  ASSERT_GT(r.schema()->size(), 5u);
  int field = r.schema()->Find("int_col");
  ASSERT_GE(field, 0);
  int leaf = r.parquet_schema().fields()[field].leaf;
  ReadStats stats;
  auto rg = r.OpenRowGroup(0, {field}, &stats);
  ASSERT_TRUE(rg.ok()) << rg.status().ToString();
  int64_t rows = 0;
  while (true) {
    auto b = (*rg)->ReadBatch(1000);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    ASSERT_EQ((*b)->num_columns(), 1u);
    rows += (*b)->num_rows;
  }
  EXPECT_EQ(rows, r.row_group_num_rows(0));
  EXPECT_EQ(stats.bytes_read, r.column_chunk(0, leaf).meta_data->total_compressed_size);
  EXPECT_EQ(stats.io_requests, 1);
  EXPECT_GT(stats.pages_read, 1);
}

// read_page_by_page: the same rows, read one page per I/O (the offset index's pages), so the
// reader never holds the whole chunk.
TEST(ParquetReader, ReadPageByPageReadsEachPageOnItsOwnWithTheSameRows) {
  SHOAL_REQUIRE_TESTDATA();
  const std::string path = DataFile("alltypes_tiny_pages_plain.parquet");
  ReaderOptions by_page;
  by_page.read_page_by_page = true;
  auto whole = ParquetReader::Open(io::LocalFileSystem(), path);
  auto paged = ParquetReader::Open(io::LocalFileSystem(), path, by_page);
  ASSERT_TRUE(whole.ok() && paged.ok());
  for (const char* name : {"int_col", "string_col"}) {
    int field = (*whole)->schema()->Find(name);
    ASSERT_GE(field, 0);
    int leaf = (*whole)->parquet_schema().fields()[field].leaf;
    auto oi = (*paged)->ReadOffsetIndex(0, leaf);
    ASSERT_TRUE(oi.ok() && oi->has_value());
    const auto& pages = (*oi)->page_locations;
    int64_t largest_page = 0;
    for (const auto& p : pages) largest_page = std::max<int64_t>(largest_page, p.compressed_page_size);
    std::vector<std::string> texts[2];
    ReadStats stats[2];
    for (int k = 0; k < 2; ++k) {
      auto rg = (k == 0 ? *whole : *paged)->OpenRowGroup(0, {field}, &stats[k]);
      ASSERT_TRUE(rg.ok()) << rg.status().ToString();
      while (true) {
        auto b = (*rg)->ReadBatch(700);
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        if (!*b) break;
        auto t = Texts(*(*b)->column(0));
        texts[k].insert(texts[k].end(), t.begin(), t.end());
      }
    }
    EXPECT_EQ(texts[0], texts[1]) << name;
    EXPECT_EQ(stats[0].io_requests, 1) << name;
    // One read per page, plus the offset index and a dictionary page's leading segment.
    EXPECT_GE(stats[1].io_requests, static_cast<int64_t>(pages.size())) << name;
    EXPECT_LE(stats[1].io_requests, static_cast<int64_t>(pages.size()) + 2) << name;
    EXPECT_LT(largest_page * 4, (*paged)->column_chunk(0, leaf).meta_data->total_compressed_size) << name;
  }
}

TEST(ParquetReader, SkipRowsWithOffsetIndexSkipsPagesWithoutReadingThem) {
  SHOAL_REQUIRE_TESTDATA();
  auto reader = ParquetReader::Open(io::LocalFileSystem(), DataFile("alltypes_tiny_pages_plain.parquet"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ParquetReader& r = **reader;
  int field = r.schema()->Find("string_col");
  ASSERT_GE(field, 0);
  int leaf = r.parquet_schema().fields()[field].leaf;
  auto oi = r.ReadOffsetIndex(0, leaf);
  ASSERT_TRUE(oi.ok() && oi->has_value());
  ASSERT_GT((*oi)->page_locations.size(), 10u);

  // Oracle: the full column.
  auto full = r.OpenRowGroup(0, {field});
  ASSERT_TRUE(full.ok());
  auto all = (*full)->ReadBatch(r.row_group_num_rows(0));
  ASSERT_TRUE(all.ok() && *all);
  std::vector<std::string> want = Texts(*(*all)->column(0));

  const int64_t skip = 5000, take = 100;
  ReadStats stats;
  auto rg = r.OpenRowGroup(0, {field}, &stats);
  ASSERT_TRUE(rg.ok());
  ASSERT_TRUE((*rg)->SkipRows(skip).ok());
  auto b = (*rg)->ReadBatch(take);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_TRUE(*b);
  std::vector<std::string> got = Texts(*(*b)->column(0));
  EXPECT_EQ(got, std::vector<std::string>(want.begin() + skip, want.begin() + skip + take));
  EXPECT_GT(stats.pages_skipped, 5);
  EXPECT_LT(stats.bytes_read, r.column_chunk(0, leaf).meta_data->total_compressed_size / 2);
}

TEST(ParquetReader, SkipRowsWithoutOffsetIndexDecodesAndDiscards) {
  SHOAL_REQUIRE_TESTDATA();
  ReaderOptions opts;
  opts.use_offset_index = false;
  auto reader = ParquetReader::Open(io::LocalFileSystem(), DataFile("alltypes_tiny_pages.parquet"), opts);
  ASSERT_TRUE(reader.ok());
  const ParquetReader& r = **reader;
  std::vector<int> fields;
  for (size_t i = 0; i < r.schema()->size(); ++i) fields.push_back(static_cast<int>(i));
  auto full = r.OpenRowGroup(0, fields);
  ASSERT_TRUE(full.ok());
  auto all = (*full)->ReadBatch(r.row_group_num_rows(0));
  ASSERT_TRUE(all.ok() && *all);
  auto rg = r.OpenRowGroup(0, fields);
  ASSERT_TRUE(rg.ok());
  ASSERT_TRUE((*rg)->SkipRows(1234).ok());
  auto b = (*rg)->ReadBatch(10);
  ASSERT_TRUE(b.ok() && *b) << b.status().ToString();
  for (size_t c = 0; c < fields.size(); ++c) {
    for (int64_t i = 0; i < 10; ++i) {
      EXPECT_EQ(columnar::TextOf(*(*b)->column(c), i), columnar::TextOf(*(*all)->column(c), 1234 + i)) << c;
    }
  }
}

TEST(ParquetReader, NestedColumnReadsInBatchesEqualOneBigRead) {
  SHOAL_REQUIRE_TESTDATA();
  auto reader = ParquetReader::Open(io::LocalFileSystem(), DataFile("nested_lists.snappy.parquet"));
  ASSERT_TRUE(reader.ok());
  const ParquetReader& r = **reader;
  auto a = r.OpenRowGroup(0, {0});
  auto whole = (*a)->ReadBatch(1000);
  ASSERT_TRUE(whole.ok() && *whole);
  auto b = r.OpenRowGroup(0, {0});
  std::vector<std::string> pieces;
  while (true) {
    auto part = (*b)->ReadBatch(1);
    ASSERT_TRUE(part.ok()) << part.status().ToString();
    if (!*part) break;
    pieces.push_back(columnar::TextOf(*(*part)->column(0), 0));
  }
  EXPECT_EQ(pieces, Texts(*(*whole)->column(0)));
}

TEST(ParquetReader, RejectsNonParquetAndTruncatedFiles) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  ASSERT_TRUE(fs->WriteAtomic(dir.Join("x.parquet"), "PAR1 not really a parquet file").ok());
  auto r = ParquetReader::Open(fs, dir.Join("x.parquet"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_NE(r.status().message().find("x.parquet"), std::string::npos);
  ASSERT_TRUE(fs->WriteAtomic(dir.Join("e.parquet"), std::string("PAR1\x10\0\0\0PARE", 12)).ok());
  auto e = ParquetReader::Open(fs, dir.Join("e.parquet"));
  ASSERT_FALSE(e.ok());
  EXPECT_TRUE(e.status().IsNotSupported());
  // A footer length beyond the file.
  ASSERT_TRUE(fs->WriteAtomic(dir.Join("f.parquet"), std::string("PAR1\x00\x00\xff\x7fPAR1", 12)).ok());
  auto f = ParquetReader::Open(fs, dir.Join("f.parquet"));
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(f.status().IsCorruption());
}

TEST(ParquetReader, TruncatedRealFileFailsCleanlyAtEveryLength) {
  SHOAL_REQUIRE_TESTDATA();
  auto fs = io::LocalFileSystem();
  auto bytes = fs->ReadAll(DataFile("alltypes_plain.snappy.parquet"));
  ASSERT_TRUE(bytes.ok());
  testing::TempDir dir;
  // Flip bytes throughout the file; every read must finish with OK or a clean error.
  for (size_t pos = 0; pos < bytes->size(); pos += 7) {
    std::string damaged = *bytes;
    damaged[pos] = static_cast<char>(damaged[pos] ^ 0x5a);
    ASSERT_TRUE(fs->WriteAtomic(dir.Join("d.parquet"), damaged).ok());
    auto r = ParquetReader::Open(fs, dir.Join("d.parquet"));
    if (!r.ok()) continue;
    auto all = (*r)->ReadAll();
    if (!all.ok()) {
      EXPECT_TRUE(all.status().IsCorruption() || all.status().IsNotSupported()) << all.status().ToString();
    }
  }
}

}  // namespace
}  // namespace shoal::parquet
