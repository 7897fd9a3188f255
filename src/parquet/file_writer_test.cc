// ParquetWriter: page index, statistics, bloom filters, metadata and the memory bound, checked
// against the written data and through shoal's reader.
#include "parquet/file_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "io/memory_file_system.h"
#include "parquet/file_reader.h"
#include "parquet/statistics.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

using columnar::Vector;
using columnar::VectorPtr;

// id: 0..n-1 ascending; s: "s" + (id % 97) with every 10th NULL; l: LIST<INT> of id % 4
// elements (NULL list every 13th row).
columnar::BatchPtr MakeIndexedBatch(int64_t n, int64_t first = 0) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), false},
                    {"s", columnar::String(), true},
                    {"l", columnar::List(columnar::Int32()), true}};
  VectorPtr id = Vector::Make(columnar::Int64(), n), s = Vector::Make(columnar::String(), n),
            l = Vector::Make(schema->fields[2].type, n);
  for (int64_t i = first; i < first + n; ++i) {
    id->Append<int64_t>(i);
    if (i % 10 == 0) {
      s->AppendNull();
    } else {
      s->AppendString(std::string("s").append(std::to_string(i % 97)));
    }
    if (i % 13 == 0) {
      l->AppendNull();
    } else {
      for (int64_t k = 0; k < i % 4; ++k) l->children()[0]->Append<int32_t>(static_cast<int32_t>(i + k));
      l->AppendListEnd();
    }
  }
  return std::make_shared<columnar::RecordBatch>(schema, std::vector<VectorPtr>{id, s, l}, n);
}

FileMetaData WriteFile(const std::shared_ptr<io::FileSystem>& fs, const std::string& path,
                       const columnar::RecordBatch& b, const WriterProperties& props) {
  auto w = ParquetWriter::Open(fs, path, *b.schema, props);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return {};
  EXPECT_TRUE((*w)->WriteBatch(b).ok());
  auto meta = (*w)->Close();
  EXPECT_TRUE(meta.ok()) << meta.status().ToString();
  return meta.ok() ? *meta : FileMetaData{};
}

TEST(ParquetWriter, OffsetIndexPointsAtPageHeadersWithRecordAlignedFirstRows) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(10000);
  for (DataPageVersion v : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    auto props = WriterProperties::Builder().data_page_rows(900).data_page_version(v).Build();
    WriteFile(fs, "/t.parquet", *batch, props);
    auto reader = ParquetReader::Open(fs, "/t.parquet");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const ParquetReader& r = **reader;
    ASSERT_EQ(r.num_row_groups(), 1);
    for (int leaf = 0; leaf < 3; ++leaf) {
      auto oi = r.ReadOffsetIndex(0, leaf);
      ASSERT_TRUE(oi.ok() && oi->has_value()) << "leaf " << leaf;
      const auto& locs = (*oi)->page_locations;
      ASSERT_GE(locs.size(), 10u);
      int64_t expected_first_row = 0;
      for (size_t p = 0; p < locs.size(); ++p) {
        std::string bytes(static_cast<size_t>(locs[p].compressed_page_size), '\0');
        ASSERT_TRUE(r.file()->ReadAt(locs[p].offset, locs[p].compressed_page_size,
                                     reinterpret_cast<uint8_t*>(bytes.data())).ok());
        PageHeader h;
        size_t consumed = 0;
        ASSERT_TRUE(DecodePageHeader(bytes, &h, &consumed).ok()) << "leaf " << leaf << " page " << p;
        EXPECT_EQ(static_cast<int64_t>(consumed) + h.compressed_page_size, locs[p].compressed_page_size);
        EXPECT_EQ(locs[p].first_row_index, expected_first_row) << "leaf " << leaf << " page " << p;
        if (h.type == PageType::kDataPageV2) {
          expected_first_row += h.data_page_header_v2->num_rows;
        } else {
          ASSERT_EQ(h.type, PageType::kDataPage);
          // Rows of this page = rows before the next page (record aligned pages) — for the
          // repeated column derive them from the list sizes.
          int64_t rows = 0, levels = 0;
          int64_t row = expected_first_row;
          while (levels < h.data_page_header->num_values && row < batch->num_rows) {
            const Vector& l = *batch->column(2);
            int64_t entries = leaf == 2 ? std::max<int64_t>(1, l.IsNull(row) ? 1 : l.offsets()[row + 1] - l.offsets()[row]) : 1;
            levels += entries;
            ++rows;
            ++row;
          }
          EXPECT_EQ(levels, h.data_page_header->num_values) << "page does not end on a record boundary";
          expected_first_row += rows;
        }
      }
      EXPECT_EQ(expected_first_row, 10000);
    }
  }
}

