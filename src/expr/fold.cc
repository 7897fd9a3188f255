#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "expr/comparison.h"
#include "expr/evaluate.h"
#include "expr/expr.h"

namespace shoal::expr {

namespace {

bool IsBoolLiteral(const Expr& e, bool v) {
  return e.IsLiteral() && !e.value.is_null() && e.value.type()->id() == columnar::TypeId::kBoolean &&
         e.value.GetBool() == v;
}

bool IsTimestamp(const columnar::DataType& t) {
  return t.id() == columnar::TypeId::kTimestamp || t.id() == columnar::TypeId::kTimestampNtz;
}

// `CAST(d AS TIMESTAMP) op T` for a DATE d and a TIMESTAMP literal T as the exact comparison of d
// with a DATE, so scans prune and filter on the date column itself (DATE + INTERVAL is a
// TIMESTAMP, which puts such casts into TPC-H's date ranges). A date d is midnight of day d, so
// with f = floor(T) in days and c = f + (T is not midnight):  (midnight in the cast's session
// zone: f is the last day whose midnight is at or before T)  < T  is  d < c;  <= T  is  d <= f;
// > T  is  d > f;  >= T  is  d >= c;  = T  is  d = f only when T is midnight.
ExprPtr SimplifyDateCastComparison(const ExprPtr& e) {
  CompareOp op;
  if (e->kind != ExprKind::kFunction || e->args.size() != 2 || !ParseCompareOp(e->name, &op)) return e;
  int cast_side = -1;
  for (int i = 0; i < 2; ++i) {
    const Expr& a = *e->args[i];
    const Expr& b = *e->args[1 - i];
    if (a.kind == ExprKind::kCast && !a.try_cast && IsTimestamp(*a.type) &&
        a.args[0]->type->id() == columnar::TypeId::kDate && b.IsLiteral() && !b.value.is_null() &&
        b.value.type()->Equals(*a.type)) {
      cast_side = i;
    }
  }
  if (cast_side < 0 || op == CompareOp::kNe) return e;
  if (cast_side == 1) op = FlipCompareOp(op);
  using columnar::FloorDiv;
  using columnar::kMicrosPerDay;
  const int64_t t = e->args[1 - cast_side]->value.GetInt();
  const columnar::TimeZone& zone = e->args[cast_side]->zone ? *e->args[cast_side]->zone : columnar::TimeZone::Utc();
  if (t < INT64_MIN / 2 || t > INT64_MAX / 2) return e;
  // The midnight of day d as the cast computes it is strictly increasing in d.
  auto midnight_of = [&](int64_t d) { return zone.ToUtc(d * kMicrosPerDay); };
  int64_t floor_day = FloorDiv(zone.ToLocal(t), kMicrosPerDay);
  while (midnight_of(floor_day) > t) --floor_day;
  while (midnight_of(floor_day + 1) <= t) ++floor_day;
  const bool midnight = midnight_of(floor_day) == t;
  const int64_t ceil_day = floor_day + (midnight ? 0 : 1);
  if (floor_day < INT32_MIN + 1 || ceil_day > INT32_MAX - 1) return e;
  int64_t day = 0;
  switch (op) {
    case CompareOp::kLt:
    case CompareOp::kGe: day = ceil_day; break;
    case CompareOp::kLe:
    case CompareOp::kGt: day = floor_day; break;
    case CompareOp::kEq:
      if (!midnight) return e;
      day = floor_day;
      break;
    case CompareOp::kNe: return e;
  }
  auto r = Call(CompareOpName(op), {e->args[cast_side]->args[0], Literal(Value::Date(static_cast<int32_t>(day)))});
  return r.ok() ? std::move(r).value() : e;
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
    if (!a->IsLiteral()) return SimplifyDateCastComparison(node);
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
