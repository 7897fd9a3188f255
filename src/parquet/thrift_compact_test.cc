#include "parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include "parquet/metadata.h"

namespace shoal::parquet {
namespace {

TEST(ThriftCompact, RoundTripsScalarsListsMapsAndNestedStructs) {
  std::string buf;
  CompactWriter w(&buf);
  w.StructBegin();
  w.FieldI32(1, -123456);
  w.FieldI64(2, INT64_MIN);
  w.FieldBool(3, true);
  w.FieldBool(4, false);
  w.FieldBinary(20, std::string("hi\0there", 8));  // delta > 15: long-form field header
  w.FieldDouble(21, 2.5);
  w.FieldBegin(22, kCList);
  w.ListBegin(kCI32, 20);  // size >= 15: long-form list header
  for (int i = 0; i < 20; ++i) w.WriteI32(i * 1000 - 7);
  w.FieldBegin(23, kCMap);
  w.MapBegin(kCBinary, kCI64, 2);
  w.WriteBinary("a");
  w.WriteI64(1);
  w.WriteBinary("b");
  w.WriteI64(-2);
  w.FieldBegin(24, kCStruct);
  w.StructBegin();
  w.FieldI16(1, -5);
  w.StructEnd();
  w.FieldI32(25, 99);
  w.StructEnd();

  CompactReader r(reinterpret_cast<const uint8_t*>(buf.data()), buf.size());
  CompactReader::FieldHeader f;
  r.StructBegin();
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(f.id, 1);
  EXPECT_EQ(r.ReadI32(), -123456);
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(r.ReadI64(), INT64_MIN);
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_TRUE(CompactReader::FieldBool(f));
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_FALSE(CompactReader::FieldBool(f));
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(f.id, 20);
  EXPECT_EQ(r.ReadBinary(), std::string_view("hi\0there", 8));
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(r.ReadDouble(), 2.5);
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  auto lh = r.ReadListBegin();
  ASSERT_EQ(lh.size, 20);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(r.ReadI32(), i * 1000 - 7);
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  auto mh = r.ReadMapBegin();
  ASSERT_EQ(mh.size, 2);
  EXPECT_EQ(r.ReadBinary(), "a");
  EXPECT_EQ(r.ReadI64(), 1);
  EXPECT_EQ(r.ReadBinary(), "b");
  EXPECT_EQ(r.ReadI64(), -2);
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(f.type, kCStruct);
  r.StructBegin();
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(r.ReadI16(), -5);
  EXPECT_FALSE(r.ReadFieldBegin(&f));
  r.StructEnd();
  ASSERT_TRUE(r.ReadFieldBegin(&f));
  EXPECT_EQ(f.id, 25);  // field id delta restored after the nested struct
  EXPECT_EQ(r.ReadI32(), 99);
  EXPECT_FALSE(r.ReadFieldBegin(&f));
  r.StructEnd();
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.position(), buf.size());
}

TEST(ThriftCompact, SkipsUnknownFieldsOfEveryType) {
  // A KeyValue with unknown fields of every type between key and value.
  std::string buf;
  CompactWriter w(&buf);
  w.StructBegin();
  w.FieldBinary(1, "k");
  w.FieldBool(3, true);
  w.FieldByte(4, 7);
  w.FieldI16(5, 300);
  w.FieldDouble(6, 1.0);
  w.FieldBegin(7, kCList);
  w.ListBegin(kCStruct, 1);
  w.StructBegin();
  w.FieldBinary(1, "nested");
  w.StructEnd();
  w.FieldBegin(8, kCMap);
  w.MapBegin(kCI32, kCBoolTrue, 1);
  w.WriteI32(1);
  w.WriteBoolElement(true);
  w.FieldBegin(9, kCSet);
  w.ListBegin(kCBoolTrue, 2);
  w.WriteBoolElement(true);
  w.WriteBoolElement(false);
  w.StructEnd();
  // DecodeStatistics sees only unknown ids here except none: use a Statistics wrapper.
  Statistics s;
  EXPECT_TRUE(DecodeStatistics(buf, &s).ok());  // ids 1..9 overlap; types mismatch are skipped
  // And as a PageLocation list element inside an OffsetIndex, unknown ids skip cleanly.
  std::string oi;
  CompactWriter w2(&oi);
  w2.StructBegin();
  w2.FieldBegin(1, kCList);
  w2.ListBegin(kCStruct, 1);
  w2.StructBegin();
  w2.FieldI64(1, 100);
  w2.FieldI32(2, 50);
  w2.FieldI64(3, 7);
  w2.FieldBegin(9, kCStruct);
  oi += buf;  // an unknown struct field holding the struct above
  w2.StructEnd();
  w2.FieldBinary(17, "future field");
  w2.StructEnd();
  OffsetIndex out;
  ASSERT_TRUE(DecodeOffsetIndex(oi, &out).ok());
  ASSERT_EQ(out.page_locations.size(), 1u);
  EXPECT_EQ(out.page_locations[0].offset, 100);
  EXPECT_EQ(out.page_locations[0].compressed_page_size, 50);
  EXPECT_EQ(out.page_locations[0].first_row_index, 7);
}

TEST(ThriftCompact, RejectsTruncatedAndOversizedInput) {
  std::string buf;
  CompactWriter w(&buf);
  w.StructBegin();
  w.FieldBinary(1, "a long enough key value");
  w.StructEnd();
  for (size_t n = 0; n < buf.size(); ++n) {
    Statistics s;
    EXPECT_FALSE(DecodeStatistics(buf.substr(0, n), &s).ok()) << n;
  }
  // A list claiming more elements than bytes remain.
  std::string big = "\x19\xfc\xff\xff\xff\x0f";  // field 1 list, long form, huge count
  OffsetIndex oi;
  Status st = DecodeOffsetIndex(big, &oi);
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
}

TEST(ThriftCompact, LimitsNestingDepth) {
  std::string buf;
  for (int i = 0; i < 200; ++i) buf += "\x1c";  // field 1, type struct, nested
  Statistics s;
  Status st = DecodeStatistics(buf, &s);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(ParquetMetadata, FileMetaDataRoundTrips) {
  FileMetaData m;
  m.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  SchemaElement a;
  a.name = "a";
  a.type = PhysicalType::kInt64;
  a.repetition = Repetition::kOptional;
  LogicalType ts;
  ts.kind = LogicalType::kTimestamp;
  ts.unit = TimeUnit::kNanos;
  ts.is_adjusted_to_utc = true;
  a.logical_type = ts;
  SchemaElement b;
  b.name = "b";
  b.type = PhysicalType::kFixedLenByteArray;
  b.type_length = 9;
  b.repetition = Repetition::kRequired;
  b.converted_type = ConvertedType::kDecimal;
  b.precision = 20;
  b.scale = 3;
  LogicalType dec;
  dec.kind = LogicalType::kDecimal;
  dec.decimal_precision = 20;
  dec.decimal_scale = 3;
  b.logical_type = dec;
  m.schema = {root, a, b};
  m.num_rows = 42;
  RowGroup rg;
  rg.num_rows = 42;
  rg.total_byte_size = 1000;
  rg.ordinal = 0;
  ColumnChunk cc;
  cc.file_offset = 4;
  ColumnMetaData md;
  md.type = PhysicalType::kInt64;
  md.encodings = {Encoding::kPlain, Encoding::kRleDictionary};
  md.path_in_schema = {"a"};
  md.codec = CompressionCodec::kZstd;
  md.num_values = 42;
  md.total_compressed_size = 300;
  md.total_uncompressed_size = 400;
  md.data_page_offset = 4;
  md.dictionary_page_offset = 4;
  Statistics st;
  st.min_value = std::string("\x01\0\0\0\0\0\0\0", 8);
  st.max_value = std::string("\x09\0\0\0\0\0\0\0", 8);
  st.null_count = 3;
  st.is_max_value_exact = true;
  md.statistics = st;
  md.encoding_stats = {{PageType::kDataPage, Encoding::kRleDictionary, 2}};
  md.key_value_metadata = {{"k", std::string("v")}};
  cc.meta_data = md;
  cc.offset_index_offset = 1000;
  cc.offset_index_length = 20;
  rg.columns = {cc};
  rg.sorting_columns = {{0, true, false}};
  m.row_groups = {rg};
  m.key_value_metadata = {{"writer", std::nullopt}};
  m.created_by = "shoal";
  m.column_orders = {{1}, {1}};

  std::string bytes;
  EncodeFileMetaData(m, &bytes);
  FileMetaData d;
  ASSERT_TRUE(DecodeFileMetaData(bytes, &d).ok());
  ASSERT_EQ(d.schema.size(), 3u);
  EXPECT_EQ(d.schema[1].logical_type->kind, LogicalType::kTimestamp);
  EXPECT_EQ(d.schema[1].logical_type->unit, TimeUnit::kNanos);
  EXPECT_TRUE(d.schema[1].logical_type->is_adjusted_to_utc);
  EXPECT_EQ(d.schema[2].type_length, 9);
  EXPECT_EQ(d.schema[2].logical_type->decimal_precision, 20);
  EXPECT_EQ(d.num_rows, 42);
  ASSERT_EQ(d.row_groups.size(), 1u);
  const ColumnMetaData& dm = *d.row_groups[0].columns[0].meta_data;
  EXPECT_EQ(dm.codec, CompressionCodec::kZstd);
  EXPECT_EQ(dm.encodings.size(), 2u);
  EXPECT_EQ(*dm.statistics->min_value, *st.min_value);
  EXPECT_EQ(*dm.statistics->null_count, 3);
  EXPECT_TRUE(*dm.statistics->is_max_value_exact);
  EXPECT_EQ(dm.encoding_stats[0].count, 2);
  EXPECT_EQ(*d.row_groups[0].columns[0].offset_index_offset, 1000);
  EXPECT_TRUE(d.row_groups[0].sorting_columns[0].descending);
  EXPECT_EQ(*d.created_by, "shoal");
  EXPECT_FALSE(d.key_value_metadata[0].value.has_value());
  EXPECT_EQ(d.column_orders.size(), 2u);
  // Re-encoding the decoded value gives the same bytes.
  std::string again;
  EncodeFileMetaData(d, &again);
  EXPECT_EQ(again, bytes);
}

TEST(ParquetMetadata, PageHeaderAndIndexesRoundTrip) {
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = 100;
  h.compressed_page_size = 60;
  h.crc = -5;
  DataPageHeaderV2 v2;
  v2.num_values = 10;
  v2.num_nulls = 2;
  v2.num_rows = 10;
  v2.encoding = Encoding::kDeltaBinaryPacked;
  v2.definition_levels_byte_length = 3;
  v2.is_compressed = false;
  h.data_page_header_v2 = v2;
  std::string bytes;
  EncodePageHeader(h, &bytes);
  bytes += "trailing page body";
  PageHeader d;
  size_t consumed = 0;
  ASSERT_TRUE(DecodePageHeader(bytes, &d, &consumed).ok());
  EXPECT_EQ(consumed, bytes.size() - 18);
  EXPECT_EQ(*d.crc, -5);
  EXPECT_FALSE(d.data_page_header_v2->is_compressed);
  EXPECT_EQ(d.data_page_header_v2->num_nulls, 2);

  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "c"};
  ci.max_values = {"b", "", "d"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = std::vector<int64_t>{0, 5, 1};
  std::string cb;
  EncodeColumnIndex(ci, &cb);
  ColumnIndex cd;
  ASSERT_TRUE(DecodeColumnIndex(cb, &cd).ok());
  EXPECT_EQ(cd.null_pages, ci.null_pages);
  EXPECT_EQ(cd.max_values, ci.max_values);
  EXPECT_EQ(cd.boundary_order, BoundaryOrder::kAscending);
  EXPECT_EQ(*cd.null_counts, *ci.null_counts);

  BloomFilterHeader bf;
  bf.num_bytes = 1024;
  std::string bb;
  EncodeBloomFilterHeader(bf, &bb);
  BloomFilterHeader bd;
  ASSERT_TRUE(DecodeBloomFilterHeader(bb, &bd, nullptr).ok());
  EXPECT_EQ(bd.num_bytes, 1024);
  EXPECT_TRUE(bd.algorithm_block && bd.hash_xxhash && bd.compression_none);
}

TEST(ParquetMetadata, PageHeaderWithoutRequiredFieldsIsCorruption) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.StructBegin();
  w.FieldI32(1, 0);
  w.StructEnd();
  PageHeader h;
  EXPECT_TRUE(DecodePageHeader(bytes, &h, nullptr).IsCorruption());
}

}  // namespace
}  // namespace shoal::parquet
