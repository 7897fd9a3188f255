#include "sql/optimizer/outer_join_simplification.h"

namespace shoal::sql {

namespace {

using expr::Expr;
using expr::ExprKind;

// Whether `e` is NULL whenever columns [begin, end) are NULL.
bool NullWhen(const Expr& e, int begin, int end) {
  switch (e.kind) {
    case ExprKind::kColumnRef: return e.column >= begin && e.column < end;
    case ExprKind::kFunction:
      if (!e.propagates_nulls) return false;
      [[fallthrough]];
    case ExprKind::kCast:
    case ExprKind::kLike:
    case ExprKind::kNot:
      for (const auto& a : e.args) {
        if (NullWhen(*a, begin, end)) return true;
      }
      return false;
    case ExprKind::kIn: return NullWhen(*e.args[0], begin, end);
    case ExprKind::kAnd:
    case ExprKind::kOr:
      // NULL AND x is FALSE or NULL; NULL OR x may be TRUE. Only all-NULL args give NULL.
      for (const auto& a : e.args) {
        if (!NullWhen(*a, begin, end)) return false;
      }
      return true;
    default: return false;
  }
}

}  // namespace

bool RejectsNulls(const Expr& pred, int begin, int end) {
  if (NullWhen(pred, begin, end)) return true;
  switch (pred.kind) {
    case ExprKind::kAnd:
      for (const auto& a : pred.args) {
        if (RejectsNulls(*a, begin, end)) return true;
      }
      return false;
    case ExprKind::kOr:
      for (const auto& a : pred.args) {
        if (!RejectsNulls(*a, begin, end)) return false;
      }
      return true;
    case ExprKind::kIsNull: return pred.negated && NullWhen(*pred.args[0], begin, end);
    default: return false;
  }
}

void SimplifyOuterJoin(LogicalOperator* join, const std::vector<expr::ExprPtr>& preds) {
  const auto t = join->join_type;
  if (t != LogicalJoinType::kLeft && t != LogicalJoinType::kRight && t != LogicalJoinType::kFull) return;
  const int lw = static_cast<int>(join->children[0]->columns.size());
  const int width = lw + static_cast<int>(join->children[1]->columns.size());
  bool left_rejected = false, right_rejected = false;
  for (const auto& p : preds) {
    left_rejected = left_rejected || RejectsNulls(*p, 0, lw);
    right_rejected = right_rejected || RejectsNulls(*p, lw, width);
  }
  // A LEFT join pads the right side; RIGHT the left; FULL both.
  bool pads_left = t != LogicalJoinType::kLeft;
  bool pads_right = t != LogicalJoinType::kRight;
  if (left_rejected) pads_left = false;
  if (right_rejected) pads_right = false;
  if (pads_left && pads_right) return;
  join->join_type = pads_left ? LogicalJoinType::kRight : pads_right ? LogicalJoinType::kLeft : LogicalJoinType::kInner;
}

}  // namespace shoal::sql
