// Column-wise selective reads (RowGroupReader::ReadField / SkipField, ColumnChunkReader::
// ReadSelected) against the oracle of reading everything and gathering.
#include <gtest/gtest.h>

#include <random>

#include "columnar/value_text.h"
#include "parquet/dictionary_probe.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

using columnar::VectorPtr;

std::vector<std::string> Texts(const columnar::Vector& v) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < v.size(); ++i) out.push_back(columnar::TextOf(v, i));
  return out;
}

// Writes a one-row-group file of `rows` rows: nullable BIGINT, STRING, DOUBLE, LIST<INT>.
// `dictionary_bytes` > 0 caps the dictionary page so high-cardinality columns fall back to
// plain pages after the first ones.
std::string WriteFile(std::mt19937_64& rng, const std::string& dir, int64_t rows, bool dictionary, bool v2,
                      bool page_index, int64_t dictionary_bytes = 0) {
  columnar::Schema schema;
  schema.fields = {{"a", columnar::Int64(), true},
                   {"s", columnar::String(), true},
                   {"d", columnar::Float64(), false},
                   {"l", columnar::List(columnar::Int32()), true}};
  auto a = columnar::Vector::Make(columnar::Int64());
  auto s = columnar::Vector::Make(columnar::String());
  auto d = columnar::Vector::Make(columnar::Float64());
  auto l = columnar::Vector::Make(columnar::List(columnar::Int32()));
  for (int64_t i = 0; i < rows; ++i) {
    if (rng() % 5 == 0) a->AppendNull(); else a->Append<int64_t>(static_cast<int64_t>(rng() % 100));
    if (rng() % 6 == 0) {
      s->AppendNull();
    } else {
      // With a capped dictionary: a low-cardinality first page (so the writer keeps the
      // dictionary, column_writer.cc's first-page rule), then values that overflow it and make
      // the chunk fall back to plain pages.
      const uint64_t distinct = dictionary_bytes == 0 ? 40 : (i < 50 ? 10 : 100000);
      s->AppendString(std::string("v").append(std::to_string(rng() % distinct)));
    }
    d->Append<double>(static_cast<double>(i) / 4);
    for (int j = 0; j < static_cast<int>(rng() % 3); ++j) l->child(0)->Append<int32_t>(static_cast<int32_t>(i));
    l->AppendListEnd();
  }
  WriterProperties::Builder builder;
  if (dictionary_bytes > 0) builder.dictionary_page_bytes(dictionary_bytes);
  auto props = builder
                   .data_page_rows(50)
                   .dictionary(dictionary)
                   .page_index(page_index)
                   .data_page_version(v2 ? DataPageVersion::kV2 : DataPageVersion::kV1)
                   .Build();
  std::string path = dir + "/sel.parquet";
  auto w = ParquetWriter::Open(io::LocalFileSystem(), path, schema, props);
  EXPECT_TRUE(w.ok());
  EXPECT_TRUE((*w)->WriteBatch(columnar::RecordBatch(std::make_shared<columnar::Schema>(schema), {a, s, d, l}, rows))
                  .ok());
  EXPECT_TRUE((*w)->Close().ok());
  return path;
}

