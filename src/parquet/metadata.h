// Parquet metadata structures (parquet.thrift, field ids as in the spec) with compact-protocol
// decoders and encoders: the file footer, page headers, page index and bloom filter headers.
// Unknown fields are skipped on decode, so files from newer writers still read.
//
// Thread-safety: plain values; decode/encode functions are pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::parquet {

class CompactReader;
class CompactWriter;

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };
enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };
enum class TimeUnit : int32_t { kMillis = 1, kMicros = 2, kNanos = 3 };

// The LogicalType union; `kind` names the set member (its thrift field id), 0 when absent.
struct LogicalType {
  enum Kind : int32_t {
    kNone = 0,
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11,
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
  };
  Kind kind = kNone;
  int32_t decimal_scale = 0;      // DECIMAL
  int32_t decimal_precision = 0;  // DECIMAL
  bool is_adjusted_to_utc = false;  // TIME, TIMESTAMP
  TimeUnit unit = TimeUnit::kMillis;  // TIME, TIMESTAMP
  int8_t bit_width = 0;   // INTEGER
  bool is_signed = true;  // INTEGER
  std::string crs;        // GEOMETRY, GEOGRAPHY
  int32_t algorithm = 0;  // GEOGRAPHY
  int8_t variant_version = 0;  // VARIANT
};

struct Statistics {
  std::optional<std::string> max;  // 1 (deprecated, signed order)
  std::optional<std::string> min;  // 2
  std::optional<int64_t> null_count;      // 3
  std::optional<int64_t> distinct_count;  // 4
  std::optional<std::string> max_value;   // 5
  std::optional<std::string> min_value;   // 6
  std::optional<bool> is_max_value_exact;  // 7
  std::optional<bool> is_min_value_exact;  // 8
  std::optional<int64_t> nan_count;        // 9
};

struct SchemaElement {
  std::optional<PhysicalType> type;       // 1
  std::optional<int32_t> type_length;     // 2
  std::optional<Repetition> repetition;   // 3
  std::string name;                       // 4
  std::optional<int32_t> num_children;    // 5
  std::optional<ConvertedType> converted_type;  // 6
  std::optional<int32_t> scale;      // 7
  std::optional<int32_t> precision;  // 8
  std::optional<int32_t> field_id;   // 9
  std::optional<LogicalType> logical_type;  // 10
};

struct KeyValue {
  std::string key;                   // 1
  std::optional<std::string> value;  // 2
};

struct SortingColumn {
  int32_t column_idx = 0;   // 1
  bool descending = false;  // 2
  bool nulls_first = false;  // 3
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;  // 1
  Encoding encoding = Encoding::kPlain;      // 2
  int32_t count = 0;                         // 3
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;  // 1
  std::vector<int64_t> repetition_level_histogram;         // 2
  std::vector<int64_t> definition_level_histogram;         // 3
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;  // 1
  std::vector<Encoding> encodings;             // 2
  std::vector<std::string> path_in_schema;     // 3
  CompressionCodec codec = CompressionCodec::kUncompressed;  // 4
  int64_t num_values = 0;               // 5
  int64_t total_uncompressed_size = 0;  // 6
  int64_t total_compressed_size = 0;    // 7
  std::vector<KeyValue> key_value_metadata;  // 8
  int64_t data_page_offset = 0;              // 9
  std::optional<int64_t> index_page_offset;       // 10
  std::optional<int64_t> dictionary_page_offset;  // 11
  std::optional<Statistics> statistics;           // 12
  std::vector<PageEncodingStats> encoding_stats;  // 13
  std::optional<int64_t> bloom_filter_offset;     // 14
  std::optional<int32_t> bloom_filter_length;     // 15
  std::optional<SizeStatistics> size_statistics;  // 16
};

struct ColumnChunk {
  std::optional<std::string> file_path;  // 1
  int64_t file_offset = 0;               // 2
  std::optional<ColumnMetaData> meta_data;  // 3
  std::optional<int64_t> offset_index_offset;  // 4
  std::optional<int32_t> offset_index_length;  // 5
  std::optional<int64_t> column_index_offset;  // 6
  std::optional<int32_t> column_index_length;  // 7
  bool has_crypto_metadata = false;            // 8 present (encrypted column)
  bool has_encrypted_column_metadata = false;  // 9 present
};

struct RowGroup {
  std::vector<ColumnChunk> columns;  // 1
  int64_t total_byte_size = 0;       // 2
  int64_t num_rows = 0;              // 3
  std::vector<SortingColumn> sorting_columns;  // 4
  std::optional<int64_t> file_offset;          // 5
  std::optional<int64_t> total_compressed_size;  // 6
  std::optional<int16_t> ordinal;                // 7
};

