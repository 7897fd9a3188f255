#include "table/batch_runs.h"

#include <cstring>

namespace shoal::table {

RunMerger::RunMerger(std::vector<std::unique_ptr<BatchRun>> runs) : runs_(std::move(runs)), pos_(runs_.size(), 0) {
  for (size_t r = 0; r < runs_.size(); ++r) {
    rows_ += runs_[r]->rows;
    if (runs_[r]->rows > 0) heap_.push_back(static_cast<uint32_t>(r));
  }
  for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
}

bool RunMerger::Before(uint32_t a, uint32_t b) const {
  const BatchRun& x = *runs_[a];
  const BatchRun& y = *runs_[b];
  const int c = std::memcmp(x.keys.data() + pos_[a] * x.width, y.keys.data() + pos_[b] * y.width,
                            static_cast<size_t>(x.width));
  return c < 0 || (c == 0 && a < b);
}

void RunMerger::SiftDown(size_t i) {
  const size_t n = heap_.size();
  while (true) {
    size_t best = i;
    const size_t l = 2 * i + 1, r = l + 1;
    if (l < n && Before(heap_[l], heap_[best])) best = l;
    if (r < n && Before(heap_[r], heap_[best])) best = r;
    if (best == i) return;
    std::swap(heap_[i], heap_[best]);
    i = best;
  }
}

int64_t RunMerger::TakeBeforeRunnerUp(int64_t most) const {
  const uint32_t top = heap_[0];
  if (heap_.size() == 1 || most <= 1) return most;
  uint32_t next = heap_[1];
  if (heap_.size() > 2 && Before(heap_[2], next)) next = heap_[2];
  const BatchRun& x = *runs_[top];
  const BatchRun& y = *runs_[next];
  const uint8_t* bound = y.keys.data() + pos_[next] * y.width;
  const auto width = static_cast<size_t>(x.width);
  auto before = [&](int64_t k) {  // row pos + k of the top run comes before the runner-up's
    const int c = std::memcmp(x.keys.data() + (pos_[top] + k) * x.width, bound, width);
    return c < 0 || (c == 0 && top < next);
  };
  return LeadingCount(most, before);  // row 0 is the top's
}

void RunMerger::Next(int64_t n, std::vector<uint32_t>* codes) {
  codes->clear();
  while (n > 0 && !heap_.empty()) {
    const uint32_t r = heap_[0];
    const BatchRun& run = *runs_[r];
    // The top run's rows up to the runner-up's current row come out together.
    const int64_t take = TakeBeforeRunnerUp(std::min(n, run.rows - pos_[r]));
    const uint32_t* order = run.order.data() + pos_[r];
    codes->insert(codes->end(), order, order + take);
    n -= take;
    pos_[r] += take;
    if (pos_[r] == run.rows) {
      heap_[0] = heap_.back();
      heap_.pop_back();
    }
    if (!heap_.empty()) SiftDown(0);
  }
}

BatchRunSorter::~BatchRunSorter() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    jobs_.clear();
    stop_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void BatchRunSorter::Submit(columnar::RecordBatch keys, uint32_t first_segment, int64_t per_segment) {
  auto run = std::make_unique<BatchRun>();
  run->first_segment = first_segment;
  run->per_segment = per_segment;
  run->rows = keys.num_rows;
  {
    std::lock_guard<std::mutex> lk(mu_);
    jobs_.push_back(Job{std::move(keys), run.get()});
    runs_.push_back(std::move(run));
    if (!worker_.joinable()) worker_ = std::thread([this] { WorkerLoop(); });
  }
  wake_.notify_one();
}

void BatchRunSorter::Wait() {
  std::unique_lock<std::mutex> lk(mu_);
  idle_.wait(lk, [this] { return jobs_.empty() && !busy_; });
}

bool BatchRunSorter::Mergeable() const {
  for (const auto& r : runs_) {
    if (!r->mergeable) return false;
  }
  return true;
}

std::unique_ptr<RunMerger> BatchRunSorter::TakeMerger() {
  auto merger = std::make_unique<RunMerger>(std::move(runs_));
  runs_.clear();
  return merger;
}

void BatchRunSorter::Clear() {
  Wait();
  runs_.clear();
}

int64_t BatchRunSorter::memory_bytes() const {
  int64_t n = 0;
  for (const auto& r : runs_) n += r->memory_bytes();
  return n;
}

void BatchRunSorter::WorkerLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (true) {
    wake_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
    if (stop_) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    busy_ = true;
    lk.unlock();
    Sort(job);
    job = Job{};  // the key columns are released outside the lock
    lk.lock();
    busy_ = false;
    if (jobs_.empty()) idle_.notify_all();
  }
}

void BatchRunSorter::Sort(const Job& job) const {
  BatchRun& run = *job.run;
  KeyRows keys = encoder_->Encode(job.keys);
  run.width = keys.width;
  if (!keys.tie_breaks.empty()) {
    run.mergeable = false;
    return;
  }
  // One thread: this already is the second core.
  std::vector<uint32_t> order = SortKeyRows(keys, INT64_MAX);
  const size_t w = static_cast<size_t>(keys.width);
  run.keys.resize(order.size() * w);
  for (size_t i = 0; i < order.size(); ++i) {
    std::memcpy(run.keys.data() + i * w, keys.row(order[i]), w);
    // Rows become segment codes here, off the merge's path.
    const int64_t row = order[i];
    order[i] = (run.first_segment + static_cast<uint32_t>(row / run.per_segment)) << 16 |
               static_cast<uint32_t>(row % run.per_segment);
  }
  run.order = std::move(order);
}

}  // namespace shoal::table
