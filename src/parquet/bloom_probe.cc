#include "parquet/bloom_probe.h"

#include <cmath>
#include <cstring>
#include <string>

#include "parquet/value_decoder.h"

namespace shoal::parquet {

namespace {

using columnar::TypeId;

// Longest header we accept; the real one is a handful of bytes.
constexpr int64_t kMaxHeaderBytes = 1024;

// The value as a signed 128-bit integer when it is integral (integers, date, time, timestamp,
// decimal unscaled); false otherwise.
bool IntegralOf(const columnar::Value& v, __int128* out) {
  TypeId id = v.type()->id();
  if (id == TypeId::kDecimal) {
    *out = v.GetDecimal();
    return true;
  }
  if (id == TypeId::kUInt64) {
    *out = static_cast<__int128>(v.GetUInt());
    return true;
  }
  if (v.type()->IsInteger() || id == TypeId::kDate || id == TypeId::kTime || id == TypeId::kTimestamp ||
      id == TypeId::kTimestampNtz) {
    *out = v.GetInt();
    return true;
  }
  return false;
}

bool FitsInt32(__int128 x) { return x >= INT32_MIN && x <= INT32_MAX; }
bool FitsInt64(__int128 x) { return x >= INT64_MIN && x <= INT64_MAX; }

// Parses the canonical UUID text (8-4-4-4-12 hex digits) into 16 bytes.
bool ParseUuid(const std::string& s, uint8_t out[16]) {
  if (s.size() != 36) return false;
  int n = 0;
  for (size_t i = 0; i < s.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      ++i;
      continue;
    }
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int hi = hex(s[i]), lo = hex(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[n++] = static_cast<uint8_t>(hi * 16 + lo);
    i += 2;
  }
  return n == 16;
}

}  // namespace

Result<std::optional<BloomFilter>> ReadChunkBloomFilter(const ParquetReader& reader, int rg, int leaf,
                                                        ReadStats* stats) {
  using Out = std::optional<BloomFilter>;
  if (rg < 0 || rg >= reader.num_row_groups() || leaf < 0 || leaf >= reader.parquet_schema().num_leaves()) {
    return Status::InvalidArgument(reader.path() + ": no column chunk (" + std::to_string(rg) + ", " +
                                   std::to_string(leaf) + ")");
  }
  const ColumnChunk& chunk = reader.column_chunk(rg, leaf);
  if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset) return Out();
  const ColumnMetaData& meta = *chunk.meta_data;
  const std::string& column = reader.parquet_schema().leaves()[leaf].dotted_path;
  auto fail = [&](const std::string& what) {
    return Status::Corruption(reader.path() + ": column '" + column + "' Bloom filter: " + what);
  };
  const io::RandomAccessFile* file = reader.file();
  int64_t fsize = file->Size();
  int64_t offset = *meta.bloom_filter_offset;
  if (offset < 4 || offset >= fsize) {
    return fail("offset " + std::to_string(offset) + " lies outside the file (size " + std::to_string(fsize) + ")");
  }
  int64_t avail = fsize - offset;
  int64_t length;
  if (meta.bloom_filter_length) {
    length = *meta.bloom_filter_length;
    if (length <= 0 || length > avail || length > BloomFilter::kMaxBytes + kMaxHeaderBytes) {
      return fail("length " + std::to_string(length) + " at offset " + std::to_string(offset) +
                  " does not fit the file (size " + std::to_string(fsize) + ")");
    }
  } else {
    length = std::min<int64_t>(avail, kMaxHeaderBytes);  // header first, bitset read below
  }
  std::string buf(static_cast<size_t>(length), '\0');
  RETURN_NOT_OK(file->ReadAt(offset, length, reinterpret_cast<uint8_t*>(buf.data())));
  if (stats) {
    stats->bytes_read += length;
    stats->io_requests += 1;
  }
  BloomFilterHeader header;
  size_t consumed = 0;
  Status st = DecodeBloomFilterHeader(buf, &header, &consumed);
  if (!st.ok()) return fail(st.message());
  if (!header.algorithm_block || !header.hash_xxhash || !header.compression_none) {
    return Status::NotSupported(reader.path() + ": column '" + column +
                                "' Bloom filter uses an algorithm, hash or compression other than "
                                "SPLIT_BLOCK/XXHASH/UNCOMPRESSED");
  }
  int64_t nbytes = header.num_bytes;
  if (nbytes < BloomFilter::kMinBytes || nbytes > BloomFilter::kMaxBytes || nbytes % BloomFilter::kBytesPerBlock) {
    return fail("bitset size " + std::to_string(nbytes) + " is invalid");
  }
  int64_t end = static_cast<int64_t>(consumed) + nbytes;
  if (meta.bloom_filter_length) {
    if (end > length) return fail("bitset of " + std::to_string(nbytes) + " bytes exceeds bloom_filter_length");
  } else {
    if (end > avail) return fail("bitset of " + std::to_string(nbytes) + " bytes extends past the file");
    if (end > length) {
      int64_t more = end - length;
      buf.resize(static_cast<size_t>(end));
      RETURN_NOT_OK(file->ReadAt(offset + length, more, reinterpret_cast<uint8_t*>(buf.data()) + length));
      if (stats) {
        stats->bytes_read += more;
        stats->io_requests += 1;
      }
    }
  }
  ASSIGN_OR_RETURN(BloomFilter filter,
                   BloomFilter::FromBytes(reinterpret_cast<const uint8_t*>(buf.data()) + consumed, nbytes));
  return Out(std::move(filter));
}

