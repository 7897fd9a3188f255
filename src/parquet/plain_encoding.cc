#include "parquet/plain_encoding.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace shoal::parquet {
namespace {

// kBitsToBytes[b] holds the 8 bits of b, LSB first, as eight 0/1 bytes (little-endian word).
constexpr std::array<uint64_t, 256> MakeBitsToBytes() {
  std::array<uint64_t, 256> t{};
  for (int b = 0; b < 256; ++b) {
    uint64_t w = 0;
    for (int j = 0; j < 8; ++j) w |= static_cast<uint64_t>((b >> j) & 1) << (8 * j);
    t[b] = w;
  }
  return t;
}
constexpr std::array<uint64_t, 256> kBitsToBytes = MakeBitsToBytes();

Status NotEnough(const char* what, int64_t n, int64_t have) {
  return Status::Corruption(std::string("PLAIN ") + what + ": " + std::to_string(n) +
                            " values exceed page data (" + std::to_string(have) + " bytes left)");
}

}  // namespace

void PlainDecoder::Reset(const uint8_t* data, int64_t size) {
  begin_ = pos_ = data;
  end_ = data + (size > 0 ? size : 0);
  bool_bit_ = 0;
}

Status PlainDecoder::SkipFixed(int width, int64_t n) {
  if (width <= 0 || n < 0) return Status::InvalidArgument("PLAIN: bad width or count");
  const int64_t have = end_ - pos_;
  if (n > have / width) return NotEnough("fixed-width", n, have);
  pos_ += n * width;
  return Status::OK();
}

Status PlainDecoder::DecodeFixed(int width, int64_t n, uint8_t* out) {
  const uint8_t* from = pos_;
  RETURN_NOT_OK(SkipFixed(width, n));
  if (n) std::memcpy(out, from, static_cast<size_t>(n * width));
  return Status::OK();
}

Status PlainDecoder::DecodeFixed(int width, int64_t n, columnar::Buffer* out) {
  const uint8_t* from = pos_;
  RETURN_NOT_OK(SkipFixed(width, n));
  out->Append(from, static_cast<size_t>(n * width));
  return Status::OK();
}

Status PlainDecoder::SkipBooleans(int64_t n) {
  if (n < 0) return Status::InvalidArgument("PLAIN BOOLEAN: negative count");
  const int64_t have_bits = (end_ - pos_) * 8 - bool_bit_;
  if (n > have_bits) return NotEnough("BOOLEAN", n, end_ - pos_);
  const int64_t bit = bool_bit_ + n;
  pos_ += bit / 8;
  bool_bit_ = static_cast<int>(bit % 8);
  return Status::OK();
}

Status PlainDecoder::DecodeBooleans(int64_t n, uint8_t* out) {
  const uint8_t* p = pos_;
  int bit = bool_bit_;
  RETURN_NOT_OK(SkipBooleans(n));
  int64_t i = 0;
  while (i < n && bit != 0) {
    out[i++] = (*p >> bit) & 1;
    if (++bit == 8) {
      bit = 0;
      ++p;
    }
  }
  for (; i + 8 <= n; i += 8) std::memcpy(out + i, &kBitsToBytes[*p++], 8);
  for (int j = 0; i < n; ++i, ++j) out[i] = (*p >> j) & 1;
  return Status::OK();
}

Status PlainDecoder::SkipByteArrays(int64_t n) {
  const uint8_t* p = pos_;
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - p < 4) {
      return Status::Corruption("PLAIN BYTE_ARRAY: length of value " + std::to_string(i) +
                                " at byte " + std::to_string(p - begin_) + " exceeds page data");
    }
    uint32_t len;
    std::memcpy(&len, p, 4);
    if (len > static_cast<uint64_t>(end_ - p - 4)) {
      return Status::Corruption("PLAIN BYTE_ARRAY: value " + std::to_string(i) + " of length " +
                                std::to_string(len) + " at byte " + std::to_string(p - begin_) +
                                " exceeds page data");
    }
    p += 4 + len;
  }
  pos_ = p;
  return Status::OK();
}

