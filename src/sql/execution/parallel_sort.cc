#include "sql/execution/parallel_sort.h"

#include <algorithm>
#include <numeric>

#include "sql/execution/task_runner.h"

namespace shoal::sql {

namespace {
// Below this many rows one thread sorts everything.
constexpr int64_t kParallelSortRows = 1 << 16;
// Larger inputs take the runs path even on one worker, so the sort hears Ctrl-C.
constexpr int64_t kSerialSortRows = int64_t{1} << 17;
constexpr int kRangesPerWorker = 8;
constexpr int kSamplesPerRange = 32;
// A run is sorted in chunks of this many rows, then merged pairwise; keys are normalized in
// pieces of this many rows.
constexpr int64_t kChunkRows = int64_t{1} << 16;
// Rows a merge writes between two interrupt checks.
constexpr int64_t kCheckRows = int64_t{1} << 16;

// Merges sorted [a, a_end) and [b, b_end) into `dst` (a's row first on ties), checking for an
// interrupt every kCheckRows rows written.
template <typename Less>
Status MergeInto(const ExecContext& ctx, const uint32_t* a, const uint32_t* a_end, const uint32_t* b,
                 const uint32_t* b_end, uint32_t* dst, Less less) {
  while (a < a_end && b < b_end) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    for (int64_t k = 0; k < kCheckRows && a < a_end && b < b_end; ++k) *dst++ = less(*b, *a) ? *b++ : *a++;
  }
  dst = std::copy(a, a_end, dst);
  std::copy(b, b_end, dst);
  return Status::OK();
}

// Stable-sorts `rows` (n of them) by `less` as sorted chunks merged pairwise back and forth with
// `scratch` (n more), checking for an interrupt between chunks and within every merge: one
// std::stable_sort or std::inplace_merge call over millions of rows would not hear Ctrl-C for
// a second or more.
template <typename Less>
Status SortRun(const ExecContext& ctx, uint32_t* rows, uint32_t* scratch, int64_t n, Less less) {
  for (int64_t s = 0; s < n; s += kChunkRows) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    std::stable_sort(rows + s, rows + std::min(n, s + kChunkRows), less);
  }
  uint32_t* from = rows;
  uint32_t* to = scratch;
  for (int64_t width = kChunkRows; width < n; width *= 2) {
    for (int64_t s = 0; s < n; s += 2 * width) {
      const int64_t mid = std::min(n, s + width), end = std::min(n, s + 2 * width);
      RETURN_NOT_OK(MergeInto(ctx, from + s, from + mid, from + mid, from + end, to + s, less));
    }
    std::swap(from, to);
  }
  for (int64_t s = 0; from != rows && s < n; s += kCheckRows) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    std::copy(from + s, from + std::min(n, s + kCheckRows), rows + s);
  }
  return Status::OK();
}

