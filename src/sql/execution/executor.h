// Executor: runs a physical plan. It cuts the plan into pipelines at sinks (DuckDB's
// morsel-driven model: source -> streaming operators -> sink), runs pipelines in dependency
// order (a sink's inputs and a join's build side first), each on ctx.threads workers that pull
// batches from the shared source, and collects the root's output in order.
//
// Thread-safety: one Executor runs one plan on one calling thread (which it parallelizes).
#pragma once

#include <memory>
#include <vector>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PlanStream;

class Executor {
 public:
  explicit Executor(ExecContext* ctx) : ctx_(ctx) {}
  // Runs the plan rooted at `root` and returns its output batches in order. The bytes of the
  // collected output are reserved under ctx->memory while the plan runs, and afterwards in
  // `*result_memory` when given (the caller keeps the batches) or not at all.
  Result<std::vector<columnar::BatchPtr>> Run(PhysicalOperator* root,
                                              MemoryReservation* result_memory = nullptr);

 private:
  friend class PlanStream;
  struct Pipeline;
  Status Build(PhysicalOperator* op, Pipeline* p);
  // Registers a progress phase for `p` and the pipelines it depends on (ctx->progress).
  void AddProgressPhases(Pipeline* p);
  void CompletePhase(const Pipeline& p);
  Status RunPipeline(Pipeline* p);
  // One worker: pulls batches from `source` and pushes them from operator `first` on (0: the
  // pipeline's source feeds the first operator; a round's source feeds operator `first`).
  Status RunWorker(Pipeline* p, SourceState* source, const std::atomic<bool>* failed, size_t first = 0);
  // Runs `source` on ctx->threads workers; the first error.
  Status RunWorkers(Pipeline* p, SourceState* source, size_t first = 0);
  // After the workers: each operator's FinishOperator output and its further rounds
  // (PhysicalOperator::NextRound), fed to the rest of the pipeline in operator order.
  Status FinishOperators(Pipeline* p);
  Status Push(Pipeline* p, size_t i, std::vector<std::unique_ptr<OperatorState>>& states,
              LocalSinkState* sink, Chunk chunk);

  ExecContext* ctx_;
};

}  // namespace shoal::sql

namespace shoal::sql {

// Runs a plan lazily, for streaming results: Open runs every pipeline the root's output depends
// on (sinks: sorts, aggregates, join builds); each Next then pulls the final pipeline one round
// at a time — up to kRoundChunks source batches per worker, on ctx.threads workers — and hands
// out the round's output ordered by its order keys (so a sorted source stays sorted). Memory
// stays bounded by one round's output. Interrupts are checked for every source batch.
//
// Thread-safety: one thread calls Next at a time; `ctx` and `root` must outlive the stream.
class PlanStream {
 public:
  static constexpr int kRoundChunks = 2;

  static Result<std::unique_ptr<PlanStream>> Open(ExecContext* ctx, PhysicalOperator* root);
  ~PlanStream();
  // The next non-empty batch, or nullptr at the end (the source's scan metrics are then added to
  // ctx->scan_metrics). After an error, returns it again.
  Result<columnar::BatchPtr> Next();
  // Every remaining batch, in order: the rest of the final pipeline runs with its workers
  // free-running (as Executor::Run), not round by round. The stream is at its end afterwards.
  Result<std::vector<columnar::BatchPtr>> Drain();
  // The most batches held at once so far (what bounds the stream's memory).
  size_t max_buffered() const { return max_buffered_; }

 private:
  struct State;
  explicit PlanStream(std::unique_ptr<State> state);
  // Runs the final pipeline until `quota` source batches were taken (all workers together) or
  // every worker's source is done.
  Status RunRound(int64_t quota);
  Status Finish();
  // Records the statement's error; what the plan collected is freed off this thread.
  Status Fail(const Status& error);

  std::unique_ptr<State> state_;
  size_t max_buffered_ = 0;
};

}  // namespace shoal::sql
