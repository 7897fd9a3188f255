// Reads the dictionary page of one column chunk, so a scan can evaluate a predicate on the
// chunk's distinct values instead of its rows: when every data page of the chunk is
// dictionary-encoded, a predicate that no dictionary entry (nor NULL, if the chunk has NULLs)
// satisfies matches no row of the chunk.
//
// Thread-safety: pure functions over a shared, immutable ParquetReader.
#pragma once

#include <cstdint>
#include <optional>

#include "columnar/vector.h"
#include "parquet/file_reader.h"
#include "parquet/metadata.h"
#include "parquet/reader_options.h"
#include "shoal/status.h"

namespace shoal::parquet {

// A chunk's dictionary, decoded into the leaf's columnar type.
struct ChunkDictionary {
  columnar::VectorPtr values;  // the distinct values (no NULLs), leaf's columnar type
  // Whether the chunk may hold NULLs: its null_count when known (> 0), else max_def > 0.
  bool may_have_nulls = true;
};

// True when the chunk metadata proves every data page is dictionary-encoded: from
// encoding_stats when present, else from the encodings list (no data-page encoding other than
// PLAIN_DICTIONARY / RLE_DICTIONARY besides the level encodings RLE / BIT_PACKED; PLAIN makes
// it unprovable since it may be the dictionary page's or a fallback page's).
bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta);

// Limit on the dictionary page size the probe will read and decode (uncompressed bytes).
inline constexpr int64_t kMaxProbeDictionaryBytes = int64_t{64} << 20;

// Reads and decodes the dictionary page of leaf `leaf` in row group `rg`. nullopt (not an error)
// when the chunk is not provably fully dictionary-encoded, has no dictionary page, or the
// dictionary exceeds `max_bytes`. Corruption for bad offsets, headers or page bodies (the caller
// should then not prune). Bytes fetched are added to `stats` when given.
Result<std::optional<ChunkDictionary>> ReadChunkDictionary(const ParquetReader& reader, int rg, int leaf,
                                                           ReadStats* stats = nullptr,
                                                           int64_t max_bytes = kMaxProbeDictionaryBytes);

}  // namespace shoal::parquet
