// Expand: emits every input chunk once per projection list (one per grouping set of GROUP BY
// ROLLUP / CUBE / GROUPING SETS), feeding one hash aggregation for all sets.
//
// Thread-safety: see physical_operator.h.
#pragma once

#include <vector>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalExpand : public PhysicalOperator {
 public:
  PhysicalExpand(columnar::SchemaPtr schema, std::vector<std::vector<expr::ExprPtr>> sets)
      : PhysicalOperator(std::move(schema)), sets_(std::move(sets)) {}
  std::string Name() const override { return "Expand"; }
  std::string Details() const override { return "sets=" + std::to_string(sets_.size()); }
  bool IsStreaming() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;

 private:
  std::vector<std::vector<expr::ExprPtr>> sets_;
};

}  // namespace shoal::sql