// ColumnOrder union member id: 1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER, 3 INT96_TIMESTAMP_ORDER.
struct ColumnOrder {
  int32_t kind = 1;
};

struct FileMetaData {
  int32_t version = 0;                // 1
  std::vector<SchemaElement> schema;  // 2
  int64_t num_rows = 0;               // 3
  std::vector<RowGroup> row_groups;   // 4
  std::vector<KeyValue> key_value_metadata;  // 5
  std::optional<std::string> created_by;     // 6
  std::vector<ColumnOrder> column_orders;    // 7
  bool has_encryption_algorithm = false;     // 8 present (plaintext footer, encrypted columns)
  std::optional<std::string> footer_signing_key_metadata;  // 9
};

struct DataPageHeader {
  int32_t num_values = 0;                          // 1
  Encoding encoding = Encoding::kPlain;            // 2
  Encoding definition_level_encoding = Encoding::kRle;  // 3
  Encoding repetition_level_encoding = Encoding::kRle;  // 4
  std::optional<Statistics> statistics;                 // 5
};

struct DictionaryPageHeader {
  int32_t num_values = 0;                // 1
  Encoding encoding = Encoding::kPlain;  // 2
  std::optional<bool> is_sorted;         // 3
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;  // 1
  int32_t num_nulls = 0;   // 2
  int32_t num_rows = 0;    // 3
  Encoding encoding = Encoding::kPlain;      // 4
  int32_t definition_levels_byte_length = 0;  // 5
  int32_t repetition_levels_byte_length = 0;  // 6
  bool is_compressed = true;                  // 7
  std::optional<Statistics> statistics;       // 8
};

struct PageHeader {
  PageType type = PageType::kDataPage;  // 1
  int32_t uncompressed_page_size = 0;   // 2
  int32_t compressed_page_size = 0;     // 3
  std::optional<int32_t> crc;           // 4
  std::optional<DataPageHeader> data_page_header;  // 5
  bool has_index_page_header = false;              // 6 (an empty struct)
  std::optional<DictionaryPageHeader> dictionary_page_header;  // 7
  std::optional<DataPageHeaderV2> data_page_header_v2;         // 8
};

struct PageLocation {
  int64_t offset = 0;                // 1
  int32_t compressed_page_size = 0;  // 2
  int64_t first_row_index = 0;       // 3
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;              // 1
  std::vector<int64_t> unencoded_byte_array_data_bytes;  // 2
};

struct ColumnIndex {
  std::vector<bool> null_pages;         // 1
  std::vector<std::string> min_values;  // 2
  std::vector<std::string> max_values;  // 3
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;  // 4
  std::optional<std::vector<int64_t>> null_counts;          // 5
  std::vector<int64_t> repetition_level_histograms;         // 6
  std::vector<int64_t> definition_level_histograms;         // 7
  std::optional<std::vector<int64_t>> nan_counts;           // 8
};

// Only the SplitBlock / xxHash / uncompressed combination exists; the flags say whether the
// union members were set as expected.
struct BloomFilterHeader {
  int32_t num_bytes = 0;  // 1
  bool algorithm_block = false;    // 2: BLOCK
  bool hash_xxhash = false;        // 3: XXHASH
  bool compression_none = false;   // 4: UNCOMPRESSED
};

// ---- decoding: each parses one struct at the reader's position; `consumed` (where given)
// receives the number of bytes the serialized struct took.
Status DecodeFileMetaData(std::string_view bytes, FileMetaData* out);
Status DecodePageHeader(std::string_view bytes, PageHeader* out, size_t* consumed);
Status DecodeOffsetIndex(std::string_view bytes, OffsetIndex* out);
Status DecodeColumnIndex(std::string_view bytes, ColumnIndex* out);
Status DecodeBloomFilterHeader(std::string_view bytes, BloomFilterHeader* out, size_t* consumed);
Status DecodeStatistics(std::string_view bytes, Statistics* out);

// ---- encoding: appends the serialized struct to `out`.
void EncodeFileMetaData(const FileMetaData& m, std::string* out);
void EncodePageHeader(const PageHeader& h, std::string* out);
void EncodeOffsetIndex(const OffsetIndex& o, std::string* out);
void EncodeColumnIndex(const ColumnIndex& c, std::string* out);
void EncodeBloomFilterHeader(const BloomFilterHeader& b, std::string* out);
void EncodeStatistics(const Statistics& s, std::string* out);

const char* EncodingName(Encoding e);
const char* CodecName(CompressionCodec c);

}  // namespace shoal::parquet
