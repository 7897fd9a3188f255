#include "delta/deletion_vector.h"

#include <roaring/roaring.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "delta/table_path.h"
#include "delta/z85.h"
#include "parquet/crc32.h"

namespace shoal::delta {

void DeletionVector::Free::operator()(roaring_bitmap_s* r) const { roaring_bitmap_free(r); }

DeletionVector::DeletionVector() = default;
DeletionVector::~DeletionVector() = default;
DeletionVector::DeletionVector(DeletionVector&&) noexcept = default;
DeletionVector& DeletionVector::operator=(DeletionVector&&) noexcept = default;

DeletionVector::DeletionVector(const DeletionVector& other) {
  for (const auto& [high, bm] : other.buckets_) buckets_.emplace(high, Bitmap(roaring_bitmap_copy(bm.get())));
}

DeletionVector& DeletionVector::operator=(const DeletionVector& other) {
  if (this != &other) {
    DeletionVector copy(other);
    *this = std::move(copy);
  }
  return *this;
}

roaring_bitmap_s* DeletionVector::Bucket(uint32_t high) {
  auto it = buckets_.find(high);
  if (it == buckets_.end()) it = buckets_.emplace(high, Bitmap(roaring_bitmap_create())).first;
  return it->second.get();
}

void DeletionVector::Add(uint64_t row) {
  roaring_bitmap_add(Bucket(static_cast<uint32_t>(row >> 32)), static_cast<uint32_t>(row));
}

void DeletionVector::AddRange(uint64_t begin, uint64_t end) {
  while (begin < end) {
    uint32_t high = static_cast<uint32_t>(begin >> 32);
    uint64_t bucket_last = (static_cast<uint64_t>(high) << 32) | 0xFFFFFFFFull;
    uint64_t last = std::min(end - 1, bucket_last);
    roaring_bitmap_add_range_closed(Bucket(high), static_cast<uint32_t>(begin),
                                    static_cast<uint32_t>(last));
    if (last == UINT64_MAX) break;
    begin = last + 1;
  }
}

void DeletionVector::AddMany(const uint64_t* rows, size_t n) {
  size_t i = 0;
  std::vector<uint32_t> lows;
  while (i < n) {
    uint32_t high = static_cast<uint32_t>(rows[i] >> 32);
    lows.clear();
    while (i < n && static_cast<uint32_t>(rows[i] >> 32) == high) {
      lows.push_back(static_cast<uint32_t>(rows[i]));
      ++i;
    }
    roaring_bitmap_add_many(Bucket(high), lows.size(), lows.data());
  }
}

bool DeletionVector::Contains(uint64_t row) const {
  auto it = buckets_.find(static_cast<uint32_t>(row >> 32));
  return it != buckets_.end() && roaring_bitmap_contains(it->second.get(), static_cast<uint32_t>(row));
}

uint64_t DeletionVector::Cardinality() const {
  uint64_t n = 0;
  for (const auto& [high, bm] : buckets_) n += roaring_bitmap_get_cardinality(bm.get());
  return n;
}

void DeletionVector::UnionWith(const DeletionVector& other) {
  for (const auto& [high, bm] : other.buckets_) roaring_bitmap_or_inplace(Bucket(high), bm.get());
}

void DeletionVector::IntersectWith(const DeletionVector& other) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    auto o = other.buckets_.find(it->first);
    if (o == other.buckets_.end()) {
      it = buckets_.erase(it);
      continue;
    }
    roaring_bitmap_and_inplace(it->second.get(), o->second.get());
    if (roaring_bitmap_is_empty(it->second.get())) {
      it = buckets_.erase(it);
    } else {
      ++it;
    }
  }
}

void DeletionVector::RunOptimize() {
  for (auto& [high, bm] : buckets_) roaring_bitmap_run_optimize(bm.get());
}

bool DeletionVector::operator==(const DeletionVector& other) const {
  auto a = buckets_.begin(), b = other.buckets_.begin();
  while (true) {
    while (a != buckets_.end() && roaring_bitmap_is_empty(a->second.get())) ++a;
    while (b != other.buckets_.end() && roaring_bitmap_is_empty(b->second.get())) ++b;
    if (a == buckets_.end() || b == other.buckets_.end()) {
      return a == buckets_.end() && b == other.buckets_.end();
    }
    if (a->first != b->first || !roaring_bitmap_equals(a->second.get(), b->second.get())) {
      return false;
    }
    ++a;
    ++b;
  }
}