Status PlainDecoder::DecodeByteArrays(int64_t n, columnar::Vector* out) {
  if (n < 0) return Status::InvalidArgument("PLAIN BYTE_ARRAY: negative count");
  const int64_t rows = out->size();
  columnar::Buffer& bytes = out->bytes();
  const size_t base = bytes.size();
  // The values take at most the remaining bytes, but a reader taking a few selected values from
  // a large page must not reserve the whole rest of the page on every call (a fresh allocation of
  // megabytes per batch): reserve for n values of up to 32 bytes and grow when longer ones come.
  // 16 bytes of slack let short values be copied with one fixed-size move.
  const auto remaining = static_cast<size_t>(end_ - pos_);
  bytes.Reserve(base + std::min(remaining, static_cast<size_t>(n) * 32) + 16);
  out->values().Resize(static_cast<size_t>(rows + 1 + n) * sizeof(int64_t));
  int64_t* offsets = out->offsets() + rows;
  uint8_t* first = bytes.data() + base;
  uint8_t* dst = first;
  uint8_t* limit = bytes.data() + bytes.capacity() - 16;
  int64_t off = offsets[0];
  const uint8_t* p = pos_;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t len = 0;
    const bool has_len = end_ - p >= 4;
    if (has_len) std::memcpy(&len, p, 4);
    if (!has_len || len > static_cast<uint64_t>(end_ - p - 4)) {
      out->values().Resize(static_cast<size_t>(rows + 1) * sizeof(int64_t));
      std::string what = has_len ? "value " + std::to_string(i) + " of length " + std::to_string(len)
                                 : "length of value " + std::to_string(i);
      return Status::Corruption("PLAIN BYTE_ARRAY: " + what + " at byte " +
                                std::to_string(p - begin_) + " exceeds page data");
    }
    p += 4;
    if (len > static_cast<size_t>(limit - dst)) {
      const auto used = static_cast<size_t>(dst - first);
      bytes.Resize(base + used);  // Reserve keeps only the bytes within size()
      bytes.Reserve(base + used + std::max<size_t>(len, std::min(remaining - used, used + len)) + 16);
      first = bytes.data() + base;
      dst = first + used;
      limit = bytes.data() + bytes.capacity() - 16;
    }
    if (len <= 16 && end_ - p >= 16) {
      std::memcpy(dst, p, 16);
    } else if (len) {
      std::memcpy(dst, p, len);
    }
    dst += len;
    p += len;
    off += len;
    offsets[i + 1] = off;
  }
  pos_ = p;
  bytes.Resize(base + static_cast<size_t>(dst - first));
  if (out->MayHaveNulls()) out->validity().resize(static_cast<size_t>(rows + n), 1);
  out->SetLength(rows + n);
  return Status::OK();
}

void EncodePlainFixed(const void* values, int width, int64_t n, columnar::Buffer* out) {
  out->Append(values, static_cast<size_t>(n) * width);
}

void EncodePlainBooleans(const uint8_t* values, int64_t n, columnar::Buffer* out) {
  const size_t at = out->size();
  out->Resize(at + static_cast<size_t>((n + 7) / 8));
  uint8_t* dst = out->data() + at;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint8_t b = 0;
    for (int j = 0; j < 8; ++j) b |= static_cast<uint8_t>((values[i + j] != 0) << j);
    *dst++ = b;
  }
  if (i < n) {
    uint8_t b = 0;
    for (int j = 0; i < n; ++i, ++j) b |= static_cast<uint8_t>((values[i] != 0) << j);
    *dst = b;
  }
}

void EncodePlainByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                           columnar::Buffer* out) {
  const size_t at = out->size();
  out->Resize(at + static_cast<size_t>(4 * n + offsets[n] - offsets[0]));
  uint8_t* dst = out->data() + at;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t len = static_cast<uint32_t>(offsets[i + 1] - offsets[i]);
    std::memcpy(dst, &len, 4);
    if (len) std::memcpy(dst + 4, bytes + offsets[i], len);
    dst += 4 + len;
  }
}

}  // namespace shoal::parquet
