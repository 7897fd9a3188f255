// The BYTE_STREAM_SPLIT encoding (Encodings.md "BYTE_STREAM_SPLIT = 9"): byte k of every value
// goes to stream k; streams are concatenated. For FLOAT/INT32 (width 4), DOUBLE/INT64 (8) and
// FIXED_LEN_BYTE_ARRAY (its type length).
#pragma once

#include <cstdint>

#include "columnar/buffer.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Decodes BYTE_STREAM_SPLIT values from a borrowed page section holding all of its values
// (the value count is size / width; size not a multiple of width is Corruption).
//
// Thread-safety: not thread-safe; the data must outlive the decoder.
class ByteStreamSplitDecoder {
 public:
  Status Reset(const uint8_t* data, int64_t size, int width);
  // Writes the next n values (width bytes each, little-endian) to out; Corruption past the end.
  Status Decode(int64_t n, uint8_t* out);
  Status Skip(int64_t n);
  int64_t num_values() const { return num_values_; }
  int64_t remaining_values() const { return num_values_ - next_; }

 private:
  const uint8_t* data_ = nullptr;
  int width_ = 0;
  int64_t num_values_ = 0;
  int64_t next_ = 0;
};

// Appends the BYTE_STREAM_SPLIT encoding of n values of `width` bytes each.
void EncodeByteStreamSplit(const uint8_t* values, int width, int64_t n, columnar::Buffer* out);

}  // namespace shoal::parquet
