// Bit packing and unpacking of unsigned integers, LSB first — the layout of the RLE/bit-packing
// hybrid's bit-packed runs, DELTA_BINARY_PACKED miniblocks and PLAIN booleans (Encodings.md).
// Kernels are specialized per bit width so hot decode loops have no per-value branches.
//
// Thread-safety: free functions on caller-owned memory; safe to call concurrently.
#pragma once

#include <cstdint>

namespace shoal::parquet {

// Bytes holding `n` values of `bit_width` bits, rounded up to whole bytes.
inline int64_t BitPackedBytes(int64_t n, int bit_width) {
  return (n * bit_width + 7) / 8;
}

// Smallest bit width that can hold `max_value` (0 for 0).
int BitWidthOf(uint64_t max_value);

// Unpacks `n` values (n a multiple of 8) of `bit_width` bits (0..32) from `in` into `out`.
// Reads exactly n * bit_width / 8 bytes; the caller has checked they exist.
void UnpackBits32(const uint8_t* in, int bit_width, uint32_t* out, int64_t n);
// As UnpackBits32 for bit widths 0..64.
void UnpackBits64(const uint8_t* in, int bit_width, uint64_t* out, int64_t n);

// Packs `n` values (n a multiple of 8) into n * bit_width / 8 bytes at `out`; bits of a value
// above `bit_width` are ignored. Counterparts of the Unpack functions, for writers.
void PackBits32(const uint32_t* in, int bit_width, uint8_t* out, int64_t n);
void PackBits64(const uint64_t* in, int bit_width, uint8_t* out, int64_t n);

}  // namespace shoal::parquet
