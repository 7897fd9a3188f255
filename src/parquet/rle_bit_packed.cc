#include "parquet/rle_bit_packed.h"

#include <cstring>
#include <string>

#include "parquet/bit_unpack.h"

namespace shoal::parquet {
namespace {

constexpr int64_t kMaxRunLength = (int64_t{1} << 31) - 1;
constexpr int64_t kChunk = 1024;

uint32_t LoadLE32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void PutVarint(uint64_t v, columnar::Buffer* out) {
  uint8_t tmp[10];
  int n = 0;
  while (v >= 0x80) {
    tmp[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  tmp[n++] = static_cast<uint8_t>(v);
  out->Append(tmp, n);
}

}  // namespace

// ---------------------------------------------------------------- decoder

Status RleBitPackedDecoder::Reset(const uint8_t* data, int64_t size, int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    return Status::Corruption("RLE/bit-packed: bit width " + std::to_string(bit_width) + " > 32");
  }
  if (size < 0) return Status::InvalidArgument("RLE/bit-packed: negative data size");
  pos_ = data;
  end_ = data + size;
  bit_width_ = bit_width;
  rle_left_ = 0;
  lit_left_ = 0;
  lit_end_ = pos_;
  group_pos_ = group_end_ = 8;
  return Status::OK();
}

Status RleBitPackedDecoder::ResetWithLengthPrefix(const uint8_t* data, int64_t size, int bit_width,
                                                  int64_t* consumed) {
  if (size < 4) {
    return Status::Corruption("RLE/bit-packed: 4-byte length prefix exceeds page data (" +
                              std::to_string(size) + " bytes)");
  }
  int64_t len = LoadLE32(data);
  if (len > size - 4) {
    return Status::Corruption("RLE/bit-packed: length prefix " + std::to_string(len) +
                              " exceeds page data (" + std::to_string(size - 4) + " bytes)");
  }
  *consumed = 4 + len;
  return Reset(data + 4, len, bit_width);
}

Status RleBitPackedDecoder::ReadRunHeader() {
  uint64_t header = 0;
  int shift = 0;
  while (true) {
    if (pos_ >= end_) return Status::Corruption("RLE/bit-packed: run header exceeds page data");
    uint8_t b = *pos_++;
    header |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
    shift += 7;
    if (shift > 28) return Status::Corruption("RLE/bit-packed: run header varint longer than 5 bytes");
  }
  const int64_t count = static_cast<int64_t>(header >> 1);
  if (count > kMaxRunLength) {
    return Status::Corruption("RLE/bit-packed: run length " + std::to_string(count) + " > 2^31-1");
  }
  const int64_t avail = end_ - pos_;
  if (header & 1) {
    const int64_t bytes = count * bit_width_;  // count groups of 8 values, bit_width_ bytes each
    if (bytes <= avail) {
      lit_end_ = pos_ + bytes;
      lit_left_ = count * 8;
    } else {  // tolerate a truncated final run: keep the whole values present
      lit_end_ = end_;
      lit_left_ = avail * 8 / bit_width_;
    }
  } else {
    const int value_bytes = (bit_width_ + 7) / 8;
    if (avail < value_bytes) return Status::Corruption("RLE/bit-packed: RLE run exceeds page data");
    uint32_t value = 0;
    for (int i = 0; i < value_bytes; ++i) value |= static_cast<uint32_t>(pos_[i]) << (8 * i);
    pos_ += value_bytes;
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      return Status::Corruption("RLE/bit-packed: RLE run value " + std::to_string(value) +
                                " does not fit bit width " + std::to_string(bit_width_));
    }
    rle_value_ = value;
    rle_left_ = count;
  }
  return Status::OK();
}

int64_t RleBitPackedDecoder::LoadGroup() {
  const int64_t avail = lit_end_ - pos_;
  if (avail >= bit_width_) {
    UnpackBits32(pos_, bit_width_, group_, 8);
    pos_ += bit_width_;
  } else {
    uint8_t padded[32] = {};
    std::memcpy(padded, pos_, static_cast<size_t>(avail));
    UnpackBits32(padded, bit_width_, group_, 8);
    pos_ += avail;
  }
  const int64_t k = std::min<int64_t>(8, lit_left_);
  lit_left_ -= k;
  group_pos_ = 0;
  group_end_ = static_cast<int>(k);
  return k;
}

Result<int64_t> RleBitPackedDecoder::NextRun(uint32_t* buf, int64_t max, bool* repeated,
                                             uint32_t* value) {
  *repeated = false;
  if (max <= 0) return int64_t{0};
  if (group_pos_ < group_end_) {
    const int64_t k = std::min<int64_t>(max, group_end_ - group_pos_);
    std::memcpy(buf, group_ + group_pos_, static_cast<size_t>(k) * 4);
    group_pos_ += static_cast<int>(k);
    return k;
  }
  while (rle_left_ == 0 && lit_left_ == 0) {
    if (pos_ >= end_) return int64_t{0};
    RETURN_NOT_OK(ReadRunHeader());
  }
  if (rle_left_ > 0) {
    const int64_t k = std::min(max, rle_left_);
    rle_left_ -= k;
    *repeated = true;
    *value = rle_value_;
    return k;
  }
  const int64_t whole = std::min(max, lit_left_) / 8 * 8;
  if (whole > 0) {
    UnpackBits32(pos_, bit_width_, buf, whole);
    pos_ += whole / 8 * bit_width_;
    lit_left_ -= whole;
    return whole;
  }
  const int64_t in_group = LoadGroup();
  const int64_t k = std::min(max, in_group);
  std::memcpy(buf, group_, static_cast<size_t>(k) * 4);
  group_pos_ = static_cast<int>(k);
  return k;
}

template <typename T>
Result<int64_t> RleBitPackedDecoder::GetBatchImpl(T* out, int64_t n) {
  int64_t done = 0;
  uint32_t chunk[std::is_same_v<T, uint32_t> ? 1 : kChunk];
  while (done < n) {
    bool repeated = false;
    uint32_t value = 0;
    const int64_t want = std::is_same_v<T, uint32_t> ? n - done : std::min(kChunk, n - done);
    uint32_t* buf = reinterpret_cast<uint32_t*>(out + done);
    if constexpr (!std::is_same_v<T, uint32_t>) buf = chunk;
    ASSIGN_OR_RETURN(int64_t got, NextRun(buf, want, &repeated, &value));
    if (got == 0) break;
    if (repeated) {
      std::fill_n(out + done, got, static_cast<T>(value));
    } else if constexpr (!std::is_same_v<T, uint32_t>) {
      for (int64_t i = 0; i < got; ++i) out[done + i] = static_cast<T>(chunk[i]);
    }
    done += got;
  }
  return done;
}

Result<int64_t> RleBitPackedDecoder::GetBatch(uint32_t* out, int64_t n) { return GetBatchImpl(out, n); }
Result<int64_t> RleBitPackedDecoder::GetBatch(uint16_t* out, int64_t n) { return GetBatchImpl(out, n); }
Result<int64_t> RleBitPackedDecoder::GetBatch(uint8_t* out, int64_t n) { return GetBatchImpl(out, n); }

Result<int64_t> RleBitPackedDecoder::Skip(int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (group_pos_ < group_end_) {
      const int64_t k = std::min<int64_t>(n - done, group_end_ - group_pos_);
      group_pos_ += static_cast<int>(k);
      done += k;
      continue;
    }
    while (rle_left_ == 0 && lit_left_ == 0) {
      if (pos_ >= end_) return done;
      RETURN_NOT_OK(ReadRunHeader());
    }
    if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      rle_left_ -= k;
      done += k;
      continue;
    }
    const int64_t whole = std::min(n - done, lit_left_) / 8 * 8;
    if (whole > 0) {
      pos_ += whole / 8 * bit_width_;
      lit_left_ -= whole;
      done += whole;
      continue;
    }
    LoadGroup();
  }
  return done;
}