TEST(SelectiveRead, ReadFieldWithRandomSelectionsEqualsReadAllAndGather) {
  // Seeds 8 and up cap the dictionary so the string column falls back to plain pages.
  for (int seed = 0; seed < 12; ++seed) {
    std::mt19937_64 rng(seed);
    testing::TempDir dir;
    const int64_t rows = 1000 + static_cast<int64_t>(rng() % 2000);
    std::string path = WriteFile(rng, dir.path(), rows, seed % 2 == 0 || seed >= 8, seed % 4 >= 2, seed != 5,
                                 seed >= 8 ? 300 : 0);
    auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto all = (*reader)->OpenRowGroup(0, {0, 1, 2, 3});
    ASSERT_TRUE(all.ok());
    auto whole = (*all)->ReadBatch(rows);
    ASSERT_TRUE(whole.ok() && *whole);
    auto rg = (*reader)->OpenRowGroup(0, {0, 1, 2, 3});
    ASSERT_TRUE(rg.ok());
    int64_t at = 0;
    while (at < rows) {
      int64_t n = std::min<int64_t>(rows - at, 1 + static_cast<int64_t>(rng() % 400));
      // Sparse, dense, clustered, empty, full or single-row selections.
      int density = static_cast<int>(rng() % 6);
      std::vector<uint32_t> sel;
      if (density == 5) sel.push_back(static_cast<uint32_t>(rng() % n));
      for (int64_t i = 0; i < n && density != 5; ++i) {
        bool take = density == 0 ? false : density == 1 ? rng() % 100 == 0 : density == 2 ? rng() % 2 == 0
                  : density == 3 ? (i / 37) % 3 == 0 : true;
        if (take) sel.push_back(static_cast<uint32_t>(i));
      }
      for (int f = 0; f < 4; ++f) {
        if (rng() % 6 == 0) {  // this field skips the batch entirely
          ASSERT_TRUE((*rg)->SkipField(f, n).ok());
          continue;
        }
        bool use_null = density == 4 && rng() % 2;
        auto got = use_null ? (*rg)->ReadField(f, n)
                            : (*rg)->ReadFieldSelected(f, n, sel.data(), static_cast<int64_t>(sel.size()));
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        std::vector<uint32_t> abs;
        for (uint32_t i : sel) abs.push_back(static_cast<uint32_t>(at + i));
        VectorPtr want = columnar::Gather(*(*whole)->column(f), abs.data(), static_cast<int64_t>(abs.size()));
        ASSERT_EQ(Texts(**got), Texts(*want)) << "seed " << seed << " field " << f << " at " << at;
        EXPECT_EQ((*rg)->field_position(f), at + n);
      }
      at += n;
    }
  }
}

TEST(SelectiveRead, SparseSelectionSkipsPagesWithoutReadingThem) {
  std::mt19937_64 rng(42);
  testing::TempDir dir;
  const int64_t rows = 5000;
  std::string path = WriteFile(rng, dir.path(), rows, true, false, true);
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  ReadStats full_stats, sel_stats;
  {
    auto rg = (*reader)->OpenRowGroup(0, {1}, &full_stats);
    ASSERT_TRUE((*rg)->ReadField(0, rows).ok());
  }
  auto rg = (*reader)->OpenRowGroup(0, {1}, &sel_stats);
  std::vector<uint32_t> sel = {10, 2500, 4990};
  auto got = (*rg)->ReadFieldSelected(0, rows, sel.data(), 3);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)->size(), 3);
  EXPECT_GT(sel_stats.pages_skipped, 50);
  EXPECT_LE(sel_stats.pages_read, 4 + 1);  // three data pages and the dictionary
  EXPECT_LT(sel_stats.bytes_read * 5, full_stats.bytes_read);
}

TEST(SelectiveRead, SkipFromTheStartReadsNeitherTheFirstPageNorSkippedOnes) {
  std::mt19937_64 rng(7);
  testing::TempDir dir;
  const int64_t rows = 3000;
  std::string path = WriteFile(rng, dir.path(), rows, true, false, true);
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->OpenRowGroup(0, {0});
  auto whole = (*all)->ReadBatch(rows);
  ASSERT_TRUE(whole.ok() && *whole);
  ReadStats stats;
  auto rg = (*reader)->OpenRowGroup(0, {0}, &stats);
  ASSERT_TRUE((*rg)->SkipField(0, 2000).ok());
  auto got = (*rg)->ReadField(0, 10);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::vector<std::string> want = Texts(*(*whole)->column(0));
  EXPECT_EQ(Texts(**got), std::vector<std::string>(want.begin() + 2000, want.begin() + 2010));
  EXPECT_EQ(stats.pages_read, 2);  // the dictionary and the page holding row 2000
  EXPECT_EQ(stats.pages_skipped, 40);
}