bool DeletionVector::ForEachInBucket(uint32_t high, const roaring_bitmap_s* bm, void* fn,
                                     bool (*call)(uint64_t, void*)) {
  struct Ctx {
    void* fn;
    bool (*call)(uint64_t, void*);
  } ctx{fn, call};
  return roaring_iterate64(
      bm,
      [](uint64_t v, void* p) {
        auto* c = static_cast<Ctx*>(p);
        return c->call(v, c->fn);
      },
      static_cast<uint64_t>(high) << 32, &ctx);
}

std::vector<uint64_t> DeletionVector::ToVector() const {
  std::vector<uint64_t> out;
  out.reserve(Cardinality());
  std::vector<uint32_t> lows;
  for (const auto& [high, bm] : buckets_) {
    lows.resize(roaring_bitmap_get_cardinality(bm.get()));
    roaring_bitmap_to_uint32_array(bm.get(), lows.data());
    uint64_t base = static_cast<uint64_t>(high) << 32;
    for (uint32_t l : lows) out.push_back(base | l);
  }
  return out;
}

namespace {

void PutLE32(std::string* s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s->push_back(static_cast<char>(v >> (8 * i)));
}
void PutLE64(std::string* s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s->push_back(static_cast<char>(v >> (8 * i)));
}
void PutBE32(std::string* s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s->push_back(static_cast<char>(v >> (8 * i)));
}
uint32_t LE32(const uint8_t* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
uint64_t LE64(const uint8_t* p) {
  return static_cast<uint64_t>(LE32(p)) | (static_cast<uint64_t>(LE32(p + 4)) << 32);
}
uint32_t BE32(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

// Deserializes one portable 32-bit roaring bitmap from at most `avail` bytes at `p`.
Result<roaring_bitmap_t*> ReadRoaring32(const uint8_t* p, size_t avail, size_t* used,
                                        std::string_view what) {
  size_t size = roaring_bitmap_portable_deserialize_size(reinterpret_cast<const char*>(p), avail);
  if (size == 0 || size > avail) {
    return Status::Corruption(std::string(what) + ": malformed roaring bitmap");
  }
  roaring_bitmap_t* r =
      roaring_bitmap_portable_deserialize_safe(reinterpret_cast<const char*>(p), size);
  if (!r) return Status::Corruption(std::string(what) + ": malformed roaring bitmap");
  *used = size;
  return r;
}

}  // namespace

std::string DeletionVector::Serialize() const {
  std::string out;
  uint64_t n = 0;
  size_t total = 12;
  for (const auto& [high, bm] : buckets_) {
    if (roaring_bitmap_is_empty(bm.get())) continue;
    ++n;
    total += 4 + roaring_bitmap_portable_size_in_bytes(bm.get());
  }
  out.reserve(total);
  PutLE32(&out, kDvPortableMagic);
  PutLE64(&out, n);
  for (const auto& [high, bm] : buckets_) {
    if (roaring_bitmap_is_empty(bm.get())) continue;
    PutLE32(&out, high);
    size_t size = roaring_bitmap_portable_size_in_bytes(bm.get());
    size_t at = out.size();
    out.resize(at + size);
    roaring_bitmap_portable_serialize(bm.get(), out.data() + at);
  }
  return out;
}

Result<DeletionVector> DeletionVector::Deserialize(std::string_view bytes, std::string_view what) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size();
  auto corrupt = [&](const std::string& m) {
    return Status::Corruption(std::string(what) + ": deletion vector " + m);
  };
  if (n < 4) return corrupt("is shorter than its magic number");
  DeletionVector dv;
  if (LE32(p) == kDvPortableMagic) {
    if (n < 12) return corrupt("is truncated before its bucket count");
    uint64_t buckets = LE64(p + 4);
    size_t pos = 12;
    // Each bucket needs at least a 4-byte key and an 8-byte roaring header.
    if (buckets > (n - pos) / 12) {
      return corrupt("claims " + std::to_string(buckets) + " buckets in " + std::to_string(n) +
                     " bytes");
    }
    int64_t prev_key = -1;
    for (uint64_t b = 0; b < buckets; ++b) {
      if (n - pos < 4) return corrupt("is truncated in bucket " + std::to_string(b));
      uint32_t key = LE32(p + pos);
      pos += 4;
      if (key > 0x7FFFFFFFu) return corrupt("has a bucket key with the sign bit set");
      if (static_cast<int64_t>(key) <= prev_key) return corrupt("has bucket keys out of order");
      prev_key = key;
      size_t used = 0;
      ASSIGN_OR_RETURN(roaring_bitmap_t * r, ReadRoaring32(p + pos, n - pos, &used, what));
      pos += used;
      dv.buckets_.emplace(key, Bitmap(r));
    }
    if (pos != n) return corrupt("has " + std::to_string(n - pos) + " trailing bytes");
    return dv;
  }
  if (BE32(p) == kDvNativeMagic) {
    if (n < 8) return corrupt("is truncated before its bitmap count");
    uint32_t count = BE32(p + 4);
    size_t pos = 8;
    if (count > (n - pos) / 4) return corrupt("claims " + std::to_string(count) + " bitmaps");
    for (uint32_t key = 0; key < count; ++key) {
      if (n - pos < 4) return corrupt("is truncated in bitmap " + std::to_string(key));
      uint32_t size = BE32(p + pos);
      pos += 4;
      if (size > n - pos) return corrupt("bitmap " + std::to_string(key) + " overruns the data");
      size_t used = 0;
      ASSIGN_OR_RETURN(roaring_bitmap_t * r, ReadRoaring32(p + pos, size, &used, what));
      Bitmap bm(r);
      if (used != size) return corrupt("bitmap " + std::to_string(key) + " has a wrong size");
      pos += size;
      if (key > 0x7FFFFFFFu) return corrupt("has too many bitmaps");
      if (!roaring_bitmap_is_empty(bm.get())) dv.buckets_.emplace(key, std::move(bm));
    }
    if (pos != n) return corrupt("has " + std::to_string(n - pos) + " trailing bytes");
    return dv;
  }
  return corrupt("has an unknown magic number");
}

Result<std::string> DeletionVectorFilePath(std::string_view table_root,
                                           const DeletionVectorDescriptor& dv) {
  if (dv.storage_type == 'p') return ResolveTablePath(table_root, dv.path_or_inline_dv);
  if (dv.storage_type != 'u') {
    return Status::InvalidArgument("deletion vector with storage type '" +
                                   std::string(1, dv.storage_type) + "' has no file");
  }
  const std::string& s = dv.path_or_inline_dv;
  if (s.size() < 20) {
    return Status::Corruption("deletion vector path '" + s + "' is shorter than a Z85 UUID");
  }
  std::string prefix = s.substr(0, s.size() - 20);
  ASSIGN_OR_RETURN(std::string uuid, Z85DecodeUuidToText(std::string_view(s).substr(s.size() - 20)));
  std::string rel = prefix.empty() ? "" : prefix + "/";
  rel += "deletion_vector_" + uuid + ".bin";
  // The prefix is untrusted: resolve it like any relative path (rejects '..'), but without
  // percent-decoding, since it is not URI-encoded.
  ASSIGN_OR_RETURN(std::string norm, NormalizePathNoDotDot(rel));
  if (!norm.empty() && norm[0] == '/') {
    return Status::InvalidArgument("deletion vector prefix '" + prefix + "' is absolute");
  }
  return io::JoinPath(table_root, norm);
}

Result<DeletionVector> DeletionVector::Load(io::FileSystem& fs, std::string_view table_root,
                                            const DeletionVectorDescriptor& dv, bool verify_cardinality) {
  std::string what;
  DeletionVector out;
  if (dv.storage_type == 'i') {
    what = std::string(table_root) + ": inline deletion vector";
    auto bytes = Z85Decode(dv.path_or_inline_dv);
    if (!bytes.ok()) return bytes.status().WithContext(what);
    if (static_cast<size_t>(dv.size_in_bytes) > bytes->size()) {
      return Status::Corruption(what + ": sizeInBytes " + std::to_string(dv.size_in_bytes) +
                                " exceeds the " + std::to_string(bytes->size()) +
                                " encoded bytes");
    }
    ASSIGN_OR_RETURN(out, Deserialize(std::string_view(reinterpret_cast<const char*>(bytes->data()),
                                                        dv.size_in_bytes),
                                       what));
  } else {
    ASSIGN_OR_RETURN(std::string path, DeletionVectorFilePath(table_root, dv));
    what = path;
    ASSIGN_OR_RETURN(auto file, table_root.empty() ? fs.OpenForRead(path)
                                                    : fs.OpenForReadBeneath(std::string(table_root), path, -1));
    int64_t offset = dv.offset.value_or(1);
    int64_t size = dv.size_in_bytes;
    if (file->Size() < 1) return Status::Corruption(what + ": empty deletion vector file");
    uint8_t version = 0;
    RETURN_NOT_OK(file->ReadAt(0, 1, &version));
    if (version != 1) {
      return Status::Corruption(what + ": unsupported deletion vector file version " +
                                std::to_string(version));
    }
    if (offset < 1 || offset > file->Size() || size + 8 > file->Size() - offset) {
      return Status::Corruption(what + ": deletion vector at offset " + std::to_string(offset) +
                                " with size " + std::to_string(size) + " overruns the file (size " +
                                std::to_string(file->Size()) + ")");
    }
    std::string buf(static_cast<size_t>(size + 8), '\0');
    RETURN_NOT_OK(file->ReadAt(offset, size + 8, reinterpret_cast<uint8_t*>(buf.data())));
    const auto* p = reinterpret_cast<const uint8_t*>(buf.data());
    uint32_t stored_size = BE32(p);
    if (stored_size != static_cast<uint32_t>(size)) {
      return Status::Corruption(what + ": deletion vector size " + std::to_string(stored_size) +
                                " at offset " + std::to_string(offset) +
                                " does not match the log's sizeInBytes " + std::to_string(size));
    }
    std::string_view data(buf.data() + 4, static_cast<size_t>(size));
    uint32_t stored_crc = BE32(p + 4 + size);
    uint32_t crc = parquet::Crc32(data);
    if (crc != stored_crc) {
      return Status::Corruption(what + ": deletion vector at offset " + std::to_string(offset) +
                                " fails its CRC-32 check");
    }
    ASSIGN_OR_RETURN(out, Deserialize(data, what));
  }
  if (verify_cardinality && out.Cardinality() != static_cast<uint64_t>(dv.cardinality)) {
    return Status::Corruption(what + ": deletion vector has " + std::to_string(out.Cardinality()) +
                              " rows but the log says cardinality " + std::to_string(dv.cardinality));
  }
  return out;
}

namespace {

void RandomUuid(uint8_t out[16]) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng(), b = rng();
  std::memcpy(out, &a, 8);
  std::memcpy(out + 8, &b, 8);
  out[6] = static_cast<uint8_t>((out[6] & 0x0F) | 0x40);  // version 4
  out[8] = static_cast<uint8_t>((out[8] & 0x3F) | 0x80);  // IETF variant
}

}  // namespace