TEST(ParquetWriter, ColumnIndexMatchesBruteForcePerPage) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(10000);
  WriteFile(fs, "/t.parquet", *batch, WriterProperties::Builder().data_page_rows(1000).Build());
  auto reader = ParquetReader::Open(fs, "/t.parquet");
  ASSERT_TRUE(reader.ok());
  auto ci = (*reader)->ReadColumnIndex(0, 0);
  auto oi = (*reader)->ReadOffsetIndex(0, 0);
  ASSERT_TRUE(ci.ok() && ci->has_value() && oi.ok() && oi->has_value());
  EXPECT_EQ((*ci)->boundary_order, BoundaryOrder::kAscending);
  const auto& locs = (*oi)->page_locations;
  ASSERT_EQ((*ci)->min_values.size(), locs.size());
  for (size_t p = 0; p < locs.size(); ++p) {
    int64_t first = locs[p].first_row_index;
    int64_t last = p + 1 < locs.size() ? locs[p + 1].first_row_index - 1 : 9999;
    int64_t lo, hi;
    std::memcpy(&lo, (*ci)->min_values[p].data(), 8);
    std::memcpy(&hi, (*ci)->max_values[p].data(), 8);
    EXPECT_EQ(lo, first);
    EXPECT_EQ(hi, last);
    EXPECT_FALSE((*ci)->null_pages[p]);
  }
  // The string column: null counts per page equal the brute-force count of NULL rows.
  auto sci = (*reader)->ReadColumnIndex(0, 1);
  auto soi = (*reader)->ReadOffsetIndex(0, 1);
  ASSERT_TRUE(sci.ok() && sci->has_value() && soi.ok() && soi->has_value());
  const auto& sl = (*soi)->page_locations;
  for (size_t p = 0; p < sl.size(); ++p) {
    int64_t first = sl[p].first_row_index, end = p + 1 < sl.size() ? sl[p + 1].first_row_index : 10000;
    int64_t nulls = 0;
    std::string mn = "\xff", mx;
    for (int64_t i = first; i < end; ++i) {
      if (i % 10 == 0) {
        ++nulls;
        continue;
      }
      std::string v = std::string("s").append(std::to_string(i % 97));
      mn = std::min(mn, v);
      mx = std::max(mx, v);
    }
    EXPECT_EQ((*(*sci)->null_counts)[p], nulls);
    EXPECT_EQ((*sci)->min_values[p], mn);
    EXPECT_EQ((*sci)->max_values[p], mx);
  }
}

TEST(ParquetWriter, SelectiveRowRangeReadsOnlyItsPages) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(20000);
  WriteFile(fs, "/t.parquet", *batch, WriterProperties::Builder().data_page_rows(1000).dictionary(false).Build());
  auto reader = ParquetReader::Open(fs, "/t.parquet");
  ASSERT_TRUE(reader.ok());
  ReadStats stats;
  auto rg = (*reader)->OpenRowGroup(0, {0}, &stats);
  ASSERT_TRUE(rg.ok());
  ASSERT_TRUE((*rg)->SkipRows(15500).ok());
  auto b = (*rg)->ReadBatch(200);
  ASSERT_TRUE(b.ok() && *b);
  ASSERT_EQ((*b)->num_rows, 200);
  for (int64_t i = 0; i < 200; ++i) EXPECT_EQ((*b)->column(0)->Get<int64_t>(i), 15500 + i);
  EXPECT_LE(stats.pages_read, 2) << "read pages outside rows 15500..15699";
  EXPECT_GE(stats.pages_skipped, 14);
}

