// Decodes the row groups of a Parquet checkpoint on background threads and hands the batches
// to one consumer in file order, so Parquet decoding overlaps with turning rows into actions
// (and, with several row groups, row groups decode in parallel). At most a few batches per
// row group wait in memory.
// Thread-safety: Next() is called by one consumer thread; the workers are internal.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "columnar/vector.h"
#include "parquet/file_reader.h"
#include "shoal/status.h"

namespace shoal::delta {

class CheckpointBatchStream {
 public:
  // Starts `workers` threads (>= 1) reading `fields` of every row group of `reader`, which must
  // outlive the stream. `path` names the file in errors.
  CheckpointBatchStream(const parquet::ParquetReader& reader, std::vector<int> fields,
                        std::string path, int workers);
  // Stops and joins the workers (also when the consumer stopped early).
  ~CheckpointBatchStream();
  CheckpointBatchStream(const CheckpointBatchStream&) = delete;
  CheckpointBatchStream& operator=(const CheckpointBatchStream&) = delete;

  // The next batch in file order, nullptr after the last one; the first error of the file in
  // file order ends the stream. `row_group` receives the batch's row group.
  Result<columnar::BatchPtr> Next(int* row_group);

 private:
  static constexpr size_t kMaxQueued = 3;  // batches waiting per row group

  struct RowGroupState {
    std::deque<columnar::BatchPtr> batches;
    bool done = false;
    Status status;
  };

  void Work();

  const parquet::ParquetReader& reader_;
  std::vector<int> fields_;
  std::string path_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<RowGroupState> groups_;  // guarded by mu_
  int next_claim_ = 0;                 // guarded by mu_
  bool stop_ = false;                  // guarded by mu_
  int current_ = 0;                    // consumer only
  std::vector<std::thread> workers_;
};

}  // namespace shoal::delta
