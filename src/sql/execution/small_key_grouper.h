// Maps GROUP BY keys with few distinct values to group ids without hashing whole rows: each key
// column's value is turned into a small per-column code (a string of at most 8 bytes or a
// fixed-width value of at most 8 bytes is its own exact 64-bit image, looked up in a tiny
// per-column table), the codes are packed into one 64-bit composite, and the composite is looked
// up in an integer hash map that caches the group id. Only composites seen for the first time go
// to the authoritative GroupHashTable (one FindOrInsert per batch for all of them), so ids,
// key columns and Combine stay exactly those of the general path.
//
// A batch the fast path cannot encode (a string longer than 8 bytes, a column with more than
// 65,535 distinct values) makes Map return false; the caller then uses the GroupHashTable
// directly, and the grouper stays disabled for the rest of the query.
//
// Thread-safety: not thread-safe; one instance per worker, with that worker's table.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "sql/execution/group_hash_table.h"

namespace shoal::sql {

class SmallKeyGrouper {
 public:
  // True for 1 to 4 keys, each STRING/BINARY or fixed-width with at most 8-byte slots.
  static bool Supports(const std::vector<columnar::TypePtr>& key_types);
  explicit SmallKeyGrouper(size_t num_keys);

  // Sets ids[i] to the group in `table` of row i of `keys` (creating groups there) and returns
  // true; returns false, having changed nothing in `table`, when the batch does not fit.
  bool Map(const std::vector<const columnar::Vector*>& keys, int64_t n, GroupHashTable* table, uint32_t* ids);
  bool disabled() const { return disabled_; }
  // Bytes allocated for the code tables, the composite map and the per-batch scratch.
  int64_t MemoryBytes() const;

 private:
  // Exact 64-bit image (bits, len) of one column's values -> code 1..65535 (0 is NULL).
  struct ColumnCodes {
    std::vector<uint64_t> bits;
    std::vector<uint8_t> lens;
    std::vector<uint16_t> codes;  // 0 = empty slot
    uint64_t mask = 0;
    uint32_t count = 0;
    ColumnCodes();
    // The code of (b, len), adding it; 0 when the column is full.
    uint16_t CodeOf(uint64_t b, uint8_t len);
    void Grow();
  };
  bool EncodeColumn(const columnar::Vector& v, int64_t n, int shift);
  uint32_t* Lookup(uint64_t composite);
  void GrowComposites();

  bool disabled_ = false;
  std::vector<ColumnCodes> columns_;
  std::vector<uint64_t> composite_;       // per row of the current batch
  std::vector<uint64_t> slot_keys_;       // composite map: key
  std::vector<uint32_t> slot_vals_;       // group id + 1; 0 = empty
  uint64_t slot_mask_ = 0;
  uint64_t slot_count_ = 0;
  std::vector<uint32_t> miss_rows_;
  std::vector<uint32_t> miss_ids_;
};

}  // namespace shoal::sql
