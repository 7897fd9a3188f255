#include "parquet/value_decoder.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace shoal::parquet {

using columnar::int128_t;
using columnar::Vector;

void HalfToFloat(const uint8_t* src, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) {
    uint16_t h = static_cast<uint16_t>(src[2 * i] | (src[2 * i + 1] << 8));
    uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float f;
    if (exp == 0) {
      f = std::ldexp(static_cast<float>(mant), -24);
    } else if (exp == 31) {
      f = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    } else {
      f = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
    }
    out[i] = sign ? -f : f;
  }
}

bool BigEndianToInt128(const uint8_t* p, int64_t len, __int128* out) {
  if (len == 0) {
    *out = 0;
    return true;
  }
  bool neg = p[0] & 0x80;
  int64_t start = 0;
  // Bytes beyond 16 must be pure sign extension.
  while (len - start > 16) {
    if (p[start] != (neg ? 0xff : 0x00)) return false;
    ++start;
  }
  unsigned __int128 v = neg ? ~static_cast<unsigned __int128>(0) : 0;
  for (int64_t i = start; i < len; ++i) v = (v << 8) | p[i];
  *out = static_cast<__int128>(v);
  return true;
}

namespace {

void FormatUuid(const uint8_t* p, char* out) {
  static const char* hex = "0123456789abcdef";
  int o = 0;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
    out[o++] = hex[p[i] >> 4];
    out[o++] = hex[p[i] & 15];
  }
}

template <typename T>
T* AppendSlots(Vector* out, int64_t n) {
  int64_t s = out->size();
  out->values().Resize(static_cast<size_t>(s + n) * sizeof(T));
  out->SetLength(s + n);
  return out->data<T>() + s;
}

template <typename From, typename To, typename Fn>
void ConvertLoop(const uint8_t* src, int64_t n, To* dst, Fn fn) {
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + i * sizeof(From), sizeof(From));
    dst[i] = fn(v);
  }
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

Status ValueDecoder::Corrupt(const std::string& what) const {
  return Status::Corruption("column '" + leaf_->dotted_path + "': " + what);
}

int ValueDecoder::PhysicalWidth() const {
  switch (leaf_->physical) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return leaf_->type_length;
    case PhysicalType::kByteArray: return 0;
  }
  return 0;
}

// Short string dictionaries (flags, modes, codes: the usual low-cardinality columns) are also
// laid out as 16-byte slots, so decoding a value is one fixed move (GetBatchWithShortDict).
void ValueDecoder::BuildShortDictSlots(const Vector& dict) {
  constexpr int64_t kMaxShortDictEntries = 65536;
  const int64_t n = dict.size();
  if (n == 0 || n > kMaxShortDictEntries) return;
  const int64_t* off = dict.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (off[i + 1] - off[i] > 16) return;
  }
  dict_slots_.ResizeZeroed(static_cast<size_t>(n) * 16);
  dict_lens_.resize(static_cast<size_t>(n));
  const uint8_t* bytes = dict.bytes().data();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = off[i + 1] - off[i];
    if (len > 0) std::memcpy(dict_slots_.data() + 16 * i, bytes + off[i], static_cast<size_t>(len));
    dict_lens_[static_cast<size_t>(i)] = static_cast<uint8_t>(len);
  }
}

Status ValueDecoder::SetDictionary(const uint8_t* data, int64_t size, int64_t num_values) {
  if (num_values < 0) return Corrupt("negative dictionary size " + std::to_string(num_values));
  int w = PhysicalWidth();
  // Every dictionary entry takes at least one byte (4 for a byte array's length).
  int64_t min_bytes = leaf_->physical == PhysicalType::kBoolean ? (num_values + 7) / 8
                      : w > 0                                     ? num_values * w
                                                                  : num_values * 4;
  if (min_bytes > size) {
    return Corrupt("dictionary of " + std::to_string(num_values) + " values does not fit its " +
                   std::to_string(size) + "-byte page");
  }
  dict_.reset();
  dict_slots_.Clear();
  dict_lens_.clear();
  RETURN_NOT_OK(Reset(Encoding::kPlain, data, size, num_values));
  auto dict = Vector::Make(leaf_->type, num_values);
  RETURN_NOT_OK(Decode(num_values, dict.get()));
  if (dict->type()->HasOffsets()) {
    // 16 zero bytes of slack past the last entry: RleBitPackedDecoder::GetBatchWithDict copies
    // strings in whole 16-byte moves up to the buffer's capacity, also from small dictionaries.
    columnar::Buffer& bytes = dict->bytes();
    const size_t used = bytes.size();
    bytes.ResizeZeroed(used + 16);
    bytes.Resize(used);
    BuildShortDictSlots(*dict);
  }
  dict_ = std::move(dict);
  return Status::OK();
}