Result<int64_t> RleBitPackedDecoder::SkipCounting(int64_t n, uint32_t value, int64_t* num_equal) {
  uint32_t chunk[kChunk];
  int64_t done = 0;
  int64_t equal = 0;
  while (done < n) {
    bool repeated = false;
    uint32_t run_value = 0;
    ASSIGN_OR_RETURN(int64_t got, NextRun(chunk, std::min(kChunk, n - done), &repeated, &run_value));
    if (got == 0) break;
    if (repeated) {
      if (run_value == value) equal += got;
    } else {
      for (int64_t i = 0; i < got; ++i) equal += chunk[i] == value;
    }
    done += got;
  }
  *num_equal += equal;
  return done;
}

Status RleBitPackedDecoder::DictIndexError(uint32_t index, int64_t dict_size) {
  return Status::Corruption("dictionary index " + std::to_string(index) +
                            " out of range for dictionary of " + std::to_string(dict_size) +
                            " values");
}

Result<int64_t> RleBitPackedDecoder::NextDictIndices(uint32_t* idx, int64_t max, int64_t dict_size) {
  bool repeated = false;
  uint32_t value = 0;
  ASSIGN_OR_RETURN(int64_t got, NextRun(idx, max, &repeated, &value));
  if (repeated) {
    if (value >= static_cast<uint64_t>(dict_size)) return DictIndexError(value, dict_size);
    std::fill_n(idx, got, value);
  } else {
    uint32_t max_index = 0;
    for (int64_t i = 0; i < got; ++i) max_index = std::max(max_index, idx[i]);
    if (got > 0 && max_index >= static_cast<uint64_t>(dict_size)) return DictIndexError(max_index, dict_size);
  }
  return got;
}

