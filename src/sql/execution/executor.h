// Executor: runs a physical plan. It cuts the plan into pipelines at sinks (DuckDB's
// morsel-driven model: source -> streaming operators -> sink), runs pipelines in dependency
// order (a sink's inputs and a join's build side first), each on ctx.threads workers that pull
// batches from the shared source, and collects the root's output in order.
//
// Thread-safety: one Executor runs one plan on one calling thread (which it parallelizes).
#pragma once

#include <vector>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class Executor {
 public:
  explicit Executor(ExecContext* ctx) : ctx_(ctx) {}
  // Runs the plan rooted at `root` and returns its output batches in order.
  Result<std::vector<columnar::BatchPtr>> Run(PhysicalOperator* root);

 private:
  struct Pipeline;
  Status Build(PhysicalOperator* op, Pipeline* p);
  Status RunPipeline(Pipeline* p);
  Status RunWorker(Pipeline* p, SourceState* source, const std::atomic<bool>* failed);
  Status Push(Pipeline* p, size_t i, std::vector<std::unique_ptr<OperatorState>>& states,
              LocalSinkState* sink, Chunk chunk);

  ExecContext* ctx_;
};

}  // namespace shoal::sql
