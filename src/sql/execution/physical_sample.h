// TABLESAMPLE's Bernoulli sampling: each input row is kept with probability `fraction`.
//
// The choices for a batch come from a generator seeded with the sample's seed and the batch's
// order key (physical_operator.h), never from the worker that runs it: with the same seed and
// the same input batches, the same rows are kept, however many threads run the query.
//
// Thread-safety: see physical_operator.h (no shared mutable state).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

class PhysicalSample : public PhysicalOperator {
 public:
  PhysicalSample(columnar::SchemaPtr schema, double fraction, uint64_t seed)
      : PhysicalOperator(std::move(schema)), fraction_(fraction), seed_(seed) {}
  std::string Name() const override { return "Sample"; }
  std::string Details() const override;
  bool IsStreaming() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) override;
  bool TakesCodedStrings(bool) const override { return true; }

 private:
  double fraction_;
  uint64_t seed_;
};

}  // namespace shoal::sql
