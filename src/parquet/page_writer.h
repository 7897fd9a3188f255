// PageWriter: serializes the pages of one column chunk into memory — data pages v1 (levels
// RLE-encoded with 4-byte length prefixes, then values, all compressed) or v2 (levels
// uncompressed without prefixes, values compressed on their own), and the dictionary page —
// each preceded by its PageHeader with sizes, statistics and the CRC32 of the bytes after the
// header. The file writer copies the finished chunk to the file at row-group end.
//
// Thread-safety: not thread-safe; one per column writer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/buffer.h"
#include "parquet/metadata.h"
#include "parquet/writer_properties.h"
#include "shoal/status.h"

namespace shoal::parquet {

// What one data page holds, for its header.
struct DataPageInfo {
  const uint16_t* rep = nullptr;  // num_levels levels, or null when max_rep == 0
  const uint16_t* def = nullptr;  // num_levels levels, or null when max_def == 0
  int64_t num_levels = 0;
  int max_rep = 0;
  int max_def = 0;
  int64_t num_nulls = 0;
  int64_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  std::string_view values;  // encoded values
  std::optional<Statistics> statistics;
};

class PageWriter {
 public:
  PageWriter(CompressionCodec codec, int level, bool crc, DataPageVersion version);

  // Appends a data page to data(); *offset receives its offset within data() and *size its
  // size including the header.
  Status WriteDataPage(const DataPageInfo& page, int64_t* offset, int32_t* size);
  // Sets the dictionary page (PLAIN values), replacing any earlier one.
  Status WriteDictionaryPage(std::string_view plain_values, int64_t num_values);

  const columnar::Buffer& data() const { return data_; }
  const columnar::Buffer& dictionary() const { return dictionary_; }
  bool has_dictionary() const { return !dictionary_.empty(); }
  int64_t uncompressed_bytes() const { return uncompressed_; }  // headers + uncompressed bodies
  int64_t compressed_bytes() const { return static_cast<int64_t>(data_.size() + dictionary_.size()); }
  int data_pages() const { return data_pages_; }
  CompressionCodec codec() const { return codec_; }
  // Size `in` takes once compressed with this chunk's codec (its own size when uncompressed); for
  // choosing an encoding by what it costs on disk.
  Result<int64_t> CompressedSize(const columnar::Buffer& in);

  // Forgets all pages (next column chunk).
  void Reset();

 private:
  Status Compress(std::string_view in, std::string* out);
  void AppendPage(PageHeader* header, std::string_view body1, std::string_view body2, columnar::Buffer* dst);

  CompressionCodec codec_;
  int level_;
  bool crc_;
  DataPageVersion version_;
  columnar::Buffer data_;
  columnar::Buffer dictionary_;
  int64_t uncompressed_ = 0;
  int64_t dictionary_uncompressed_ = 0;
  int data_pages_ = 0;
  columnar::Buffer levels_;  // scratch
  columnar::Buffer body_;    // scratch
  std::string compressed_;   // scratch
  std::string header_;       // scratch
};

}  // namespace shoal::parquet