Result<int64_t> RleBitPackedDecoder::GetBatchWithShortDict(const uint8_t* slots, const uint8_t* lens,
                                                           int64_t dict_size, columnar::Vector* out, int64_t n) {
  uint32_t idx[kChunk];
  int64_t done = 0;
  while (done < n) {
    ASSIGN_OR_RETURN(int64_t got, NextDictIndices(idx, std::min(kChunk, n - done), dict_size));
    if (got == 0) break;
    const int64_t rows = out->size();
    out->values().Resize(static_cast<size_t>(rows + 1 + got) * sizeof(int64_t));
    int64_t* offsets = out->offsets() + rows;
    columnar::Buffer& bytes = out->bytes();
    const size_t base = bytes.size();
    // At most 16 bytes a value: each move writes 16 bytes and advances by the entry's length.
    bytes.Reserve(base + static_cast<size_t>(got) * 16 + 16);
    uint8_t* const first = bytes.data() + base;
    uint8_t* dst = first;
    int64_t pos = offsets[0];
    for (int64_t i = 0; i < got; ++i) {
      const uint32_t e = idx[i];
      std::memcpy(dst, slots + size_t{16} * e, 16);
      const uint8_t len = lens[e];
      dst += len;
      pos += len;
      offsets[i + 1] = pos;
    }
    bytes.Resize(base + static_cast<size_t>(dst - first));
    if (out->MayHaveNulls()) out->validity().resize(static_cast<size_t>(rows + got), 1);
    out->SetLength(rows + got);
    done += got;
  }
  return done;
}

Result<int64_t> RleBitPackedDecoder::GetBatchWithDict(const columnar::Vector& dict,
                                                      columnar::Vector* out, int64_t n) {
  uint32_t idx[kChunk];
  const int64_t dict_size = dict.size();
  const int64_t* doff = dict.offsets();
  const uint8_t* dbytes = dict.bytes().data();
  // Whole 16-byte moves may read up to the buffer's capacity (allocated memory; SetDictionary
  // leaves at least 16 zero bytes there), so small dictionaries take the fast path too.
  const int64_t dbytes_readable = static_cast<int64_t>(dict.bytes().capacity());
  int64_t done = 0;
  while (done < n) {
    ASSIGN_OR_RETURN(int64_t got, NextDictIndices(idx, std::min(kChunk, n - done), dict_size));
    if (got == 0) break;
    int64_t total = 0;
    for (int64_t i = 0; i < got; ++i) total += doff[idx[i] + 1] - doff[idx[i]];
    const int64_t rows = out->size();
    columnar::Buffer& values = out->values();
    values.Resize(static_cast<size_t>(rows + 1 + got) * sizeof(int64_t));
    int64_t* offsets = out->offsets() + rows;
    columnar::Buffer& bytes = out->bytes();
    const size_t base = bytes.size();
    // On the first chunk, reserve for all n rows at this chunk's mean length, so the bytes
    // do not move chunk after chunk; then slack for 16-byte moves.
    const int64_t expect = done == 0 && got < n ? total / got * (n - got) : 0;
    bytes.Reserve(base + static_cast<size_t>(total + expect) + 16);
    bytes.Resize(base + static_cast<size_t>(total));
    uint8_t* dst = bytes.data() + base;
    int64_t pos = offsets[0];
    for (int64_t i = 0; i < got; ++i) {
      const int64_t b = doff[idx[i]];
      const int64_t len = doff[idx[i] + 1] - b;
      if (b + ((len + 15) & ~int64_t{15}) <= dbytes_readable && len <= 64) {
        // Whole 16-byte moves: may read past this entry (still inside the dictionary) and write
        // up to 15 bytes past it (into the slack, overwritten by the next string).
        for (int64_t k = 0; k < len; k += 16) std::memcpy(dst + k, dbytes + b + k, 16);
      } else if (len) {
        std::memcpy(dst, dbytes + b, static_cast<size_t>(len));
      }
      dst += len;
      pos += len;
      offsets[i + 1] = pos;
    }
    if (out->MayHaveNulls()) out->validity().resize(static_cast<size_t>(rows + got), 1);
    out->SetLength(rows + got);
    done += got;
  }
  return done;
}

