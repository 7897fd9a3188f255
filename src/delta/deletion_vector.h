// Deletion vectors: the set of deleted row positions of one data file, their
// RoaringBitmapArray byte format (PROTOCOL.md "Deletion Vector Format"), and loading/storing
// them inline in the log ('i'), in DV files next to the data ('u'), or at absolute paths ('p').
//
// A DeletionVector is a 64-bit set kept as 32-bit roaring bitmaps keyed by the high 32 bits
// (libroaring 0.2.66 has no 64-bit C API). Reading accepts both Delta serializations: the
// spec's portable one (magic 1681511377) and the older native one (magic 1681511376, used in
// the spec's inline example); writing always produces the portable one.
// Thread-safety: a DeletionVector is a value; concurrent const use is safe, mutation is not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "delta/actions.h"
#include "io/file_system.h"
#include "shoal/status.h"

struct roaring_bitmap_s;

namespace shoal::delta {

constexpr uint32_t kDvPortableMagic = 1681511377;
constexpr uint32_t kDvNativeMagic = 1681511376;

class DeletionVector {
 public:
  DeletionVector();
  ~DeletionVector();
  DeletionVector(DeletionVector&&) noexcept;
  DeletionVector& operator=(DeletionVector&&) noexcept;
  DeletionVector(const DeletionVector& other);
  DeletionVector& operator=(const DeletionVector& other);

  void Add(uint64_t row);
  // Adds rows [begin, end).
  void AddRange(uint64_t begin, uint64_t end);
  void AddMany(const uint64_t* rows, size_t n);
  bool Contains(uint64_t row) const;
  uint64_t Cardinality() const;
  bool IsEmpty() const { return Cardinality() == 0; }
  void UnionWith(const DeletionVector& other);
  void IntersectWith(const DeletionVector& other);
  // Converts containers to run encoding where smaller; call before serializing.
  void RunOptimize();
  bool operator==(const DeletionVector& other) const;

  // Calls fn(row) for every row in ascending order; fn returns false to stop early.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    using F = std::remove_reference_t<Fn>;
    for (const auto& [high, bm] : buckets_) {
      if (!ForEachInBucket(high, bm.get(), const_cast<void*>(static_cast<const void*>(&fn)),
                           [](uint64_t row, void* p) { return (*static_cast<F*>(p))(row); })) {
        return;
      }
    }
  }
  // All rows in ascending order.
  std::vector<uint64_t> ToVector() const;

  // The RoaringBitmapArray bytes (portable format, with magic), as stored in DV files.
  std::string Serialize() const;
  // Parses either Delta serialization; Corruption names `what` on malformed bytes.
  static Result<DeletionVector> Deserialize(std::string_view bytes, std::string_view what);

  // Loads the DV described by `dv` for the table at `table_root`: decodes inline DVs, or reads
  // and checks the DV file (version byte, size, CRC-32); the cardinality must match `dv` unless
  // `verify_cardinality` is false (a descriptor rebuilt from a DV's unique id has none).
  static Result<DeletionVector> Load(io::FileSystem& fs, std::string_view table_root,
                                     const DeletionVectorDescriptor& dv, bool verify_cardinality = true);

 private:
  struct Free {
    void operator()(roaring_bitmap_s* r) const;
  };
  using Bitmap = std::unique_ptr<roaring_bitmap_s, Free>;
  static bool ForEachInBucket(uint32_t high, const roaring_bitmap_s* bm, void* fn,
                              bool (*call)(uint64_t, void*));
  roaring_bitmap_s* Bucket(uint32_t high);

  std::map<uint32_t, Bitmap> buckets_;  // high 32 bits -> low 32 bits; no empty buckets kept
};

// The local file path of a 'u' or 'p' DV ('u': <root>/<prefix>/deletion_vector_<uuid>.bin).
Result<std::string> DeletionVectorFilePath(std::string_view table_root,
                                           const DeletionVectorDescriptor& dv);

struct DeletionVectorWriteOptions {
  // DVs whose serialized size is at most this many bytes are stored inline in the log.
  int32_t max_inline_bytes = 48;
};

// Stores one DV: inline when small, else as a new file <table_root>/deletion_vector_<uuid>.bin.
Result<DeletionVectorDescriptor> WriteDeletionVector(io::FileSystem& fs, std::string_view table_root,
                                                     const DeletionVector& dv,
                                                     const DeletionVectorWriteOptions& options = {});

// Stores several DVs in one new DV file (never inline); returns one descriptor per DV.
Result<std::vector<DeletionVectorDescriptor>> WriteDeletionVectorFile(
    io::FileSystem& fs, std::string_view table_root, const std::vector<const DeletionVector*>& dvs);

}  // namespace shoal::delta
