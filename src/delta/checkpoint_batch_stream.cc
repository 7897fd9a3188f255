#include "delta/checkpoint_batch_stream.h"

namespace shoal::delta {

CheckpointBatchStream::CheckpointBatchStream(const parquet::ParquetReader& reader, std::vector<int> fields,
                                             std::string path, int workers)
    : reader_(reader), fields_(std::move(fields)), path_(std::move(path)) {
  groups_.resize(static_cast<size_t>(reader.num_row_groups()));
  int n = std::max(1, std::min(workers, reader.num_row_groups()));
  for (int i = 0; i < n && !groups_.empty(); ++i) workers_.emplace_back([this] { Work(); });
}

CheckpointBatchStream::~CheckpointBatchStream() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void CheckpointBatchStream::Work() {
  while (true) {
    int rg;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_ || next_claim_ >= static_cast<int>(groups_.size())) return;
      rg = next_claim_++;
    }
    Status status;
    auto rgr = reader_.OpenRowGroup(rg, fields_);
    if (!rgr.ok()) {
      status = rgr.status();
    } else {
      while (true) {
        auto batch = (*rgr)->ReadBatch();
        if (!batch.ok()) {
          status = batch.status();
          break;
        }
        if (*batch == nullptr) break;
        std::unique_lock<std::mutex> lock(mu_);
        // Row groups are claimed in order and the consumer drains them in order, so the
        // consumer's row group always has a running (or finished) worker: no deadlock.
        cv_.wait(lock, [&] { return stop_ || groups_[rg].batches.size() < kMaxQueued; });
        if (stop_) return;
        groups_[rg].batches.push_back(std::move(*batch));
        cv_.notify_all();
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      groups_[rg].done = true;
      groups_[rg].status = std::move(status);
    }
    cv_.notify_all();
  }
}

Result<columnar::BatchPtr> CheckpointBatchStream::Next(int* row_group) {
  while (current_ < static_cast<int>(groups_.size())) {
    std::unique_lock<std::mutex> lock(mu_);
    RowGroupState& g = groups_[current_];
    cv_.wait(lock, [&] { return !g.batches.empty() || g.done; });
    if (!g.batches.empty()) {
      columnar::BatchPtr b = std::move(g.batches.front());
      g.batches.pop_front();
      lock.unlock();
      cv_.notify_all();
      *row_group = current_;
      return b;
    }
    if (!g.status.ok()) return g.status.WithContext("checkpoint " + path_);
    ++current_;
  }
  return columnar::BatchPtr();
}

}  // namespace shoal::delta
