// Dictionary probe: reads a chunk's dictionary page for every physical type the writer makes,
// refuses chunks that are not fully dictionary-encoded, and fails cleanly on corrupt offsets.
#include "parquet/dictionary_probe.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "columnar/value.h"
#include "io/memory_file_system.h"
#include "parquet/file_writer.h"

namespace shoal::parquet {
namespace {

using columnar::Value;
using columnar::Vector;
using columnar::VectorPtr;

std::vector<columnar::TypePtr> AllTypes() {
  return {columnar::Int8(),          columnar::Int16(),     columnar::Int32(),        columnar::Int64(),
          columnar::Float32(),       columnar::Float64(),   columnar::String(),       columnar::Binary(),
          columnar::Date(),          columnar::Timestamp(), columnar::TimestampNtz(), columnar::Decimal(9, 2),
          columnar::Decimal(18, 3),  columnar::Decimal(30, 4), columnar::Boolean()};
}

// Row i of a column of `type`: a value from a pool of `distinct` values, NULL every 7th row.
void AppendValue(Vector* v, const columnar::TypePtr& type, int64_t i, int64_t distinct) {
  if (i % 7 == 3) {
    v->AppendNull();
    return;
  }
  int64_t k = (i * 7919) % distinct - distinct / 2;  // negative values too
  switch (type->id()) {
    case columnar::TypeId::kBoolean: v->Append<uint8_t>(k & 1); break;
    case columnar::TypeId::kInt8: v->Append<int8_t>(static_cast<int8_t>(k)); break;
    case columnar::TypeId::kInt16: v->Append<int16_t>(static_cast<int16_t>(k * 100)); break;
    case columnar::TypeId::kInt32:
    case columnar::TypeId::kDate: v->Append<int32_t>(static_cast<int32_t>(k * 1000)); break;
    case columnar::TypeId::kInt64:
    case columnar::TypeId::kTimestamp:
    case columnar::TypeId::kTimestampNtz: v->Append<int64_t>(k * 1000003); break;
    case columnar::TypeId::kFloat: v->Append<float>(static_cast<float>(k) / 4); break;
    case columnar::TypeId::kDouble: v->Append<double>(static_cast<double>(k) / 8); break;
    case columnar::TypeId::kString:
    case columnar::TypeId::kBinary: v->AppendString("prefix-shared-" + std::to_string(k)); break;
    case columnar::TypeId::kDecimal:
      if (type->IsWideDecimal()) {
        v->Append<__int128>(static_cast<__int128>(k) * 1000000007);
      } else {
        v->Append<int64_t>(k * 101);
      }
      break;
    default: FAIL() << "type " << type->ToString();
  }
}

// n rows of every type, `distinct` values per column; the first `low_rows` rows draw from only
// 10 (so the writer keeps a dictionary for the chunk that later rows can overflow).
columnar::BatchPtr MakeBatch(int64_t n, int64_t distinct, int64_t low_rows = 0) {
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<VectorPtr> cols;
  int c = 0;
  for (const auto& t : AllTypes()) {
    schema->fields.push_back({std::string("c").append(std::to_string(c++)), t, true});
    auto v = Vector::Make(t, n);
    for (int64_t i = 0; i < n; ++i) AppendValue(v.get(), t, i, i < low_rows ? 10 : distinct);
    cols.push_back(v);
  }
  return std::make_shared<columnar::RecordBatch>(schema, cols, n);
}

std::unique_ptr<ParquetReader> Write(const std::shared_ptr<io::MemoryFileSystem>& fs, const columnar::RecordBatch& b,
                                     const WriterProperties& props) {
  auto w = ParquetWriter::Open(fs, "/d.parquet", *b.schema, props);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_TRUE((*w)->WriteBatch(b).ok());
  EXPECT_TRUE((*w)->Close().ok());
  auto r = ParquetReader::Open(fs, "/d.parquet");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : nullptr;
}

std::set<std::string> DistinctValues(const Vector& v) {
  std::set<std::string> s;
  for (int64_t i = 0; i < v.size(); ++i) {
    Value x = Value::FromVector(v, i);
    if (!x.is_null()) s.insert(x.ToString());
  }
  return s;
}

TEST(DictionaryProbe, ReadsTheDictionaryOfEveryPhysicalType) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeBatch(3000, 40);
  for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    auto props = WriterProperties::Builder().data_page_rows(500).data_page_version(version).Build();
    auto r = Write(fs, *batch, props);
    ASSERT_TRUE(r);
    for (int leaf = 0; leaf < r->parquet_schema().num_leaves(); ++leaf) {
      const auto& type = batch->schema->fields[leaf].type;
      ReadStats stats;
      auto d = ReadChunkDictionary(*r, 0, leaf, &stats);
      ASSERT_TRUE(d.ok()) << type->ToString() << ": " << d.status().ToString();
      if (type->id() == columnar::TypeId::kBoolean) {
        EXPECT_FALSE(d->has_value());  // the writer never dictionary-encodes booleans
        continue;
      }
      ASSERT_TRUE(d->has_value()) << type->ToString();
      EXPECT_GT(stats.bytes_read, 0);
      EXPECT_TRUE((*d)->may_have_nulls);
      EXPECT_TRUE((*d)->values->type()->Equals(*r->parquet_schema().leaves()[leaf].type));
      EXPECT_EQ(DistinctValues(*(*d)->values), DistinctValues(*batch->columns[leaf])) << type->ToString();
      EXPECT_EQ((*d)->values->size(), static_cast<int64_t>(DistinctValues(*batch->columns[leaf]).size()));
    }
  }
}

