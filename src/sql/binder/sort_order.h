// Row ordering for ORDER BY: compares rows of key columns by ASC/DESC and NULLS FIRST/LAST,
// with NaN after every other float (Spark), strings by bytes; ties keep input order (stable).
//
// Thread-safety: a RowComparator reads its columns only; safe to share once built.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"

namespace shoal::sql {

struct SortSpec {
  bool descending = false;
  bool nulls_first = true;
};

// Compares rows of equal-length key columns, each normalized once into a flat array.
class RowComparator {
 public:
  RowComparator(const std::vector<const columnar::Vector*>& keys, const std::vector<SortSpec>& specs);
  // <0, 0, >0 as row a sorts before, with, after row b.
  int Compare(int64_t a, int64_t b) const;

 private:
  enum class Kind : uint8_t { kInt, kWide, kFloat, kString, kValue, kNull };
  struct Key {
    Kind kind = Kind::kInt;
    SortSpec spec;
    const uint8_t* validity = nullptr;  // null: no NULLs
    std::vector<int64_t> ints;
    std::vector<__int128> wides;
    std::vector<double> floats;
    std::vector<std::string_view> strings;
    std::vector<columnar::Value> values;
  };
  std::vector<Key> keys_;
};

// Row indices [0, n) in sorted order; with limit >= 0 only the first `limit` of them.
std::vector<uint32_t> SortIndices(const std::vector<const columnar::Vector*>& keys,
                                  const std::vector<SortSpec>& specs, int64_t n, int64_t limit = -1);

}  // namespace shoal::sql
