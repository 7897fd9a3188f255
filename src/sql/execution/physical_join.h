// Joins. The right child is the build side: its pipeline sinks into the join, which
// materializes it with all threads copying (parallel_concat.h) and for the hash join builds a
// radix-partitioned hash table on the key columns in parallel (join_hash_table.h), skipping
// rows with a NULL key, since NULL never equals anything. The left child streams through
// Execute as the probe side. Outer joins track matches: probe-side rows per batch, build-side
// rows in shared atomic flags whose unmatched rows FinishOperator emits after all probing.
//
// Spilling (physical_join_spill.cc; doc/memory.md): when the hash join's build side exceeds its
// share of memory_limit, or a reservation is refused, and temp_directory is set, the build rows
// are hash-partitioned 16 ways (hybrid hash join): partitions [0, resident) stay in memory and are
// indexed as usual, the others go to one spill file each, and probe rows of those partitions are
// written to the partition's probe file instead of being probed. After the probe side is done,
// each spilled partition is a round (NextRound): its build rows are loaded and indexed and its
// probe rows streamed through Execute by all workers, then FinishOperator emits its unmatched
// build rows. A partition that does not fit is split 16 ways again with a differently seeded hash;
// one whose build keys are all equal cannot be split and fails with OutOfMemory.
//
// Thread-safety: see physical_operator.h; the build side is read-only during probing.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "sql/execution/group_hash_table.h"
#include "sql/execution/join_hash_table.h"
#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/runtime_filter.h"

namespace shoal::sql {

struct SpilledPartition;  // physical_join_spill.cc

// Shared by both joins: build-side materialization and output assembly.
class PhysicalJoinBase : public PhysicalOperator {
 public:
  PhysicalJoinBase(columnar::SchemaPtr schema, LogicalJoinType type, expr::ExprPtr residual,
                   size_t left_width, columnar::SchemaPtr right_schema);
  bool IsStreaming() const override { return true; }
  bool IsSink() const override { return true; }
  // The probe passes coded columns through (decoding only its keys); the build decodes.
  bool TakesCodedStrings(bool sink) const override { return !sink; }
  std::vector<int> SinkInputs() const override { return {1}; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status FinishOperator(ExecContext& ctx, std::vector<Chunk>* out) override;
  void ReleaseCollected(const ExecContext& ctx) override;
  // A worker's build rows.
  struct BuildLocal : LocalSinkState {
    explicit BuildLocal(MemoryReservation m) : memory(std::move(m)) {}
    std::vector<Chunk> chunks;
    MemoryReservation memory;
    // Hash join spilling: once partitioned, the worker's rows of resident partitions by
    // partition (`chunks` is empty), and the number of resident partitions it last saw.
    bool partitioned = false;
    std::vector<std::vector<Chunk>> parts;
    std::vector<int64_t> part_bytes, part_rows;
    int resident = 0;
    void ReleaseCollected(const ExecContext& ctx) override;
  };
  // For SEMI and ANTI joins planned with the logical left (output) input as the build side,
  // because it is the smaller one: probing only marks build rows, and FinishOperator emits the
  // matched (SEMI) or unmatched (ANTI) build rows. The schema is then the build side's.
  void EmitBuildSide() { build_output_ = true; }
  bool PassesColumn(int col, int* child, int* child_col) const override;

 protected:
  struct ProbeState;
  // Makes `batches` (in build-row order) the build side: concatenates them into build_, makes
  // the match flags and calls BuildIndex, keeping memory_ at `held` (what the caller's memory_
  // held besides the batches) plus what it builds. On error nothing is built and memory_ holds
  // `held` plus the batches, which the caller still has.
  Status BuildSide(ExecContext& ctx, const std::vector<columnar::BatchPtr>& batches, int64_t held);
  // Drops the built side (build_, match flags, index).
  virtual void ReleaseBuild();
  // Called at the end of BuildSide once build_ holds the whole build side (and build_batches_
  // its chunks in build-row order; cleared after BuildIndex returns). Grows memory_ by what the
  // index allocates.
  virtual Status BuildIndex(ExecContext& ctx) { return Status::OK(); }
  // Bytes the index holds once built.
  virtual int64_t IndexMemoryBytes() const { return 0; }
  // Handles candidate pairs (probe row, build row): applies the residual, records matches and
  // emits joined rows for inner/outer joins.
  Status EmitPairs(ExecContext& ctx, ProbeState* st, const Chunk& in, std::vector<uint32_t>& pl,
                   std::vector<int64_t>& pr, std::vector<Chunk>* out);
  // After all pairs of a probe batch: semi/anti rows and unmatched left rows (not the rows
  // st->deferred marks: they were spilled and are joined in a later round).
  void EmitProbeRemainder(ProbeState* st, const Chunk& in, std::vector<Chunk>* out);
  std::string TypeAndResidual() const;

  LogicalJoinType type_;
  bool build_output_ = false;
  expr::ExprPtr residual_;
  size_t left_width_;
  columnar::SchemaPtr right_schema_;
  std::mutex mu_;
  std::vector<Chunk> build_chunks_;
  std::vector<columnar::BatchPtr> build_batches_;  // during BuildIndex
  columnar::BatchPtr build_;  // after Finalize
  std::unique_ptr<std::atomic<uint8_t>[]> build_matched_;
  MemoryReservation memory_;  // the build chunks, then build_, its index and match flags
};

class PhysicalHashJoin : public PhysicalJoinBase {
 public:
  PhysicalHashJoin(columnar::SchemaPtr schema, LogicalJoinType type, std::vector<expr::ExprPtr> left_keys,
                   std::vector<expr::ExprPtr> right_keys, expr::ExprPtr residual, size_t left_width,
                   columnar::SchemaPtr right_schema);
  std::string Name() const override { return "HashJoin"; }
  std::string Details() const override;
  ~PhysicalHashJoin() override;
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> NextRound(ExecContext& ctx) override;