TEST(ParquetWriter, ChunkStatisticsDecodeToBruteForceBounds) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(5000, 100);
  auto meta = WriteFile(fs, "/t.parquet", *batch, WriterProperties::Builder().max_row_group_rows(2000).Build());
  ASSERT_EQ(meta.row_groups.size(), 3u);
  auto reader = ParquetReader::Open(fs, "/t.parquet");
  ASSERT_TRUE(reader.ok());
  const ParquetSchema& ps = (*reader)->parquet_schema();
  for (int g = 0; g < 3; ++g) {
    for (int leaf : {0, 1}) {
      const LeafColumn& lc = ps.leaves()[leaf];
      const Statistics* st = (*reader)->column_statistics(g, leaf);
      ASSERT_NE(st, nullptr);
      auto cs = DecodeStatistics(*st, lc, (*reader)->metadata().schema[lc.element_index],
                                 (*reader)->metadata().column_orders[leaf]);
      ASSERT_TRUE(cs.ok()) << cs.status().ToString();
      ASSERT_TRUE(cs->min && cs->max);
      int64_t first = 100 + g * 2000, end = std::min<int64_t>(first + 2000, 5100);
      if (leaf == 0) {
        EXPECT_EQ(cs->min->GetInt(), first);
        EXPECT_EQ(cs->max->GetInt(), end - 1);
        EXPECT_EQ(*cs->null_count, 0);
      } else {
        std::string mn = "\xff", mx;
        int64_t nulls = 0;
        for (int64_t i = first; i < end; ++i) {
          if (i % 10 == 0) {
            ++nulls;
            continue;
          }
          std::string v = std::string("s").append(std::to_string(i % 97));
          mn = std::min(mn, v);
          mx = std::max(mx, v);
        }
        EXPECT_EQ(cs->min->GetString(), mn);
        EXPECT_EQ(cs->max->GetString(), mx);
        EXPECT_EQ(*cs->null_count, nulls);
      }
    }
  }
}

TEST(ParquetWriter, BloomFilterContainsEveryValueAndFewOthers) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(5000);
  auto meta = WriteFile(fs, "/t.parquet", *batch,
                        WriterProperties::Builder().bloom_filter("id", 5000, 0.01).bloom_filter("s", 100, 0.01).Build());
  auto reader = ParquetReader::Open(fs, "/t.parquet");
  ASSERT_TRUE(reader.ok());
  auto load = [&](int leaf) -> BloomFilter {
    const ColumnMetaData& m = *(*reader)->column_chunk(0, leaf).meta_data;
    EXPECT_TRUE(m.bloom_filter_offset && m.bloom_filter_length);
    std::string bytes(static_cast<size_t>(*m.bloom_filter_length), '\0');
    EXPECT_TRUE((*reader)->file()->ReadAt(*m.bloom_filter_offset, *m.bloom_filter_length,
                                          reinterpret_cast<uint8_t*>(bytes.data())).ok());
    BloomFilterHeader h;
    size_t consumed = 0;
    EXPECT_TRUE(DecodeBloomFilterHeader(bytes, &h, &consumed).ok());
    EXPECT_TRUE(h.algorithm_block && h.hash_xxhash && h.compression_none);
    EXPECT_EQ(static_cast<int64_t>(consumed) + h.num_bytes, *m.bloom_filter_length);
    auto f = BloomFilter::FromBytes(reinterpret_cast<const uint8_t*>(bytes.data()) + consumed, h.num_bytes);
    EXPECT_TRUE(f.ok());
    return f.ok() ? *f : BloomFilter();
  };
  BloomFilter ids = load(0), strings = load(1);
  int false_positives = 0;
  for (int64_t i = 0; i < 5000; ++i) EXPECT_TRUE(ids.Check(BloomFilter::Hash(i)));
  for (int64_t i = 5000; i < 15000; ++i) false_positives += ids.Check(BloomFilter::Hash(i));
  EXPECT_LT(false_positives, 300);
  for (int i = 0; i < 97; ++i) {
    EXPECT_TRUE(strings.Check(BloomFilter::Hash(std::string("s").append(std::to_string(i)))));
  }
  EXPECT_FALSE((*reader)->column_chunk(0, 2).meta_data->bloom_filter_offset.has_value());
}