TEST(SelectiveRead, SkipFromAPageBoundaryLoadsNoPageInBetween) {
  std::mt19937_64 rng(11);
  testing::TempDir dir;
  const int64_t rows = 3000;
  std::string path = WriteFile(rng, dir.path(), rows, true, false, true);
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->OpenRowGroup(0, {2});
  auto whole = (*all)->ReadBatch(rows);
  ASSERT_TRUE(whole.ok() && *whole);
  std::vector<std::string> want = Texts(*(*whole)->column(0));
  ReadStats stats;
  auto rg = (*reader)->OpenRowGroup(0, {2}, &stats);
  auto first = (*rg)->ReadField(0, 50);  // exactly the first page
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const int64_t read_before = stats.pages_read;
  ASSERT_TRUE((*rg)->SkipField(0, 1950).ok());
  auto got = (*rg)->ReadField(0, 10);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(Texts(**got), std::vector<std::string>(want.begin() + 2000, want.begin() + 2010));
  EXPECT_EQ(stats.pages_read - read_before, 1);  // only the page holding row 2000
  EXPECT_EQ(stats.pages_skipped, 39);
  // Inside a page, then to the next page but one.
  ASSERT_TRUE((*rg)->SkipField(0, 95).ok());
  got = (*rg)->ReadField(0, 3);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(Texts(**got), std::vector<std::string>(want.begin() + 2105, want.begin() + 2108));
  EXPECT_EQ(stats.pages_read - read_before, 2);
  EXPECT_EQ(stats.pages_skipped, 40);
}

TEST(SelectiveRead, PlainFallbackPagesDoNotDecodeTheDictionary) {
  std::mt19937_64 rng(5);
  testing::TempDir dir;
  const int64_t rows = 3000;
  std::string path = WriteFile(rng, dir.path(), rows, true, false, true, 300);
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->OpenRowGroup(0, {1});
  auto whole = (*all)->ReadBatch(rows);
  ASSERT_TRUE(whole.ok() && *whole);
  std::vector<std::string> want = Texts(*(*whole)->column(0));
  ReadStats late_stats, early_stats;
  {
    auto rg = (*reader)->OpenRowGroup(0, {1}, &late_stats);
    std::vector<uint32_t> sel = {2999};
    auto got = (*rg)->ReadFieldSelected(0, rows, sel.data(), 1);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(Texts(**got), std::vector<std::string>{want[2999]});
  }
  EXPECT_EQ(late_stats.pages_read, 1);  // the last page, plain-encoded: no dictionary
  {
    auto rg = (*reader)->OpenRowGroup(0, {1}, &early_stats);
    std::vector<uint32_t> sel = {3, 2999};
    auto got = (*rg)->ReadFieldSelected(0, rows, sel.data(), 2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(Texts(**got), (std::vector<std::string>{want[3], want[2999]}));
  }
  EXPECT_EQ(early_stats.pages_read, 3);  // the dictionary, the first page and the last page
}

TEST(SelectiveRead, ReadFieldPastTheEndIsAnError) {
  std::mt19937_64 rng(1);
  testing::TempDir dir;
  std::string path = WriteFile(rng, dir.path(), 100, false, false, true);
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto rg = (*reader)->OpenRowGroup(0, {0});
  EXPECT_FALSE((*rg)->ReadField(0, 101).ok());
  EXPECT_FALSE((*rg)->ReadField(5, 1).ok());
  EXPECT_TRUE((*rg)->ReadField(0, 100).ok());
}

}  // namespace
}  // namespace shoal::parquet

