#include "sql/optimizer/constant_folding.h"

namespace shoal::sql {

using expr::ExprPtr;

void FoldConstants(LogicalOperator* op) {
  auto fold = [](std::vector<ExprPtr>& v) {
    for (auto& e : v) e = expr::Fold(e);
  };
  if (op->predicate) op->predicate = expr::Fold(op->predicate);
  fold(op->exprs);
  fold(op->groups);
  fold(op->filters);
  fold(op->left_keys);
  fold(op->right_keys);
  for (auto& a : op->aggregates) fold(a.args);
  for (auto& k : op->sort_keys) k.expr = expr::Fold(k.expr);
  fold(op->partition_by);
  for (auto& w : op->windows) fold(w.args);
  for (auto& set : op->expand_sets) fold(set);
  for (auto& c : op->children) FoldConstants(c.get());
}

}  // namespace shoal::sql