  // Probe rows that match no build row produce nothing (INNER, SEMI, RIGHT, or a join that
  // emits its build side): a runtime filter may remove them before the join.
  bool DropsUnmatchedProbeRows() const;
  const std::vector<expr::ExprPtr>& probe_keys() const { return left_keys_; }
  const std::vector<expr::ExprPtr>& build_keys() const { return right_keys_; }
  // Publishes the build values of key `key` to `filter` once the build side is complete.
  void AddRuntimeFilter(size_t key, std::shared_ptr<RuntimeFilter> filter) {
    runtime_filters_.emplace_back(key, std::move(filter));
  }

 private:
  struct HashProbeState;
  struct Spill;
  Status BuildIndex(ExecContext& ctx) override;
  int64_t IndexMemoryBytes() const override { return table_ ? table_->MemoryBytes() : 0; }
  void ReleaseBuild() override;
  void ReleaseCollected(const ExecContext& ctx) override;

  // ---- spilling (physical_join_spill.cc)
  // Whether the build side went to partitions (from the first refusal or share exceeded on).
  bool Spilling() const;
  // Whether Execute writes probe rows of spilled partitions to files (the first pass).
  bool DefersProbeRows() const;
  // Whether the build side may spill (temp_directory is set).
  bool MaySpill(const ExecContext& ctx) const { return ctx.CanSpill(); }
  // Makes the worker's state partitioned: its chunks are routed like new input.
  Status StartPartitioning(ExecContext& ctx, BuildLocal* l);
  // Routes one chunk's rows to the worker's resident partitions or the partitions' files.
  Status SinkPartitioned(ExecContext& ctx, BuildLocal* l, Chunk chunk);
  // Writes the worker's rows of partitions >= the current resident count to their files.
  Status FlushSpilled(ExecContext& ctx, BuildLocal* l);
  // One fewer resident partition, unless another worker lowered it since `seen`.
  void LowerResident(int seen);
  Status FinalizeSpilled(ExecContext& ctx);
  // Splits a partition that did not fit (`refused`) 16 ways at the next hash level into new
  // work: `loaded` (its build rows read so far), the rest of its build file, its probe file.
  // OutOfMemory when its build keys are all equal or it was split too often.
  Status SplitPartition(ExecContext& ctx, SpilledPartition part, std::vector<columnar::BatchPtr> loaded,
                        const Status& refused);
  // Evaluates `keys` on `b` and hashes them as the table does (valid: the key has no NULL).
  Status HashKeys(const std::vector<expr::ExprPtr>& keys, const columnar::RecordBatch& b,
                  expr::EvalContext& eval, JoinHashTable::ProbeKeys* out) const;
  // Probe rows of spilled partitions in the first pass (`keys`: their hashed keys): written to
  // the partitions' probe files and marked in *deferred (left empty when there are none).
  Status DeferProbeRows(ExecContext& ctx, const columnar::RecordBatch& b, const JoinHashTable::ProbeKeys& keys,
                        std::vector<uint8_t>* deferred);
  int64_t SpillBlockBytes(const ExecContext& ctx) const;

  std::vector<expr::ExprPtr> left_keys_, right_keys_;
  std::vector<std::pair<size_t, std::shared_ptr<RuntimeFilter>>> runtime_filters_;
  std::unique_ptr<JoinHashTable> table_;  // partitioned, built in parallel (join_hash_table.h)
  std::unique_ptr<JoinHashTable> hasher_;  // empty: hashes keys as table_ does (before it exists)
  std::unique_ptr<Spill> spill_;          // the spilling state (physical_join_spill.cc)
};

// Joins without equality keys: every probe row against every build row (cross product when
// there is no condition).
class PhysicalNestedLoopJoin : public PhysicalJoinBase {
 public:
  using PhysicalJoinBase::PhysicalJoinBase;
  std::string Name() const override { return residual_ ? "NestedLoopJoin" : "CrossProduct"; }
  std::string Details() const override { return TypeAndResidual(); }
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;
};

}  // namespace shoal::sql
