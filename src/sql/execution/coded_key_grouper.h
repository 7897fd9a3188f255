// Maps GROUP BY keys that are all dictionary-coded string columns (columnar/vector.h) to group
// ids without touching the strings: a row's codes, one per key with the dictionary's size
// standing for NULL, combine into one index into a table of group ids for the current
// dictionaries. Only combinations seen for the first time go to the authoritative
// GroupHashTable (one FindOrInsert per batch for all of them, with their decoded values), so
// ids, key columns and Combine stay exactly those of the general path. The table is rebuilt
// when a dictionary changes (a new column chunk), so it pays while batches of one chunk flow by.
//
// Thread-safety: not thread-safe; one instance per worker, with that worker's table.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "sql/execution/group_hash_table.h"

namespace shoal::sql {

class CodedKeyGrouper {
 public:
  // Most combinations of codes a table may have.
  static constexpr int64_t kMaxCombinations = int64_t{1} << 16;

  // Sets ids[i] to the group in `table` of row i of `keys` (creating groups there) and returns
  // true when every key is coded and the dictionaries' combinations fit; returns false, having
  // changed nothing, otherwise.
  bool Map(const std::vector<const columnar::Vector*>& keys, int64_t n, GroupHashTable* table, uint32_t* ids);

 private:
  const GroupHashTable* table_ = nullptr;
  std::vector<columnar::VectorPtr> dictionaries_;  // the current ones, held
  std::vector<int64_t> strides_;
  std::vector<int64_t> group_of_;  // combination -> group id; -1 unknown
  std::vector<int64_t> combo_;     // per row of the current batch
  std::vector<uint32_t> first_rows_;
  std::vector<uint32_t> new_ids_;
};

}  // namespace shoal::sql
