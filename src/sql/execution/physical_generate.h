// Generate: explode / posexplode / inline (LATERAL VIEW and generator functions in the select
// list). Each input row becomes one row per element of an ARRAY or MAP it evaluates, the input
// columns repeated next to the generated ones (logical_plan.h: GenerateKind).
//
// Thread-safety: see physical_operator.h.
#pragma once

#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalGenerate : public PhysicalOperator {
 public:
  PhysicalGenerate(columnar::SchemaPtr schema, size_t input_width, expr::ExprPtr generator, GenerateKind kind,
                   bool outer)
      : PhysicalOperator(std::move(schema)),
        input_width_(input_width),
        generator_(std::move(generator)),
        kind_(kind),
        outer_(outer) {}
  std::string Name() const override { return "Generate"; }
  std::string Details() const override { return generator_->ToString() + (outer_ ? " outer" : ""); }
  bool IsStreaming() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;

 private:
  size_t input_width_;
  expr::ExprPtr generator_;
  GenerateKind kind_;
  bool outer_;
};

}  // namespace shoal::sql
