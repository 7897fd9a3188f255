// Normalized sort keys for LocalSort: encodes the sort columns of each row into one fixed-width,
// memcmp-comparable byte string (order-preserving encodings of integers, floats, decimals,
// dates/timestamps and string prefixes; NULLS FIRST/LAST; ASC/DESC), and sorts rows by those
// keys into a permutation — radix sort on the varying key bytes, with full-string comparisons
// only inside runs of rows whose long strings share the key prefix. Rows are never moved while
// sorting; the caller gathers columns once by the permutation.
//
// Thread-safety: SortKeyEncoder is immutable after Make and may be shared; KeyRows is built and
// read by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::table {

// One column of a sort order over a batch's columns.
struct SortColumn {
  int column = 0;           // index in the batch
  bool descending = false;  // Spark's default: ascending
  bool nulls_first = true;  // Spark's default for ascending: NULLS FIRST
};

// True for the types a normalized key can encode (flat scalars: no STRUCT/LIST/MAP/NULL).
bool IsSortableType(const columnar::DataType& type);

// The key rows of a batch: row i's key is bytes[i*width, (i+1)*width). When `tie_breaks` is
// non-empty, two keys whose bytes agree up to a long string's segment must be compared on the
// full strings there (see CompareKeyRows).
struct KeyRows {
  // A string segment whose prefix may not decide the order.
  struct TieBreak {
    int end = 0;                            // offset just past the segment's length byte
    bool descending = false;
    const columnar::Vector* strings = nullptr;  // the batch's column (borrowed)
  };
  int width = 0;
  std::vector<uint8_t> bytes;
  std::vector<TieBreak> tie_breaks;  // in key order; empty: memcmp decides

  const uint8_t* row(int64_t i) const { return bytes.data() + i * width; }
  int64_t num_rows() const { return width == 0 ? 0 : static_cast<int64_t>(bytes.size()) / width; }
  // Bytes this object holds (for memory accounting).
  int64_t memory_bytes() const { return static_cast<int64_t>(bytes.capacity()); }
};

// Three-way comparison of key row `i` of `a` and key row `j` of `b` (same encoder).
int CompareKeyRows(const KeyRows& a, int64_t i, const KeyRows& b, int64_t j);

class SortKeyEncoder {
 public:
  // Bytes of a string's prefix kept in the key; longer strings tie-break on the full value.
  static constexpr int kStringPrefix = 14;

  // InvalidArgument naming the column when a type is not sortable or an index is out of range.
  static Result<SortKeyEncoder> Make(const columnar::Schema& schema, std::vector<SortColumn> columns);

  int width() const { return width_; }
  const std::vector<SortColumn>& columns() const { return columns_; }
  // Offset and width (null byte included) of column k's segment.
  int segment_offset(size_t k) const { return offsets_[k]; }
  int segment_width(size_t k) const { return offsets_[k + 1] - offsets_[k]; }

  // Encodes rows [0, batch.num_rows) of `batch` (whose schema is the one given to Make). The
  // result borrows the batch's string columns for tie-breaks: keep the batch alive.
  KeyRows Encode(const columnar::RecordBatch& batch) const;

 private:
  std::vector<SortColumn> columns_;
  std::vector<columnar::TypePtr> types_;
  std::vector<int> offsets_;  // size columns_+1
  int width_ = 0;
};

// Sorts row indices 0..n-1 by key (stable: equal keys keep input order) and returns them.
// Radix sort on the byte positions that vary, 8 at a time as integers (MSD, then LSD once a
// range varies in at most two bytes); later positions are sorted only within runs equal so far,
// and long strings are compared in full only within runs equal up to their segment. Needs at
// most kSortBytesPerRow bytes per row at once (scratch, then the result in place of half of it).
// From `parallel_from_rows` rows on (and with two cores) the rows are split in two by a pivot
// key and the two sides sorted on two threads.
inline constexpr int64_t kParallelSortRows = int64_t{1} << 18;
std::vector<uint32_t> SortKeyRows(const KeyRows& keys, int64_t parallel_from_rows = kParallelSortRows);
// The same sort on the key bytes alone (ignores tie_breaks: exact only without them).
std::vector<uint32_t> RadixSortKeyRows(const KeyRows& keys);
// Bytes per row SortKeyRows holds at its peak (two arrays of 16-byte key-and-row pairs).
inline constexpr int64_t kSortBytesPerRow = 32;

}  // namespace shoal::table
