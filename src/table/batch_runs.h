// Batch runs: LocalSort's sorting done while the rows arrive. Each batch the ExternalSorter
// keeps is handed to a worker thread, which encodes its sort keys, sorts it and keeps its key
// rows in sorted order — a run — while the caller produces the next batch. At Finish the runs
// are merged (RunMerger) chunk by chunk into the order the gather reads, on the gather's helper
// thread, so no sort of the whole buffer stands between the last row and the first output
// chunk.
//
// A run addresses its rows by segment codes (segment << 16 | row in segment, see
// coded_gather.h); ties keep arrival order (runs in arrival order, each sorted stably). Runs are
// exact only for keys decided by their bytes: a batch whose keys need full-string
// tie-breaks (strings longer than the key prefix that share it) marks its run unmergeable, and
// the sorter then sorts the whole buffer instead.
//
// Thread-safety: BatchRunSorter is driven by one thread (Submit, Wait, Take, Clear); its worker
// touches only the jobs it was given. A RunMerger is used by one thread at a time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "columnar/vector.h"
#include "table/local_sort_key.h"

namespace shoal::table {

// For a predicate true at 0 and monotone (true, then false) on [0, most): how many k hold, at
// least one. Found by galloping (1, 2, 4, ... ahead) then bisecting, so a short count costs a
// compare or two and a long one about 2 log2 of it. The merges of sorted runs use it to take the
// top run's rows up to the runner-up's current row in one step.
template <typename Holds>
int64_t LeadingCount(int64_t most, Holds&& holds) {
  int64_t lo = 0;     // holds(lo)
  int64_t hi = most;  // !holds(hi), or hi == most
  for (int64_t step = 1; lo + step < most; step *= 2) {
    if (!holds(lo + step)) {
      hi = lo + step;
      break;
    }
    lo += step;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (holds(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo + 1;
}

// One kept batch, sorted.
struct BatchRun {
  uint32_t first_segment = 0;  // segment of the batch's first row
  int64_t per_segment = 0;     // rows per segment of this batch (every segment but the last)
  int64_t rows = 0;
  int width = 0;                // key bytes per row
  std::vector<uint8_t> keys;    // key rows in sorted order
  std::vector<uint32_t> order;  // rows of the batch in sorted order
  bool mergeable = true;        // false: the keys need full-string tie-breaks

  int64_t memory_bytes() const {
    return static_cast<int64_t>(keys.capacity() + order.capacity() * sizeof(uint32_t));
  }
};

// Merges runs into one sorted stream of segment codes.
class RunMerger {
 public:
  explicit RunMerger(std::vector<std::unique_ptr<BatchRun>> runs);
  int64_t rows() const { return rows_; }
  // The codes of the next `n` rows (fewer at the end) into `codes`.
  void Next(int64_t n, std::vector<uint32_t>* codes);

 private:
  // Whether run a's current row sorts before run b's (ties: the earlier run).
  bool Before(uint32_t a, uint32_t b) const;
  // How many of the top run's rows, from its current one and at most `most`, come before the
  // runner-up run's current row (at least one): found by galloping, as runs are sorted.
  int64_t TakeBeforeRunnerUp(int64_t most) const;
  void SiftDown(size_t i);

  std::vector<std::unique_ptr<BatchRun>> runs_;
  std::vector<int64_t> pos_;   // per run: its next row
  std::vector<uint32_t> heap_;  // runs with rows left, a min-heap by Before
  int64_t rows_ = 0;
};

class BatchRunSorter {
 public:
  // `encoder` encodes the key columns (it must outlive this object).
  explicit BatchRunSorter(const SortKeyEncoder* encoder) : encoder_(encoder) {}
  ~BatchRunSorter();
  BatchRunSorter(const BatchRunSorter&) = delete;
  BatchRunSorter& operator=(const BatchRunSorter&) = delete;

  // Queues a kept batch's key columns (the sort columns only; kept alive by the job) for sorting
  // into the next run.
  void Submit(columnar::RecordBatch keys, uint32_t first_segment, int64_t per_segment);
  // Waits until every queued batch is sorted.
  void Wait();
  // After Wait: whether every run can be merged by bytes.
  bool Mergeable() const;
  // After Wait: the runs, in arrival order, as a merger (the sorter is empty afterwards).
  std::unique_ptr<RunMerger> TakeMerger();
  // Waits, then drops every run.
  void Clear();
  // After Wait: bytes the runs hold.
  int64_t memory_bytes() const;

 private:
  struct Job {
    columnar::RecordBatch keys;
    BatchRun* run;
  };
  void WorkerLoop();
  void Sort(const Job& job) const;

  const SortKeyEncoder* encoder_;
  std::vector<std::unique_ptr<BatchRun>> runs_;  // arrival order
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::deque<Job> jobs_;
  bool busy_ = false;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace shoal::table
