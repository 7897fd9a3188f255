// Window function binding: f(...) OVER (...) to WindowCalls grouped by PARTITION BY / ORDER
// BY, named windows (WINDOW w AS ...), frames, and the kWindow operators placed over a
// SELECT's input (after aggregation and HAVING, before QUALIFY, DISTINCT and ORDER BY).
#include <strings.h>

#include <cctype>
#include <cmath>

#include "expr/aggregate_functions.h"
#include "expr/cast.h"
#include "expr/evaluate.h"
#include "sql/parser/token.h"
#include "sql/binder/binder.h"

namespace shoal::sql {

namespace {

struct RankingInfo {
  const char* name;
  WindowFunction function;
  int min_args;
  int max_args;
};

constexpr RankingInfo kWindowOnly[] = {
    {"row_number", WindowFunction::kRowNumber, 0, 0},
    {"rank", WindowFunction::kRank, 0, 0},
    {"dense_rank", WindowFunction::kDenseRank, 0, 0},
    {"percent_rank", WindowFunction::kPercentRank, 0, 0},
    {"cume_dist", WindowFunction::kCumeDist, 0, 0},
    {"ntile", WindowFunction::kNtile, 1, 1},
    {"lag", WindowFunction::kLag, 1, 3},
    {"lead", WindowFunction::kLead, 1, 3},
    {"first_value", WindowFunction::kFirstValue, 1, 1},
    {"last_value", WindowFunction::kLastValue, 1, 1},
    {"nth_value", WindowFunction::kNthValue, 2, 2},
};

const RankingInfo* FindWindowOnly(const std::string& name) {
  for (const auto& r : kWindowOnly) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

bool SameKeys(const std::vector<SortKey>& a, const std::vector<SortKey>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].descending != b[i].descending || a[i].nulls_first != b[i].nulls_first ||
        !a[i].expr->Equals(*b[i].expr)) {
      return false;
    }
  }
  return true;
}

bool SameExprs(const std::vector<expr::ExprPtr>& a, const std::vector<expr::ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i]->Equals(*b[i])) return false;
  }
  return true;
}

FrameBoundType BoundType(FrameBoundKind k) {
  switch (k) {
    case FrameBoundKind::kUnboundedPreceding: return FrameBoundType::kUnboundedPreceding;
    case FrameBoundKind::kPreceding: return FrameBoundType::kPreceding;
    case FrameBoundKind::kCurrentRow: return FrameBoundType::kCurrentRow;
    case FrameBoundKind::kFollowing: return FrameBoundType::kFollowing;
    case FrameBoundKind::kUnboundedFollowing: return FrameBoundType::kUnboundedFollowing;
  }
  return FrameBoundType::kCurrentRow;
}

}  // namespace

Status Binder::ResolveWindowSpec(const WindowSpec& spec, ExprContext& ctx, int depth,
                                 std::vector<expr::ExprPtr>* partition_by, std::vector<SortKey>* order,
                                 const WindowSpec** frame_owner) {
  if (depth > 16) return Status::Binder("window definitions refer to each other in a cycle");
  if (!spec.base.empty()) {
    const WindowSpec* base = nullptr;
    if (ctx.win && ctx.win->named) {
      for (const auto& [name, w] : *ctx.win->named) {
        if (strcasecmp(name.c_str(), spec.base.c_str()) == 0) base = &w;
      }
    }
    if (!base) return Status::Binder("window \"" + spec.base + "\" is not defined");
    RETURN_NOT_OK(ResolveWindowSpec(*base, ctx, depth + 1, partition_by, order, frame_owner));
    if (!spec.partition_by.empty()) {
      return Status::Binder("cannot override PARTITION BY of window \"" + spec.base + "\"");
    }
    if (!spec.order_by.empty() && !order->empty()) {
      return Status::Binder("cannot override ORDER BY of window \"" + spec.base + "\"");
    }
  }
  ExprContext inner = ctx;
  inner.win = nullptr;
  inner.clause = "a window specification";
  for (const auto& p : spec.partition_by) {
    ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*p, inner));
    partition_by->push_back(std::move(b));
  }
  for (const auto& o : spec.order_by) {
    SortKey key;
    ASSIGN_OR_RETURN(key.expr, BindExpr(*o.expr, inner));
    key.descending = o.descending;
    key.nulls_first = o.nulls == NullsOrder::kDefault ? !o.descending : o.nulls == NullsOrder::kFirst;
    order->push_back(std::move(key));
  }
  if (spec.frame) *frame_owner = &spec;
  return Status::OK();
}

