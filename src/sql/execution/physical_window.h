// Window operator: materializes its input with the evaluated PARTITION BY, ORDER BY and
// argument columns, hash-partitions rows on the PARTITION BY key into buckets, then sorts and
// evaluates each bucket as one parallel task (window_evaluator.h). Output: the input columns
// followed by one column per window call; rows come out grouped by partition, in no
// particular overall order.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <mutex>
#include <vector>

#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalWindow : public PhysicalOperator {
 public:
  PhysicalWindow(columnar::SchemaPtr schema, size_t input_width, std::vector<expr::ExprPtr> partition_by,
                 std::vector<SortKey> order, std::vector<WindowCall> calls);
  std::string Name() const override { return "Window"; }
  std::string Details() const override;
  bool IsSink() const override { return true; }
  bool IsSource() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

 private:
  // Sorts and evaluates the rows `rows` of the materialized columns `cols`.
  Result<columnar::BatchPtr> EvaluateBucket(const std::vector<columnar::VectorPtr>& cols,
                                            const std::vector<uint32_t>& rows) const;

  size_t input_width_;
  std::vector<expr::ExprPtr> partition_by_;
  std::vector<SortKey> order_;
  std::vector<WindowCall> calls_;
  std::vector<expr::ExprPtr> evaluated_;  // partition keys, order keys, then every call's args
  int buckets_ = 1;
  std::mutex mu_;
  std::vector<Chunk> chunks_;                   // materialized input + evaluated columns
  std::vector<std::vector<uint16_t>> bucket_of_;  // parallel to chunks_
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // chunks_ (the workers' reservations merged), then result_
};

}  // namespace shoal::sql
