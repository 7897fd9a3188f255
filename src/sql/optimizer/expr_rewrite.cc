#include "sql/optimizer/expr_rewrite.h"

namespace shoal::sql {

using expr::ExprPtr;

ExprPtr Substitute(const ExprPtr& e, const std::vector<ExprPtr>& exprs) {
  if (e->kind == expr::ExprKind::kColumnRef) return exprs[e->column];
  if (e->args.empty()) return e;
  auto copy = std::make_shared<expr::Expr>(*e);
  for (auto& a : copy->args) a = Substitute(a, exprs);
  return copy;
}

Result<ExprPtr> Remap(const ExprPtr& e, const std::vector<int>& mapping) {
  return expr::RemapColumns(e, mapping);
}

bool IsTrue(const ExprPtr& e) {
  return e->IsLiteral() && !e->value.is_null() && e->type->id() == columnar::TypeId::kBoolean &&
         e->value.GetBool();
}

}  // namespace shoal::sql
