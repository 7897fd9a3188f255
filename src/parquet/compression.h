// Page compression codecs (Parquet Compression.md): UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW,
// LZ4 (Hadoop framing, falling back to a raw LZ4 block or an LZ4 frame), BROTLI.
// Decompression writes into a caller-sized buffer and must produce exactly that many bytes, so
// a corrupt or hostile page (decompression bomb, short output) fails cleanly with Corruption.
//
// Thread-safety: pure functions; safe to call concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parquet/metadata.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Largest decompressed page (or dictionary) shoal accepts: 1 GiB.
inline constexpr int64_t kMaxPageBytes = int64_t{1} << 30;

// Decompresses `in` into exactly `out_size` bytes at `out`. Corruption when the input is bad
// or decodes to any other size; NotSupported for LZO and unknown codecs.
Status Decompress(CompressionCodec codec, const uint8_t* in, size_t in_size, uint8_t* out,
                  size_t out_size);

// Compresses `in` and appends the result to `out`. `level` is codec-specific (ZSTD 1..22,
// GZIP 1..9, BROTLI 0..11); 0 picks the codec's default. NotSupported for LZ4 (Hadoop) and LZO.
Status Compress(CompressionCodec codec, std::string_view in, std::string* out, int level = 0);

}  // namespace shoal::parquet
