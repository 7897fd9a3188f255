#include "parquet/dictionary_probe.h"

#include <algorithm>
#include <string>

#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/value_decoder.h"

namespace shoal::parquet {

namespace {

bool IsDictionaryEncoding(Encoding e) { return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary; }

// The first page header window: large enough for any header without statistics, small enough
// to be cheap when it lies before a big body.
constexpr int64_t kHeaderWindow = 16 << 10;
// Headers (with page statistics) are never legitimately larger than this.
constexpr int64_t kMaxHeaderBytes = 16 << 20;

}  // namespace

bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta) {
  if (!meta.encoding_stats.empty()) {
    bool any_data = false;
    for (const PageEncodingStats& s : meta.encoding_stats) {
      if (s.page_type != PageType::kDataPage && s.page_type != PageType::kDataPageV2) continue;
      if (s.count <= 0) continue;
      if (!IsDictionaryEncoding(s.encoding)) return false;
      any_data = true;
    }
    return any_data;
  }
  bool dict = false;
  for (Encoding e : meta.encodings) {
    if (IsDictionaryEncoding(e)) {
      dict = true;
    } else if (e == Encoding::kRle || e == Encoding::kBitPacked) {
      // Level encodings; for BOOLEAN, RLE may also be a data-page encoding.
      if (meta.type == PhysicalType::kBoolean && e == Encoding::kRle) return false;
    } else {
      return false;
    }
  }
  return dict;
}

Result<std::optional<ChunkDictionary>> ReadChunkDictionary(const ParquetReader& reader, int rg, int leaf,
                                                           ReadStats* stats, int64_t max_bytes) {
  using Out = std::optional<ChunkDictionary>;
  if (rg < 0 || rg >= reader.num_row_groups() || leaf < 0 || leaf >= reader.parquet_schema().num_leaves()) {
    return Status::InvalidArgument(reader.path() + ": no column chunk (" + std::to_string(rg) + ", " +
                                   std::to_string(leaf) + ")");
  }
  const ColumnChunk& chunk = reader.column_chunk(rg, leaf);
  const LeafColumn& lc = reader.parquet_schema().leaves()[leaf];
  auto fail = [&](const std::string& what) {
    return Status::Corruption(reader.path() + ": column '" + lc.dotted_path + "' dictionary: " + what);
  };
  if (!chunk.meta_data || chunk.has_crypto_metadata || chunk.has_encrypted_column_metadata ||
      (chunk.file_path && !chunk.file_path->empty())) {
    return Out();
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != lc.physical) return fail("chunk type disagrees with the schema");
  if (!AllDataPagesDictionaryEncoded(meta)) return Out();

  const io::RandomAccessFile* file = reader.file();
  int64_t fsize = file->Size();
  int64_t data_off = meta.data_page_offset;
  int64_t offset, limit;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 && *meta.dictionary_page_offset < data_off) {
    offset = *meta.dictionary_page_offset;
    limit = data_off;  // the dictionary page is exactly the bytes before the first data page
  } else {
    offset = data_off;  // some writers leave dictionary_page_offset unset: the first page is it
    limit = meta.total_compressed_size > 0 && meta.total_compressed_size <= fsize - offset
                ? offset + meta.total_compressed_size
                : fsize;
  }
  if (offset < 4 || offset >= fsize || limit > fsize || limit <= offset) {
    return fail("page offset " + std::to_string(offset) + " lies outside the file (size " + std::to_string(fsize) +
                ")");
  }
  int64_t span = limit - offset;

  // Read a window, decode the header, widen the window when the header did not fit.
  std::string buf;
  PageHeader header;
  size_t consumed = 0;
  int64_t window = std::min(span, kHeaderWindow);
  while (true) {
    buf.resize(static_cast<size_t>(window));
    RETURN_NOT_OK(file->ReadAt(offset, window, reinterpret_cast<uint8_t*>(buf.data())));
    if (stats) {
      stats->bytes_read += window;
      stats->io_requests += 1;
    }
    header = PageHeader();
    Status st = DecodePageHeader(buf, &header, &consumed);
    if (st.ok()) break;
    if (window >= span || window >= kMaxHeaderBytes) return fail(st.message());
    window = std::min({span, window * 8, kMaxHeaderBytes});
  }
  if (header.type != PageType::kDictionaryPage) return Out();  // no dictionary page after all
  if (!header.dictionary_page_header) return fail("dictionary page without its header");
  const DictionaryPageHeader& dh = *header.dictionary_page_header;
  if (dh.encoding != Encoding::kPlain && dh.encoding != Encoding::kPlainDictionary) return Out();
  if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0 || dh.num_values < 0) {
    return fail("negative size in page header");
  }
  if (header.uncompressed_page_size > max_bytes) return Out();
  int64_t body_end = static_cast<int64_t>(consumed) + header.compressed_page_size;
  if (body_end > span) {
    return fail("page of " + std::to_string(header.compressed_page_size) + " bytes extends past the column chunk");
  }
  if (body_end > window) {
    int64_t more = body_end - window;
    buf.resize(static_cast<size_t>(body_end));
    RETURN_NOT_OK(file->ReadAt(offset + window, more, reinterpret_cast<uint8_t*>(buf.data()) + window));
    if (stats) {
      stats->bytes_read += more;
      stats->io_requests += 1;
    }
  }
  const uint8_t* body = reinterpret_cast<const uint8_t*>(buf.data()) + consumed;
  if (header.crc && reader.options().verify_crc) {
    uint32_t crc = Crc32(0, body, static_cast<size_t>(header.compressed_page_size));
    if (crc != static_cast<uint32_t>(*header.crc)) return fail("page CRC32 mismatch");
  }
  columnar::Buffer plain;
  plain.Resize(static_cast<size_t>(header.uncompressed_page_size));
  if (header.uncompressed_page_size > 0) {
    Status st = Decompress(meta.codec, body, static_cast<size_t>(header.compressed_page_size), plain.data(),
                           plain.size());
    if (!st.ok()) return fail(st.message());
  }
  int64_t size = static_cast<int64_t>(plain.size());
  int64_t n = dh.num_values;
  // Every entry takes at least one bit (BOOLEAN), its width, or a 4-byte length prefix.
  int64_t min_bytes;
  switch (lc.physical) {
    case PhysicalType::kBoolean: min_bytes = (n + 7) / 8; break;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: min_bytes = n * 4; break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: min_bytes = n * 8; break;
    case PhysicalType::kInt96: min_bytes = n * 12; break;
    case PhysicalType::kByteArray: min_bytes = n * 4; break;
    case PhysicalType::kFixedLenByteArray: min_bytes = n * std::max<int64_t>(lc.type_length, 1); break;
    default: return Out();
  }
  if (min_bytes > size) {
    return fail(std::to_string(n) + " values do not fit a " + std::to_string(size) + "-byte page");
  }
  ValueDecoder decoder(&lc);
  RETURN_NOT_OK(decoder.Reset(Encoding::kPlain, plain.data(), size, n));
  ChunkDictionary out;
  out.values = columnar::Vector::Make(lc.type, n);
  Status st = decoder.Decode(n, out.values.get());
  if (!st.ok()) return fail(st.message());
  if (out.values->size() != n) return fail("decoded " + std::to_string(out.values->size()) + " of " +
                                           std::to_string(n) + " values");
  if (meta.statistics && meta.statistics->null_count) {
    out.may_have_nulls = *meta.statistics->null_count > 0;
  } else {
    out.may_have_nulls = lc.max_def > 0;
  }
  return Out(std::move(out));
}

}  // namespace shoal::parquet
