// The RLE/bit-packing hybrid encoding (Encodings.md "RLE = 3"): repetition and definition
// levels, dictionary indices and RLE booleans. The decoder works on a borrowed byte range and
// never reads past it; the encoder appends to a Buffer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "columnar/buffer.h"
#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::parquet {

// Decodes an RLE/bit-packed hybrid stream of values of a fixed bit width (0..32).
// GetBatch/Skip return how many values they produced: fewer than asked only when the encoded
// data ends (cleanly, or inside the final bit-packed run, whose missing tail is tolerated);
// a run header or RLE value cut off by the end of data is Corruption. The stream does not know
// its value count (a final group's zero padding decodes as values): ask only for as many
// values as the page holds.
//
// Thread-safety: not thread-safe; one decoder per reading thread. The data must outlive it.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;

  // Starts decoding `size` bytes at `data` (no length prefix). bit_width > 32 is Corruption.
  Status Reset(const uint8_t* data, int64_t size, int bit_width);
  // Starts decoding data that begins with the 4-byte little-endian length used by v1 data pages
  // for levels and by RLE booleans; *consumed is set to 4 + that length.
  Status ResetWithLengthPrefix(const uint8_t* data, int64_t size, int bit_width, int64_t* consumed);

  int bit_width() const { return bit_width_; }

  // Decodes up to n values into out (levels as uint16_t, booleans as uint8_t 0/1); values are
  // truncated to the output type, so use uint32_t for bit widths above its size.
  Result<int64_t> GetBatch(uint32_t* out, int64_t n);
  Result<int64_t> GetBatch(uint16_t* out, int64_t n);
  Result<int64_t> GetBatch(uint8_t* out, int64_t n);

  // Skips up to n values; RLE runs and whole bit-packed groups are skipped arithmetically.
  Result<int64_t> Skip(int64_t n);
  // Skips up to n values and adds to *num_equal how many of them equal `value` (e.g. the
  // definition levels equal to the max level, i.e. the non-null values to skip alongside).
  Result<int64_t> SkipCounting(int64_t n, uint32_t value, int64_t* num_equal);

  // Decodes up to n dictionary indices and writes dict[index] for each to out. An index
  // >= dict_size is Corruption. T is any trivially copyable fixed-width value type.
  template <typename T>
  Result<int64_t> GetBatchWithDict(const T* dict, int64_t dict_size, T* out, int64_t n);

  // Decodes up to n dictionary indices and appends the dictionary strings they select to
  // `out` (STRING/BINARY vector; `dict` has the same layout).
  Result<int64_t> GetBatchWithDict(const columnar::Vector& dict, columnar::Vector* out, int64_t n);

  // The same for a dictionary whose entries all take at most 16 bytes, given as `slots`: entry i
  // zero-padded to 16 bytes at slots + 16 * i, its length at lens[i]. Each value is one 16-byte
  // move and a length, with no per-value branch and no pass to size the output first.
  Result<int64_t> GetBatchWithShortDict(const uint8_t* slots, const uint8_t* lens, int64_t dict_size,
                                        columnar::Vector* out, int64_t n);

  // Decodes up to `max` values of the current run. For an RLE run sets *repeated and *value and
  // writes nothing; otherwise writes the values to buf. Returns 0 at the end of the data.
  // The building block of the batch functions; exposed for callers with their own gathers.
  Result<int64_t> NextRun(uint32_t* buf, int64_t max, bool* repeated, uint32_t* value);

 private:
  template <typename T>
  Result<int64_t> GetBatchImpl(T* out, int64_t n);
  Status ReadRunHeader();  // parses the run header at pos_ (pos_ < end_)
  int64_t LoadGroup();     // unpacks the next bit-packed group into group_; returns its count
  static Status DictIndexError(uint32_t index, int64_t dict_size);
  // NextRun into idx (an RLE run written out), each index checked against dict_size.
  Result<int64_t> NextDictIndices(uint32_t* idx, int64_t max, int64_t dict_size);

  const uint8_t* pos_ = nullptr;  // next unread byte
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  int64_t rle_left_ = 0;      // values left in the current RLE run
  uint32_t rle_value_ = 0;
  int64_t lit_left_ = 0;      // values left in the current bit-packed run (buffered excluded)
  const uint8_t* lit_end_ = nullptr;  // end of the bit-packed bytes actually present
  uint32_t group_[8] = {};    // a partly consumed bit-packed group
  int group_pos_ = 8;
  int group_end_ = 8;
};

