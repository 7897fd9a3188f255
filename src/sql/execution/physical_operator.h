// Physical operators and the contracts the pipeline executor (executor.h) drives them by.
//
// An operator plays up to three roles:
// - source: OpenSource() hands out batches to many workers (scans, VALUES, and every sink
//   once finalized: aggregate results, sorted runs, ...);
// - streaming: Execute() maps one input chunk to zero or more output chunks on the calling
//   worker, with per-worker OperatorState (filter, projection, join probe);
// - sink: consumes chunks into per-worker LocalSinkState, Combine()s each worker's state into
//   the global state, and Finalize()s once all input is in (aggregate, sort, join build).
// Chunks carry an `order` key so sinks that must keep the input order (result collection,
// LIMIT) can restore it: sources number their batches, streaming operators keep the key.
//
// Thread-safety: Execute/Sink run concurrently on distinct per-worker states; Combine may be
// called concurrently (operators lock their global state); OpenSource, Finalize and
// FinishOperator are called by one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/memory_tracker.h"
#include "columnar/vector.h"
#include "expr/evaluate.h"
#include "shoal/database.h"
#include "shoal/status.h"
#include "sql/execution/spill_file.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

class StatementProgress;
class ThreadPool;

struct Chunk {
  columnar::BatchPtr batch;
  uint64_t order = 0;
};

// Per-statement execution settings and shared state.
struct ExecContext {
  int batch_size = 2048;
  int threads = 1;
  ThreadPool* pool = nullptr;               // null: run single-threaded
  const std::atomic<bool>* interrupted = nullptr;
  int64_t statement_timestamp = 0;          // current_timestamp for the statement
  PrewhereMode prewhere = PrewhereMode::kAuto;  // SET shoal.prewhere, for every table scan
  bool runtime_filters = true;              // SET shoal.runtime_filters (runtime_filter.h)
  bool coded_strings = true;                // SET shoal.coded_strings: scans hand out coded strings
  // The database's memory_limit accounting (base/memory_tracker.h); null: count, never fail.
  std::shared_ptr<MemoryTracker> memory;
  // Where operators spill when a reservation is refused (spill_file.h); null or disabled (SET
  // temp_directory = ''): they fail with OutOfMemory instead.
  std::shared_ptr<SpillManager> spill;

  std::mutex metrics_mu;
  ScanMetrics scan_metrics;                 // summed over all scans
  // Reports the statement's progress (statement_progress.h); null: nobody listens.
  std::shared_ptr<StatementProgress> progress;

  // A reservation for `owner` (named in OutOfMemory errors) under this statement's tracker.
  MemoryReservation Reserve(std::string owner) const {
    return MemoryReservation(memory, std::move(owner));
  }

  // True when operators may spill to temp_directory.
  bool CanSpill() const { return spill && spill->enabled(); }

  Status CheckInterrupt() const {
    if (interrupted && interrupted->load(std::memory_order_relaxed)) {
      return Status::Interrupted("Interrupted!");
    }
    return Status::OK();
  }
};

// Per-operator counters for EXPLAIN ANALYZE.
struct OperatorStats {
  std::atomic<int64_t> rows_out{0};
  std::atomic<int64_t> nanos{0};
  std::atomic<int64_t> spilled_bytes{0};  // written to spill files
};

class SourceLocalState {
 public:
  virtual ~SourceLocalState() = default;
};

// A parallel read: Next is called concurrently, each worker with its own local state.
class SourceState {
 public:
  virtual ~SourceState() = default;
  virtual std::unique_ptr<SourceLocalState> MakeLocal() { return nullptr; }
  virtual Result<bool> Next(SourceLocalState* local, Chunk* out) = 0;
  virtual ScanMetrics metrics() const { return {}; }
  // Work done and planned so far (planned 0 = unknown); called from the progress reporter's
  // thread while workers run, so implementations read atomics.
  virtual WorkProgress progress() const { return {}; }
};

// Hands out a fixed list of batches; order = position in the list. Given the reservation that
// covers them (a sink's result), it hands each batch out only once (it keeps no reference) and
// its bytes leave the reservation with it: whoever keeps the batch accounts for it.
class BatchListSource : public SourceState {
 public:
  explicit BatchListSource(std::vector<columnar::BatchPtr> batches) : batches_(std::move(batches)) {}
  BatchListSource(std::vector<columnar::BatchPtr> batches, MemoryReservation memory)
      : batches_(std::move(batches)), hand_over_(true), memory_(std::move(memory)) {
    memory_.Trim();
  }
  Result<bool> Next(SourceLocalState*, Chunk* out) override;
  WorkProgress progress() const override {
    const int64_t n = static_cast<int64_t>(batches_.size());
    return {std::min<int64_t>(n, static_cast<int64_t>(next_.load(std::memory_order_relaxed))), n};
  }

 private:
  std::vector<columnar::BatchPtr> batches_;
  std::atomic<size_t> next_{0};
  const bool hand_over_ = false;
  std::mutex mu_;
  MemoryReservation memory_;  // GUARDED_BY(mu_)
};