namespace shoal::parquet {
namespace {

// ReadFieldIndices against the values: every selected row's index names the dictionary entry
// equal to the row's value (NULL rows get the null index), across v1/v2 pages, page index on
// and off, sparse and dense selections (gaps shorter and longer than the span the reader reads
// through) and skipped batches; a chunk that falls back to plain
// pages is never offered as fully dictionary-encoded.
TEST(SelectiveRead, ReadFieldIndicesNameTheDictionaryEntryOfEachSelectedRow) {
  for (int seed = 0; seed < 10; ++seed) {
    std::mt19937_64 rng(1000 + seed);
    testing::TempDir dir;
    const int64_t rows = 500 + static_cast<int64_t>(rng() % 2500);
    const bool fallback = seed >= 8;
    std::string path = WriteFile(rng, dir.path(), rows, true, seed % 2 == 1, seed % 4 != 2, fallback ? 300 : 0);
    auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto all = (*reader)->OpenRowGroup(0, {0, 1});
    ASSERT_TRUE(all.ok());
    auto whole = (*all)->ReadBatch(rows);
    ASSERT_TRUE(whole.ok() && *whole);
    for (int f = 0; f < 2; ++f) {
      const ParquetSchema& ps = (*reader)->parquet_schema();
      const int leaf = ps.fields()[f].leaf;
      auto dict = ReadChunkDictionary(**reader, 0, leaf);
      ASSERT_TRUE(dict.ok()) << dict.status().ToString();
      const bool full = AllDataPagesDictionaryEncoded(*(*reader)->column_chunk(0, leaf).meta_data);
      if (fallback && f == 1) {
        EXPECT_FALSE(full);  // 100000 distinct strings overflow 300 bytes
      }
      if (!full) {
        EXPECT_FALSE(dict->has_value());
        continue;
      }
      ASSERT_TRUE(dict->has_value()) << "seed " << seed << " field " << f;
      const columnar::Vector& d = *(*dict)->values;
      const uint32_t null_index = static_cast<uint32_t>(d.size());
      const columnar::Vector& want = *(*whole)->column(f);
      auto rg = (*reader)->OpenRowGroup(0, {f});
      ASSERT_TRUE(rg.ok());
      int64_t at = 0;
      while (at < rows) {
        int64_t n = std::min<int64_t>(rows - at, 1 + static_cast<int64_t>(rng() % 400));
        // 1: about 1 row in 50; 5: 1 in 90, so the gaps fall on both sides of the reader's
        // kDenseGap (64): short gaps are read through and picked from, long ones skipped.
        int density = static_cast<int>(rng() % 6);
        if (density == 0) {
          ASSERT_TRUE((*rg)->SkipField(0, n).ok());
          at += n;
          continue;
        }
        std::vector<uint32_t> sel;
        for (int64_t i = 0; i < n; ++i) {
          bool take = density == 1   ? rng() % 50 == 0
                      : density == 2 ? rng() % 2 == 0
                      : density == 3 ? (i / 23) % 2 == 0
                      : density == 5 ? rng() % 90 == 0
                                     : true;
          if (take) sel.push_back(static_cast<uint32_t>(i));
        }
        const bool whole_batch = density == 4 && rng() % 2;
        std::vector<uint32_t> idx(sel.size() + 1);
        const uint32_t none = 0;
        const uint32_t* s = whole_batch ? nullptr : sel.empty() ? &none : sel.data();
        Status st = (*rg)->ReadFieldIndices(0, n, s, static_cast<int64_t>(sel.size()), null_index, idx.data());
        ASSERT_TRUE(st.ok()) << st.ToString();
        for (size_t t = 0; t < sel.size(); ++t) {
          const int64_t row = at + sel[t];
          if (want.IsNull(row)) {
            ASSERT_EQ(idx[t], null_index) << "seed " << seed << " row " << row;
          } else {
            ASSERT_LT(idx[t], null_index);
            ASSERT_EQ(columnar::TextOf(d, idx[t]), columnar::TextOf(want, row)) << "seed " << seed << " row " << row;
          }
        }
        EXPECT_EQ((*rg)->field_position(0), at + n);
        at += n;
      }
    }
  }
}

}  // namespace
}  // namespace shoal::parquet
