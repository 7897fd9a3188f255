// Options of the Parquet reader and the counters it reports (pages and bytes read), which the
// scan layer shows as pages_read / bytes_read.
//
// Thread-safety: plain values. A ReadStats is updated by the one reader it is passed to; give
// each concurrently used reader its own and add them up afterwards.
#pragma once

#include <cstdint>
#include <string>

namespace shoal::parquet {

struct ReaderOptions {
  // Verify a page's CRC32 when its header carries one; a mismatch is Corruption.
  bool verify_crc = true;
  // Use the OffsetIndex (when the file has one) to read page by page and to skip pages on
  // SkipRows without reading them. Without it a column chunk is read in one I/O.
  bool use_offset_index = true;
  // With use_offset_index, read every column chunk page by page even when no rows are skipped,
  // so a reader holds one page per column instead of whole chunks (long sequential reads of
  // many files at once, such as the merge of LocalSort's spilled runs).
  bool read_page_by_page = false;
  // Rows per batch returned by RowGroupReader::ReadBatch when the caller does not say.
  int64_t batch_rows = 64 * 1024;
  // When set, the file is opened through FileSystem::OpenForReadBeneath of this directory: a
  // table's data file that resolves outside its table (a symbolic link) is refused.
  std::string beneath;
  // A page that declares more bytes uncompressed than this is refused before anything is
  // allocated for it: OutOfMemory below 1 GiB (a query's memory_limit, set by the scan), and
  // Corruption above (no real writer makes such pages: a decompression bomb).
  int64_t max_page_bytes = int64_t{1} << 30;
};

struct ReadStats {
  int64_t pages_read = 0;     // data and dictionary pages whose bodies were read and decoded
  int64_t pages_skipped = 0;  // data pages skipped without decompressing (or without reading)
  int64_t bytes_read = 0;     // bytes read from storage (footer, indexes, column chunks)
  int64_t io_requests = 0;    // ReadAt calls

  ReadStats& operator+=(const ReadStats& o) {
    pages_read += o.pages_read;
    pages_skipped += o.pages_skipped;
    bytes_read += o.bytes_read;
    io_requests += o.io_requests;
    return *this;
  }
};

}  // namespace shoal::parquet
