// Hashing of multi-column keys for hash aggregation, DISTINCT, set operations and hash joins.
//
// RowKeys encodes the key columns of a batch row-wise into compact byte strings (a NULL flag
// and the value per column; floats normalized so -0.0 = 0.0 and all NaNs are equal; strings
// length-prefixed), column by column in typed loops, and hashes each row once. Two rows have
// equal encodings exactly when their keys are equal with NULLs equal to each other (GROUP BY
// semantics); joins skip rows with a NULL key (has_null).
//
// GroupHashTable maps encoded keys to dense group ids 0..n-1 and keeps each group's key values as
// columns. Open addressing with linear probing; a slot holds the group id and the upper 32 bits
// of its hash, so a probe touches the group's key bytes only when those bits match. Keys of
// fixed width (every key column fixed-width) are stored at g * width without offsets.
//
// Thread-safety: not thread-safe for writes; Find on a table nobody modifies is safe from
// many threads.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"

namespace shoal::sql {

class RowKeys {
 public:
  // Encodes rows [0, n) of `keys` (each at least n rows).
  void Encode(const std::vector<const columnar::Vector*>& keys, int64_t n);
  int64_t size() const { return n_; }
  const uint8_t* data(int64_t i) const { return bytes_.data() + offsets_[i]; }
  int64_t length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  uint64_t hash(int64_t i) const { return hashes_[i]; }
  bool has_null(int64_t i) const { return has_null_[i] != 0; }
  // Bytes allocated for the encodings (capacities), for memory accounting.
  int64_t MemoryBytes() const;

 private:
  int64_t n_ = 0;
  std::vector<uint8_t> bytes_;
  std::vector<int64_t> offsets_;
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> has_null_;
};

class GroupHashTable {
 public:
  explicit GroupHashTable(std::vector<columnar::TypePtr> key_types);

  // Sets ids[i] to the group of row i of `keys`, creating groups for new keys.
  void FindOrInsert(const std::vector<const columnar::Vector*>& keys, int64_t n, uint32_t* ids);
  // The same for already encoded rows whose key columns are `keys` (used to store new groups).
  void FindOrInsertEncoded(const RowKeys& enc, const std::vector<const columnar::Vector*>& keys,
                           uint32_t* ids);
  // ids[i] = the group of encoded row i, or -1 when absent (or when skip_null and it has a NULL).
  void Find(const RowKeys& enc, bool skip_null, int64_t* ids) const;

  int64_t size() const { return static_cast<int64_t>(hashes_.size()); }
  // The hash of group g's encoded key (RowKeys::hash), e.g. to radix-partition groups.
  uint64_t hash(int64_t g) const { return hashes_[g]; }
  // One column per key, one row per group (in id order).
  const std::vector<columnar::VectorPtr>& key_columns() const { return key_columns_; }

  // Bytes allocated for the table: slots, hashes, encoded keys, key columns, scratch.
  int64_t MemoryBytes() const;
  // At most how many bytes more FindOrInsert of `n` rows may allocate in the slot, hash, offset
  // and (fixed-width) key arrays, counting a reallocation's old and new array both; variable-width
  // keys are estimated from the average key so far. The key columns' growth is not included.
  int64_t GrowthBound(int64_t n) const;

 private:
  int64_t Probe(uint64_t h, const uint8_t* key, int64_t len, size_t* slot) const;
  const uint8_t* KeyOf(int64_t g, int64_t* len) const;
  void Grow();

  std::vector<columnar::TypePtr> types_;
  int64_t fixed_width_ = -1;           // encoded key width when every key is fixed-width
  std::vector<uint8_t> arena_;         // encoded keys of all groups
  std::vector<int64_t> key_offsets_;   // groups + 1; only when fixed_width_ < 0
  std::vector<uint64_t> hashes_;       // per group
  std::vector<uint64_t> slots_;        // upper hash bits | (group id + 1); 0 = empty
  size_t mask_ = 0;
  std::vector<columnar::VectorPtr> key_columns_;
  RowKeys scratch_;
  std::vector<uint32_t> new_rows_;     // rows of the current call that created groups
};

}  // namespace shoal::sql
