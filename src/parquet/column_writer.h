// ColumnWriter: writes one leaf column's values of the current row group as a column chunk.
// It takes shredded levels and values (level_builder.h), converts them to the physical type,
// cuts data pages by bytes and rows (only at record boundaries, so OffsetIndex first_row_index
// is exact for repeated columns), dictionary-encodes until the dictionary page limit and then
// falls back to the configured encoding, and keeps page and chunk statistics, the page index
// and an optional bloom filter. Pages are held encoded in memory until the row group ends.
//
// Thread-safety: not thread-safe; one per leaf column of one file writer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/buffer.h"
#include "io/file_system.h"
#include "parquet/bloom_filter.h"
#include "parquet/dictionary_builder.h"
#include "parquet/level_builder.h"
#include "parquet/metadata.h"
#include "parquet/page_writer.h"
#include "parquet/statistics.h"
#include "parquet/write_schema.h"
#include "parquet/writer_properties.h"
#include "shoal/status.h"

namespace shoal::parquet {

// The encoding actually used for non-dictionary pages of `physical`: `requested` when it
// applies to that physical type, else PLAIN (RLE_DICTIONARY requests map to PLAIN fallback).
Encoding ResolveEncoding(Encoding requested, PhysicalType physical);

class ColumnWriter {
 public:
  ColumnWriter(const WriteLeaf& leaf, const ColumnProperties& column, const WriterProperties& props);

  // Appends shredded rows (whole records).
  Status Write(const ShreddedLeaf& in);

  // Encoded bytes held (finished pages, dictionary) plus an estimate of the open page.
  int64_t buffered_bytes() const;
  int64_t rows() const { return chunk_rows_ + page_rows_; }

  // What WriteChunk produces. The ColumnIndex is absent when disabled or when some page had
  // values but no min/max (all NaN); the OffsetIndex when disabled; the bloom filter when not
  // configured.
  struct Chunk {
    ColumnChunk chunk;
    std::optional<ColumnIndex> column_index;
    std::optional<OffsetIndex> offset_index;
    std::unique_ptr<BloomFilter> bloom_filter;
  };

  // Flushes the open page and the dictionary, appends the chunk to `file` at its position and
  // returns its metadata (offsets absolute); the writer is then ready for the next row group.
  Status WriteChunk(io::WritableFile* file, Chunk* out);

 private:
  // A run of values in physical layout (pointers into the input or into scratch).
  struct Values {
    const uint8_t* fixed = nullptr;     // width bytes each (booleans as 0/1 bytes)
    const int64_t* offsets = nullptr;   // byte arrays: n+1 offsets into bytes
    const uint8_t* bytes = nullptr;
    int64_t n = 0;
  };

  Status Materialize(const ShreddedLeaf& in, int64_t first, int64_t n, Values* out);
  void AppendPiece(const ShreddedLeaf& in, int64_t level_begin, int64_t num_levels, int64_t num_rows,
                   const Values& v);
  void InsertBloom(const Values& v);
  void InsertBloomFromDictionary(int64_t from);
  Status FlushPage();
  // Encodes the open page's first n values (all when negative) in the current mode.
  Status EncodeValues(columnar::Buffer* out, Encoding* encoding, int64_t n = -1);
  // On a chunk's first page: keeps the dictionary or falls back for the whole chunk (FlushPage).
  Status ChooseDictionaryOrFallback(bool high_cardinality);
  int64_t EstimatedPageBytes() const;
  void ResetChunk();

  WriteLeaf leaf_;
  ColumnProperties column_;
  const WriterProperties& props_;
  int width_ = 0;  // physical value width in the page buffers (0 for byte arrays)
  Encoding fallback_ = Encoding::kPlain;
  bool use_dictionary_ = false;  // current mode
  // The first-page rule's choice in this file's first chunk that ran it: later chunks (row
  // groups) of the file take it without the trial (a fallback starts them without a dictionary).
  enum class FileChoice : unsigned char { kUndecided, kDictionary, kFallback };
  FileChoice file_choice_ = FileChoice::kUndecided;
  StatsKind stats_kind_ = StatsKind::kNone;

  PageWriter pages_;
  std::unique_ptr<DictionaryBuilder> dict_;
  std::unique_ptr<BloomFilter> bloom_;

  // The open page.
  std::vector<uint16_t> page_def_;
  std::vector<uint16_t> page_rep_;
  int64_t page_levels_ = 0;
  int64_t page_values_ = 0;
  int64_t page_rows_ = 0;
  columnar::Buffer page_fixed_;
  std::vector<int64_t> page_offsets_;
  columnar::Buffer page_bytes_;
  std::vector<uint32_t> page_indices_;
  StatsAccumulator page_stats_;

  // The chunk.
  StatsAccumulator chunk_stats_;
  int64_t chunk_rows_ = 0;
  int64_t chunk_levels_ = 0;
  int dict_pages_used_ = 0;
  std::vector<PageEncodingStats> encoding_stats_;
  std::vector<Encoding> encodings_;
  OffsetIndex pending_offsets_;
  ColumnIndex pending_index_;
  bool index_valid_ = true;

  // Scratch.
  columnar::Buffer scratch_fixed_;
  std::vector<int64_t> scratch_offsets_;
  columnar::Buffer scratch_bytes_;
  columnar::Buffer encoded_;
  columnar::Buffer trial_;  // scratch of ChooseDictionaryOrFallback
};

}  // namespace shoal::parquet