std::optional<uint64_t> BloomHashOfValue(const columnar::Value& v, const LeafColumn& leaf) {
  if (v.is_null() || !v.type()->Equals(*leaf.type)) return std::nullopt;
  __int128 x = 0;
  switch (leaf.physical) {
    case PhysicalType::kInt32: {
      if (!IntegralOf(v, &x)) return std::nullopt;
      switch (leaf.conversion) {
        case Conversion::kNone:
        case Conversion::kInt32ToInt8:
        case Conversion::kInt32ToInt16:
        case Conversion::kInt32ToInt64:
        case Conversion::kInt32ToInt128:
          if (!FitsInt32(x)) return std::nullopt;
          return BloomFilter::Hash(static_cast<int32_t>(x));
        case Conversion::kUInt8ToInt16:
        case Conversion::kUInt16ToInt32:
        case Conversion::kUInt32ToInt64:
          if (x < 0 || x > UINT32_MAX) return std::nullopt;
          return BloomFilter::Hash(static_cast<int32_t>(static_cast<uint32_t>(x)));
        case Conversion::kMillisToMicros32:
          if (x % 1000 != 0 || !FitsInt32(x / 1000)) return std::nullopt;
          return BloomFilter::Hash(static_cast<int32_t>(x / 1000));
        default: return std::nullopt;
      }
    }
    case PhysicalType::kInt64: {
      if (!IntegralOf(v, &x)) return std::nullopt;
      switch (leaf.conversion) {
        case Conversion::kNone:
          if (v.type()->id() == TypeId::kUInt64) {
            if (x < 0 || x > UINT64_MAX) return std::nullopt;
            return BloomFilter::Hash(static_cast<int64_t>(static_cast<uint64_t>(x)));
          }
          [[fallthrough]];
        case Conversion::kInt64ToInt128:
          if (!FitsInt64(x)) return std::nullopt;
          return BloomFilter::Hash(static_cast<int64_t>(x));
        case Conversion::kMillisToMicros:
          if (x % 1000 != 0 || !FitsInt64(x / 1000)) return std::nullopt;
          return BloomFilter::Hash(static_cast<int64_t>(x / 1000));
        default: return std::nullopt;  // nanos: a micro value stands for 1000 nano values
      }
    }
    case PhysicalType::kFloat:
      if (leaf.conversion != Conversion::kNone) return std::nullopt;
      return BloomFilter::Hash(static_cast<float>(v.GetDouble()));
    case PhysicalType::kDouble:
      if (leaf.conversion != Conversion::kNone) return std::nullopt;
      return BloomFilter::Hash(v.GetDouble());
    case PhysicalType::kByteArray:
      if (leaf.conversion != Conversion::kNone) return std::nullopt;  // decimals: length is the writer's choice
      return BloomFilter::Hash(std::string_view(v.GetString()));
    case PhysicalType::kFixedLenByteArray: {
      int w = leaf.type_length;
      if (w <= 0) return std::nullopt;
      if (leaf.conversion == Conversion::kFlbaToBinary) {
        const std::string& s = v.GetString();
        if (static_cast<int>(s.size()) != w) return std::nullopt;
        return BloomFilter::Hash(std::string_view(s));
      }
      if (leaf.conversion == Conversion::kFlbaToUuid) {
        uint8_t b[16];
        if (w != 16 || !ParseUuid(v.GetString(), b)) return std::nullopt;
        return BloomFilter::Hash(b, 16);
      }
      if (leaf.conversion == Conversion::kBytesToDecimal) {
        if (!IntegralOf(v, &x) || w > 16) return std::nullopt;
        // Big-endian two's complement, sign-extended to the fixed width; check it round-trips.
        uint8_t b[16];
        unsigned __int128 u = static_cast<unsigned __int128>(x);
        for (int i = w - 1; i >= 0; --i) {
          b[i] = static_cast<uint8_t>(u & 0xff);
          u >>= 8;
        }
        __int128 back;
        if (!BigEndianToInt128(b, w, &back) || back != x) return std::nullopt;
        return BloomFilter::Hash(b, w);
      }
      return std::nullopt;
    }
    default: return std::nullopt;  // BOOLEAN, INT96
  }
}

std::optional<std::vector<uint64_t>> BloomHashesForValue(const columnar::Value& v, const LeafColumn& leaf) {
  if (v.is_null()) return std::nullopt;
  TypeId id = v.type()->id();
  if (id == TypeId::kFloat || id == TypeId::kDouble) {
    double d = v.GetDouble();
    if (std::isnan(d)) return std::nullopt;
    if (d == 0) {
      auto a = BloomHashOfValue(id == TypeId::kFloat ? columnar::Value::Float(0.0f) : columnar::Value::Double(0.0), leaf);
      auto b = BloomHashOfValue(id == TypeId::kFloat ? columnar::Value::Float(-0.0f) : columnar::Value::Double(-0.0),
                                leaf);
      if (!a || !b) return std::nullopt;
      return std::vector<uint64_t>{*a, *b};
    }
  }
  auto h = BloomHashOfValue(v, leaf);
  if (!h) return std::nullopt;
  return std::vector<uint64_t>{*h};
}

}  // namespace shoal::parquet
