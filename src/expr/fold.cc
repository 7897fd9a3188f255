#include "expr/evaluate.h"
#include "expr/expr.h"

namespace shoal::expr {

namespace {

bool IsBoolLiteral(const Expr& e, bool v) {
  return e.IsLiteral() && !e.value.is_null() && e.value.type()->id() == columnar::TypeId::kBoolean &&
         e.value.GetBool() == v;
}

ExprPtr FoldNode(const ExprPtr& expr, EvalContext* ctx, EvalContext& own) {
  if (expr->args.empty()) {
    if (expr->kind == ExprKind::kFunction && ctx) {
      auto v = EvaluateConstant(*expr, *ctx);
      if (v.ok()) return Literal(std::move(v).value());
    }
    return expr;
  }
  std::vector<ExprPtr> args;
  bool changed = false;
  for (const auto& a : expr->args) {
    ExprPtr b = FoldNode(a, ctx, own);
    changed |= b != a;
    args.push_back(std::move(b));
  }
  if (expr->kind == ExprKind::kAnd || expr->kind == ExprKind::kOr) {
    const bool is_and = expr->kind == ExprKind::kAnd;
    std::vector<ExprPtr> kept;
    for (auto& a : args) {
      if (IsBoolLiteral(*a, !is_and)) return a;  // FALSE in AND, TRUE in OR decides
      if (IsBoolLiteral(*a, is_and)) {
        changed = true;
        continue;  // TRUE in AND, FALSE in OR is neutral
      }
      kept.push_back(a);
    }
    if (kept.empty()) return Literal(Value::Boolean(is_and));
    if (kept.size() == 1) return kept[0];
    args.swap(kept);
  }
  ExprPtr node = expr;
  if (changed) {
    auto copy = std::make_shared<Expr>(*expr);
    copy->args = std::move(args);
    node = copy;
  }
  for (const auto& a : node->args) {
    if (!a->IsLiteral()) return node;
  }
  auto v = EvaluateConstant(*node, ctx ? *ctx : own);
  if (!v.ok()) return node;
  Value value = std::move(v).value();
  if (!value.type()->Equals(*node->type)) {
    if (!value.is_null()) return node;
    value = Value::Null(node->type);
  }
  return Literal(std::move(value));
}

}  // namespace

ExprPtr Fold(const ExprPtr& expr, EvalContext* ctx) {
  EvalContext own;
  return FoldNode(expr, ctx, own);
}

}  // namespace shoal::expr