// Hands out the batches of a finished spill file in order (a spilled sink's result), read one at
// a time under a lock; `memory` covers its read buffer. The file is deleted with the source.
class SpillFileSource : public SourceState {
 public:
  SpillFileSource(std::unique_ptr<SpillFile> file, MemoryReservation memory)
      : file_(std::move(file)), memory_(std::move(memory)) {}
  Result<bool> Next(SourceLocalState*, Chunk* out) override;

 private:
  std::mutex mu_;
  std::unique_ptr<SpillFile> file_;  // GUARDED_BY(mu_)
  uint64_t next_ = 0;                // GUARDED_BY(mu_)
  MemoryReservation memory_;
};

// Splits `b` into slices of at most `batch_size` rows (no copy when it already fits).
std::vector<columnar::BatchPtr> SplitBatch(const columnar::BatchPtr& b, int batch_size);

// Bytes allocated for the batches' columns (columnar::BatchMemoryBytes summed), for memory
// accounting.
int64_t BatchesMemoryBytes(const std::vector<columnar::BatchPtr>& batches);
int64_t ChunksMemoryBytes(const std::vector<Chunk>& chunks);

class OperatorState {
 public:
  virtual ~OperatorState() = default;
};

class LocalSinkState {
 public:
  virtual ~LocalSinkState() = default;
  // The statement failed (Ctrl-C, an error) before this state was combined: hands the rows it
  // collected to a pool worker to free (ReleaseLater, task_runner.h), so the statement returns
  // without first freeing thousands of batches. Default: nothing is moved.
  virtual void ReleaseCollected(const ExecContext& ctx) {}
};

class PhysicalOperator {
 public:
  explicit PhysicalOperator(columnar::SchemaPtr schema) : schema_(std::move(schema)) {}
  virtual ~PhysicalOperator() = default;
  PhysicalOperator(const PhysicalOperator&) = delete;
  PhysicalOperator& operator=(const PhysicalOperator&) = delete;

  virtual std::string Name() const = 0;
  // One-line detail for EXPLAIN (predicate, keys, ...).
  virtual std::string Details() const { return ""; }
  const columnar::SchemaPtr& schema() const { return schema_; }

  virtual bool IsSource() const { return false; }
  virtual bool IsStreaming() const { return false; }
  virtual bool IsSink() const { return false; }
  // Children whose pipelines feed the sink (in order); a streaming operator's pass-through
  // input is child 0 and is not listed.
  virtual std::vector<int> SinkInputs() const { return {0}; }

  // --- source
  virtual Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx);
  // --- streaming
  virtual Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx);
  virtual Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out);
  // After all workers are done: extra output (e.g. unmatched build rows of a FULL join).
  virtual Status FinishOperator(ExecContext& ctx, std::vector<Chunk>* out) { return Status::OK(); }
  // After FinishOperator: another round of input for this operator's own Execute, or null when
  // there is none. A spilled hash join returns one per spilled partition (its build rows
  // indexed, the source handing out its probe rows); the executor runs the source through this
  // operator and the rest of the pipeline on all workers and calls FinishOperator again.
  virtual Result<std::unique_ptr<SourceState>> NextRound(ExecContext& ctx) {
    return std::unique_ptr<SourceState>();
  }
  // --- sink
  virtual Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input);
  virtual Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input);
  virtual Status Combine(ExecContext& ctx, LocalSinkState* local, int input);
  virtual Status Finalize(ExecContext& ctx);
  // True once the sink needs no more input (a LIMIT is satisfied): sources stop early.
  virtual bool SinkFinished() const { return false; }
  // The statement failed (Ctrl-C, an error) and every worker has returned: hands the rows and
  // buffers the operator holds (plain data) to a pool worker to free, as
  // LocalSinkState::ReleaseCollected does. Default: nothing is moved.
  virtual void ReleaseCollected(const ExecContext& ctx) {}
  // Sets *child and *child_col to the input column whose values output column `col` carries
  // unchanged, when this operator only drops or repeats rows with respect to that column (so a
  // filter on the column's values that a parent would apply anyway may move below it); false
  // otherwise (runtime_filter.h).
  virtual bool PassesColumn(int col, int* child, int* child_col) const { return false; }
  // True when Sink (`sink`) or Execute (!`sink`) takes dictionary-coded string columns
  // (columnar/vector.h); the executor decodes them for every operator that does not.
  virtual bool TakesCodedStrings(bool sink) const { return false; }

  std::vector<std::unique_ptr<PhysicalOperator>> children;
  OperatorStats stats;
  // The optimizer's estimate of rows out (EXPLAIN); < 0 when none.
  double estimated_rows = -1;
  // The work of a pipeline with this operator as its source, relative to others (rows it
  // reads; progress weights); < 0 when unknown.
  virtual double WorkEstimate() const { return estimated_rows; }

 private:
  columnar::SchemaPtr schema_;
};

using PhysicalPtr = std::unique_ptr<PhysicalOperator>;

// Indented plan text, one operator a line with its estimated rows; with `analyze`, also the
// actual rows out and time per operator.
std::string PlanToString(const PhysicalOperator& root, bool analyze);

}  // namespace shoal::sql
