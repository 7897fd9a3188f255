#include "sql/execution/physical_generate.h"

#include <algorithm>

namespace shoal::sql {

namespace {

struct GenerateState : OperatorState {
  explicit GenerateState(int64_t ts) : eval(ts) {}
  expr::EvalContext eval;
};

// The rows of one output chunk: for each, the input row and the generator element it pairs
// (-1: none, the NULL row of an outer generate) and the element's position in its row.
struct Pending {
  std::vector<uint32_t> rows;
  std::vector<int64_t> items;
  std::vector<int32_t> positions;
  void Clear() {
    rows.clear();
    items.clear();
    positions.clear();
  }
};

}  // namespace

Result<std::unique_ptr<OperatorState>> PhysicalGenerate::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new GenerateState(ctx.statement_timestamp));
}

Status PhysicalGenerate::Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<GenerateState*>(state);
  const columnar::RecordBatch& batch = *in.batch;
  const int64_t n = batch.num_rows;
  ASSIGN_OR_RETURN(columnar::VectorPtr g, expr::Evaluate(*generator_, batch, st->eval));
  const bool constant = g->size() == 1 && n != 1;  // a generator that does not depend on the row
  const int64_t* offsets = g->offsets();
  const columnar::Vector& elements = *g->child(0);
  const bool map = g->id() == columnar::TypeId::kMap;
  const size_t limit = static_cast<size_t>(std::max(ctx.batch_size, 1));

  Pending p;
  auto flush = [&]() {
    if (p.rows.empty()) return;
    const int64_t m = static_cast<int64_t>(p.rows.size());
    std::vector<columnar::VectorPtr> cols;
    cols.reserve(schema()->fields.size());
    for (size_t c = 0; c < input_width_; ++c) cols.push_back(columnar::Gather(*batch.columns[c], p.rows.data(), m));
    if (kind_ == GenerateKind::kPosExplode) {
      auto pos = columnar::Vector::Make(columnar::Int32(), m);
      for (int32_t v : p.positions) {
        if (v < 0) {
          pos->AppendNull();
        } else {
          pos->Append<int32_t>(v);
        }
      }
      cols.push_back(std::move(pos));
    }
    if (map || kind_ == GenerateKind::kInline) {
      // MAP entries and inline's structs: one column per field; a NULL struct element gives
      // NULL fields.
      std::vector<int64_t> items = p.items;
      if (kind_ == GenerateKind::kInline) {
        for (int64_t& k : items) {
          if (k >= 0 && elements.IsNull(k)) k = -1;
        }
      }
      for (const auto& field : elements.children()) cols.push_back(columnar::GatherOrNull(*field, items.data(), m));
    } else {
      cols.push_back(columnar::GatherOrNull(elements, p.items.data(), m));
    }
    out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), m), in.order});
    p.Clear();
  };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = constant ? 0 : i;
    int64_t begin = 0, end = 0;
    if (g->IsValid(r)) {
      begin = offsets[r];
      end = offsets[r + 1];
    }
    if (begin == end && outer_) {
      p.rows.push_back(static_cast<uint32_t>(i));
      p.items.push_back(-1);
      p.positions.push_back(-1);
    }
    for (int64_t k = begin; k < end; ++k) {
      p.rows.push_back(static_cast<uint32_t>(i));
      p.items.push_back(k);
      p.positions.push_back(static_cast<int32_t>(k - begin));
      if (p.rows.size() >= limit) flush();
    }
    if (p.rows.size() >= limit) flush();
  }
  flush();
  return Status::OK();
}

}  // namespace shoal::sql