Result<std::vector<DeletionVectorDescriptor>> WriteDeletionVectorFile(
    io::FileSystem& fs, std::string_view table_root, const std::vector<const DeletionVector*>& dvs) {
  uint8_t uuid[16];
  RandomUuid(uuid);
  std::string contents(1, '\x01');
  std::vector<DeletionVectorDescriptor> out;
  std::string encoded = Z85EncodeUuid(uuid);
  for (const DeletionVector* dv : dvs) {
    std::string data = dv->Serialize();
    if (data.size() > static_cast<size_t>(INT32_MAX) || contents.size() > INT32_MAX - data.size() - 8) {
      return Status::InvalidArgument("deletion vector file would exceed 2 GiB");
    }
    DeletionVectorDescriptor d;
    d.storage_type = 'u';
    d.path_or_inline_dv = encoded;
    d.offset = static_cast<int32_t>(contents.size());
    d.size_in_bytes = static_cast<int32_t>(data.size());
    d.cardinality = static_cast<int64_t>(dv->Cardinality());
    PutBE32(&contents, static_cast<uint32_t>(data.size()));
    contents += data;
    PutBE32(&contents, parquet::Crc32(data));
    out.push_back(std::move(d));
  }
  std::string path = io::JoinPath(table_root, "deletion_vector_" + UuidToText(uuid) + ".bin");
  RETURN_NOT_OK(fs.PutIfAbsent(path, contents));
  return out;
}

Result<DeletionVectorDescriptor> WriteDeletionVector(io::FileSystem& fs, std::string_view table_root,
                                                     const DeletionVector& dv,
                                                     const DeletionVectorWriteOptions& options) {
  std::string data = dv.Serialize();
  if (static_cast<int64_t>(data.size()) <= options.max_inline_bytes) {
    DeletionVectorDescriptor d;
    d.storage_type = 'i';
    d.path_or_inline_dv = Z85Encode(data);
    d.size_in_bytes = static_cast<int32_t>(data.size());
    d.cardinality = static_cast<int64_t>(dv.Cardinality());
    return d;
  }
  ASSIGN_OR_RETURN(auto ds, WriteDeletionVectorFile(fs, table_root, {&dv}));
  return ds[0];
}

}  // namespace shoal::delta
