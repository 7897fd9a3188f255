// Hash aggregation (GROUP BY, DISTINCT, global aggregates) and the hash-based set operations
// EXCEPT / INTERSECT [ALL].
//
// Aggregation is two-phase: every worker aggregates its batches into a thread-local hash table
// with its own aggregate states; Combine hands each local table over. Finalize merges them:
// few groups (or one table) are merged serially into the first table (one row per group in
// first-seen order); many groups are radix-partitioned on the stored key hash and each
// partition is merged and finalized by its own task on all threads (GroupedAggregate::Combine
// with kSkipGroup for the other partitions' groups), giving one output run per partition.
// A global aggregate (no GROUP BY) yields one row even on empty input.
//
// Spilling (physical_aggregate_spill.cc; doc/memory.md): when a worker's reservation is refused,
// or it holds more than its share of memory_limit (half the limit over the threads), and
// temp_directory is set, the worker hands its table over as it is and from then on writes its
// input rows — the evaluated keys and aggregate arguments — to spill files, one per radix
// partition of the key hash (16). Finalize then takes one partition at a time: the tables'
// groups of that partition merged into a new table, the partition's spilled rows aggregated into
// it, its output appended to a result spill file that the source reads back. A partition whose
// table does not fit is handed over likewise and its remaining rows split 16 ways on the next
// hash bits, recursively. Rows, not aggregate states, are spilled, so every aggregate kind
// (DISTINCT, buffered ones like median) spills the same way.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "sql/execution/group_hash_table.h"
#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalHashAggregate : public PhysicalOperator {
 public:
  PhysicalHashAggregate(columnar::SchemaPtr schema, std::vector<expr::ExprPtr> groups,
                        std::vector<AggregateCall> aggregates);
  ~PhysicalHashAggregate() override;
  std::string Name() const override { return groups_.empty() ? "Aggregate" : "HashAggregate"; }
  std::string Details() const override;
  bool IsSink() const override { return true; }
  bool TakesCodedStrings(bool sink) const override { return sink; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;
  // A group key column passes its values: dropping input rows of a key drops only its group.
  bool PassesColumn(int col, int* child, int* child_col) const override {
    if (col >= static_cast<int>(groups_.size()) || groups_[col]->kind != expr::ExprKind::kColumnRef) return false;
    *child = 0;
    *child_col = groups_[col]->column;
    return true;
  }

  // A hash table with its aggregate states.
  struct Table {
    std::unique_ptr<GroupHashTable> hash;  // null for a global aggregate
    std::vector<std::unique_ptr<expr::GroupedAggregate>> states;
    int64_t groups() const { return hash ? hash->size() : 1; }
    int64_t MemoryBytes() const {
      int64_t n = hash ? hash->MemoryBytes() : 0;
      for (const auto& s : states) n += s->MemoryBytes();
      return n;
    }
  };
  // Spill files by partition (null where no row went).
  using SpillFiles = std::vector<std::unique_ptr<SpillFile>>;

 private:
  std::unique_ptr<Table> NewTable() const;
  // Merges `t` into `into` (both with states sized to their groups), keeping `memory` at
  // `others` (the bytes of the other tables still held) plus what `into` holds.
  Status Merge(Table* into, Table& t, MemoryReservation* memory, int64_t others) const;
  Status FinalizeSerial(ExecContext& ctx);
  Status FinalizePartitioned(ExecContext& ctx);
  // One batch: key columns followed by each aggregate's finalized states.
  Result<columnar::BatchPtr> Output(Table& t) const;
  // Merges the groups `sel` of `src` into `part`, keeping `memory` at `done` plus `part`.
  Status MergeGroups(Table* part, Table& src, const std::vector<uint32_t>& sel,
                     MemoryReservation* memory, int64_t done) const;

  // ---- spilling (physical_aggregate_spill.cc)
  bool MaySpill(const ExecContext& ctx) const { return !groups_.empty() && ctx.CanSpill(); }
  // The size of one spill file's write and read blocks under the current limit.
  int64_t SpillBlockBytes(const ExecContext& ctx) const;
  // Hands a worker's table over (it stays as it is until Finalize).
  void HandOver(std::unique_ptr<Table> t, MemoryReservation* memory);
  // Writes the rows of `rows` (spill_schema_) to `files` by the key hash bits after `shift`.
  Status RouteRows(ExecContext& ctx, const columnar::RecordBatch& rows, int shift, SpillFiles* files);
  // Aggregates `rows` (spill_schema_) into `t`, keeping `memory` at `others` plus `t`; sets
  // *refused (and applies nothing) when the table's growth is not allowed.
  Status ApplyRows(Table* t, const columnar::RecordBatch& rows, MemoryReservation* memory, int64_t others,
                   bool* refused) const;
  // Merges `tables` and the spilled rows partition by partition into `out`.
  Status AggregateSpilled(ExecContext& ctx, std::vector<std::unique_ptr<Table>> tables,
                          std::vector<SpillFiles> files, int shift, SpillFile* out);
  Status FinalizeSpilled(ExecContext& ctx);
  // The spill schema: the keys, then each aggregate's arguments from arg_column_[a].
  columnar::SchemaPtr spill_schema_;
  std::vector<size_t> arg_column_;

  std::vector<expr::ExprPtr> groups_;
  std::vector<AggregateCall> aggregates_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Table>> locals_;  // one per worker, handed over by Combine
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // locals_ (the workers' reservations merged), then result_
  std::vector<SpillFiles> spilled_;          // per partition: the workers' files
  std::unique_ptr<SpillFile> spilled_result_;  // the result, when spilled
};

class PhysicalSetOp : public PhysicalOperator {
 public:
  PhysicalSetOp(columnar::SchemaPtr schema, SetOpType op, bool all)
      : PhysicalOperator(std::move(schema)), op_(op), all_(all) {}
  std::string Name() const override;
  bool IsSink() const override { return true; }
  std::vector<int> SinkInputs() const override { return {0, 1}; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

 private:
  SetOpType op_;
  bool all_;
  std::mutex mu_;
  std::vector<Chunk> inputs_[2];
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // inputs_, the finalize table, then result_
};

}  // namespace shoal::sql
