#include "sql/execution/parallel_sort.h"

#include <algorithm>
#include <numeric>

#include "sql/execution/task_runner.h"

namespace shoal::sql {

namespace {
// Below this many rows one thread sorts everything.
constexpr int64_t kParallelSortRows = 1 << 16;
// Larger inputs take the runs path even on one worker, so the sort hears Ctrl-C.
constexpr int64_t kSerialSortRows = int64_t{1} << 20;
constexpr int kRangesPerWorker = 8;
constexpr int kSamplesPerRange = 32;
// A run is sorted in chunks of this many rows, then merged pairwise.
constexpr int64_t kChunkRows = int64_t{1} << 16;

// Stable-sorts [first, last) by `less` as sorted chunks merged pairwise (a merge sort, as
// std::stable_sort), checking for an interrupt between steps: one std::stable_sort call over
// millions of rows would not hear Ctrl-C for a second or more.
template <typename Less>
Status SortRun(const ExecContext& ctx, std::vector<uint32_t>::iterator first, std::vector<uint32_t>::iterator last,
               Less less) {
  const int64_t n = last - first;
  for (int64_t s = 0; s < n; s += kChunkRows) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    std::stable_sort(first + s, first + std::min(n, s + kChunkRows), less);
  }
  for (int64_t width = kChunkRows; width < n; width *= 2) {
    for (int64_t s = 0; s + width < n; s += 2 * width) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      std::inplace_merge(first + s, first + s + width, first + std::min(n, s + 2 * width), less);
    }
  }
  return Status::OK();
}
}  // namespace

Result<std::vector<uint32_t>> ParallelSortIndices(ExecContext& ctx, const std::vector<const columnar::Vector*>& keys,
                                                  const std::vector<SortSpec>& specs, int64_t n) {
  const int workers = TaskWorkers(ctx, n / kParallelSortRows);
  if (workers == 1 && n < kSerialSortRows) return SortIndices(keys, specs, n);
  RowComparator cmp(keys, specs);
  auto less = [&](uint32_t a, uint32_t b) {
    int c = cmp.Compare(a, b);
    return c != 0 ? c < 0 : a < b;
  };
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  // 1. One sorted run per worker.
  const int runs = workers;
  std::vector<int64_t> run_start(runs + 1);
  for (int r = 0; r <= runs; ++r) run_start[r] = n * r / runs;
  RETURN_NOT_OK(RunTasks(ctx, runs, [&](int64_t r, int) {
    // A merge sort: fewer comparisons than introsort, and stable, so ties keep row order.
    return SortRun(ctx, idx.begin() + run_start[r], idx.begin() + run_start[r + 1],
                   [&](uint32_t a, uint32_t b) { return cmp.Compare(a, b) < 0; });
  }));
  // 2. Splitters: evenly spaced samples of every run, sorted, every (samples / ranges)-th.
  const int ranges = workers * kRangesPerWorker;
  std::vector<uint32_t> samples;
  for (int r = 0; r < runs; ++r) {
    const int64_t len = run_start[r + 1] - run_start[r];
    const int64_t count = std::min<int64_t>(len, static_cast<int64_t>(ranges) * kSamplesPerRange / runs);
    for (int64_t s = 0; s < count; ++s) samples.push_back(idx[run_start[r] + (s * len) / count]);
  }
  std::sort(samples.begin(), samples.end(), less);
  // bounds[j * runs + r]: where range j starts in run r.
  std::vector<int64_t> bounds((ranges + 1) * runs);
  for (int r = 0; r < runs; ++r) {
    bounds[r] = run_start[r];
    bounds[ranges * runs + r] = run_start[r + 1];
  }
  RETURN_NOT_OK(RunTasks(ctx, ranges - 1, [&](int64_t j1, int) {
    const int64_t j = j1 + 1;
    const uint32_t splitter = samples[j * samples.size() / ranges];
    for (int r = 0; r < runs; ++r) {
      auto first = idx.begin() + run_start[r], last = idx.begin() + run_start[r + 1];
      bounds[j * runs + r] = std::lower_bound(first, last, splitter, less) - idx.begin();
    }
    return Status::OK();
  }));
  std::vector<int64_t> out_start(ranges + 1, 0);
  for (int j = 0; j < ranges; ++j) {
    int64_t k = 0;
    for (int r = 0; r < runs; ++r) k += bounds[(j + 1) * runs + r] - bounds[j * runs + r];
    out_start[j + 1] = out_start[j] + k;
  }
  // 3. Merge each range's pieces into its place.
  std::vector<uint32_t> out(n);
  RETURN_NOT_OK(RunTasks(ctx, ranges, [&](int64_t j, int) {
    struct Head {
      int64_t pos, end;
    };
    std::vector<Head> heads;
    for (int r = 0; r < runs; ++r) {
      Head h{bounds[j * runs + r], bounds[(j + 1) * runs + r]};
      if (h.pos < h.end) heads.push_back(h);
    }
    uint32_t* dst = out.data() + out_start[j];
    if (heads.size() == 2) {  // two runs (two threads): a plain merge, one comparison a row
      Head a = heads[0], b = heads[1];
      while (a.pos < a.end && b.pos < b.end) {
        // Run 0's rows precede run 1's, so on equal keys a wins.
        if (cmp.Compare(idx[b.pos], idx[a.pos]) < 0) {
          *dst++ = idx[b.pos++];
        } else {
          *dst++ = idx[a.pos++];
        }
      }
      dst = std::copy(idx.begin() + a.pos, idx.begin() + a.end, dst);
      std::copy(idx.begin() + b.pos, idx.begin() + b.end, dst);
      return Status::OK();
    }
    // A min-heap on each piece's next row (greater-than puts the least on top).
    auto later = [&](const Head& a, const Head& b) { return less(idx[b.pos], idx[a.pos]); };
    std::make_heap(heads.begin(), heads.end(), later);
    while (heads.size() > 1) {
      std::pop_heap(heads.begin(), heads.end(), later);
      Head& h = heads.back();
      *dst++ = idx[h.pos++];
      if (h.pos == h.end) {
        heads.pop_back();
      } else {
        std::push_heap(heads.begin(), heads.end(), later);
      }
    }
    if (!heads.empty()) dst = std::copy(idx.begin() + heads[0].pos, idx.begin() + heads[0].end, dst);
    return Status::OK();
  }));
  return out;
}

}  // namespace shoal::sql
