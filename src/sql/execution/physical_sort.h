// ORDER BY: materializes its input with the evaluated sort keys, then sorts stably by them
// (sort_order.h); without a limit, Finalize concatenates, sorts (sorted runs merged k-way,
// parallel_sort.h) and gathers the output batches on all threads, hearing Ctrl-C throughout. With a limit it is a top-N: each worker keeps only its best `limit` rows,
// compacting as input arrives, so memory stays O(limit) per worker.
//
// Spilling (physical_sort_spill.cc; doc/memory.md): without a limit, when a worker's rows reach
// its share of memory_limit (a quarter of the limit over the threads: writing a run takes about
// three times its rows' bytes) or a reservation is refused,
// and temp_directory is set, the worker sorts what it holds into a run written to a spill file
// (data, keys and the rows' input position as a tie-break) and goes on. Finalize then writes the
// rest as runs too and the source streams the k-way merge of all runs (sorted_run_merge.h),
// merging at most 64 at once (more are first merged into longer runs).
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <mutex>
#include <vector>

#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/sorted_run_merge.h"

namespace shoal::sql {

class PhysicalSort : public PhysicalOperator {
 public:
  PhysicalSort(columnar::SchemaPtr schema, std::vector<SortKey> keys, int64_t limit)
      : PhysicalOperator(std::move(schema)), keys_(std::move(keys)), limit_(limit) {}
  std::string Name() const override { return limit_ >= 0 ? "TopN" : "Sort"; }
  ~PhysicalSort() override;
  std::string Details() const override;
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  void ReleaseCollected(const ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;
  bool PassesColumn(int col, int* child, int* child_col) const override {
    if (limit_ >= 0) return false;  // top-N: which rows survive depends on the others
    *child = 0;
    *child_col = col;
    return true;
  }

 private:
  // Sorts `chunks` (data columns followed by key columns) into one chunk, keeping the first
  // `limit` rows when limit >= 0.
  Chunk SortChunks(std::vector<Chunk>* chunks, int64_t limit, bool keep_keys) const;
  // What sorting n rows allocates besides the rows (permutations, normalized keys).
  int64_t ScratchBytes(int64_t n) const;

  // ---- spilling (physical_sort_spill.cc)
  bool MaySpill(const ExecContext& ctx) const { return limit_ < 0 && ctx.CanSpill(); }
  // Data, keys, then the tie-break columns "order" and "row".
  columnar::SchemaPtr RunSchema() const;
  // Sorts `chunks` into a run appended to `runs`; `memory` holds the chunks, then nothing more.
  Status SpillRun(ExecContext& ctx, std::vector<Chunk>* chunks, MemoryReservation* memory,
                  std::vector<std::unique_ptr<SpillFile>>* runs);
  Status FinalizeSpilled(ExecContext& ctx);
  Result<std::unique_ptr<SourceState>> OpenMergeSource(ExecContext& ctx);

  std::vector<SortKey> keys_;
  int64_t limit_;
  std::mutex mu_;
  std::vector<Chunk> chunks_;
  std::vector<std::unique_ptr<SpillFile>> runs_;  // spilled sorted runs
  std::unique_ptr<SortedRunMerger> merger_;       // set by Finalize when runs_ were spilled
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // chunks_ (the workers' reservations merged), then result_
};

// Concatenates the first `ncols` columns of `batches` (non-empty list).
std::vector<columnar::VectorPtr> ConcatColumns(const std::vector<columnar::BatchPtr>& batches, size_t ncols);

}  // namespace shoal::sql
