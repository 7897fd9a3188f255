// Encoders for the structures of metadata.h (the Parquet writer's footer and page headers).
#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace shoal::parquet {
namespace {

using W = CompactWriter;

template <class T>
void OptI32(W& w, int16_t id, const std::optional<T>& v) {
  if (v) w.FieldI32(id, static_cast<int32_t>(*v));
}
void OptI64(W& w, int16_t id, const std::optional<int64_t>& v) {
  if (v) w.FieldI64(id, *v);
}
void OptString(W& w, int16_t id, const std::optional<std::string>& v) {
  if (v) w.FieldBinary(id, *v);
}
void OptBool(W& w, int16_t id, const std::optional<bool>& v) {
  if (v) w.FieldBool(id, *v);
}
void I64List(W& w, int16_t id, const std::vector<int64_t>& v) {
  w.FieldBegin(id, kCList);
  w.ListBegin(kCI64, static_cast<int64_t>(v.size()));
  for (int64_t x : v) w.WriteI64(x);
}
void EmptyStruct(W& w, int16_t id) {
  w.FieldBegin(id, kCStruct);
  w.StructBegin();
  w.StructEnd();
}

void WriteStatistics(W& w, const Statistics& s) {
  w.StructBegin();
  OptString(w, 1, s.max);
  OptString(w, 2, s.min);
  OptI64(w, 3, s.null_count);
  OptI64(w, 4, s.distinct_count);
  OptString(w, 5, s.max_value);
  OptString(w, 6, s.min_value);
  OptBool(w, 7, s.is_max_value_exact);
  OptBool(w, 8, s.is_min_value_exact);
  OptI64(w, 9, s.nan_count);
  w.StructEnd();
}

void WriteLogicalType(W& w, const LogicalType& lt) {
  w.StructBegin();
  w.FieldBegin(static_cast<int16_t>(lt.kind), kCStruct);
  w.StructBegin();
  switch (lt.kind) {
    case LogicalType::kDecimal:
      w.FieldI32(1, lt.decimal_scale);
      w.FieldI32(2, lt.decimal_precision);
      break;
    case LogicalType::kTime:
    case LogicalType::kTimestamp:
      w.FieldBool(1, lt.is_adjusted_to_utc);
      w.FieldBegin(2, kCStruct);
      w.StructBegin();
      EmptyStruct(w, static_cast<int16_t>(lt.unit));
      w.StructEnd();
      break;
    case LogicalType::kInteger:
      w.FieldByte(1, lt.bit_width);
      w.FieldBool(2, lt.is_signed);
      break;
    case LogicalType::kGeometry:
      if (!lt.crs.empty()) w.FieldBinary(1, lt.crs);
      break;
    case LogicalType::kGeography:
      if (!lt.crs.empty()) w.FieldBinary(1, lt.crs);
      w.FieldI32(2, lt.algorithm);
      break;
    case LogicalType::kVariant:
      w.FieldByte(1, lt.variant_version);
      break;
    default: break;
  }
  w.StructEnd();
  w.StructEnd();
}

void WriteSchemaElement(W& w, const SchemaElement& e) {
  w.StructBegin();
  OptI32(w, 1, e.type);
  OptI32(w, 2, e.type_length);
  OptI32(w, 3, e.repetition);
  w.FieldBinary(4, e.name);
  OptI32(w, 5, e.num_children);
  OptI32(w, 6, e.converted_type);
  OptI32(w, 7, e.scale);
  OptI32(w, 8, e.precision);
  OptI32(w, 9, e.field_id);
  if (e.logical_type) {
    w.FieldBegin(10, kCStruct);
    WriteLogicalType(w, *e.logical_type);
  }
  w.StructEnd();
}

void WriteKeyValues(W& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.FieldBegin(id, kCList);
  w.ListBegin(kCStruct, static_cast<int64_t>(kvs.size()));
  for (const KeyValue& kv : kvs) {
    w.StructBegin();
    w.FieldBinary(1, kv.key);
    OptString(w, 2, kv.value);
    w.StructEnd();
  }
}

void WriteColumnMetaData(W& w, const ColumnMetaData& m) {
  w.StructBegin();
  w.FieldI32(1, static_cast<int32_t>(m.type));
  w.FieldBegin(2, kCList);
  w.ListBegin(kCI32, static_cast<int64_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w.WriteI32(static_cast<int32_t>(e));
  w.FieldBegin(3, kCList);
  w.ListBegin(kCBinary, static_cast<int64_t>(m.path_in_schema.size()));
  for (const std::string& p : m.path_in_schema) w.WriteBinary(p);
  w.FieldI32(4, static_cast<int32_t>(m.codec));
  w.FieldI64(5, m.num_values);
  w.FieldI64(6, m.total_uncompressed_size);
  w.FieldI64(7, m.total_compressed_size);
  if (!m.key_value_metadata.empty()) WriteKeyValues(w, 8, m.key_value_metadata);
  w.FieldI64(9, m.data_page_offset);
  OptI64(w, 10, m.index_page_offset);
  OptI64(w, 11, m.dictionary_page_offset);
  if (m.statistics) {
    w.FieldBegin(12, kCStruct);
    WriteStatistics(w, *m.statistics);
  }
  if (!m.encoding_stats.empty()) {
    w.FieldBegin(13, kCList);
    w.ListBegin(kCStruct, static_cast<int64_t>(m.encoding_stats.size()));
    for (const PageEncodingStats& s : m.encoding_stats) {
      w.StructBegin();
      w.FieldI32(1, static_cast<int32_t>(s.page_type));
      w.FieldI32(2, static_cast<int32_t>(s.encoding));
      w.FieldI32(3, s.count);
      w.StructEnd();
    }
  }
  OptI64(w, 14, m.bloom_filter_offset);
  OptI32(w, 15, m.bloom_filter_length);
  if (m.size_statistics) {
    const SizeStatistics& s = *m.size_statistics;
    w.FieldBegin(16, kCStruct);
    w.StructBegin();
    OptI64(w, 1, s.unencoded_byte_array_data_bytes);
    if (!s.repetition_level_histogram.empty()) I64List(w, 2, s.repetition_level_histogram);
    if (!s.definition_level_histogram.empty()) I64List(w, 3, s.definition_level_histogram);
    w.StructEnd();
  }
  w.StructEnd();
}

void WriteColumnChunk(W& w, const ColumnChunk& c) {
  w.StructBegin();
  OptString(w, 1, c.file_path);
  w.FieldI64(2, c.file_offset);
  if (c.meta_data) {
    w.FieldBegin(3, kCStruct);
    WriteColumnMetaData(w, *c.meta_data);
  }
  OptI64(w, 4, c.offset_index_offset);
  OptI32(w, 5, c.offset_index_length);
  OptI64(w, 6, c.column_index_offset);
  OptI32(w, 7, c.column_index_length);
  w.StructEnd();
}

void WriteRowGroup(W& w, const RowGroup& g) {
  w.StructBegin();
  w.FieldBegin(1, kCList);
  w.ListBegin(kCStruct, static_cast<int64_t>(g.columns.size()));
  for (const ColumnChunk& c : g.columns) WriteColumnChunk(w, c);
  w.FieldI64(2, g.total_byte_size);
  w.FieldI64(3, g.num_rows);
  if (!g.sorting_columns.empty()) {
    w.FieldBegin(4, kCList);
    w.ListBegin(kCStruct, static_cast<int64_t>(g.sorting_columns.size()));
    for (const SortingColumn& s : g.sorting_columns) {
      w.StructBegin();
      w.FieldI32(1, s.column_idx);
      w.FieldBool(2, s.descending);
      w.FieldBool(3, s.nulls_first);
      w.StructEnd();
    }
  }
  OptI64(w, 5, g.file_offset);
  OptI64(w, 6, g.total_compressed_size);
  if (g.ordinal) w.FieldI16(7, *g.ordinal);
  w.StructEnd();
}

}  // namespace

void EncodeStatistics(const Statistics& s, std::string* out) {
  W w(out);
  WriteStatistics(w, s);
}

void EncodeFileMetaData(const FileMetaData& m, std::string* out) {
  W w(out);
  w.StructBegin();
  w.FieldI32(1, m.version);
  w.FieldBegin(2, kCList);
  w.ListBegin(kCStruct, static_cast<int64_t>(m.schema.size()));
  for (const SchemaElement& e : m.schema) WriteSchemaElement(w, e);
  w.FieldI64(3, m.num_rows);
  w.FieldBegin(4, kCList);
  w.ListBegin(kCStruct, static_cast<int64_t>(m.row_groups.size()));
  for (const RowGroup& g : m.row_groups) WriteRowGroup(w, g);
  if (!m.key_value_metadata.empty()) WriteKeyValues(w, 5, m.key_value_metadata);
  OptString(w, 6, m.created_by);
  if (!m.column_orders.empty()) {
    w.FieldBegin(7, kCList);
    w.ListBegin(kCStruct, static_cast<int64_t>(m.column_orders.size()));
    for (const ColumnOrder& o : m.column_orders) {
      w.StructBegin();
      EmptyStruct(w, static_cast<int16_t>(o.kind));
      w.StructEnd();
    }
  }
  OptString(w, 9, m.footer_signing_key_metadata);
  w.StructEnd();
}

void EncodePageHeader(const PageHeader& h, std::string* out) {
  W w(out);
  w.StructBegin();
  w.FieldI32(1, static_cast<int32_t>(h.type));
  w.FieldI32(2, h.uncompressed_page_size);
  w.FieldI32(3, h.compressed_page_size);
  OptI32(w, 4, h.crc);
  if (h.data_page_header) {
    const DataPageHeader& d = *h.data_page_header;
    w.FieldBegin(5, kCStruct);
    w.StructBegin();
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, static_cast<int32_t>(d.encoding));
    w.FieldI32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.FieldI32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) {
      w.FieldBegin(5, kCStruct);
      WriteStatistics(w, *d.statistics);
    }
    w.StructEnd();
  }
  if (h.has_index_page_header) EmptyStruct(w, 6);
  if (h.dictionary_page_header) {
    const DictionaryPageHeader& d = *h.dictionary_page_header;
    w.FieldBegin(7, kCStruct);
    w.StructBegin();
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, static_cast<int32_t>(d.encoding));
    OptBool(w, 3, d.is_sorted);
    w.StructEnd();
  }
  if (h.data_page_header_v2) {
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    w.FieldBegin(8, kCStruct);
    w.StructBegin();
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.num_nulls);
    w.FieldI32(3, d.num_rows);
    w.FieldI32(4, static_cast<int32_t>(d.encoding));
    w.FieldI32(5, d.definition_levels_byte_length);
    w.FieldI32(6, d.repetition_levels_byte_length);
    w.FieldBool(7, d.is_compressed);
    if (d.statistics) {
      w.FieldBegin(8, kCStruct);
      WriteStatistics(w, *d.statistics);
    }
    w.StructEnd();
  }
  w.StructEnd();
}