// The first-page rule of column_writer.cc: a high-cardinality column (or any column whose
// fallback is DELTA_BINARY_PACKED) that is smaller in the fallback encoding is written without a
// dictionary (every row group decides anew); one whose dictionary is the smaller form keeps it.
// Either way the values read back exactly.
TEST(ParquetWriter, HighCardinalityColumnsSkipTheDictionaryWhenTheFallbackIsSmaller) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"order_id", columnar::Int64(), false},   // i / 4: 25% distinct, sequential
                    {"day", columnar::Int32(), false},        // 100 values, unordered
                    {"comment", columnar::String(), false},   // long strings, 40% distinct
                    {"price", columnar::Int64(), false},      // random: all distinct
                    {"run", columnar::Int64(), false}};       // i / 16: 6.25% distinct, sequential
  const int64_t n = 50000;
  VectorPtr id = Vector::Make(columnar::Int64(), n), day = Vector::Make(columnar::Int32(), n),
            text = Vector::Make(columnar::String(), n), price = Vector::Make(columnar::Int64(), n),
            run = Vector::Make(columnar::Int64(), n);
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < n; ++i) {
    id->Append<int64_t>(i / 4);
    day->Append<int32_t>(static_cast<int32_t>((i * 37) % 100));
    text->AppendString(std::string(120, 'c') + std::to_string(i % 2000));
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    price->Append<int64_t>(static_cast<int64_t>(x >> 1));
    run->Append<int64_t>(i / 16);
  }
  columnar::RecordBatch batch(schema, {id, day, text, price, run}, n);
  for (Encoding fallback : {Encoding::kDeltaBinaryPacked, Encoding::kPlain}) {
    SCOPED_TRACE(static_cast<int>(fallback));
    const auto props = WriterProperties::Builder()
                           .max_row_group_rows(n / 2)
                           .data_page_rows(5000)
                           .encoding("order_id", fallback)
                           .encoding("day", fallback)
                           .encoding("price", fallback)
                           .encoding("run", fallback)
                           .Build();
    auto meta = WriteFile(fs, "/d.parquet", batch, props);
    ASSERT_EQ(meta.row_groups.size(), 2u);
    auto has_dictionary = [&](int rg, int leaf) {
      const ColumnMetaData& m = *meta.row_groups[rg].columns[leaf].meta_data;
      const bool dict_pages = std::count(m.encodings.begin(), m.encodings.end(), Encoding::kRleDictionary) > 0;
      EXPECT_EQ(dict_pages, m.dictionary_page_offset.has_value());
      return dict_pages;
    };
    for (int rg = 0; rg < 2; ++rg) {
      // Sequential ids: DELTA_BINARY_PACKED (bits per value) beats entries plus indices; PLAIN
      // (8 bytes a value) does not, so with a PLAIN fallback the dictionary stays.
      EXPECT_EQ(has_dictionary(rg, 0), fallback == Encoding::kPlain);
      EXPECT_TRUE(has_dictionary(rg, 1));   // 100 distinct days
      EXPECT_TRUE(has_dictionary(rg, 2));   // repeated long strings: the dictionary is smaller
      EXPECT_FALSE(has_dictionary(rg, 3));  // all distinct: never smaller
      // Few distinct values in long runs: compared only against DELTA_BINARY_PACKED (cheap to
      // try), which wins; a PLAIN fallback is not tried below a quarter distinct.
      EXPECT_EQ(has_dictionary(rg, 4), fallback == Encoding::kPlain);
    }
    auto reader = ParquetReader::Open(fs, "/d.parquet");
    ASSERT_TRUE(reader.ok());
    auto read = (*reader)->ReadAll();
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    int64_t row = 0;
    for (const auto& b : *read) {
      for (int64_t i = 0; i < b->num_rows; ++i, ++row) {
        ASSERT_EQ(b->column(0)->Get<int64_t>(i), id->Get<int64_t>(row));
        ASSERT_EQ(b->column(1)->Get<int32_t>(i), day->Get<int32_t>(row));
        ASSERT_EQ(b->column(2)->GetString(i), text->GetString(row));
        ASSERT_EQ(b->column(3)->Get<int64_t>(i), price->Get<int64_t>(row));
        ASSERT_EQ(b->column(4)->Get<int64_t>(i), run->Get<int64_t>(row));
      }
    }
    EXPECT_EQ(row, n);
  }
}