Result<BoundFrame> Binder::BindFrame(const WindowSpec* spec, const std::vector<SortKey>& order) {
  BoundFrame f;
  if (!spec) {
    // SQL's default: with ORDER BY, the rows up to the current row and its peers.
    f.rows = false;
    f.start = FrameBoundType::kUnboundedPreceding;
    f.end = order.empty() ? FrameBoundType::kUnboundedFollowing : FrameBoundType::kCurrentRow;
    return f;
  }
  const WindowFrame& w = *spec->frame;
  f.rows = w.unit == FrameUnit::kRows;
  f.start = BoundType(w.start.kind);
  f.end = BoundType(w.end.kind);
  if (f.start == FrameBoundType::kUnboundedFollowing) {
    return Status::Binder("a window frame cannot start at UNBOUNDED FOLLOWING");
  }
  if (f.end == FrameBoundType::kUnboundedPreceding) {
    return Status::Binder("a window frame cannot end at UNBOUNDED PRECEDING");
  }
  if (static_cast<int>(f.start) > static_cast<int>(f.end)) {
    return Status::Binder("a window frame cannot start after it ends (" + spec->ToString() + ")");
  }
  auto offset = [&](const FrameBound& b, double* out) -> Status {
    if (!b.offset) return Status::OK();
    ASSIGN_OR_RETURN(columnar::Value v, BindConstantValue(*b.offset));
    if (v.is_null() || !v.type()->IsNumeric()) {
      return Status::Binder("a window frame offset must be a constant number, got " + b.offset->ToString());
    }
    ASSIGN_OR_RETURN(columnar::Value d, expr::CastValue(v, columnar::Float64()));
    double x = d.GetDouble();
    if (!(x >= 0) || std::isinf(x)) {
      return Status::InvalidArgument("a window frame offset must not be negative: " + b.offset->ToString());
    }
    if (f.rows && x != std::floor(x)) {
      return Status::Binder("a ROWS frame offset must be an integer, got " + b.offset->ToString());
    }
    *out = x;
    return Status::OK();
  };
  RETURN_NOT_OK(offset(w.start, &f.start_offset));
  RETURN_NOT_OK(offset(w.end, &f.end_offset));
  bool range_offset = !f.rows && (w.start.offset || w.end.offset);
  if (range_offset && (order.size() != 1 || !order[0].expr->type->IsNumeric())) {
    return Status::NotSupported(
        "RANGE frames with an offset need exactly one numeric ORDER BY expression");
  }
  return f;
}

