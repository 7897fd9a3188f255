// ORDER BY: materializes its input with the evaluated sort keys, then sorts stably by them
// (sort_order.h); with several threads and no limit, Finalize concatenates, sorts (sorted runs
// merged k-way, parallel_sort.h) and gathers the output batches on all threads. With a limit it is a top-N: each worker keeps only its best `limit` rows,
// compacting as input arrives, so memory stays O(limit) per worker.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <mutex>
#include <vector>

#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalSort : public PhysicalOperator {
 public:
  PhysicalSort(columnar::SchemaPtr schema, std::vector<SortKey> keys, int64_t limit)
      : PhysicalOperator(std::move(schema)), keys_(std::move(keys)), limit_(limit) {}
  std::string Name() const override { return limit_ >= 0 ? "TopN" : "Sort"; }
  std::string Details() const override;
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
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

  std::vector<SortKey> keys_;
  int64_t limit_;
  std::mutex mu_;
  std::vector<Chunk> chunks_;
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // chunks_ (the workers' reservations merged), then result_
};

// Concatenates the first `ncols` columns of `batches` (non-empty list).
std::vector<columnar::VectorPtr> ConcatColumns(const std::vector<columnar::BatchPtr>& batches, size_t ncols);

}  // namespace shoal::sql
