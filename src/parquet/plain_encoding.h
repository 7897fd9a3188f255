// The PLAIN encoding (Encodings.md "PLAIN = 0"): values back to back, little-endian
// fixed-width values, LSB-first bit-packed booleans, 4-byte-length-prefixed byte arrays.
#pragma once

#include <cstdint>

#include "columnar/buffer.h"
#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Decodes PLAIN values from a borrowed byte range. Each call decodes exactly n values or
// returns Corruption (naming the value and byte position) without reading past the range.
// Widths: INT32/FLOAT 4, INT64/DOUBLE 8, INT96 12, FIXED_LEN_BYTE_ARRAY its type length.
//
// Thread-safety: not thread-safe; the data must outlive the decoder.
class PlainDecoder {
 public:
  PlainDecoder() = default;
  PlainDecoder(const uint8_t* data, int64_t size) { Reset(data, size); }
  void Reset(const uint8_t* data, int64_t size);

  // Copies n values of `width` bytes each (raw little-endian) to out.
  Status DecodeFixed(int width, int64_t n, uint8_t* out);
  // Appends n values of `width` bytes to *out.
  Status DecodeFixed(int width, int64_t n, columnar::Buffer* out);
  // Writes n booleans as 0/1 bytes.
  Status DecodeBooleans(int64_t n, uint8_t* out);
  // Appends n byte arrays to a STRING/BINARY vector (offsets + bytes), each length checked.
  Status DecodeByteArrays(int64_t n, columnar::Vector* out);

  Status SkipFixed(int width, int64_t n);
  Status SkipBooleans(int64_t n);
  Status SkipByteArrays(int64_t n);

  // Bytes not yet consumed (a partly read boolean byte still counts as remaining).
  int64_t remaining() const { return end_ - pos_; }

 private:
  const uint8_t* pos_ = nullptr;
  const uint8_t* begin_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bool_bit_ = 0;  // next bit within *pos_ while decoding booleans
};

// Appends n values of `width` bytes each from `values` (already little-endian in memory).
void EncodePlainFixed(const void* values, int width, int64_t n, columnar::Buffer* out);
// Appends n booleans (0/1 bytes) bit-packed LSB first, zero-padded to a whole byte.
void EncodePlainBooleans(const uint8_t* values, int64_t n, columnar::Buffer* out);
// Appends n byte arrays given as n+1 offsets into `bytes` (the STRING/BINARY vector layout;
// offsets[0] need not be 0), each as a 4-byte little-endian length and the bytes.
void EncodePlainByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                           columnar::Buffer* out);

}  // namespace shoal::parquet
