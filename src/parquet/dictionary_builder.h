// DictionaryBuilder: assigns dictionary indices to the values of a column chunk for
// RLE_DICTIONARY pages, keeping the distinct values in first-seen order (the dictionary page).
// An open-addressing hash table over indices; no allocation per value.
//
// Thread-safety: not thread-safe; one per column writer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "columnar/buffer.h"

namespace shoal::parquet {

class DictionaryBuilder {
 public:
  // `width` > 0: fixed-width values of that many bytes; 0: byte arrays.
  explicit DictionaryBuilder(int width);

  // Looks up (inserting when new) each of n fixed-width values; writes their indices.
  void InsertFixed(const uint8_t* values, int64_t n, uint32_t* indices);
  // Same for byte arrays given as n+1 offsets into bytes.
  void InsertByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n, uint32_t* indices);

  int64_t size() const { return size_; }
  // Size of the PLAIN-encoded dictionary page body.
  int64_t plain_bytes() const { return width_ > 0 ? size_ * width_ : static_cast<int64_t>(bytes_.size()) + 4 * size_; }
  // Entry i: fixed-width bytes, or the byte array.
  std::string_view entry(int64_t i) const;
  // Appends the PLAIN encoding of the first `count` entries (all when negative).
  void EncodePlain(columnar::Buffer* out, int64_t count = -1) const;
  void Reset();

 private:
  uint32_t InsertOne(std::string_view v, uint64_t hash);
  void Grow();

  int width_;
  int64_t size_ = 0;
  columnar::Buffer bytes_;        // entries back to back
  std::vector<int64_t> offsets_;  // byte arrays: size_+1 offsets into bytes_
  std::vector<uint64_t> hashes_;  // per entry
  std::vector<int32_t> slots_;    // -1 empty, else entry index
  uint64_t mask_ = 0;
};

}  // namespace shoal::parquet
