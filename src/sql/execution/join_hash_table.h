// JoinHashTable: the hash join's index over its build side, radix-partitioned on the key hash
// and built by all threads with no single-threaded phase proportional to the build size:
//   1. per build chunk (parallel): hash the keys, count rows per radix bucket (top hash bits);
//   2. per chunk (parallel): scatter (key, build row) entries to their partition's range, in
//      build-row order within each partition (prefix sums over the per-chunk counts);
//   3. per partition (parallel): link the partition's entries into chains hanging off a
//      directory sized to twice its entry count.
// Probing (read-only afterwards, lock-free, from any number of threads) walks the chain of the
// probe key's directory slot and yields matching build rows in ascending row order.
//
// Two key layouts: a single integer-like key of the same type on both sides is hashed and
// compared as an int64 (no row encoding); any other keys use RowKeys' encoding, hashed once,
// with the build side's encoded bytes kept per chunk and compared in place (not copied again).
// Rows with a NULL key are never entered and never match.
//
// Thread-safety: HashProbe and Matches are const and safe from many threads once Build has
// returned; Build is called once, by one thread (it fans out through ctx.pool).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "columnar/vector.h"
#include "sql/execution/group_hash_table.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class JoinHashTable {
 public:
  // Per-probe-batch scratch (one per worker).
  struct ProbeKeys {
    int64_t n = 0;
    std::vector<uint64_t> hashes;
    std::vector<int64_t> ints;   // integer layout: the key
    std::vector<uint8_t> valid;  // integer layout: 0 when the key is NULL
    RowKeys enc;                 // encoded layout
  };

  JoinHashTable(const std::vector<columnar::TypePtr>& build_types, const std::vector<columnar::TypePtr>& probe_types);
  ~JoinHashTable();

  // Indexes the build side: chunk_keys[c] are the key columns of build chunk c, whose rows are
  // build rows [sum of the earlier chunks' sizes, ...). `memory` (may be null) is grown by what
  // the table allocates, before each large allocation: OutOfMemory leaves the table unusable.
  Status Build(ExecContext& ctx, std::vector<std::vector<columnar::VectorPtr>> chunk_keys,
               MemoryReservation* memory = nullptr);

  void HashProbe(const std::vector<const columnar::Vector*>& keys, int64_t n, ProbeKeys* out) const;
  // Calls f(build_row) for every build row whose key equals probe row i's (ascending rows).
  template <typename F>
  void Matches(const ProbeKeys& k, int64_t i, F&& f) const;

  // Whether probe row i has a key that can match (no NULL in it).
  bool HasKey(const ProbeKeys& k, int64_t i) const { return int_keys_ ? k.valid[i] != 0 : !k.enc.has_null(i); }

  bool int_keys() const { return int_keys_; }
  // Bytes the built table holds: entries, directories and (encoded keys) the build encodings.
  int64_t MemoryBytes() const;
  int64_t entries() const { return entries_; }
  int partitions() const { return 1 << bits_; }

 private:
  struct IntEntry {
    int64_t key;
    int64_t row;
    uint32_t next;  // entry index + 1 in the same chain; 0 ends it
  };
  struct KeyEntry {
    uint64_t hash;
    int64_t row;
    const uint8_t* key;
    uint32_t len;
    uint32_t next;
  };
  struct ChunkHashes;
  int64_t ChunkBytes() const;  // the per-chunk hashes, keys and encodings

  const uint32_t* Slot(uint64_t h) const {
    const int p = bits_ == 0 ? 0 : static_cast<int>(h >> (64 - bits_));
    return heads_.get() + dir_start_[p] + (h & dir_mask_[p]);
  }

  bool int_keys_ = false;
  int bits_ = 0;
  std::vector<std::unique_ptr<ChunkHashes>> chunks_;  // owns the encoded build keys
  int64_t entries_ = 0;
  // Allocated uninitialized and filled by the parallel phases (no serial zeroing pass).
  std::unique_ptr<IntEntry[]> int_entries_;
  std::unique_ptr<KeyEntry[]> key_entries_;
  std::unique_ptr<uint32_t[]> heads_;  // all partitions' directories, entry index + 1
  std::vector<int64_t> dir_start_;    // per partition: its directory's first slot in heads_
  std::vector<uint64_t> dir_mask_;    // per partition: directory size - 1
};

template <typename F>
void JoinHashTable::Matches(const ProbeKeys& k, int64_t i, F&& f) const {
  const uint64_t h = k.hashes[i];
  if (int_keys_) {
    if (!k.valid[i]) return;
    const int64_t key = k.ints[i];
    for (uint32_t e = *Slot(h); e != 0;) {
      const IntEntry& x = int_entries_[e - 1];
      if (x.key == key) f(x.row);
      e = x.next;
    }
    return;
  }
  if (k.enc.has_null(i)) return;
  const uint8_t* key = k.enc.data(i);
  const int64_t len = k.enc.length(i);
  for (uint32_t e = *Slot(h); e != 0;) {
    const KeyEntry& x = key_entries_[e - 1];
    if (x.hash == h && x.len == len && std::memcmp(x.key, key, len) == 0) f(x.row);
    e = x.next;
  }
}

}  // namespace shoal::sql
