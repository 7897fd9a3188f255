// PageBufferCache: keeps freed column-chunk and page buffers per thread, so the readers of the
// next row group reuse memory that is already mapped instead of allocating (and page faulting)
// a fresh buffer for every chunk and page. Bounded: a thread keeps at most kMaxBuffers buffers
// and kMaxBytes bytes (larger buffers displace smaller ones; anything beyond is freed), and a
// scan worker empties its cache when the scan ends. The bound fits one row group of DuckDB's
// default layout (122,880 rows): `SELECT *` over 17 columns holds about 15 MB of chunk and page
// buffers at once; with an 8 MB bound most of them missed the cache.
//
// Thread-safety: every function touches only the calling thread's cache; a buffer may be
// given back on another thread than the one it was taken on.
#pragma once

#include <cstddef>

#include "columnar/buffer.h"

namespace shoal::parquet {

class PageBufferCache {
 public:
  static constexpr size_t kMaxBuffers = 64;
  static constexpr size_t kMaxBytes = size_t{32} << 20;

  // Makes `buf`'s capacity at least `n` for a caller about to overwrite it whole (its contents
  // are dropped): when it is too small, swaps in the smallest cached buffer that is large
  // enough and caches the old one. Leaves `buf` cleared (size 0).
  static void Fit(columnar::Buffer* buf, size_t n);
  // Hands `buf`'s memory to the calling thread's cache (or frees it when the cache is full);
  // `buf` is left empty.
  static void Give(columnar::Buffer* buf);

  // The calling thread's cache, for tests: buffers and bytes of capacity held.
  static size_t CachedBuffers();
  static size_t CachedBytes();
  // Frees the calling thread's cached buffers.
  static void Clear();
};

}  // namespace shoal::parquet