// Encodes values of a fixed bit width (0..32) as the RLE/bit-packing hybrid: runs of >= 8
// equal values starting on a group boundary become RLE runs, everything else bit-packed groups
// of 8 (a final partial group is zero-padded; readers stop by value count).
//
// Thread-safety: not thread-safe.
class RleBitPackedEncoder {
 public:
  // Appends the encoding to *out (which must outlive the encoder).
  RleBitPackedEncoder(int bit_width, columnar::Buffer* out);

  void Put(uint32_t value);
  void PutBatch(const uint32_t* values, int64_t n);
  void PutBatch(const uint16_t* values, int64_t n);
  void PutBatch(const uint8_t* values, int64_t n);
  // Writes the pending run; *out then holds the complete encoding. The encoder can be reused.
  void Flush();

  // An upper bound of the encoded size of n values.
  static int64_t MaxEncodedSize(int bit_width, int64_t n);

 private:
  void WriteRleRun();
  void WriteLiteralGroup();
  void CloseLiteralRun();

  int bit_width_;
  columnar::Buffer* out_;
  uint32_t buf_[8] = {};
  int nbuf_ = 0;
  bool in_rle_ = false;
  uint32_t rle_value_ = 0;
  int64_t rle_count_ = 0;
  int64_t lit_header_pos_ = -1;  // offset in *out_ of the open bit-packed run's header byte
  int lit_groups_ = 0;
};

// Appends a 4-byte little-endian length followed by the RLE/bit-packed encoding of `values`
// (data page v1 levels, and RLE booleans in v1 and v2 pages).
void EncodeRleWithLengthPrefix(const uint16_t* values, int64_t n, int bit_width, columnar::Buffer* out);
// Booleans (0/1 bytes) as RLE with bit width 1 and the 4-byte length prefix.
void EncodeBooleanRle(const uint8_t* values, int64_t n, columnar::Buffer* out);

// How many of levels[0, n) equal `value` (e.g. non-null values from definition levels).
int64_t CountEqual(const uint16_t* levels, int64_t n, uint16_t value);

// ---- template implementation

template <typename T>
Result<int64_t> RleBitPackedDecoder::GetBatchWithDict(const T* dict, int64_t dict_size, T* out,
                                                     int64_t n) {
  constexpr int64_t kChunk = 1024;
  uint32_t idx[kChunk];
  int64_t done = 0;
  while (done < n) {
    bool repeated = false;
    uint32_t value = 0;
    ASSIGN_OR_RETURN(int64_t got, NextRun(idx, std::min(kChunk, n - done), &repeated, &value));
    if (got == 0) break;
    T* dst = out + done;
    if (repeated) {
      if (value >= static_cast<uint64_t>(dict_size)) return DictIndexError(value, dict_size);
      std::fill_n(dst, got, dict[value]);
    } else {
      // Clamp so a bad index never reads outside dict; report it after the (branch-free) pass.
      if (dict_size <= 0) return DictIndexError(idx[0], dict_size);
      const uint32_t last = static_cast<uint32_t>(std::min<int64_t>(dict_size - 1, UINT32_MAX));
      uint32_t max_index = 0;
      for (int64_t i = 0; i < got; ++i) {
        max_index = std::max(max_index, idx[i]);
        dst[i] = dict[std::min(idx[i], last)];
      }
      if (max_index > last) return DictIndexError(max_index, dict_size);
    }
    done += got;
  }
  return done;
}

}  // namespace shoal::parquet