// The first-page rule weighs the two forms as stored (compressed), not only encoded: values that
// repeat a short cycle of deltas inside runs (a column after sorting by an unrelated key: each
// run of 1,000 rows steps through 200 part keys) take fewer encoded bytes as deltas but not half
// the dictionary's, yet compress to a fraction of it, since the codec removes the repeated
// deltas but not the distinct dictionary entries. Written beside the same values with a PLAIN
// fallback (never weighed below a quarter distinct, so the dictionary stays), the chunk without a
// dictionary must be under half the dictionary chunk's stored size.
TEST(ParquetWriter, FirstPageRuleComparesTheFormsAsStored) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"cycle", columnar::Int64(), false}, {"cycle_dict", columnar::Int64(), false}};
  const int64_t n = 131072;
  VectorPtr a = Vector::Make(columnar::Int64(), n), b = Vector::Make(columnar::Int64(), n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = (7919 * (i / 1000) + 119000 * (i % 1000)) % 200000;
    a->Append<int64_t>(v);
    b->Append<int64_t>(v);
  }
  columnar::RecordBatch batch(schema, {a, b}, n);
  const auto props = WriterProperties::Builder()
                         .compression(CompressionCodec::kSnappy)
                         .max_row_group_rows(n / 2)
                         .data_page_rows(32768)
                         .encoding("cycle", Encoding::kDeltaBinaryPacked)
                         .encoding("cycle_dict", Encoding::kPlain)
                         .Build();
  auto meta = WriteFile(fs, "/c.parquet", batch, props);
  ASSERT_EQ(meta.row_groups.size(), 2u);
  for (const auto& rg : meta.row_groups) {
    const ColumnMetaData& deltas = *rg.columns[0].meta_data;
    const ColumnMetaData& dict = *rg.columns[1].meta_data;
    EXPECT_FALSE(deltas.dictionary_page_offset.has_value());
    EXPECT_TRUE(dict.dictionary_page_offset.has_value());
    // Encoded, the deltas are not half the dictionary form (the old rule kept the dictionary)...
    EXPECT_GT(2 * deltas.total_uncompressed_size, dict.total_uncompressed_size);
    // ...but stored they are well under half of it.
    EXPECT_LT(2 * deltas.total_compressed_size, dict.total_compressed_size);
  }
  auto reader = ParquetReader::Open(fs, "/c.parquet");
  ASSERT_TRUE(reader.ok());
  auto read = (*reader)->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  int64_t row = 0;
  for (const auto& got : *read) {
    for (int64_t i = 0; i < got->num_rows; ++i, ++row) {
      ASSERT_EQ(got->column(0)->Get<int64_t>(i), a->Get<int64_t>(row));
      ASSERT_EQ(got->column(1)->Get<int64_t>(i), b->Get<int64_t>(row));
    }
  }
  EXPECT_EQ(row, n);
}

// The first-page rule runs once per column per file: later row groups take the first chunk's
// choice without the trial (LocalSort writes 64Ki-row row groups, and the trial compressed each
// chunk's first page three times). Here the first row group's values are all distinct (no
// dictionary), and the second row group's, which alone keep their dictionary (few values in
// runs), are written without one too; the rows read back unchanged.
TEST(ParquetWriter, LaterRowGroupsTakeTheFirstChunksDictionaryChoice) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"v", columnar::Int64(), false}};
  const int64_t half = 32768;
  VectorPtr all = Vector::Make(columnar::Int64(), 2 * half), second = Vector::Make(columnar::Int64(), half);
  for (int64_t i = 0; i < 2 * half; ++i) {
    const int64_t v = i < half ? i * 7919 : i / 1000;
    all->Append<int64_t>(v);
    if (i >= half) second->Append<int64_t>(v);
  }
  const auto props = WriterProperties::Builder()
                         .compression(CompressionCodec::kSnappy)
                         .max_row_group_rows(half)
                         .encoding("v", Encoding::kPlain)
                         .Build();
  auto both = WriteFile(fs, "/both.parquet", columnar::RecordBatch(schema, {all}, 2 * half), props);
  ASSERT_EQ(both.row_groups.size(), 2u);
  EXPECT_FALSE(both.row_groups[0].columns[0].meta_data->dictionary_page_offset.has_value());
  EXPECT_FALSE(both.row_groups[1].columns[0].meta_data->dictionary_page_offset.has_value());
  auto alone = WriteFile(fs, "/alone.parquet", columnar::RecordBatch(schema, {second}, half), props);
  ASSERT_EQ(alone.row_groups.size(), 1u);
  EXPECT_TRUE(alone.row_groups[0].columns[0].meta_data->dictionary_page_offset.has_value());
  auto reader = ParquetReader::Open(fs, "/both.parquet");
  ASSERT_TRUE(reader.ok());
  auto read = (*reader)->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  int64_t row = 0;
  for (const auto& got : *read) {
    for (int64_t i = 0; i < got->num_rows; ++i, ++row) ASSERT_EQ(got->column(0)->Get<int64_t>(i), all->Get<int64_t>(row));
  }
  EXPECT_EQ(row, 2 * half);
}