void EncodeOffsetIndex(const OffsetIndex& o, std::string* out) {
  W w(out);
  w.StructBegin();
  w.FieldBegin(1, kCList);
  w.ListBegin(kCStruct, static_cast<int64_t>(o.page_locations.size()));
  for (const PageLocation& p : o.page_locations) {
    w.StructBegin();
    w.FieldI64(1, p.offset);
    w.FieldI32(2, p.compressed_page_size);
    w.FieldI64(3, p.first_row_index);
    w.StructEnd();
  }
  if (!o.unencoded_byte_array_data_bytes.empty()) I64List(w, 2, o.unencoded_byte_array_data_bytes);
  w.StructEnd();
}

void EncodeColumnIndex(const ColumnIndex& c, std::string* out) {
  W w(out);
  w.StructBegin();
  w.FieldBegin(1, kCList);
  w.ListBegin(kCBoolTrue, static_cast<int64_t>(c.null_pages.size()));
  for (bool b : c.null_pages) w.WriteBoolElement(b);
  w.FieldBegin(2, kCList);
  w.ListBegin(kCBinary, static_cast<int64_t>(c.min_values.size()));
  for (const std::string& s : c.min_values) w.WriteBinary(s);
  w.FieldBegin(3, kCList);
  w.ListBegin(kCBinary, static_cast<int64_t>(c.max_values.size()));
  for (const std::string& s : c.max_values) w.WriteBinary(s);
  w.FieldI32(4, static_cast<int32_t>(c.boundary_order));
  if (c.null_counts) I64List(w, 5, *c.null_counts);
  if (!c.repetition_level_histograms.empty()) I64List(w, 6, c.repetition_level_histograms);
  if (!c.definition_level_histograms.empty()) I64List(w, 7, c.definition_level_histograms);
  if (c.nan_counts) I64List(w, 8, *c.nan_counts);
  w.StructEnd();
}

void EncodeBloomFilterHeader(const BloomFilterHeader& b, std::string* out) {
  W w(out);
  w.StructBegin();
  w.FieldI32(1, b.num_bytes);
  for (int16_t id = 2; id <= 4; ++id) {
    w.FieldBegin(id, kCStruct);
    w.StructBegin();
    EmptyStruct(w, 1);
    w.StructEnd();
  }
  w.StructEnd();
}

}  // namespace shoal::parquet
