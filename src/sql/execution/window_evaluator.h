// Computes window functions over rows already sorted by (PARTITION BY, ORDER BY): partition
// and peer boundaries in one pass, ranking and offset functions by index arithmetic, frames
// (ROWS, RANGE with peers or numeric offsets) per row, and aggregates over frames with a
// segment tree of GroupedAggregate states — O(n log n) for any frame, never O(n * frame).
//
// Thread-safety: a WindowEvaluator is used by one thread; distinct evaluators run in parallel.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "sql/binder/sort_order.h"
#include "sql/binder/window_call.h"

namespace shoal::sql {

class WindowEvaluator {
 public:
  // `partition` and `order` are the sorted key columns (n rows each); `order_specs` parallel
  // to `order`; `range_key` is the single ORDER BY key cast to DOUBLE when a RANGE frame has
  // an offset, else null. The vectors must outlive the evaluator.
  WindowEvaluator(const std::vector<const columnar::Vector*>& partition,
                  const std::vector<const columnar::Vector*>& order, const std::vector<SortSpec>& order_specs,
                  const columnar::Vector* range_key, int64_t n);

  // One result row per input row for `call`; `args` are its evaluated arguments (sorted).
  Result<columnar::VectorPtr> Evaluate(const WindowCall& call, const std::vector<const columnar::Vector*>& args);

  // For a block of a partition bigger than memory, evaluated piece by piece: the next aggregate
  // whose frame starts at UNBOUNDED PRECEDING folds group 0 of `prefix` (the partition's rows
  // before the block) in first for the rows of the block's first partition (null: none).
  void SetPrefix(expr::GroupedAggregate* prefix) { prefix_ = prefix; }
  // Row i's partition start and peer group number in its partition (1-based), within the block.
  int64_t part_start(int64_t i) const { return part_start_[i]; }
  int64_t dense(int64_t i) const { return dense_[i]; }

 private:
  // Frame [start, end) of every row.
  Status ComputeFrames(const BoundFrame& frame, std::vector<int64_t>* start, std::vector<int64_t>* end) const;
  // An aggregate whose frame is the whole partition: one aggregation per partition, O(n);
  // also the only way DISTINCT aggregates are evaluated.
  Result<columnar::VectorPtr> PartitionAggregate(const WindowCall& call,
                                                 const std::vector<const columnar::Vector*>& args) const;
  Result<columnar::VectorPtr> Aggregate(const WindowCall& call, const std::vector<const columnar::Vector*>& args,
                                        const std::vector<int64_t>& start, const std::vector<int64_t>& end) const;

  int64_t n_;
  const std::vector<SortSpec> order_specs_;
  const columnar::Vector* range_key_;
  std::vector<int64_t> part_start_, part_end_;  // partition bounds per row
  std::vector<int64_t> peer_start_, peer_end_;  // peer group bounds per row
  std::vector<int64_t> dense_;                  // peer group number in the partition (1-based)
  expr::GroupedAggregate* prefix_ = nullptr;
};

}  // namespace shoal::sql
