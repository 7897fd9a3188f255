// Coded gather: copies the rows of one output chunk of a sort out of many buffered batches.
// A row is addressed by a 32-bit code, segment << 16 | row in segment (a segment is at most
// 2^16 rows of one buffered batch). Rows in sorted order are scattered over the whole buffer,
// so every value read is a cache miss: the loops issue prefetches a fixed distance ahead, and a
// string column is read in two passes — first every row's place and length (independent
// loads), then the characters, whose addresses are then known early enough to prefetch.
// (Reading a chunk's rows in source order instead was measured slower: the sort it needs
// costs more than the misses it saves.)
//
// Thread-safety: SegmentColumn is immutable once built; gathers into different output vectors
// may run at once.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"

namespace shoal::table {

// One column of every buffered segment, as raw pointers already offset to the segment's
// first row: the gather reads row `code & 0xFFFF` of segment `code >> 16`.
struct SegmentColumn {
  std::vector<const uint8_t*> values;    // fixed width: first value; strings: unused
  std::vector<const int64_t*> offsets;   // strings: the segment's first offset
  std::vector<const uint8_t*> bytes;     // strings: the vector's characters
  std::vector<const uint8_t*> validity;  // nullptr: every row valid
  bool any_nulls = false;
};

// Calls copy(T{}) with the unsigned type of a fixed-width slot of `w` bytes (1, 2, 4, 8, else 16).
template <typename F>
void ForSlotWidth(int w, F&& copy) {
  switch (w) {
    case 1: copy(uint8_t{}); break;
    case 2: copy(uint16_t{}); break;
    case 4: copy(uint32_t{}); break;
    case 8: copy(uint64_t{}); break;
    default: copy(columnar::int128_t{}); break;
  }
}

// Rows `codes[0..n)` of one flat column into `out` (whose validity the caller cleared), one
// typed loop per column.
void GatherCoded(const SegmentColumn& column, const columnar::DataType& type, const uint32_t* codes, int64_t n,
                 columnar::Vector* out);

// Consecutive rows of one segment: rows [row, row + rows) of segment `segment`.
struct CodeSpan {
  uint32_t segment = 0;
  uint32_t row = 0;
  uint32_t rows = 0;
};

// The rows of `spans[0..count)` in turn (`n` rows in all) of one flat column into `out` (whose
// validity the caller cleared): each span is copied as a block (a merge of sorted runs takes
// rows from each run in stretches, so its output is spans, not scattered rows).
void GatherSpans(const SegmentColumn& column, const columnar::DataType& type, const CodeSpan* spans, size_t count,
                 int64_t n, columnar::Vector* out);

}  // namespace shoal::table