Result<expr::ExprPtr> Binder::BindWindowFunction(const FunctionExpression& e, ExprContext& ctx) {
  std::string name = Lower(e.name);
  if (!ctx.win) {
    return Status::Binder("window function " + name + "() is not allowed in " +
                          (ctx.clause[0] ? ctx.clause : "this context"));
  }
  WindowState& win = *ctx.win;
  std::vector<expr::ExprPtr> partition_by;
  std::vector<SortKey> order;
  const WindowSpec* frame_owner = nullptr;
  RETURN_NOT_OK(ResolveWindowSpec(*e.over, ctx, 0, &partition_by, &order, &frame_owner));

  WindowCall call;
  call.display = e.ToString();
  ExprContext inner = ctx;
  inner.win = nullptr;
  inner.clause = "window function arguments";
  const bool star = e.args.size() == 1 && e.args[0]->kind == ExprKind::kStar;
  std::vector<expr::ExprPtr> args;
  if (!star) {
    for (const auto& a : e.args) {
      ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*a, inner));
      args.push_back(std::move(b));
    }
  }
  if (const RankingInfo* info = FindWindowOnly(name)) {
    if (star || static_cast<int>(args.size()) < info->min_args || static_cast<int>(args.size()) > info->max_args) {
      return Status::Binder("wrong number of arguments for window function " + name + "()");
    }
    if (e.distinct) return Status::Binder("DISTINCT is not allowed in window function " + name + "()");
    call.function = info->function;
    switch (call.function) {
      case WindowFunction::kRowNumber:
      case WindowFunction::kRank:
      case WindowFunction::kDenseRank: call.type = columnar::Int64(); break;
      case WindowFunction::kPercentRank:
      case WindowFunction::kCumeDist: call.type = columnar::Float64(); break;
      case WindowFunction::kNtile: {
        ASSIGN_OR_RETURN(args[0], expr::ImplicitCast(args[0], columnar::Int64()));
        call.type = columnar::Int64();
        break;
      }
      case WindowFunction::kLag:
      case WindowFunction::kLead: {
        call.type = args[0]->type;
        if (args.size() < 2) args.push_back(expr::Literal(columnar::Value::Int64(1)));
        ASSIGN_OR_RETURN(args[1], expr::ImplicitCast(args[1], columnar::Int64()));
        if (args.size() < 3) args.push_back(expr::Literal(columnar::Value::Null(call.type)));
        ASSIGN_OR_RETURN(args[2], expr::Cast(args[2], call.type));
        break;
      }
      case WindowFunction::kNthValue: {
        ASSIGN_OR_RETURN(args[1], expr::ImplicitCast(args[1], columnar::Int64()));
        call.type = args[0]->type;
        break;
      }
      default: call.type = args[0]->type; break;
    }
  } else if (expr::IsAggregateFunction(name)) {
    if (star && name != "count") return Status::Binder(name + "(*) is not supported; only count(*)");
    std::vector<columnar::TypePtr> types;
    for (const auto& a : args) types.push_back(a->type);
    ASSIGN_OR_RETURN(call.binding, expr::ResolveAggregate(name, types, e.distinct));
    for (size_t i = 0; i < args.size() && i < call.binding.arg_types.size(); ++i) {
      ASSIGN_OR_RETURN(args[i], expr::Cast(args[i], call.binding.arg_types[i]));
    }
    call.function = WindowFunction::kAggregate;
    call.type = call.binding.result_type;
  } else {
    return Status::Binder("Function \"" + e.name + "\" is not a window or aggregate function");
  }
  call.args = std::move(args);
  // Ranking functions ignore frames; value and aggregate functions use them.
  ASSIGN_OR_RETURN(call.frame, BindFrame(frame_owner, order));
  if (call.binding.distinct) {
    const BoundFrame& f = call.frame;
    bool whole = f.start == FrameBoundType::kUnboundedPreceding &&
                 (f.end == FrameBoundType::kUnboundedFollowing ||
                  (!f.rows && f.end == FrameBoundType::kCurrentRow && order.empty()));
    if (!whole) {
      return Status::NotSupported("DISTINCT in window aggregate " + name +
                                  "() is supported only over the whole partition (no ORDER BY or frame)");
    }
  }

  WindowState::Spec* spec = nullptr;
  for (auto& s : win.specs) {
    if (SameExprs(s.partition_by, partition_by) && SameKeys(s.order, order)) spec = &s;
  }
  if (!spec) {
    win.specs.push_back({std::move(partition_by), std::move(order), {}, {}});
    spec = &win.specs.back();
  }
  int id = -1;
  for (size_t i = 0; i < spec->calls.size() && id < 0; ++i) {
    if (spec->calls[i].Equals(call)) id = spec->ids[i];
  }
  if (id < 0) {
    id = win.count++;
    spec->calls.push_back(call);
    spec->ids.push_back(id);
  }
  return expr::ColumnRef(kWindowColumnBase + id, call.type, call.display, true);
}

Result<LogicalPtr> PlanWindows(LogicalPtr plan, const WindowState& win, std::vector<expr::ExprPtr*> exprs) {
  const int base = static_cast<int>(plan->columns.size());
  if (base >= kWindowColumnBase) return Status::NotSupported("window functions over more than 65535 columns");
  std::vector<int> mapping(kWindowColumnBase + win.count, -1);
  for (int i = 0; i < base; ++i) mapping[i] = i;
  for (const auto& spec : win.specs) {
    auto op = std::make_unique<LogicalOperator>(LogicalKind::kWindow);
    op->columns = plan->columns;
    op->partition_by = spec.partition_by;
    op->sort_keys = spec.order;
    op->windows = spec.calls;
    for (size_t j = 0; j < spec.calls.size(); ++j) {
      mapping[kWindowColumnBase + spec.ids[j]] = static_cast<int>(op->columns.size());
      op->columns.push_back({spec.calls[j].display, spec.calls[j].type, true});
    }
    op->children.push_back(std::move(plan));
    plan = std::move(op);
  }
  for (expr::ExprPtr* e : exprs) {
    if (!*e) continue;
    ASSIGN_OR_RETURN(*e, expr::RemapColumns(*e, mapping));
  }
  return plan;
}

}  // namespace shoal::sql
