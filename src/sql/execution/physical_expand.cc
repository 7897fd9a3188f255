#include "sql/execution/physical_expand.h"

namespace shoal::sql {

namespace {
struct ExpandState : OperatorState {
  explicit ExpandState(int64_t ts) : eval(ts) {}
  expr::EvalContext eval;
};
}  // namespace

Result<std::unique_ptr<OperatorState>> PhysicalExpand::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new ExpandState(ctx.statement_timestamp));
}

Status PhysicalExpand::Execute(ExecContext&, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<ExpandState*>(state);
  for (const auto& set : sets_) {
    std::vector<columnar::VectorPtr> cols;
    cols.reserve(set.size());
    for (const auto& e : set) {
      if (e->kind == expr::ExprKind::kColumnRef) {
        cols.push_back(in.batch->columns[e->column]);
        continue;
      }
      ASSIGN_OR_RETURN(columnar::VectorPtr v, expr::Evaluate(*e, *in.batch, st->eval));
      cols.push_back(std::move(v));
    }
    out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), in.batch->num_rows),
                    in.order});
  }
  return Status::OK();
}

}  // namespace shoal::sql