Status ValueDecoder::Reset(Encoding encoding, const uint8_t* data, int64_t size, int64_t num_values) {
  enc_ = encoding;
  PhysicalType pt = leaf_->physical;
  switch (encoding) {
    case Encoding::kPlain: plain_.Reset(data, size); return Status::OK();
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary: {
      if (!dict_) return Corrupt("dictionary-encoded page without a dictionary page");
      if (size < 1) {
        if (num_values == 0) return rle_.Reset(data, 0, 0);
        return Corrupt("dictionary-encoded page without an index bit width");
      }
      int bw = data[0];
      if (bw > 32) return Corrupt("dictionary index bit width " + std::to_string(bw) + " exceeds 32");
      return rle_.Reset(data + 1, size - 1, bw);
    }
    case Encoding::kRle: {
      if (pt != PhysicalType::kBoolean) return Status::NotSupported("RLE encoding for non-boolean column '" + leaf_->dotted_path + "'");
      int64_t consumed = 0;
      return rle_.ResetWithLengthPrefix(data, size, 1, &consumed);
    }
    case Encoding::kDeltaBinaryPacked:
      if (pt == PhysicalType::kInt32) return delta32_.Reset(data, size);
      if (pt == PhysicalType::kInt64) return delta64_.Reset(data, size);
      return Corrupt("DELTA_BINARY_PACKED on a non-integer column");
    case Encoding::kDeltaLengthByteArray:
      if (pt != PhysicalType::kByteArray) return Corrupt("DELTA_LENGTH_BYTE_ARRAY on a non-BYTE_ARRAY column");
      return delta_length_.Reset(data, size, num_values);
    case Encoding::kDeltaByteArray:
      if (pt != PhysicalType::kByteArray && pt != PhysicalType::kFixedLenByteArray) {
        return Corrupt("DELTA_BYTE_ARRAY on a non-byte-array column");
      }
      return delta_bytes_.Reset(data, size, num_values);
    case Encoding::kByteStreamSplit: {
      int w = PhysicalWidth();
      if (pt == PhysicalType::kBoolean || pt == PhysicalType::kByteArray || pt == PhysicalType::kInt96 || w <= 0) {
        return Corrupt("BYTE_STREAM_SPLIT on an unsupported type");
      }
      return split_.Reset(data, size, w);
    }
    case Encoding::kBitPacked: break;
  }
  return Status::NotSupported("column '" + leaf_->dotted_path + "': encoding " + EncodingName(encoding) +
                              " is not supported for values");
}

