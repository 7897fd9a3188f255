// The simple physical operators: table scan, VALUES, filter, projection, result collection
// (also UNION ALL) and LIMIT/OFFSET.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/runtime_filter.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

// Reads a TableSource through a Scan opened with `request`.
class PhysicalTableScan : public PhysicalOperator {
 public:
  PhysicalTableScan(columnar::SchemaPtr schema, std::shared_ptr<const TableSource> source,
                    ScanRequest request)
      : PhysicalOperator(std::move(schema)), source_(std::move(source)), request_(std::move(request)) {}
  std::string Name() const override { return "TableScan"; }
  std::string Details() const override;
  bool IsSource() const override { return true; }
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;
  // The table's rows (a scan reads them all, whatever its filter keeps).
  double WorkEstimate() const override;
  // A join's build keys, published before this scan opens, filter output column `column`.
  void AddRuntimeFilter(std::shared_ptr<RuntimeFilter> filter, int column) {
    runtime_filters_.emplace_back(std::move(filter), column);
  }

 private:
  std::shared_ptr<const TableSource> source_;
  ScanRequest request_;
  std::vector<std::pair<std::shared_ptr<RuntimeFilter>, int>> runtime_filters_;
  std::string runtime_text_;  // the predicates the last OpenSource added (EXPLAIN ANALYZE)
};

// Constant rows.
class PhysicalValues : public PhysicalOperator {
 public:
  PhysicalValues(columnar::SchemaPtr schema, columnar::BatchPtr rows)
      : PhysicalOperator(std::move(schema)), rows_(std::move(rows)) {}
  std::string Name() const override { return "Values"; }
  std::string Details() const override { return "rows=" + std::to_string(rows_->num_rows); }
  bool IsSource() const override { return true; }
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

 private:
  columnar::BatchPtr rows_;
};

class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(columnar::SchemaPtr schema, expr::ExprPtr predicate)
      : PhysicalOperator(std::move(schema)), predicate_(std::move(predicate)) {}
  std::string Name() const override { return "Filter"; }
  std::string Details() const override { return predicate_->ToString(); }
  bool IsStreaming() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;
  bool PassesColumn(int col, int* child, int* child_col) const override {
    *child = 0;
    *child_col = col;
    return true;
  }
  bool TakesCodedStrings(bool) const override { return true; }

 private:
  expr::ExprPtr predicate_;
};

class PhysicalProject : public PhysicalOperator {
 public:
  PhysicalProject(columnar::SchemaPtr schema, std::vector<expr::ExprPtr> exprs)
      : PhysicalOperator(std::move(schema)), exprs_(std::move(exprs)) {}
  std::string Name() const override { return "Project"; }
  std::string Details() const override;
  bool IsStreaming() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;
  bool TakesCodedStrings(bool) const override { return true; }
  bool PassesColumn(int col, int* child, int* child_col) const override {
    if (exprs_[col]->kind != expr::ExprKind::kColumnRef) return false;
    *child = 0;
    *child_col = exprs_[col]->column;
    return true;
  }

 private:
  std::vector<expr::ExprPtr> exprs_;
};

// Collects all input in order (the statement result, materialized subplans) and, with several
// inputs, concatenates them (UNION ALL). As a source it replays the batches.
class PhysicalCollect : public PhysicalOperator {
 public:
  PhysicalCollect(columnar::SchemaPtr schema, int inputs, std::string name = "Collect")
      : PhysicalOperator(std::move(schema)), inputs_(inputs), name_(std::move(name)) {}
  std::string Name() const override { return name_; }
  bool IsSink() const override { return true; }
  std::vector<int> SinkInputs() const override;
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

  // The collected batches, in order (after Finalize).
  const std::vector<columnar::BatchPtr>& batches() const { return batches_; }
  // The reservation covering the collected batches, for whoever keeps them longer than this
  // operator (the statement's result).
  MemoryReservation TakeMemory() { return std::move(memory_); }
  void ReleaseCollected(const ExecContext& ctx) override;

 private:
  int inputs_;
  std::string name_;
  std::mutex mu_;
  std::vector<Chunk> chunks_;
  std::vector<columnar::BatchPtr> batches_;
  MemoryReservation memory_;  // the workers' reservations, merged
};

// LIMIT/OFFSET in input order; signals the sources to stop once enough rows arrived.
class PhysicalLimit : public PhysicalOperator {
 public:
  PhysicalLimit(columnar::SchemaPtr schema, int64_t limit, int64_t offset)
      : PhysicalOperator(std::move(schema)), limit_(limit), offset_(offset) {}
  std::string Name() const override { return "Limit"; }
  std::string Details() const override;
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  bool SinkFinished() const override {
    return limit_ >= 0 && rows_.load(std::memory_order_relaxed) >= limit_ + offset_;
  }
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;

 private:
  int64_t limit_, offset_;
  std::atomic<int64_t> rows_{0};
  std::mutex mu_;
  std::vector<Chunk> chunks_;
  std::vector<columnar::BatchPtr> batches_;
  MemoryReservation memory_;  // chunks_, then batches_
};

}  // namespace shoal::sql
