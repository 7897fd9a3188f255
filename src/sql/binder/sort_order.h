// Row ordering for ORDER BY: compares rows of key columns by ASC/DESC and NULLS FIRST/LAST,
// with NaN after every other float (Spark), strings by bytes; ties keep input order (stable).
//
// Thread-safety: a RowComparator reads its columns only; safe to share once built.
#pragma once

#include <cstdint>
#include <memory>
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
  // Normalizes every row (one pass over the keys).
  RowComparator(const std::vector<const columnar::Vector*>& keys, const std::vector<SortSpec>& specs);
  // Allocates the normalized arrays without filling them: NormalizeRows must cover a row before
  // it is compared. Lets a caller normalize in pieces, on several threads and between interrupt
  // checks (parallel_sort.h).
  struct Deferred {};
  RowComparator(const std::vector<const columnar::Vector*>& keys, const std::vector<SortSpec>& specs, Deferred);
  // Normalizes rows [from, to) of every key; disjoint ranges may be normalized concurrently.
  void NormalizeRows(int64_t from, int64_t to);
  // <0, 0, >0 as row a sorts before, with, after row b.
  int Compare(int64_t a, int64_t b) const;

 private:
  enum class Kind : uint8_t { kInt, kWide, kFloat, kString, kValue, kNull };
  struct Key {
    Kind kind = Kind::kInt;
    SortSpec spec;
    const columnar::Vector* column = nullptr;
    const uint8_t* validity = nullptr;  // null: no NULLs
    // Allocated uninitialized (no pass of zeroes before NormalizeRows writes them).
    std::unique_ptr<int64_t[]> ints;
    std::unique_ptr<__int128[]> wides;
    std::unique_ptr<double[]> floats;
    std::unique_ptr<std::string_view[]> strings;
    std::unique_ptr<columnar::Value[]> values;
  };
  std::vector<Key> keys_;
};

// Row indices [0, n) in sorted order; with limit >= 0 only the first `limit` of them.
std::vector<uint32_t> SortIndices(const std::vector<const columnar::Vector*>& keys,
                                  const std::vector<SortSpec>& specs, int64_t n, int64_t limit = -1);

}  // namespace shoal::sql