TEST(DictionaryProbe, ChunkWithoutNullsSaysSo) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"x", columnar::Int64(), true}};
  auto v = Vector::Make(columnar::Int64(), 100);
  for (int i = 0; i < 100; ++i) v->Append<int64_t>(i % 5);
  columnar::RecordBatch b(schema, {v}, 100);
  auto r = Write(fs, b, WriterProperties::Defaults());
  auto d = ReadChunkDictionary(*r, 0, 0);
  ASSERT_TRUE(d.ok() && d->has_value());
  EXPECT_FALSE((*d)->may_have_nulls);
  EXPECT_EQ((*d)->values->size(), 5);
}

TEST(DictionaryProbe, RefusesChunksWithPlainFallbackOrNoDictionary) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto batch = MakeBatch(3000, 2000, /*low_rows=*/200);
  // A tiny dictionary limit forces fallback to PLAIN pages within the chunk: a dictionary page,
  // dictionary-encoded first pages, then PLAIN ones (booleans never get a dictionary).
  auto fallback = WriterProperties::Builder().data_page_rows(200).dictionary_page_bytes(256).Build();
  auto r = Write(fs, *batch, fallback);
  for (int leaf = 0; leaf < r->parquet_schema().num_leaves(); ++leaf) {
    const ColumnMetaData& m = *r->column_chunk(0, leaf).meta_data;
    if (m.type != PhysicalType::kBoolean) {
      EXPECT_TRUE(m.dictionary_page_offset.has_value()) << leaf;
    }
    EXPECT_FALSE(AllDataPagesDictionaryEncoded(m)) << leaf;
    auto d = ReadChunkDictionary(*r, 0, leaf);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    EXPECT_FALSE(d->has_value()) << leaf;
  }
  auto plain = WriterProperties::Builder().dictionary(false).Build();
  r = Write(fs, *batch, plain);
  for (int leaf = 0; leaf < r->parquet_schema().num_leaves(); ++leaf) {
    auto d = ReadChunkDictionary(*r, 0, leaf);
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->has_value());
  }
}

TEST(DictionaryProbe, EncodingListRulesWithoutEncodingStats) {
  ColumnMetaData m;
  m.type = PhysicalType::kInt32;
  m.encodings = {Encoding::kPlainDictionary, Encoding::kRle, Encoding::kBitPacked};
  EXPECT_TRUE(AllDataPagesDictionaryEncoded(m));
  m.encodings = {Encoding::kRleDictionary, Encoding::kPlain, Encoding::kRle};  // PLAIN: unprovable
  EXPECT_FALSE(AllDataPagesDictionaryEncoded(m));
  m.encodings = {Encoding::kRle};
  EXPECT_FALSE(AllDataPagesDictionaryEncoded(m));
  m.type = PhysicalType::kBoolean;
  m.encodings = {Encoding::kRleDictionary, Encoding::kRle};
  EXPECT_FALSE(AllDataPagesDictionaryEncoded(m));
  m.type = PhysicalType::kInt32;
  m.encoding_stats = {{PageType::kDictionaryPage, Encoding::kPlain, 1},
                      {PageType::kDataPage, Encoding::kRleDictionary, 3}};
  m.encodings = {Encoding::kPlain, Encoding::kRleDictionary};  // stats win over the list
  EXPECT_TRUE(AllDataPagesDictionaryEncoded(m));
  m.encoding_stats.push_back({PageType::kDataPageV2, Encoding::kPlain, 1});
  EXPECT_FALSE(AllDataPagesDictionaryEncoded(m));
}

