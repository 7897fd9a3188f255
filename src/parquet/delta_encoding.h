// The delta encodings (Encodings.md): DELTA_BINARY_PACKED for INT32/INT64,
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (prefix + suffix) for byte arrays.
// Decoders read a borrowed byte range and never past it; header values are validated and all
// arithmetic wraps in two's complement as the spec requires.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Decodes DELTA_BINARY_PACKED values of type T (int32_t or int64_t).
// Header checks: block size a positive multiple of 128 (<= 1 Mi values), miniblock count
// dividing it into multiples of 32, a value count the remaining bytes can hold, and bit widths
// <= 8 * sizeof(T) for the miniblocks in use (unused ones may hold anything, as the spec says).
//
// Thread-safety: not thread-safe; the data must outlive the decoder.
template <typename T>
class DeltaBinaryPackedDecoder {
 public:
  // Parses the header. The values are then read with Decode/Skip.
  Status Reset(const uint8_t* data, int64_t size);

  // The value count declared by the header (checked only as values are read).
  int64_t total_values() const { return total_values_; }
  int64_t remaining_values() const { return total_values_ - values_read_; }

  // Writes the next n values to out; Corruption if the data or the declared count ends first.
  Status Decode(int64_t n, T* out);
  Status Skip(int64_t n);

  // Bytes from the start of the data to the end of the encoding (after the last value's
  // block), found by walking block headers without unpacking. Leaves the read position alone.
  Result<int64_t> EncodedSize() const;

 private:
  using U = std::make_unsigned_t<T>;
  Status StartBlock();
  Status LoadMiniblock();  // unpacks the next miniblock into mb_ (deltas + min delta)

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t block_size_ = 0;
  int64_t miniblocks_ = 0;
  int64_t mb_values_ = 0;  // values per miniblock
  int64_t total_values_ = 0;
  int64_t values_read_ = 0;
  U last_ = 0;             // last value produced
  bool first_pending_ = false;
  U min_delta_ = 0;
  std::vector<uint8_t> widths_;  // bit widths of the current block's miniblocks
  int64_t next_mb_ = 0;          // index of the next miniblock in the block
  std::vector<U> mb_;            // current miniblock's unpacked deltas
  int64_t mb_pos_ = 0;
  int64_t mb_len_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

// Appends the DELTA_BINARY_PACKED encoding of n values (block size 128, 4 miniblocks).
void EncodeDeltaBinaryPacked(const int32_t* values, int64_t n, columnar::Buffer* out);
void EncodeDeltaBinaryPacked(const int64_t* values, int64_t n, columnar::Buffer* out);

// Decodes DELTA_LENGTH_BYTE_ARRAY: DELTA_BINARY_PACKED lengths, then the bytes back to back.
//
// Thread-safety: not thread-safe; the data must outlive the decoder.
class DeltaLengthByteArrayDecoder {
 public:
  // `num_values` is the caller's expected value count (the page's non-null values); it bounds
  // the lengths kept in memory. Lengths must be >= 0 and their sum fit in the data.
  Status Reset(const uint8_t* data, int64_t size, int64_t num_values);
  // Appends the next n byte arrays to a STRING/BINARY vector.
  Status Decode(int64_t n, columnar::Vector* out);
  Status Skip(int64_t n);
  int64_t remaining_values() const { return static_cast<int64_t>(lengths_.size()) - next_; }
  // Bytes from the start of the data to the end of the encoding (exact when the header's value
  // count equals num_values; otherwise the end of the values kept).
  int64_t encoded_size() const { return encoded_size_; }

 private:
  std::vector<int32_t> lengths_;
  const uint8_t* bytes_ = nullptr;  // next value's bytes
  int64_t next_ = 0;
  int64_t encoded_size_ = 0;
};

// Decodes DELTA_BYTE_ARRAY: DELTA_BINARY_PACKED prefix lengths, then the suffixes as
// DELTA_LENGTH_BYTE_ARRAY; value i = prefix of value i-1 + suffix i.
//
// Thread-safety: not thread-safe; the data must outlive the decoder.
class DeltaByteArrayDecoder {
 public:
  Status Reset(const uint8_t* data, int64_t size, int64_t num_values);
  // Appends the next n values to a STRING/BINARY vector. A prefix longer than the previous
  // value is Corruption.
  Status Decode(int64_t n, columnar::Vector* out);
  Status Skip(int64_t n);
  int64_t remaining_values() const { return static_cast<int64_t>(prefixes_.size()) - next_; }

 private:
  std::vector<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::string last_;  // the previous value
  int64_t next_ = 0;
  columnar::VectorPtr scratch_;  // suffixes of a batch
};

// Appends the DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY encoding of n byte arrays given as n+1
// offsets into `bytes` (the STRING/BINARY vector layout; offsets[0] need not be 0).
void EncodeDeltaLengthByteArray(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                                columnar::Buffer* out);
void EncodeDeltaByteArray(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                          columnar::Buffer* out);

}  // namespace shoal::parquet