// ---------------------------------------------------------------- encoder

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width, columnar::Buffer* out)
    : bit_width_(bit_width), out_(out) {}

int64_t RleBitPackedEncoder::MaxEncodedSize(int bit_width, int64_t n) {
  return (n + 7) / 8 * (bit_width + 10) + 16;
}

void RleBitPackedEncoder::Put(uint32_t value) {
  if (in_rle_) {
    if (value == rle_value_) {
      ++rle_count_;
      return;
    }
    WriteRleRun();
  }
  buf_[nbuf_++] = value;
  if (nbuf_ == 8) {
    bool same = true;
    for (int i = 1; i < 8; ++i) same &= buf_[i] == buf_[0];
    if (same) {
      CloseLiteralRun();
      in_rle_ = true;
      rle_value_ = buf_[0];
      rle_count_ = 8;
      nbuf_ = 0;
    } else {
      WriteLiteralGroup();
    }
  }
}

void RleBitPackedEncoder::PutBatch(const uint32_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) Put(values[i]);
}
void RleBitPackedEncoder::PutBatch(const uint16_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) Put(values[i]);
}
void RleBitPackedEncoder::PutBatch(const uint8_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) Put(values[i]);
}

void RleBitPackedEncoder::WriteRleRun() {
  const int value_bytes = (bit_width_ + 7) / 8;
  uint8_t v[4];
  for (int i = 0; i < 4; ++i) v[i] = static_cast<uint8_t>(rle_value_ >> (8 * i));
  while (rle_count_ > 0) {
    const int64_t k = std::min(rle_count_, kMaxRunLength);
    PutVarint(static_cast<uint64_t>(k) << 1, out_);
    out_->Append(v, value_bytes);
    rle_count_ -= k;
  }
  in_rle_ = false;
}

void RleBitPackedEncoder::WriteLiteralGroup() {
  if (lit_header_pos_ < 0) {
    lit_header_pos_ = static_cast<int64_t>(out_->size());
    out_->Push<uint8_t>(0);
    lit_groups_ = 0;
  }
  const size_t at = out_->size();
  out_->Resize(at + bit_width_);
  PackBits32(buf_, bit_width_, out_->data() + at, 8);
  nbuf_ = 0;
  if (++lit_groups_ == 63) CloseLiteralRun();
}

void RleBitPackedEncoder::CloseLiteralRun() {
  if (lit_header_pos_ < 0) return;
  out_->data()[lit_header_pos_] = static_cast<uint8_t>((lit_groups_ << 1) | 1);
  lit_header_pos_ = -1;
  lit_groups_ = 0;
}

void RleBitPackedEncoder::Flush() {
  if (in_rle_) WriteRleRun();
  if (nbuf_ > 0) {
    bool same = true;
    for (int i = 1; i < nbuf_; ++i) same &= buf_[i] == buf_[0];
    if (lit_header_pos_ < 0 && same) {
      rle_value_ = buf_[0];
      rle_count_ = nbuf_;
      WriteRleRun();
      nbuf_ = 0;
    } else {
      for (int i = nbuf_; i < 8; ++i) buf_[i] = 0;
      WriteLiteralGroup();
    }
  }
  CloseLiteralRun();
}

void EncodeRleWithLengthPrefix(const uint16_t* values, int64_t n, int bit_width,
                               columnar::Buffer* out) {
  const size_t at = out->size();
  out->Resize(at + 4);
  RleBitPackedEncoder enc(bit_width, out);
  enc.PutBatch(values, n);
  enc.Flush();
  const uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
  std::memcpy(out->data() + at, &len, 4);
}

void EncodeBooleanRle(const uint8_t* values, int64_t n, columnar::Buffer* out) {
  const size_t at = out->size();
  out->Resize(at + 4);
  RleBitPackedEncoder enc(1, out);
  enc.PutBatch(values, n);
  enc.Flush();
  const uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
  std::memcpy(out->data() + at, &len, 4);
}

int64_t CountEqual(const uint16_t* levels, int64_t n, uint16_t value) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += levels[i] == value;
  return count;
}

}  // namespace shoal::parquet
