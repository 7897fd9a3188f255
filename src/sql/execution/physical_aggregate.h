// Hash aggregation (GROUP BY, DISTINCT, global aggregates) and the hash-based set operations
// EXCEPT / INTERSECT [ALL].
//
// Aggregation is two-phase: every worker aggregates its batches into a thread-local hash table
// with its own aggregate states; Combine merges each local table into the global one (groups
// re-hashed by key, states merged with GroupedAggregate::Combine); Finalize produces one row per
// group in first-seen order. A global aggregate (no GROUP BY) yields one row even on empty input.
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
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

  struct Table;  // a hash table with its aggregate states

 private:
  std::unique_ptr<Table> NewTable() const;

  std::vector<expr::ExprPtr> groups_;
  std::vector<AggregateCall> aggregates_;
  std::mutex mu_;
  std::unique_ptr<Table> global_;
  std::vector<columnar::BatchPtr> result_;
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
};

}  // namespace shoal::sql