Status ValueDecoder::DecodeFixedPhysical(int64_t n, uint8_t* dst) {
  int w = PhysicalWidth();
  switch (enc_) {
    case Encoding::kPlain:
      if (leaf_->physical == PhysicalType::kBoolean) return plain_.DecodeBooleans(n, dst);
      return plain_.DecodeFixed(w, n, dst);
    case Encoding::kRle: {
      ASSIGN_OR_RETURN(int64_t got, rle_.GetBatch(dst, n));
      if (got != n) return Corrupt("RLE boolean data ends early");
      return Status::OK();
    }
    case Encoding::kDeltaBinaryPacked:
      if (leaf_->physical == PhysicalType::kInt32) return delta32_.Decode(n, reinterpret_cast<int32_t*>(dst));
      return delta64_.Decode(n, reinterpret_cast<int64_t*>(dst));
    case Encoding::kByteStreamSplit: return split_.Decode(n, dst);
    case Encoding::kDeltaByteArray: {
      // FIXED_LEN_BYTE_ARRAY through DELTA_BYTE_ARRAY: every value must have the fixed width.
      if (!scratch_vec_) scratch_vec_ = Vector::Make(columnar::Binary());
      scratch_vec_->Clear();
      RETURN_NOT_OK(delta_bytes_.Decode(n, scratch_vec_.get()));
      const int64_t* off = scratch_vec_->offsets();
      for (int64_t i = 0; i < n; ++i) {
        if (off[i + 1] - off[i] != w) return Corrupt("DELTA_BYTE_ARRAY value of the wrong fixed length");
      }
      if (n) std::memcpy(dst, scratch_vec_->bytes().data(), static_cast<size_t>(n * w));
      return Status::OK();
    }
    default: return Corrupt(std::string("encoding ") + EncodingName(enc_) + " does not fit this column");
  }
}

Status ValueDecoder::DecodeByteArrays(int64_t n, Vector* out) {
  switch (enc_) {
    case Encoding::kPlain: return plain_.DecodeByteArrays(n, out);
    case Encoding::kDeltaLengthByteArray: return delta_length_.Decode(n, out);
    case Encoding::kDeltaByteArray: return delta_bytes_.Decode(n, out);
    default: return Corrupt(std::string("encoding ") + EncodingName(enc_) + " does not fit a BYTE_ARRAY column");
  }
}

Status ValueDecoder::DecodeIndices(int64_t n, uint32_t* out) {
  if (n <= 0) return Status::OK();
  if (!IsDictionary() || !dict_) return Status::Internal("DecodeIndices on a page that is not dictionary-encoded");
  ASSIGN_OR_RETURN(int64_t got, rle_.GetBatch(out, n));
  if (got != n) return Corrupt("dictionary indices end before the page's values");
  const uint32_t size = static_cast<uint32_t>(dict_->size());
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad |= static_cast<uint32_t>(out[i] >= size);
  if (bad) {
    for (int64_t i = 0; i < n; ++i) {
      if (out[i] >= size) {
        return Corrupt("dictionary index " + std::to_string(out[i]) + " out of range (dictionary of " +
                       std::to_string(size) + " values)");
      }
    }
  }
  return Status::OK();
}

Status ValueDecoder::Decode(int64_t n, Vector* out) {
  if (n <= 0) return Status::OK();
  if (IsDictionary()) {
    const Vector& d = *dict_;
    int64_t got;
    if (!dict_lens_.empty()) {
      ASSIGN_OR_RETURN(got, rle_.GetBatchWithShortDict(dict_slots_.data(), dict_lens_.data(), d.size(), out, n));
    } else if (d.type()->HasOffsets()) {
      ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d, out, n));
    } else {
      int64_t s = out->size();
      switch (d.type()->SlotWidth()) {
        case 1: {
          ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d.data<uint8_t>(), d.size(), AppendSlots<uint8_t>(out, n), n));
          break;
        }
        case 2: {
          ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d.data<uint16_t>(), d.size(), AppendSlots<uint16_t>(out, n), n));
          break;
        }
        case 4: {
          ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d.data<uint32_t>(), d.size(), AppendSlots<uint32_t>(out, n), n));
          break;
        }
        case 8: {
          ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d.data<uint64_t>(), d.size(), AppendSlots<uint64_t>(out, n), n));
          break;
        }
        case 16: {
          ASSIGN_OR_RETURN(got, rle_.GetBatchWithDict(d.data<int128_t>(), d.size(), AppendSlots<int128_t>(out, n), n));
          break;
        }
        default: return Status::Internal("unexpected dictionary slot width");
      }
      if (got != n) out->SetLength(s + got);
    }
    if (got != n) return Corrupt("dictionary indices end before the page's values");
    return Status::OK();
  }
  if (leaf_->physical == PhysicalType::kByteArray) {
    if (leaf_->conversion == Conversion::kNone) return DecodeByteArrays(n, out);
    // BYTE_ARRAY decimals.
    if (!scratch_vec_) scratch_vec_ = Vector::Make(columnar::Binary());
    scratch_vec_->Clear();
    RETURN_NOT_OK(DecodeByteArrays(n, scratch_vec_.get()));
    const int64_t* off = scratch_vec_->offsets();
    const uint8_t* bytes = scratch_vec_->bytes().data();
    bool wide = leaf_->type->IsWideDecimal();
    int64_t s = out->size();
    if (wide) AppendSlots<int128_t>(out, n); else AppendSlots<int64_t>(out, n);
    for (int64_t i = 0; i < n; ++i) {
      int128_t v;
      if (!BigEndianToInt128(bytes + off[i], off[i + 1] - off[i], &v)) return Corrupt("decimal value too large");
      if (wide) {
        out->data<int128_t>()[s + i] = v;
      } else {
        out->data<int64_t>()[s + i] = static_cast<int64_t>(v);
      }
    }
    return Status::OK();
  }
  int w = PhysicalWidth();
  if (leaf_->conversion == Conversion::kNone) {
    // Same layout: decode straight into the output.
    int64_t s = out->size();
    out->values().Resize(static_cast<size_t>(s + n) * w);
    RETURN_NOT_OK(DecodeFixedPhysical(n, out->values().data() + s * w));
    out->SetLength(s + n);
    return Status::OK();
  }
  scratch_.Resize(static_cast<size_t>(n) * w);
  RETURN_NOT_OK(DecodeFixedPhysical(n, scratch_.data()));
  return ConvertFixed(scratch_.data(), n, out);
}

