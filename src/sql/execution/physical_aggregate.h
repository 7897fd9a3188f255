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

  struct Table;  // a hash table with its aggregate states

 private:
  std::unique_ptr<Table> NewTable() const;
  // Merges `t` into `into` (both with states sized to their groups), keeping `memory` at
  // `others` (the bytes of the other tables still held) plus what `into` holds.
  Status Merge(Table* into, Table& t, MemoryReservation* memory, int64_t others) const;
  Status FinalizeSerial(ExecContext& ctx);
  Status FinalizePartitioned(ExecContext& ctx);
  // One batch: key columns followed by each aggregate's finalized states.
  Result<columnar::BatchPtr> Output(Table& t) const;

  std::vector<expr::ExprPtr> groups_;
  std::vector<AggregateCall> aggregates_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Table>> locals_;  // one per worker, handed over by Combine
  std::vector<columnar::BatchPtr> result_;
  MemoryReservation memory_;  // locals_ (the workers' reservations merged), then result_
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
