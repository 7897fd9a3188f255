// PageReader: walks the pages of one column chunk — dictionary page, data pages v1/v2 — from
// an io::RandomAccessFile. Without an OffsetIndex the chunk's byte range is read in one I/O;
// with one, each data page is read on demand so skipped pages cost no I/O at all.
//
// Thread-safety: not thread-safe; one reader per column chunk per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/buffer.h"
#include "io/file_system.h"
#include "parquet/metadata.h"
#include "parquet/reader_options.h"
#include "shoal/status.h"

namespace shoal::parquet {

// One page as stored: its header and its (compressed) body.
struct Page {
  PageHeader header;
  int64_t offset = 0;             // file offset of the page header
  const uint8_t* body = nullptr;  // compressed_page_size bytes, valid until the next Next()
  int64_t body_size = 0;
  int page_index = -1;  // data page ordinal within the chunk when read through the OffsetIndex
};

class PageReader {
 public:
  // `offset_index` may be null (then the chunk is read whole); it must outlive the reader.
  // `column` names the column in messages.
  static Result<std::unique_ptr<PageReader>> Make(const io::RandomAccessFile* file, const ColumnMetaData& meta,
                                                  std::string column, const OffsetIndex* offset_index,
                                                  const ReaderOptions& options, ReadStats* stats);
  // Hands the chunk buffer to the thread's PageBufferCache.
  ~PageReader();
  PageReader(const PageReader&) = delete;
  PageReader& operator=(const PageReader&) = delete;

  // Reads the next page's header and body (verifying its CRC when present). Returns false at
  // the end of the chunk.
  Result<bool> Next(Page* page);
  // Decompresses `page` into `out` (resized to the page's uncompressed size; its old contents
  // are dropped and its memory may be swapped with a cached buffer, so `page.body` must not
  // point into it). For v2 data pages the level bytes are copied as they are and only the
  // values section is decompressed.
  Status Decompress(const Page& page, columnar::Buffer* out) const;

  // For a v2 data page: decompresses only its values section (the bytes after the levels,
  // which v2 stores uncompressed) into `out`, resized to the values' uncompressed size.
  Status DecompressV2Values(const Page& page, columnar::Buffer* out) const;

  // True when pages can be skipped without reading them (an OffsetIndex is in use).
  bool has_offset_index() const { return offset_index_ != nullptr; }
  const OffsetIndex* offset_index() const { return offset_index_; }
  // Continues at data page `page_index` of the OffsetIndex; pages before it are not read.
  Status SeekToPage(int page_index);
  // With an OffsetIndex, before anything was read: reads the next page of the bytes before the
  // first data page (where the dictionary page lives); false when there is none left there.
  Result<bool> NextLeadingPage(Page* page);

  const std::string& column() const { return column_; }
  CompressionCodec codec() const { return codec_; }

 private:
  PageReader() = default;
  Status LoadSegment(size_t i);
  // Parses the page at pos_ of the loaded segment.
  Result<bool> ParsePage(Page* page);

  struct Segment {
    int64_t offset = 0;
    int64_t length = 0;
    int page_index = -1;  // OffsetIndex page held by this segment, -1 for the dictionary / whole chunk
  };

  const io::RandomAccessFile* file_ = nullptr;
  std::string column_;
  CompressionCodec codec_ = CompressionCodec::kUncompressed;
  const OffsetIndex* offset_index_ = nullptr;
  ReaderOptions options_;
  ReadStats* stats_ = nullptr;
  std::vector<Segment> segments_;
  size_t next_segment_ = 0;
  columnar::Buffer buffer_;  // the loaded segment
  int64_t buffer_offset_ = 0;
  int64_t pos_ = 0;          // within buffer_
  int current_page_index_ = -1;
};

}  // namespace shoal::parquet
