#include "parquet/row_ranges.h"

#include <algorithm>

namespace shoal::parquet {

RowRanges RowRanges::All(int64_t num_rows) { return Of(0, num_rows); }

RowRanges RowRanges::Of(int64_t begin, int64_t end) {
  RowRanges r;
  if (end > begin) r.ranges_.push_back({begin, end});
  return r;
}

RowRanges RowRanges::FromIntervals(std::vector<RowRange> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  RowRanges r;
  for (const RowRange& x : intervals) {
    if (x.end <= x.begin) continue;
    if (!r.ranges_.empty() && x.begin <= r.ranges_.back().end) {
      r.ranges_.back().end = std::max(r.ranges_.back().end, x.end);
    } else {
      r.ranges_.push_back(x);
    }
  }
  return r;
}

Result<RowRanges> RowRanges::FromPages(const std::vector<PageLocation>& locations, const std::vector<bool>& keep,
                                       int64_t num_rows) {
  if (keep.size() != locations.size()) {
    return Status::Corruption("page index: " + std::to_string(keep.size()) + " page verdicts for " +
                              std::to_string(locations.size()) + " pages");
  }
  if (locations.empty()) {
    if (num_rows == 0) return RowRanges();
    return Status::Corruption("page index: no pages for " + std::to_string(num_rows) + " rows");
  }
  if (locations[0].first_row_index != 0) {
    return Status::Corruption("page index: first page starts at row " + std::to_string(locations[0].first_row_index));
  }
  RowRanges r;
  for (size_t i = 0; i < locations.size(); ++i) {
    int64_t begin = locations[i].first_row_index;
    int64_t end = i + 1 < locations.size() ? locations[i + 1].first_row_index : num_rows;
    if (end <= begin || end > num_rows) {
      return Status::Corruption("page index: page " + std::to_string(i) + " spans rows [" + std::to_string(begin) +
                                ", " + std::to_string(end) + ") of a row group of " + std::to_string(num_rows));
    }
    if (!keep[i]) continue;
    if (!r.ranges_.empty() && r.ranges_.back().end == begin) {
      r.ranges_.back().end = end;
    } else {
      r.ranges_.push_back({begin, end});
    }
  }
  return r;
}

RowRanges RowRanges::Intersect(const RowRanges& a, const RowRanges& b) {
  RowRanges r;
  size_t i = 0, j = 0;
  while (i < a.ranges_.size() && j < b.ranges_.size()) {
    const RowRange& x = a.ranges_[i];
    const RowRange& y = b.ranges_[j];
    int64_t lo = std::max(x.begin, y.begin), hi = std::min(x.end, y.end);
    if (lo < hi) r.ranges_.push_back({lo, hi});
    if (x.end < y.end) {
      ++i;
    } else {
      ++j;
    }
  }
  return r;
}

RowRanges RowRanges::Union(const RowRanges& a, const RowRanges& b) {
  RowRanges r;
  size_t i = 0, j = 0;
  auto add = [&](const RowRange& x) {
    if (!r.ranges_.empty() && x.begin <= r.ranges_.back().end) {
      r.ranges_.back().end = std::max(r.ranges_.back().end, x.end);
    } else {
      r.ranges_.push_back(x);
    }
  };
  while (i < a.ranges_.size() || j < b.ranges_.size()) {
    if (j >= b.ranges_.size() || (i < a.ranges_.size() && a.ranges_[i].begin <= b.ranges_[j].begin)) {
      add(a.ranges_[i++]);
    } else {
      add(b.ranges_[j++]);
    }
  }
  return r;
}

int64_t RowRanges::Count() const {
  int64_t n = 0;
  for (const RowRange& x : ranges_) n += x.end - x.begin;
  return n;
}

bool RowRanges::Contains(int64_t row) const { return Overlaps(row, row + 1); }

bool RowRanges::Overlaps(int64_t begin, int64_t end) const {
  if (end <= begin) return false;
  // First range ending after `begin`.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), begin,
                             [](int64_t v, const RowRange& x) { return v < x.end; });
  return it != ranges_.end() && it->begin < end;
}

std::string RowRanges::ToString() const {
  std::string s;
  for (const RowRange& x : ranges_) {
    if (!s.empty()) s += ' ';
    s += '[';
    s += std::to_string(x.begin);
    s += ", ";
    s += std::to_string(x.end);
    s += ')';
  }
  return s.empty() ? "{}" : s;
}

}  // namespace shoal::parquet
