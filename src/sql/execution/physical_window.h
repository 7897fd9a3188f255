// Window operator: materializes its input with the evaluated PARTITION BY, ORDER BY and
// argument columns, hash-partitions rows on the PARTITION BY key into buckets, then sorts and
// evaluates each bucket as one parallel task (window_evaluator.h). Output: the input columns
// followed by one column per window call; rows come out grouped by partition, in no
// particular overall order.
//
// Under memory_limit (doc/memory.md, "Spilling"): with PARTITION BY, a worker whose reservation is
// refused, or that finds all workers' rows over the operator's share, writes its rows (with a
// tie-break of input order) to 16 spill files by the PARTITION BY key hash, and so does every
// other worker from then on; Finalize evaluates one hash partition at a time, splitting one that
// does not fit 16 ways again on the next hash bits, and writes the output to a spill file the
// source reads back (physical_window_spill.cc). A partition bigger than the limit (one PARTITION BY
// value, or a window without PARTITION BY) is sorted into runs and evaluated streaming over their
// merge when every call needs only bounded state (physical_window_stream.cc); otherwise it fails
// with OutOfMemory naming Window.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
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
  void ReleaseCollected(const ExecContext& ctx) override;

  // Spill files of one hash partition (from several workers), or of each of 16.
  using SpillFiles = std::vector<std::unique_ptr<SpillFile>>;

 private:
  // Sorts and evaluates the rows `rows` of the materialized columns `cols`.
  Result<columnar::BatchPtr> EvaluateBucket(const std::vector<columnar::VectorPtr>& cols,
                                            const std::vector<uint32_t>& rows) const;
  // Sorts `cols` (the stored columns, then any tie-break columns, which are sort keys after the
  // ORDER BY) and evaluates every call over them.
  Result<columnar::BatchPtr> EvaluateSorted(std::vector<columnar::VectorPtr> cols, int64_t n) const;
  Status FinalizeInMemory(ExecContext& ctx);

  // ---- spilling (physical_window_spill.cc)
  bool MaySpill(const ExecContext& ctx) const {
    return (!partition_by_.empty() || not_streamable_.empty()) && ctx.CanSpill();
  }
  int64_t SpillBlockBytes(const ExecContext& ctx) const;
  // Bytes a partition of `rows` rows whose stored columns take `bytes` needs to be evaluated.
  int64_t EvaluationBytes(int64_t bytes, int64_t rows) const;
  // The stored columns of `b` with the tie-break columns (`order`, then row positions from
  // `first_pos`) appended, as a batch of spill_schema_.
  columnar::BatchPtr WithTieBreak(const columnar::RecordBatch& b, uint64_t order, int64_t first_pos) const;
  // Writes the rows of `rows` (spill_schema_) to `files[16]` by the PARTITION BY hash bits after
  // `shift`; widens [*min_hash, *max_hash] to their hashes when given.
  Status RouteRows(ExecContext& ctx, const columnar::RecordBatch& rows, int shift, SpillFiles* files,
                   uint64_t* min_hash = nullptr, uint64_t* max_hash = nullptr);
  // Routes `chunks` (stored columns, not yet with tie-breaks) to `files`, hearing Ctrl-C between
  // them, and empties the list.
  Status RouteChunks(ExecContext& ctx, std::vector<Chunk>* chunks, SpillFiles* files);
  // Evaluates the spilled partitions `parts` (hash bits split after `shift`) one at a time into
  // `out`; a partition that does not fit is split again.
  Status EvaluateSpilled(ExecContext& ctx, std::vector<SpillFiles> parts, int shift, SpillFile* out);
  Status FinalizeSpilled(ExecContext& ctx);

  // ---- one partition bigger than memory (physical_window_stream.cc)
  using BatchPuller = std::function<Result<columnar::BatchPtr>()>;
  // The first call that needs a whole partition at once ("" when every call can be evaluated
  // streaming); sets the rows before and after a row that its frames and offsets reach.
  std::string NotStreamable(int64_t* before, int64_t* after) const;
  // Sorts the rows `next` hands out (spill_schema_) into runs and evaluates every call over their
  // merge block by block, carrying ranks and running aggregates from block to block, into `out`.
  Status EvaluateStreaming(ExecContext& ctx, const BatchPuller& next, SpillFile* out);
  Result<std::vector<std::unique_ptr<SpillFile>>> SortRuns(ExecContext& ctx, const BatchPuller& next);

  size_t input_width_;
  std::vector<expr::ExprPtr> partition_by_;
  std::vector<SortKey> order_;
  std::vector<WindowCall> calls_;
  std::vector<expr::ExprPtr> evaluated_;  // partition keys, order keys, then every call's args
  int buckets_ = 1;
  std::string not_streamable_;  // NotStreamable()
  int64_t stream_before_ = 0, stream_after_ = 0;
  std::mutex mu_;
  std::vector<Chunk> chunks_;                   // materialized input + evaluated columns
  std::vector<std::vector<uint16_t>> bucket_of_;  // parallel to chunks_
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // chunks_ (the workers' reservations merged), then result_
  columnar::SchemaPtr spill_schema_;  // stored columns + tie-break (input chunk order, row position)
  std::atomic<bool> spilling_{false};  // set by the first worker that spills: the others follow
  std::atomic<int64_t> held_{0};       // bytes of rows the workers hold (against the share)
  std::vector<SpillFiles> spilled_;    // per hash partition, the workers' files (under mu_)
  std::unique_ptr<SpillFile> spilled_result_;  // the output, when spilled
};

}  // namespace shoal::sql