// The file with its footer replaced by `m` (data pages kept where they are).
std::string RewriteFooter(const std::string& file, const FileMetaData& m) {
  uint32_t len = 0;
  std::memcpy(&len, file.data() + file.size() - 8, 4);
  std::string out = file.substr(0, file.size() - 8 - len);
  std::string footer;
  EncodeFileMetaData(m, &footer);
  uint32_t n = static_cast<uint32_t>(footer.size());
  out += footer;
  out.append(reinterpret_cast<const char*>(&n), 4);
  out += "PAR1";
  return out;
}

TEST(DictionaryProbe, CorruptOffsetsAndPagesFailCleanly) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"s", columnar::String(), true}};
  auto v = Vector::Make(columnar::String(), 1000);
  for (int i = 0; i < 1000; ++i) v->AppendString("value-" + std::to_string(i % 30));
  columnar::RecordBatch b(schema, {v}, 1000);
  auto props = WriterProperties::Builder().page_crc(false).compression(CompressionCodec::kUncompressed).Build();
  auto r = Write(fs, b, props);
  ASSERT_TRUE(r);
  auto original = fs->ReadAll("/d.parquet");
  ASSERT_TRUE(original.ok());
  const ColumnMetaData& meta = *r->column_chunk(0, 0).meta_data;
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  int64_t dict = *meta.dictionary_page_offset;
  // Every single-byte corruption of the dictionary page: never a crash, and either an error,
  // no dictionary, or a dictionary (values may differ; the page has no CRC).
  for (int64_t pos = dict; pos < meta.data_page_offset; ++pos) {
    for (uint8_t x : {uint8_t{0x00}, uint8_t{0xff}, uint8_t{0x7f}}) {
      std::string bytes = *original;
      bytes[static_cast<size_t>(pos)] = static_cast<char>(x);
      fs->SetContents("/d.parquet", bytes);
      auto rr = ParquetReader::Open(fs, "/d.parquet");
      ASSERT_TRUE(rr.ok());
      auto d = ReadChunkDictionary(**rr, 0, 0);
      if (d.ok() && d->has_value()) {
        EXPECT_LE((*d)->values->size(), 1000);
      }
    }
  }
  // Offsets in the footer that point anywhere: an error or no dictionary, never a crash.
  FileMetaData fm = r->metadata();
  int64_t size = static_cast<int64_t>(original->size());
  std::vector<std::pair<int64_t, int64_t>> cases = {
      {size + 100, meta.data_page_offset}, {2, meta.data_page_offset}, {meta.data_page_offset - 1, meta.data_page_offset},
      {-5, meta.data_page_offset},         {dict, size + 1000},        {dict, int64_t{1} << 62},
      {dict + 1, meta.data_page_offset},   {0, meta.data_page_offset},                  {dict, dict + 2}};
  for (auto [dict_offset, data_offset] : cases) {
    FileMetaData m = fm;
    m.row_groups[0].columns[0].meta_data->dictionary_page_offset = dict_offset;
    m.row_groups[0].columns[0].meta_data->data_page_offset = data_offset;
    fs->SetContents("/d.parquet", RewriteFooter(*original, m));
    auto rr = ParquetReader::Open(fs, "/d.parquet");
    ASSERT_TRUE(rr.ok()) << rr.status().ToString();
    auto d = ReadChunkDictionary(**rr, 0, 0);
    EXPECT_FALSE(d.ok() && d->has_value()) << dict_offset << " " << data_offset;
  }
}

}  // namespace
}  // namespace shoal::parquet