// Steps 1-3 of ParallelSortIndices (parallel_sort.h): `idx` holds the row numbers, `out`
// (as many) receives the sorted permutation.
Status MergeSortedRuns(ExecContext& ctx, const RowComparator& cmp, int workers, std::vector<uint32_t>* idx,
                       std::vector<uint32_t>* out) {
  const int64_t n = static_cast<int64_t>(idx->size());
  auto less = [&](uint32_t a, uint32_t b) {
    int c = cmp.Compare(a, b);
    return c != 0 ? c < 0 : a < b;
  };
  // 1. One sorted run per worker.
  const int runs = workers;
  std::vector<int64_t> run_start(runs + 1);
  for (int r = 0; r <= runs; ++r) run_start[r] = n * r / runs;
  RETURN_NOT_OK(RunTasks(ctx, runs, [&](int64_t r, int) {
    // A merge sort: fewer comparisons than introsort, and stable, so ties keep row order.
    return SortRun(ctx, idx->data() + run_start[r], out->data() + run_start[r], run_start[r + 1] - run_start[r],
                   [&](uint32_t a, uint32_t b) { return cmp.Compare(a, b) < 0; });
  }));
  // 2. Splitters: evenly spaced samples of every run, sorted, every (samples / ranges)-th.
  const int ranges = workers * kRangesPerWorker;
  std::vector<uint32_t> samples;
  for (int r = 0; r < runs; ++r) {
    const int64_t len = run_start[r + 1] - run_start[r];
    const int64_t count = std::min<int64_t>(len, static_cast<int64_t>(ranges) * kSamplesPerRange / runs);
    for (int64_t s = 0; s < count; ++s) samples.push_back((*idx)[run_start[r] + (s * len) / count]);
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
      auto first = idx->begin() + run_start[r], last = idx->begin() + run_start[r + 1];
      bounds[j * runs + r] = std::lower_bound(first, last, splitter, less) - idx->begin();
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
  RETURN_NOT_OK(RunTasks(ctx, ranges, [&](int64_t j, int) -> Status {
    struct Head {
      int64_t pos, end;
    };
    std::vector<Head> heads;
    for (int r = 0; r < runs; ++r) {
      Head h{bounds[j * runs + r], bounds[(j + 1) * runs + r]};
      if (h.pos < h.end) heads.push_back(h);
    }
    uint32_t* dst = out->data() + out_start[j];
    if (heads.size() == 2) {  // two runs (two threads): a plain merge, one comparison a row
      // Run 0's rows precede run 1's, so on equal keys the first piece's row wins.
      const uint32_t* a = idx->data();
      return MergeInto(ctx, a + heads[0].pos, a + heads[0].end, a + heads[1].pos, a + heads[1].end, dst,
                       [&](uint32_t x, uint32_t y) { return cmp.Compare(x, y) < 0; });
    }
    // A min-heap on each piece's next row (greater-than puts the least on top).
    auto later = [&](const Head& a, const Head& b) { return less((*idx)[b.pos], (*idx)[a.pos]); };
    std::make_heap(heads.begin(), heads.end(), later);
    for (int64_t written = 0; heads.size() > 1; ++written) {
      if (written % kCheckRows == 0) RETURN_NOT_OK(ctx.CheckInterrupt());
      std::pop_heap(heads.begin(), heads.end(), later);
      Head& h = heads.back();
      *dst++ = (*idx)[h.pos++];
      if (h.pos == h.end) {
        heads.pop_back();
      } else {
        std::push_heap(heads.begin(), heads.end(), later);
      }
    }
    if (!heads.empty()) std::copy(idx->begin() + heads[0].pos, idx->begin() + heads[0].end, dst);
    return Status::OK();
  }));
  return Status::OK();
}
}  // namespace

Result<std::vector<uint32_t>> SerialSortIndices(const ExecContext& ctx, const std::vector<const columnar::Vector*>& keys,
                                                const std::vector<SortSpec>& specs, int64_t n) {
  if (n < kSerialSortRows) return SortIndices(keys, specs, n);
  RowComparator cmp(keys, specs, RowComparator::Deferred{});
  std::vector<uint32_t> idx(n), scratch(n);
  Status st = [&]() -> Status {
    for (int64_t from = 0; from < n; from += kChunkRows) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      const int64_t to = std::min(n, from + kChunkRows);
      cmp.NormalizeRows(from, to);
      std::iota(idx.begin() + from, idx.begin() + to, static_cast<uint32_t>(from));
    }
    return SortRun(ctx, idx.data(), scratch.data(), n, [&](uint32_t a, uint32_t b) { return cmp.Compare(a, b) < 0; });
  }();
  if (!st.ok()) {
    ReleaseLater(ctx, std::move(cmp), std::move(idx), std::move(scratch));
    return st;
  }
  return idx;
}

Result<std::vector<uint32_t>> ParallelSortIndices(ExecContext& ctx, const std::vector<const columnar::Vector*>& keys,
                                                  const std::vector<SortSpec>& specs, int64_t n) {
  const int workers = TaskWorkers(ctx, n / kParallelSortRows);
  if (workers == 1) return SerialSortIndices(ctx, keys, specs, n);
  RowComparator cmp(keys, specs, RowComparator::Deferred{});
  // `out` is the runs' merge scratch, then the result.
  std::vector<uint32_t> idx(n), out(n);
  Status st = [&]() -> Status {
    // 0. The keys normalized and the rows numbered, in pieces on all threads.
    RETURN_NOT_OK(RunTasks(ctx, (n + kChunkRows - 1) / kChunkRows, [&](int64_t t, int) {
      const int64_t from = t * kChunkRows, to = std::min(n, from + kChunkRows);
      cmp.NormalizeRows(from, to);
      std::iota(idx.begin() + from, idx.begin() + to, static_cast<uint32_t>(from));
      return Status::OK();
    }));
    return MergeSortedRuns(ctx, cmp, workers, &idx, &out);
  }();
  if (!st.ok()) {
    // Freeing gigabytes takes long: a cancelled sort returns first.
    ReleaseLater(ctx, std::move(cmp), std::move(idx), std::move(out));
    return st;
  }
  return out;
}

}  // namespace shoal::sql