Status ValueDecoder::ConvertFixed(const uint8_t* src, int64_t n, Vector* out) {
  switch (leaf_->conversion) {
    case Conversion::kNone: {
      int w = PhysicalWidth();
      out->values().Append(src, static_cast<size_t>(n * w));
      out->SetLength(out->size() + n);
      return Status::OK();
    }
    case Conversion::kInt32ToInt8:
      ConvertLoop<int32_t>(src, n, AppendSlots<int8_t>(out, n), [](int32_t v) { return static_cast<int8_t>(v); });
      return Status::OK();
    case Conversion::kInt32ToInt16:
      ConvertLoop<int32_t>(src, n, AppendSlots<int16_t>(out, n), [](int32_t v) { return static_cast<int16_t>(v); });
      return Status::OK();
    case Conversion::kUInt8ToInt16:
      ConvertLoop<int32_t>(src, n, AppendSlots<int16_t>(out, n),
                           [](int32_t v) { return static_cast<int16_t>(static_cast<uint8_t>(v)); });
      return Status::OK();
    case Conversion::kUInt16ToInt32:
      ConvertLoop<int32_t>(src, n, AppendSlots<int32_t>(out, n),
                           [](int32_t v) { return static_cast<int32_t>(static_cast<uint16_t>(v)); });
      return Status::OK();
    case Conversion::kUInt32ToInt64:
      ConvertLoop<int32_t>(src, n, AppendSlots<int64_t>(out, n),
                           [](int32_t v) { return static_cast<int64_t>(static_cast<uint32_t>(v)); });
      return Status::OK();
    case Conversion::kInt32ToInt64:
      ConvertLoop<int32_t>(src, n, AppendSlots<int64_t>(out, n), [](int32_t v) { return static_cast<int64_t>(v); });
      return Status::OK();
    case Conversion::kInt32ToInt128:
      ConvertLoop<int32_t>(src, n, AppendSlots<int128_t>(out, n), [](int32_t v) { return static_cast<int128_t>(v); });
      return Status::OK();
    case Conversion::kInt64ToInt128:
      ConvertLoop<int64_t>(src, n, AppendSlots<int128_t>(out, n), [](int64_t v) { return static_cast<int128_t>(v); });
      return Status::OK();
    case Conversion::kMillisToMicros32:
      ConvertLoop<int32_t>(src, n, AppendSlots<int64_t>(out, n), [](int32_t v) { return int64_t{v} * 1000; });
      return Status::OK();
    case Conversion::kMillisToMicros:
      ConvertLoop<int64_t>(src, n, AppendSlots<int64_t>(out, n), [](int64_t v) {
        return static_cast<int64_t>(static_cast<uint64_t>(v) * 1000u);
      });
      return Status::OK();
    case Conversion::kNanosToMicros:
      ConvertLoop<int64_t>(src, n, AppendSlots<int64_t>(out, n), [](int64_t v) { return FloorDiv(v, 1000); });
      return Status::OK();
    case Conversion::kInt96ToMicros: {
      int64_t* dst = AppendSlots<int64_t>(out, n);
      constexpr int64_t kUnixEpochJulian = 2440588;
      constexpr uint64_t kMicrosPerDay = 86400ULL * 1000000ULL;
      for (int64_t i = 0; i < n; ++i) {
        int64_t nanos;
        int32_t day;
        std::memcpy(&nanos, src + 12 * i, 8);
        std::memcpy(&day, src + 12 * i + 8, 4);
        uint64_t micros = static_cast<uint64_t>(int64_t{day} - kUnixEpochJulian) * kMicrosPerDay;
        dst[i] = static_cast<int64_t>(micros + static_cast<uint64_t>(FloorDiv(nanos, 1000)));
      }
      return Status::OK();
    }
    case Conversion::kBytesToDecimal: {
      int w = leaf_->type_length;
      bool wide = leaf_->type->IsWideDecimal();
      int64_t s = out->size();
      if (wide) AppendSlots<int128_t>(out, n); else AppendSlots<int64_t>(out, n);
      for (int64_t i = 0; i < n; ++i) {
        int128_t v;
        if (!BigEndianToInt128(src + i * w, w, &v)) return Corrupt("decimal value too large");
        if (wide) {
          out->data<int128_t>()[s + i] = v;
        } else {
          out->data<int64_t>()[s + i] = static_cast<int64_t>(v);
        }
      }
      return Status::OK();
    }
    case Conversion::kFlbaToBinary: {
      int w = leaf_->type_length;
      int64_t s = out->size();
      int64_t base = static_cast<int64_t>(out->bytes().size());
      out->bytes().Append(src, static_cast<size_t>(n * w));
      out->values().Resize(static_cast<size_t>(s + n + 1) * sizeof(int64_t));
      int64_t* off = out->offsets() + s + 1;
      for (int64_t i = 0; i < n; ++i) off[i] = base + (i + 1) * w;
      out->SetLength(s + n);
      return Status::OK();
    }
    case Conversion::kFlbaToUuid: {
      char text[36];
      for (int64_t i = 0; i < n; ++i) {
        FormatUuid(src + 16 * i, text);
        out->AppendString(std::string_view(text, 36));
      }
      return Status::OK();
    }
    case Conversion::kFloat16ToFloat: HalfToFloat(src, n, AppendSlots<float>(out, n)); return Status::OK();
  }
  return Status::Internal("unknown conversion");
}

Status ValueDecoder::Skip(int64_t n) {
  if (n <= 0) return Status::OK();
  switch (enc_) {
    case Encoding::kPlain: {
      if (leaf_->physical == PhysicalType::kBoolean) return plain_.SkipBooleans(n);
      if (leaf_->physical == PhysicalType::kByteArray) return plain_.SkipByteArrays(n);
      return plain_.SkipFixed(PhysicalWidth(), n);
    }
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
    case Encoding::kRle: {
      ASSIGN_OR_RETURN(int64_t got, rle_.Skip(n));
      if (got != n) return Corrupt("RLE data ends before the page's values");
      return Status::OK();
    }
    case Encoding::kDeltaBinaryPacked:
      return leaf_->physical == PhysicalType::kInt32 ? delta32_.Skip(n) : delta64_.Skip(n);
    case Encoding::kDeltaLengthByteArray: return delta_length_.Skip(n);
    case Encoding::kDeltaByteArray: return delta_bytes_.Skip(n);
    case Encoding::kByteStreamSplit: return split_.Skip(n);
    default: return Corrupt("cannot skip values of this encoding");
  }
}

}  // namespace shoal::parquet
