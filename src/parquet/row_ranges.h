// RowRanges: a set of row positions within one row group as sorted, disjoint, non-adjacent
// half-open intervals [begin, end). The page index yields one per filter column (the rows of
// the pages that may match); intersecting them gives the rows a scan must still read.
//
// Thread-safety: a plain value; const methods are safe concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "shoal/status.h"

namespace shoal::parquet {

struct RowRange {
  int64_t begin = 0;  // first row
  int64_t end = 0;    // one past the last row
  bool operator==(const RowRange& o) const { return begin == o.begin && end == o.end; }
};

class RowRanges {
 public:
  RowRanges() = default;
  // All rows [0, num_rows).
  static RowRanges All(int64_t num_rows);
  // [begin, end); empty when end <= begin.
  static RowRanges Of(int64_t begin, int64_t end);
  // Normalizes arbitrary (possibly overlapping, unsorted, empty) intervals.
  static RowRanges FromIntervals(std::vector<RowRange> intervals);
  // The rows of the pages whose `keep[i]` is true, page i spanning
  // [locations[i].first_row_index, locations[i+1].first_row_index) and the last page up to
  // num_rows. Corruption when the first_row_index values are not strictly increasing from 0
  // or exceed num_rows, or keep and locations differ in size.
  static Result<RowRanges> FromPages(const std::vector<PageLocation>& locations, const std::vector<bool>& keep,
                                     int64_t num_rows);

  static RowRanges Intersect(const RowRanges& a, const RowRanges& b);
  static RowRanges Union(const RowRanges& a, const RowRanges& b);

  // Number of rows covered.
  int64_t Count() const;
  bool Contains(int64_t row) const;
  // True when some row of [begin, end) is covered.
  bool Overlaps(int64_t begin, int64_t end) const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<RowRange>& ranges() const { return ranges_; }
  // "[0, 10) [20, 30)", for messages and tests.
  std::string ToString() const;

  bool operator==(const RowRanges& o) const { return ranges_ == o.ranges_; }

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace shoal::parquet
