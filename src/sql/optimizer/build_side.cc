#include "sql/optimizer/build_side.h"

#include "sql/optimizer/cardinality.h"

namespace shoal::sql {

namespace {

Result<LogicalPtr> Choose(LogicalPtr op, CardinalityEstimator* est) {
  for (auto& c : op->children) {
    ASSIGN_OR_RETURN(c, Choose(std::move(c), est));
  }
  if (op->kind != LogicalKind::kJoin || op->left_keys.empty() || op->subquery) return op;
  const auto t = op->join_type;
  if (t != LogicalJoinType::kLeft && t != LogicalJoinType::kRight && t != LogicalJoinType::kFull) return op;
  const double l = est->Estimate(op->children[0].get()).rows;
  const double r = est->Estimate(op->children[1].get()).rows;
  if (r <= kBuildSwapRatio * l) return op;
  const int lw = static_cast<int>(op->children[0]->columns.size());
  const int rw = static_cast<int>(op->children[1]->columns.size());
  std::vector<int> to_swapped(lw + rw);
  for (int i = 0; i < lw; ++i) to_swapped[i] = rw + i;
  for (int j = 0; j < rw; ++j) to_swapped[lw + j] = j;
  auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  join->join_type = t == LogicalJoinType::kLeft    ? LogicalJoinType::kRight
                    : t == LogicalJoinType::kRight ? LogicalJoinType::kLeft
                                                   : LogicalJoinType::kFull;
  join->left_keys = op->right_keys;
  join->right_keys = op->left_keys;
  if (op->predicate) {
    ASSIGN_OR_RETURN(join->predicate, expr::RemapColumns(op->predicate, to_swapped));
  }
  for (int j = 0; j < rw; ++j) join->columns.push_back(op->columns[lw + j]);
  for (int i = 0; i < lw; ++i) join->columns.push_back(op->columns[i]);
  join->children.push_back(std::move(op->children[1]));
  join->children.push_back(std::move(op->children[0]));
  std::vector<expr::ExprPtr> exprs;
  std::vector<std::string> names;
  for (int i = 0; i < lw + rw; ++i) {
    const auto& f = op->columns[i];
    exprs.push_back(expr::ColumnRef(to_swapped[i], f.type, f.name, f.nullable));
    names.push_back(f.name);
  }
  return MakeProject(std::move(join), std::move(exprs), std::move(names));
}

}  // namespace

Result<LogicalPtr> ChooseBuildSides(LogicalPtr plan) {
  CardinalityEstimator est;
  return Choose(std::move(plan), &est);
}

}  // namespace shoal::sql
