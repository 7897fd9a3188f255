#include "sql/execution/physical_sample.h"

#include <cmath>
#include <cstdio>

#include "columnar/vector.h"

namespace shoal::sql {

namespace {

// SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014):
// a 64-bit mixing step, here both to derive a batch's stream and to draw from it.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct SampleState : OperatorState {
  std::vector<uint32_t> sel;
};

}  // namespace

std::string PhysicalSample::Details() const {
  char buf[48];
  std::snprintf(buf, sizeof buf, "fraction=%g", fraction_);
  return buf;
}

Result<std::unique_ptr<OperatorState>> PhysicalSample::MakeOperatorState(ExecContext&) {
  return std::unique_ptr<OperatorState>(new SampleState());
}

Status PhysicalSample::Execute(ExecContext&, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  if (fraction_ >= 1.0) {
    out->push_back(std::move(in));
    return Status::OK();
  }
  if (fraction_ <= 0.0) return Status::OK();
  // Keep a row when its 53-bit draw is below fraction * 2^53 (exact for every double fraction
  // with at most 53 significant bits, as every fraction written in decimal rounds to).
  const uint64_t threshold = static_cast<uint64_t>(std::ldexp(fraction_, 53));
  uint64_t stream = seed_ ^ (in.order * 0xD1B54A32D192ED03ULL);
  uint64_t state_bits = SplitMix64(&stream);
  auto* st = static_cast<SampleState*>(state);
  st->sel.clear();
  const int64_t n = in.batch->num_rows;
  for (int64_t i = 0; i < n; ++i) {
    if ((SplitMix64(&state_bits) >> 11) < threshold) st->sel.push_back(static_cast<uint32_t>(i));
  }
  if (st->sel.empty()) return Status::OK();
  if (static_cast<int64_t>(st->sel.size()) == n) {
    out->push_back(std::move(in));
    return Status::OK();
  }
  auto b = columnar::GatherBatch(*in.batch, st->sel.data(), static_cast<int64_t>(st->sel.size()));
  b->schema = schema();
  out->push_back({std::move(b), in.order});
  return Status::OK();
}

}  // namespace shoal::sql