TEST(ParquetWriter, WritesSortingColumnsKeyValuesFieldIdsAndCreatedBy) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(100);
  auto props = WriterProperties::Builder()
                   .sorting_column("id")
                   .key_value("origin", "test")
                   .field_id("id", 7)
                   .field_id("l.list.element", 9)
                   .Build();
  WriteFile(fs, "/t.parquet", *batch, props);
  auto reader = ParquetReader::Open(fs, "/t.parquet");
  ASSERT_TRUE(reader.ok());
  const FileMetaData& m = (*reader)->metadata();
  ASSERT_EQ(m.row_groups[0].sorting_columns.size(), 1u);
  EXPECT_EQ(m.row_groups[0].sorting_columns[0].column_idx, 0);
  ASSERT_EQ(m.key_value_metadata.size(), 1u);
  EXPECT_EQ(m.key_value_metadata[0].key, "origin");
  EXPECT_EQ(m.schema[1].field_id, 7);
  auto elem = std::find_if(m.schema.begin(), m.schema.end(), [](const SchemaElement& e) { return e.name == "element"; });
  ASSERT_NE(elem, m.schema.end());
  EXPECT_EQ(elem->field_id, 9);
  ASSERT_TRUE(m.created_by.has_value());
  EXPECT_EQ(m.created_by->rfind("shoal version 0.1.0 (build ", 0), 0u);
  EXPECT_EQ(m.column_orders.size(), 3u);
  EXPECT_FALSE(ParquetWriter::Open(fs, "/u.parquet", *batch->schema,
                                   WriterProperties::Builder().sorting_column("nope").Build()).ok());
}

TEST(ParquetWriter, RejectsNullInRequiredColumnAndWrongTypes) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeIndexedBatch(10);
  batch->columns[0]->MutableValidity()[3] = 0;
  auto w = ParquetWriter::Open(fs, "/t.parquet", *batch->schema);
  ASSERT_TRUE(w.ok());
  Status st = (*w)->WriteBatch(*batch);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("id"), std::string::npos);
  auto other = MakeIndexedBatch(10);
  other->columns[0] = Vector::Make(columnar::Int32(), 10);
  other->columns[0]->Resize(10);
  EXPECT_EQ((*w)->WriteBatch(*other).code(), StatusCode::kInvalidArgument);
}

TEST(ParquetWriter, BufferedBytesStayNearOneRowGroup) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string path = dir.Join("big.parquet");
  auto schema = MakeIndexedBatch(1)->schema;
  auto w = ParquetWriter::Open(fs, path, *schema, WriterProperties::Builder().max_row_group_rows(100000).Build());
  ASSERT_TRUE(w.ok());
  const int64_t total = 2000000, step = 250000;
  for (int64_t off = 0; off < total; off += step) ASSERT_TRUE((*w)->WriteBatch(*MakeIndexedBatch(step, off)).ok());
  auto meta = (*w)->Close();
  ASSERT_TRUE(meta.ok());
  ASSERT_EQ(meta->row_groups.size(), 20u);
  EXPECT_EQ(meta->num_rows, total);
  int64_t largest_group = 0;
  for (const RowGroup& g : meta->row_groups) largest_group = std::max(largest_group, *g.total_compressed_size);
  // Held at most one row group plus the open pages and dictionaries (uncompressed estimates).
  EXPECT_LE((*w)->peak_buffered_bytes(), 3 * largest_group + (4 << 20)) << "largest group " << largest_group;
  auto info = fs->Stat(path);
  ASSERT_TRUE(info.ok());
  EXPECT_LT((*w)->peak_buffered_bytes(), info->size / 4);
}

}  // namespace
}  // namespace shoal::parquet
