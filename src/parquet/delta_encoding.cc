#include "parquet/delta_encoding.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "parquet/bit_unpack.h"

namespace shoal::parquet {
namespace {

constexpr int64_t kMaxBlockSize = int64_t{1} << 20;
constexpr int64_t kChunk = 1024;
constexpr int kDefaultBlockSize = 128;
constexpr int kDefaultMiniblocks = 4;

Status DbpError(const std::string& what) {
  return Status::Corruption("DELTA_BINARY_PACKED: " + what);
}

// Reads a ULEB128 of at most 64 bits; false when truncated or too long.
bool ReadUleb(const uint8_t*& p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= end) return false;
    const uint8_t b = *p++;
    if (shift == 63 && (b & 0x7e) != 0) return false;
    r |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *v = r;
      return true;
    }
  }
  return false;
}

bool ReadZigzag(const uint8_t*& p, const uint8_t* end, uint64_t* v) {
  uint64_t z;
  if (!ReadUleb(p, end, &z)) return false;
  *v = (z >> 1) ^ (~(z & 1) + 1);
  return true;
}

void PutUleb(uint64_t v, columnar::Buffer* out) {
  uint8_t tmp[10];
  int n = 0;
  while (v >= 0x80) {
    tmp[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  tmp[n++] = static_cast<uint8_t>(v);
  out->Append(tmp, n);
}

void PutZigzag(int64_t v, columnar::Buffer* out) {
  PutUleb((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63), out);
}

template <typename U>
void Unpack(const uint8_t* in, int bw, U* out, int64_t n) {
  if constexpr (sizeof(U) == 4) {
    UnpackBits32(in, bw, out, n);
  } else {
    UnpackBits64(in, bw, out, n);
  }
}

}  // namespace

// ---------------------------------------------------------------- DELTA_BINARY_PACKED decoder

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Reset(const uint8_t* data, int64_t size) {
  begin_ = pos_ = data;
  end_ = data + std::max<int64_t>(size, 0);
  uint64_t block_size, miniblocks, total, first;
  if (!ReadUleb(pos_, end_, &block_size) || !ReadUleb(pos_, end_, &miniblocks) ||
      !ReadUleb(pos_, end_, &total) || !ReadZigzag(pos_, end_, &first)) {
    return DbpError("header exceeds page data");
  }
  if (block_size == 0 || block_size % 128 != 0 || block_size > kMaxBlockSize) {
    return DbpError("block size " + std::to_string(block_size) +
                    " is not a positive multiple of 128 (at most 2^20)");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return DbpError(std::to_string(miniblocks) + " miniblocks do not divide block size " +
                    std::to_string(block_size) + " into multiples of 32");
  }
  // Every block needs a min delta byte and one bit-width byte per miniblock.
  const uint64_t max_blocks = static_cast<uint64_t>(end_ - pos_) / (1 + miniblocks);
  if (total > 1 + max_blocks * block_size) {
    return DbpError("header declares " + std::to_string(total) + " values but only " +
                    std::to_string(end_ - pos_) + " bytes follow");
  }
  block_size_ = static_cast<int64_t>(block_size);
  miniblocks_ = static_cast<int64_t>(miniblocks);
  mb_values_ = block_size_ / miniblocks_;
  total_values_ = static_cast<int64_t>(total);
  values_read_ = 0;
  last_ = static_cast<U>(first);
  first_pending_ = total > 0;
  widths_.assign(static_cast<size_t>(miniblocks_), 0);
  next_mb_ = miniblocks_;
  mb_.resize(static_cast<size_t>(mb_values_));
  mb_pos_ = mb_len_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::StartBlock() {
  uint64_t min_delta;
  if (!ReadZigzag(pos_, end_, &min_delta)) return DbpError("block header exceeds page data");
  if (end_ - pos_ < miniblocks_) return DbpError("miniblock bit widths exceed page data");
  std::memcpy(widths_.data(), pos_, static_cast<size_t>(miniblocks_));
  pos_ += miniblocks_;
  min_delta_ = static_cast<U>(min_delta);
  next_mb_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::LoadMiniblock() {
  if (next_mb_ == miniblocks_) RETURN_NOT_OK(StartBlock());
  const int bw = widths_[static_cast<size_t>(next_mb_)];
  if (bw > static_cast<int>(8 * sizeof(T))) {
    return DbpError("miniblock bit width " + std::to_string(bw) + " > " +
                    std::to_string(8 * sizeof(T)));
  }
  const int64_t len = std::min(mb_values_, total_values_ - values_read_);
  const int64_t full_bytes = mb_values_ * bw / 8;
  const int64_t avail = end_ - pos_;
  if (avail >= full_bytes) {
    Unpack(pos_, bw, mb_.data(), mb_values_);
    pos_ += full_bytes;
  } else {  // a final miniblock cut short by the writer: its used values must be present
    if (avail < BitPackedBytes(len, bw)) return DbpError("miniblock exceeds page data");
    std::vector<uint8_t> padded(static_cast<size_t>(full_bytes), 0);
    std::memcpy(padded.data(), pos_, static_cast<size_t>(avail));
    Unpack(padded.data(), bw, mb_.data(), mb_values_);
    pos_ = end_;
  }
  mb_pos_ = 0;
  mb_len_ = len;
  ++next_mb_;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Decode(int64_t n, T* out) {
  if (n < 0 || n > total_values_ - values_read_) {
    return DbpError(std::to_string(n) + " values requested, " +
                    std::to_string(total_values_ - values_read_) + " remain");
  }
  int64_t i = 0;
  if (n > 0 && first_pending_) {
    out[0] = static_cast<T>(last_);
    first_pending_ = false;
    ++values_read_;
    i = 1;
  }
  U last = last_;
  while (i < n) {
    if (mb_pos_ == mb_len_) {
      last_ = last;
      RETURN_NOT_OK(LoadMiniblock());
    }
    const int64_t k = std::min(n - i, mb_len_ - mb_pos_);
    const U* d = mb_.data() + mb_pos_;
    const U min_delta = min_delta_;
    for (int64_t j = 0; j < k; ++j) {
      last += d[j] + min_delta;
      out[i + j] = static_cast<T>(last);
    }
    mb_pos_ += k;
    i += k;
    values_read_ += k;
  }
  last_ = last;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Skip(int64_t n) {
  T chunk[kChunk];
  while (n > 0) {
    const int64_t k = std::min(n, kChunk);
    RETURN_NOT_OK(Decode(k, chunk));
    n -= k;
  }
  return Status::OK();
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::EncodedSize() const {
  // Re-parse the header to find where the blocks start.
  const uint8_t* p = begin_;
  uint64_t skip;
  for (int i = 0; i < 4; ++i) {
    if (!ReadUleb(p, end_, &skip)) return DbpError("header exceeds page data");
  }
  int64_t remaining = total_values_ > 0 ? total_values_ - 1 : 0;
  while (remaining > 0) {
    if (!ReadZigzag(p, end_, &skip)) return DbpError("block header exceeds page data");
    if (end_ - p < miniblocks_) return DbpError("miniblock bit widths exceed page data");
    const uint8_t* widths = p;
    p += miniblocks_;
    for (int64_t m = 0; m < miniblocks_ && remaining > 0; ++m) {
      const int bw = widths[m];
      if (bw > static_cast<int>(8 * sizeof(T))) {
        return DbpError("miniblock bit width " + std::to_string(bw) + " > " +
                        std::to_string(8 * sizeof(T)));
      }
      const int64_t len = std::min(mb_values_, remaining);
      const int64_t full_bytes = mb_values_ * bw / 8;
      if (end_ - p >= full_bytes) {
        p += full_bytes;
      } else if (end_ - p >= BitPackedBytes(len, bw)) {
        p = end_;
      } else {
        return DbpError("miniblock exceeds page data");
      }
      remaining -= len;
    }
  }
  return static_cast<int64_t>(p - begin_);
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

// ---------------------------------------------------------------- DELTA_BINARY_PACKED encoder

namespace {

template <typename T>
void EncodeDbp(const T* values, int64_t n, columnar::Buffer* out) {
  using U = std::make_unsigned_t<T>;
  constexpr int kMbValues = kDefaultBlockSize / kDefaultMiniblocks;
  PutUleb(kDefaultBlockSize, out);
  PutUleb(kDefaultMiniblocks, out);
  PutUleb(static_cast<uint64_t>(n), out);
  PutZigzag(n > 0 ? static_cast<int64_t>(values[0]) : 0, out);
  if (n <= 1) return;
  U rel[kDefaultBlockSize];
  for (int64_t start = 1; start < n; start += kDefaultBlockSize) {
    const int64_t cnt = std::min<int64_t>(kDefaultBlockSize, n - start);
    T min_delta = std::numeric_limits<T>::max();
    for (int64_t j = 0; j < cnt; ++j) {
      const T d = static_cast<T>(static_cast<U>(values[start + j]) - static_cast<U>(values[start + j - 1]));
      rel[j] = static_cast<U>(d);
      min_delta = std::min(min_delta, d);
    }
    for (int64_t j = 0; j < cnt; ++j) rel[j] -= static_cast<U>(min_delta);
    for (int64_t j = cnt; j < kDefaultBlockSize; ++j) rel[j] = 0;
    PutZigzag(static_cast<int64_t>(min_delta), out);
    uint8_t widths[kDefaultMiniblocks] = {};
    for (int m = 0; m < kDefaultMiniblocks; ++m) {
      if (m * kMbValues >= cnt) break;
      U all = 0;
      for (int j = 0; j < kMbValues; ++j) all |= rel[m * kMbValues + j];
      widths[m] = static_cast<uint8_t>(BitWidthOf(all));
    }
    out->Append(widths, kDefaultMiniblocks);
    for (int m = 0; m < kDefaultMiniblocks; ++m) {
      if (m * kMbValues >= cnt) break;
      const size_t at = out->size();
      out->Resize(at + static_cast<size_t>(kMbValues) * widths[m] / 8);
      if constexpr (sizeof(U) == 4) {
        PackBits32(rel + m * kMbValues, widths[m], out->data() + at, kMbValues);
      } else {
        PackBits64(rel + m * kMbValues, widths[m], out->data() + at, kMbValues);
      }
    }
  }
}

}  // namespace

void EncodeDeltaBinaryPacked(const int32_t* values, int64_t n, columnar::Buffer* out) {
  EncodeDbp(values, n, out);
}

void EncodeDeltaBinaryPacked(const int64_t* values, int64_t n, columnar::Buffer* out) {
  EncodeDbp(values, n, out);
}

// ---------------------------------------------------------------- DELTA_LENGTH_BYTE_ARRAY

namespace {

// Decodes up to num_values of a DELTA_BINARY_PACKED int32 stream into *values and returns the
// stream's encoded size. num_values is an upper bound: a v1 data page counts its NULLs in its
// value count, while the stream holds only the non-null values.
Result<int64_t> DecodeLengths(const char* what, const uint8_t* data, int64_t size,
                              int64_t num_values, std::vector<int32_t>* values) {
  if (num_values < 0) return Status::InvalidArgument(std::string(what) + ": negative value count");
  DeltaBinaryPackedDecoder<int32_t> dec;
  Status st = dec.Reset(data, size);
  if (!st.ok()) return st.WithContext(what);
  if (dec.total_values() < num_values) num_values = dec.total_values();
  values->resize(static_cast<size_t>(num_values));
  st = dec.Decode(num_values, values->data());
  if (!st.ok()) return st.WithContext(what);
  auto size_or = dec.EncodedSize();
  if (!size_or.ok()) return size_or.status().WithContext(what);
  for (int64_t i = 0; i < num_values; ++i) {
    if ((*values)[i] < 0) {
      return Status::Corruption(std::string(what) + ": negative length " +
                                std::to_string((*values)[i]) + " of value " + std::to_string(i));
    }
  }
  return size_or;
}

}  // namespace

Status DeltaLengthByteArrayDecoder::Reset(const uint8_t* data, int64_t size, int64_t num_values) {
  ASSIGN_OR_RETURN(int64_t enc, DecodeLengths("DELTA_LENGTH_BYTE_ARRAY", data, size, num_values, &lengths_));
  int64_t sum = 0;
  for (int32_t len : lengths_) sum += len;
  if (sum > size - enc) {
    return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: values need " + std::to_string(sum) +
                              " bytes, page data has " + std::to_string(size - enc));
  }
  bytes_ = data + enc;
  next_ = 0;
  encoded_size_ = enc + sum;
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Skip(int64_t n) {
  if (n < 0 || n > remaining_values()) {
    return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: " + std::to_string(n) +
                              " values requested, " + std::to_string(remaining_values()) + " remain");
  }
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += lengths_[next_ + i];
  bytes_ += sum;
  next_ += n;
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Decode(int64_t n, columnar::Vector* out) {
  if (n < 0 || n > remaining_values()) return Skip(n);  // reports the error
  const int64_t rows = out->size();
  out->values().Resize(static_cast<size_t>(rows + 1 + n) * sizeof(int64_t));
  int64_t* offsets = out->offsets() + rows;
  int64_t off = offsets[0];
  const int32_t* len = lengths_.data() + next_;
  for (int64_t i = 0; i < n; ++i) {
    off += len[i];
    offsets[i + 1] = off;
  }
  const int64_t total = off - offsets[0];
  out->bytes().Append(bytes_, static_cast<size_t>(total));
  bytes_ += total;
  next_ += n;
  if (out->MayHaveNulls()) out->validity().resize(static_cast<size_t>(rows + n), 1);
  out->SetLength(rows + n);
  return Status::OK();
}

// ---------------------------------------------------------------- DELTA_BYTE_ARRAY

Status DeltaByteArrayDecoder::Reset(const uint8_t* data, int64_t size, int64_t num_values) {
  ASSIGN_OR_RETURN(int64_t enc, DecodeLengths("DELTA_BYTE_ARRAY prefix lengths", data, size,
                                              num_values, &prefixes_));
  RETURN_NOT_OK(suffixes_.Reset(data + enc, size - enc, static_cast<int64_t>(prefixes_.size()))
                    .WithContext("DELTA_BYTE_ARRAY suffixes"));
  last_.clear();
  next_ = 0;
  if (!scratch_) scratch_ = columnar::Vector::Make(columnar::Binary());
  return Status::OK();
}

Status DeltaByteArrayDecoder::Decode(int64_t n, columnar::Vector* out) {
  if (n < 0 || n > remaining_values()) {
    return Status::Corruption("DELTA_BYTE_ARRAY: " + std::to_string(n) + " values requested, " +
                              std::to_string(remaining_values()) + " remain");
  }
  if (n == 0) return Status::OK();
  scratch_->Clear();
  RETURN_NOT_OK(suffixes_.Decode(n, scratch_.get()));
  const int64_t* soff = scratch_->offsets();
  const uint8_t* sbytes = scratch_->bytes().data();
  const int32_t* prefix = prefixes_.data() + next_;
  // Validate prefixes and size the output.
  int64_t prev_len = static_cast<int64_t>(last_.size());
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (prefix[i] > prev_len) {
      return Status::Corruption("DELTA_BYTE_ARRAY: prefix length " + std::to_string(prefix[i]) +
                                " of value " + std::to_string(next_ + i) +
                                " exceeds previous value length " + std::to_string(prev_len));
    }
    prev_len = prefix[i] + (soff[i + 1] - soff[i]);
    total += prev_len;
  }
  const int64_t rows = out->size();
  out->values().Resize(static_cast<size_t>(rows + 1 + n) * sizeof(int64_t));
  int64_t* offsets = out->offsets() + rows;
  columnar::Buffer& bytes = out->bytes();
  const size_t base = bytes.size();
  bytes.Resize(base + static_cast<size_t>(total));
  uint8_t* dst = bytes.data() + base;
  const uint8_t* prev = reinterpret_cast<const uint8_t*>(last_.data());
  int64_t off = offsets[0];
  for (int64_t i = 0; i < n; ++i) {
    const int64_t slen = soff[i + 1] - soff[i];
    if (prefix[i]) std::memmove(dst, prev, static_cast<size_t>(prefix[i]));
    if (slen) std::memcpy(dst + prefix[i], sbytes + soff[i], static_cast<size_t>(slen));
    prev = dst;
    const int64_t len = prefix[i] + slen;
    dst += len;
    off += len;
    offsets[i + 1] = off;
  }
  last_.assign(reinterpret_cast<const char*>(prev), static_cast<size_t>(dst - prev));
  next_ += n;
  if (out->MayHaveNulls()) out->validity().resize(static_cast<size_t>(rows + n), 1);
  out->SetLength(rows + n);
  return Status::OK();
}

Status DeltaByteArrayDecoder::Skip(int64_t n) {
  if (n < 0 || n > remaining_values()) return Decode(n, nullptr);  // reports the error
  auto sink = columnar::Vector::Make(columnar::Binary());
  while (n > 0) {
    const int64_t k = std::min(n, kChunk);
    sink->Clear();
    RETURN_NOT_OK(Decode(k, sink.get()));
    n -= k;
  }
  return Status::OK();
}

void EncodeDeltaLengthByteArray(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                                columnar::Buffer* out) {
  std::vector<int32_t> lengths(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) lengths[i] = static_cast<int32_t>(offsets[i + 1] - offsets[i]);
  EncodeDeltaBinaryPacked(lengths.data(), n, out);
  if (n > 0) out->Append(bytes + offsets[0], static_cast<size_t>(offsets[n] - offsets[0]));
}

void EncodeDeltaByteArray(const int64_t* offsets, const uint8_t* bytes, int64_t n,
                          columnar::Buffer* out) {
  std::vector<int32_t> prefixes(static_cast<size_t>(n));
  std::vector<int32_t> suffix_lengths(static_cast<size_t>(n));
  columnar::Buffer suffixes;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* cur = bytes + offsets[i];
    const int64_t len = offsets[i + 1] - offsets[i];
    int64_t p = 0;
    if (i > 0) {
      const uint8_t* prev = bytes + offsets[i - 1];
      const int64_t max = std::min(len, offsets[i] - offsets[i - 1]);
      while (p < max && prev[p] == cur[p]) ++p;
    }
    prefixes[i] = static_cast<int32_t>(p);
    suffix_lengths[i] = static_cast<int32_t>(len - p);
    suffixes.Append(cur + p, static_cast<size_t>(len - p));
  }
  EncodeDeltaBinaryPacked(prefixes.data(), n, out);
  EncodeDeltaBinaryPacked(suffix_lengths.data(), n, out);
  out->Append(suffixes.data(), suffixes.size());
}

}  // namespace shoal::parquet
