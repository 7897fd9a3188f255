// ValueDecoder: decodes the values section of one data page — PLAIN, dictionary (RLE /
// PLAIN_DICTIONARY indices into a dictionary decoded once per chunk), RLE booleans,
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT — and
// converts physical values to the leaf's columnar type (INT96, decimals from bytes, unsigned
// widening, time units, FLOAT16, UUID) in bulk loops, appending densely (no NULL slots).
//
// Thread-safety: not thread-safe; one per column reader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/vector.h"
#include "parquet/byte_stream_split.h"
#include "parquet/delta_encoding.h"
#include "parquet/metadata.h"
#include "parquet/plain_encoding.h"
#include "parquet/rle_bit_packed.h"
#include "parquet/schema.h"
#include "shoal/status.h"

namespace shoal::parquet {

class ValueDecoder {
 public:
  // `leaf` must outlive the decoder.
  explicit ValueDecoder(const LeafColumn* leaf) : leaf_(leaf) {}

  // Decodes a dictionary page body (`num_values` PLAIN values) into the leaf's type.
  Status SetDictionary(const uint8_t* data, int64_t size, int64_t num_values);
  bool has_dictionary() const { return dict_ != nullptr; }
  // The decoded dictionary (null until a dictionary page was decoded).
  const columnar::VectorPtr& dictionary() const { return dict_; }
  // True when the current page's values are dictionary indices.
  bool page_is_dictionary() const { return IsDictionary(); }
  // Writes the next n dictionary indices of a dictionary-encoded page to `out`, each checked
  // against the dictionary's size (late filtering on indices, without materializing values).
  Status DecodeIndices(int64_t n, uint32_t* out);

  // Starts a page's values section; `num_values` bounds the values it may hold.
  Status Reset(Encoding encoding, const uint8_t* data, int64_t size, int64_t num_values);
  // Appends the next n values to `out` (the leaf's type, no validity).
  Status Decode(int64_t n, columnar::Vector* out);
  Status Skip(int64_t n);

 private:
  int PhysicalWidth() const;
  bool IsDictionary() const { return enc_ == Encoding::kRleDictionary || enc_ == Encoding::kPlainDictionary; }
  // Decodes n physical fixed-width values (width PhysicalWidth(), booleans as bytes) to dst.
  Status DecodeFixedPhysical(int64_t n, uint8_t* dst);
  // Decodes n physical byte arrays (BYTE_ARRAY) appended to a STRING/BINARY vector.
  Status DecodeByteArrays(int64_t n, columnar::Vector* out);
  // Converts n physical fixed-width values at src into appended values of `out`.
  Status ConvertFixed(const uint8_t* src, int64_t n, columnar::Vector* out);
  Status Corrupt(const std::string& what) const;
  void BuildShortDictSlots(const columnar::Vector& dict);

  const LeafColumn* leaf_;
  Encoding enc_ = Encoding::kPlain;
  PlainDecoder plain_;
  RleBitPackedDecoder rle_;
  DeltaBinaryPackedDecoder<int32_t> delta32_;
  DeltaBinaryPackedDecoder<int64_t> delta64_;
  DeltaLengthByteArrayDecoder delta_length_;
  DeltaByteArrayDecoder delta_bytes_;
  ByteStreamSplitDecoder split_;
  columnar::VectorPtr dict_;
  // A string dictionary whose entries all take at most 16 bytes (and of at most 64Ki entries),
  // also as 16-byte slots and lengths for RleBitPackedDecoder::GetBatchWithShortDict; else empty.
  columnar::Buffer dict_slots_;
  std::vector<uint8_t> dict_lens_;
  columnar::Buffer scratch_;
  columnar::VectorPtr scratch_vec_;
};

// Appends `n` FLOAT16 values (2 bytes each, little-endian) as floats. Exposed for tests.
void HalfToFloat(const uint8_t* src, int64_t n, float* out);
// Big-endian two's complement bytes to a signed 128-bit value; false when it does not fit.
bool BigEndianToInt128(const uint8_t* p, int64_t len, __int128* out);

}  // namespace shoal::parquet
