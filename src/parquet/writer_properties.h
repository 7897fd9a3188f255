// WriterProperties: every knob of the Parquet writer, with per-column overrides by column path
// ("a.b.c", the dotted path of a leaf or of any ancestor group). Built with
// WriterProperties::Builder (Arrow's idea); the defaults are documented on each setter.
//
// Thread-safety: immutable once built; share freely.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parquet/metadata.h"

namespace shoal::parquet {

enum class DataPageVersion : uint8_t { kV1 = 1, kV2 = 2 };

// The settings that can differ per column.
struct ColumnProperties {
  CompressionCodec codec = CompressionCodec::kZstd;
  int compression_level = 3;  // ZSTD 1..22, GZIP 1..9, BROTLI 0..11; 0 = codec default
  bool dictionary = true;
  // Encoding of non-dictionary pages (and after dictionary fallback). PLAIN when it does not
  // apply to the column's physical type (the writer checks, see ColumnWriter).
  Encoding encoding = Encoding::kPlain;
  bool statistics = true;
  bool page_index = true;
  bool bloom_filter = false;
  int64_t bloom_ndv = 100000;  // expected distinct values per column chunk
  double bloom_fpp = 0.01;     // false-positive probability
};

// A column of a sort order, for RowGroup.sorting_columns (leaf column index).
struct SortingColumnSpec {
  std::string path;  // dotted leaf path
  bool descending = false;
  bool nulls_first = false;
};

class WriterProperties {
 public:
  class Builder;

  // The defaults of Builder.
  static const WriterProperties& Defaults();

  int64_t max_row_group_rows() const { return max_row_group_rows_; }
  int64_t max_row_group_bytes() const { return max_row_group_bytes_; }
  int64_t data_page_bytes() const { return data_page_bytes_; }
  int64_t data_page_rows() const { return data_page_rows_; }
  int64_t dictionary_page_bytes() const { return dictionary_page_bytes_; }
  DataPageVersion data_page_version() const { return data_page_version_; }
  bool page_crc() const { return page_crc_; }
  int64_t statistics_truncate_bytes() const { return statistics_truncate_bytes_; }
  const std::string& created_by() const { return created_by_; }
  const std::vector<KeyValue>& key_value_metadata() const { return key_value_metadata_; }
  const std::vector<SortingColumnSpec>& sorting_columns() const { return sorting_columns_; }
  // Parquet field ids by dotted path (Delta column mapping "id" mode).
  const std::map<std::string, int32_t>& field_ids() const { return field_ids_; }

  // The settings of the leaf at `path` (dotted): the most specific override among the path and
  // its ancestors, else the defaults.
  ColumnProperties column(const std::string& path) const;

 private:
  int64_t max_row_group_rows_ = 1 << 20;
  int64_t max_row_group_bytes_ = int64_t{128} << 20;
  int64_t data_page_bytes_ = 1 << 20;
  int64_t data_page_rows_ = 20000;
  int64_t dictionary_page_bytes_ = 1 << 20;
  DataPageVersion data_page_version_ = DataPageVersion::kV1;
  bool page_crc_ = true;
  int64_t statistics_truncate_bytes_ = 64;
  std::string created_by_;
  std::vector<KeyValue> key_value_metadata_;
  std::vector<SortingColumnSpec> sorting_columns_;
  std::map<std::string, int32_t> field_ids_;
  ColumnProperties default_column_;
  // Overrides: path -> a function of the setting applied on top of the inherited ones.
  struct Override {
    std::optional<CompressionCodec> codec;
    std::optional<int> compression_level;
    std::optional<bool> dictionary;
    std::optional<Encoding> encoding;
    std::optional<bool> statistics;
    std::optional<bool> page_index;
    std::optional<bool> bloom_filter;
    std::optional<int64_t> bloom_ndv;
    std::optional<double> bloom_fpp;
  };
  std::map<std::string, Override> overrides_;
};

// Builds WriterProperties; setters return *this for chaining.
class WriterProperties::Builder {
 public:
  Builder() = default;

  // Rows per row group (default 1,048,576 = 1 Mi rows). Values < 1 are treated as 1.
  Builder& max_row_group_rows(int64_t n);
  // Encoded bytes per row group (default 128 MiB); a row group closes at whichever limit first.
  Builder& max_row_group_bytes(int64_t n);
  // Target bytes of a data page before compression (default 1 MiB).
  Builder& data_page_bytes(int64_t n);
  // Rows per data page (default 20,000), so the page index stays selective.
  Builder& data_page_rows(int64_t n);
  // Dictionary page size limit (default 1 MiB); beyond it the column falls back to its
  // encoding() for the rest of the column chunk.
  Builder& dictionary_page_bytes(int64_t n);
  // Data page v1 (default) or v2.
  Builder& data_page_version(DataPageVersion v);
  // Writes a CRC32 into every page header (default on).
  Builder& page_crc(bool on);
  // Binary/string min/max longer than this are truncated (default 64 bytes; 0 = never).
  Builder& statistics_truncate_bytes(int64_t n);
  // created_by (default "shoal version 0.1.0 (build <compiler date>)").
  Builder& created_by(std::string s);
  Builder& key_value(std::string key, std::string value);
  Builder& sorting_column(std::string path, bool descending = false, bool nulls_first = false);
  Builder& field_id(std::string path, int32_t id);

  // Defaults for all columns (codec default ZSTD level 3, dictionary on, PLAIN fallback,
  // statistics and page index on, no bloom filter).
  Builder& compression(CompressionCodec codec, int level = 0);
  Builder& compression_level(int level);
  Builder& dictionary(bool on);
  Builder& encoding(Encoding e);
  Builder& statistics(bool on);
  Builder& page_index(bool on);

  // Per-column overrides (dotted path of a leaf or group).
  Builder& compression(const std::string& path, CompressionCodec codec, int level = 0);
  Builder& dictionary(const std::string& path, bool on);
  Builder& encoding(const std::string& path, Encoding e);
  Builder& statistics(const std::string& path, bool on);
  Builder& page_index(const std::string& path, bool on);
  Builder& bloom_filter(const std::string& path, int64_t ndv = 100000, double fpp = 0.01);
  Builder& disable_bloom_filter(const std::string& path);

  WriterProperties Build() const;

 private:
  WriterProperties p_;
};

// The writer's created_by string.
std::string DefaultCreatedBy();

}  // namespace shoal::parquet
