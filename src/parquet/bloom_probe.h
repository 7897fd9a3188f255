// Reads the split-block Bloom filter of one column chunk (BloomFilter.md: a thrift
// BloomFilterHeader at ColumnMetaData.bloom_filter_offset, then the bitset), and hashes
// columnar literals the way Parquet does for the chunk's physical type, so `col = v` and
// `col IN (...)` can skip chunks whose filter proves v absent.
//
// Thread-safety: pure functions over a shared, immutable ParquetReader.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "columnar/value.h"
#include "parquet/bloom_filter.h"
#include "parquet/file_reader.h"
#include "parquet/reader_options.h"
#include "parquet/schema.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Reads the Bloom filter of leaf `leaf` in row group `rg`; nullopt when the chunk has none.
// Corruption when the offset/length lie outside the file, the header does not decode, or it
// names an algorithm/hash/compression other than SPLIT_BLOCK/XXHASH/UNCOMPRESSED (NotSupported).
Result<std::optional<BloomFilter>> ReadChunkBloomFilter(const ParquetReader& reader, int rg, int leaf,
                                                        ReadStats* stats = nullptr);

// The Bloom filter hash of `v` (a non-NULL value of the leaf's columnar type, `leaf.type`)
// as the writer would have hashed the same value in its physical form; nullopt when the
// conversion is not exact or not supported (then no Bloom pruning is possible). For FLOAT and
// DOUBLE the caller must also consider -0.0 / +0.0 and NaN payloads (see BloomHashesForValue).
std::optional<uint64_t> BloomHashOfValue(const columnar::Value& v, const LeafColumn& leaf);

// Every hash a row equal (SQL `=`) to `v` could have been inserted with: one hash, or two for a
// floating zero (±0.0). nullopt when unknown (e.g. NaN, unsupported conversion).
std::optional<std::vector<uint64_t>> BloomHashesForValue(const columnar::Value& v, const LeafColumn& leaf);

}  // namespace shoal::parquet
