// Query binding: SELECT (with aggregation, DISTINCT, ORDER BY, LIMIT), VALUES, set
// operations and WITH.
#include "sql/parser/token.h"
#include "sql/binder/binder.h"

#include <strings.h>

#include "expr/coercion.h"
#include "expr/evaluate.h"

namespace shoal::sql {

namespace {

using columnar::Value;

// The name a select item gets without an alias: the column's name, else the SQL text.
std::string DeriveName(const ParsedExpression& e) {
  if (e.kind == ExprKind::kColumnRef) return e.As<ColumnRefExpression>().parts.back();
  if (e.kind == ExprKind::kFunction) {
    const auto& f = e.As<FunctionExpression>();
    if (f.args.size() == 1 && f.args[0]->kind == ExprKind::kStar && !f.filter && !f.over) return f.name + "(*)";
  }
  return e.ToString();
}

// The 1-based ordinal when `e` is an integer literal, else 0.
Result<int64_t> Ordinal(const ParsedExpression& e, size_t count, const char* clause) {
  if (e.kind != ExprKind::kConstant) return 0;
  const auto& c = e.As<ConstantExpression>();
  if (c.literal_kind != LiteralKind::kInteger) return 0;
  int64_t k = 0;
  try {
    k = std::stoll(c.text);
  } catch (...) {
    k = -1;
  }
  if (k < 1 || static_cast<size_t>(k) > count) {
    return Status::Binder(std::string(clause) + " term out of range - should be between 1 and " +
                          std::to_string(count));
  }
  return k;
}

// ORDER BY ALL, unless a select column is named `all` (then ORDER BY all sorts by it).
bool OrdersByAll(const std::vector<OrderByItem>& order_by, const std::vector<std::string>& names, size_t visible) {
  if (order_by.size() != 1 || !order_by[0].all) return false;
  for (size_t i = 0; i < visible; ++i) {
    if (NameEq(names[i], "all")) return false;
  }
  return true;
}

// The sort keys of ORDER BY ALL: the first `visible` columns, left to right, in `all`'s order.
std::vector<SortKey> SortKeysOfAll(const OrderByItem& all, const std::vector<expr::ExprPtr>& exprs,
                                   const std::vector<std::string>& names, size_t visible) {
  std::vector<SortKey> keys;
  for (size_t i = 0; i < visible; ++i) {
    SortKey key;
    key.descending = all.descending;
    key.nulls_first = all.nulls == NullsOrder::kDefault ? !all.descending : all.nulls == NullsOrder::kFirst;
    key.expr = expr::ColumnRef(static_cast<int>(i), exprs[i]->type, names[i], exprs[i]->nullable);
    keys.push_back(std::move(key));
  }
  return keys;
}

LogicalPtr MakeDistinct(LogicalPtr child) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  op->columns = child->columns;
  for (size_t i = 0; i < child->columns.size(); ++i) {
    const auto& f = child->columns[i];
    op->groups.push_back(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable));
  }
  op->children.push_back(std::move(child));
  return op;
}

std::vector<expr::ExprPtr> OutputRefs(const LogicalOperator& op, size_t n) {
  std::vector<expr::ExprPtr> out;
  for (size_t i = 0; i < n; ++i) {
    const auto& f = op.columns[i];
    out.push_back(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable));
  }
  return out;
}

std::vector<std::string> Names(const LogicalOperator& op, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(op.columns[i].name);
  return out;
}

}  // namespace

Result<expr::ExprPtr> AsPredicate(expr::ExprPtr e, const char* clause) {
  if (e->type->id() == columnar::TypeId::kBoolean) return e;
  auto r = expr::ImplicitCast(e, columnar::Boolean());
  if (!r.ok()) {
    return Status::Binder(std::string(clause) + " clause must be BOOLEAN, got " + e->type->ToString());
  }
  return r;
}

Result<LogicalPtr> Binder::BindQuery(const QueryNode& query) { return BindQueryNode(query); }

Result<LogicalPtr> Binder::BindQueryNode(const QueryNode& query) {
  bool pushed = !query.ctes.empty();
  if (pushed) ctes_.push_back(&query.ctes);
  Result<LogicalPtr> r = Status::Internal("unbound query");
  switch (query.kind) {
    case QueryKind::kSelect: r = BindSelect(query.As<SelectNode>()); break;
    case QueryKind::kValues: {
      r = BindValues(query.As<ValuesNode>());
      if (r.ok()) r = BindModifiersOnOutput(query, std::move(r).value());
      break;
    }
    case QueryKind::kSetOperation: {
      r = BindSetOperation(query.As<SetOperationNode>());
      if (r.ok()) r = BindModifiersOnOutput(query, std::move(r).value());
      break;
    }
  }
  if (pushed) ctes_.pop_back();
  return r;
}

Result<LogicalPtr> Binder::BindSelect(const SelectNode& s) {
  Scope scope;
  LogicalPtr plan;
  if (s.from) {
    ASSIGN_OR_RETURN(plan, BindTableRef(*s.from, &scope));
    for (const LateralView& lv : s.lateral_views) {
      std::vector<size_t> generated;
      ASSIGN_OR_RETURN(plan, BindGenerate(std::move(plan), lv.call->As<FunctionExpression>(), lv.outer,
                                          lv.table_alias, lv.columns, &scope, &generated));
    }
    if (s.pivot) {
      ASSIGN_OR_RETURN(plan, BindPivot(std::move(plan), *s.pivot, s.pivot_alias, &scope));
    } else if (s.unpivot) {
      ASSIGN_OR_RETURN(plan, BindUnpivot(std::move(plan), *s.unpivot, s.pivot_alias, &scope));
    }
  } else {
    plan = std::make_unique<LogicalOperator>(LogicalKind::kValues);
    plan->values = std::make_shared<columnar::RecordBatch>(std::make_shared<columnar::Schema>(),
                                                           std::vector<columnar::VectorPtr>{}, 1);
  }
  if (s.where) {
    if (ContainsAggregate(*s.where)) return Status::Binder("WHERE clause cannot contain aggregates");
    std::vector<PendingSubquery> pending;
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "WHERE";
    ctx.pending = &pending;
    ASSIGN_OR_RETURN(expr::ExprPtr pred, BindExpr(*s.where, ctx));
    ASSIGN_OR_RETURN(pred, AsPredicate(pred, "WHERE"));
    if (pending.empty()) {
      plan = MakeFilter(std::move(plan), pred);
    } else {
      const size_t width = plan->columns.size();
      ASSIGN_OR_RETURN(plan, AttachPending(std::move(plan), &pending));
      ASSIGN_OR_RETURN(pred, ResolvePending(pred, static_cast<int>(width)));
      plan = MakeFilter(std::move(plan), pred);
      auto refs = OutputRefs(*plan, width);
      auto n = Names(*plan, width);
      plan = MakeProject(std::move(plan), std::move(refs), std::move(n));
    }
  }

  // A generator in the select list (SELECT explode(a) ...) runs after WHERE; its columns
  // replace the call.
  const ParsedExpression* generator_item = nullptr;
  std::vector<size_t> generated;
  for (const auto& si : s.select_list) {
    if (!si.aliases.empty() && !IsGeneratorCall(*si.expr)) {
      return Status::Binder("a multi-column alias AS (" + std::to_string(si.aliases.size()) +
                            " names) needs a generator function (explode, posexplode, inline)");
    }
    if (!IsGeneratorCall(*si.expr)) continue;
    if (generator_item) return Status::Binder("only one generator (explode, posexplode, inline) is allowed per SELECT");
    if (!s.group_by.empty() || s.group_by_all || !s.grouping_elements.empty()) {
      return Status::NotSupported("a generator in the select list of an aggregating query; use LATERAL VIEW");
    }
    generator_item = si.expr.get();
    std::vector<std::string> names;
    if (!si.alias.empty()) names.push_back(si.alias);
    names.insert(names.end(), si.aliases.begin(), si.aliases.end());
    ASSIGN_OR_RETURN(plan, BindGenerate(std::move(plan), si.expr->As<FunctionExpression>(), false, "", names,
                                        &scope, &generated));
  }

  // Select items, with `*` expanded to bound column references.
  struct Item {
    const ParsedExpression* ast = nullptr;
    expr::ExprPtr bound;
    std::string name;
  };
  std::vector<Item> items;
  std::vector<std::pair<std::string, const ParsedExpression*>> aliases;
  for (const auto& si : s.select_list) {
    if (si.expr->kind == ExprKind::kStar) {
      const auto& star = si.expr->As<StarExpression>();
      const auto& q = star.qualifier;
      size_t before = items.size();
      std::vector<bool> excepted(star.except.size(), false);
      for (const auto& c : scope.columns) {
        if (q.empty() ? c.hidden : !NameEq(c.table, q.back())) continue;
        bool skip = false;
        for (size_t k = 0; k < star.except.size(); ++k) {
          if (NameEq(star.except[k], c.name)) skip = excepted[k] = true;
        }
        if (skip) continue;
        items.push_back({nullptr, expr::ColumnRef(c.index, c.type, c.name, c.nullable), c.name});
      }
      for (size_t k = 0; k < star.except.size(); ++k) {
        if (!excepted[k]) {
          return Status::Binder("Referenced column \"" + star.except[k] + "\" in * EXCEPT not found");
        }
      }
      if (items.size() == before && !star.except.empty()) {
        return Status::Binder("* EXCEPT leaves no columns");
      }
      if (items.size() == before) {
        if (!q.empty()) return Status::Binder("Referenced table \"" + q.back() + "\" not found");
        return Status::Binder("SELECT * with no tables specified is not valid");
      }
      continue;
    }
    if (si.expr.get() == generator_item) {
      for (size_t g : generated) {
        const ScopeColumn& c = scope.columns[g];
        items.push_back({nullptr, expr::ColumnRef(c.index, c.type, c.name, c.nullable), c.name});
      }
      continue;
    }
    std::string name = si.alias.empty() ? DeriveName(*si.expr) : si.alias;
    if (!si.alias.empty()) aliases.emplace_back(si.alias, si.expr.get());
    items.push_back({si.expr.get(), nullptr, name});
  }

  bool aggregate = !s.group_by.empty() || !s.grouping_elements.empty() || s.having != nullptr || s.group_by_all;
  for (const auto& it : items) aggregate = aggregate || (it.ast && ContainsAggregate(*it.ast));
  for (const auto& o : s.order_by) aggregate = aggregate || ContainsAggregate(*o.expr);
  aggregate = aggregate || (s.qualify && ContainsAggregate(*s.qualify));
  const int input_width = static_cast<int>(plan->columns.size());

  AggregateState agg;
  if (aggregate) {
    ExprContext gctx;
    gctx.scope = &scope;
    gctx.clause = "GROUP BY";
    for (const auto& g : s.group_by) {
      ASSIGN_OR_RETURN(int64_t k, Ordinal(*g, items.size(), "GROUP BY"));
      expr::ExprPtr bound;
      const ParsedExpression* ast = g.get();
      if (k > 0) {
        ast = items[k - 1].ast;
        bound = items[k - 1].bound;
      } else if (g->kind == ExprKind::kColumnRef && g->As<ColumnRefExpression>().parts.size() == 1) {
        // Spark: a GROUP BY name that is no input column may name a select alias.
        const std::string& n = g->As<ColumnRefExpression>().parts[0];
        bool in_scope = false;
        for (const auto& c : scope.columns) in_scope = in_scope || (!c.hidden && NameEq(c.name, n));
        if (!in_scope) {
          for (const auto& [alias, a] : aliases) {
            if (NameEq(alias, n)) {
              ast = a;
              break;
            }
          }
        }
      }
      if (!bound) {
        if (ContainsAggregate(*ast)) return Status::Binder("GROUP BY clause cannot contain aggregates");
        ASSIGN_OR_RETURN(bound, BindExpr(*ast, gctx));
      }
      bool dup = false;
      for (const auto& e : agg.groups) dup = dup || e->Equals(*bound);
      if (!dup) agg.groups.push_back(bound);
    }
    // GROUP BY ALL: every select item that holds no aggregate (Spark, DuckDB).
    for (size_t i = 0; s.group_by_all && i < items.size(); ++i) {
      if (items[i].ast && ContainsAggregate(*items[i].ast)) continue;
      expr::ExprPtr bound = items[i].bound;
      if (!bound) {
        ASSIGN_OR_RETURN(bound, BindExpr(*items[i].ast, gctx));
      }
      bool dup = false;
      for (const auto& e : agg.groups) dup = dup || e->Equals(*bound);
      if (!dup) agg.groups.push_back(bound);
    }
    if (!s.grouping_elements.empty()) {
      ExprContext sctx = gctx;
      sctx.aliases = &aliases;  // names that are no input column may name select aliases
      RETURN_NOT_OK(BindGroupingSets(s, sctx, input_width, &agg));
    }
  }

  std::vector<PendingSubquery> pending;  // of the select list, HAVING and ORDER BY
  WindowState win;
  win.named = &s.windows;

  ExprContext ctx;
  ctx.scope = &scope;
  ctx.pending = &pending;
  ctx.agg = aggregate ? &agg : nullptr;
  ctx.aliases = &aliases;
  ctx.clause = "SELECT";
  ctx.win = &win;
  std::vector<expr::ExprPtr> exprs;
  std::vector<std::string> names;
  for (const auto& it : items) {
    expr::ExprPtr b = it.bound;
    if (b && aggregate) {
      int match = -1;
      for (size_t i = 0; i < agg.groups.size() && match < 0; ++i) {
        if (agg.groups[i]->Equals(*b)) match = static_cast<int>(i);
      }
      if (match < 0) {
        return Status::Binder("column \"" + it.name +
                              "\" must appear in the GROUP BY clause or must be part of an "
                              "aggregate function");
      }
      b = expr::ColumnRef(match, b->type, it.name, b->nullable);
    } else if (!b) {
      ExprContext ictx = ctx;
      ictx.aliases = nullptr;  // select items cannot refer to each other
      ASSIGN_OR_RETURN(b, BindExpr(*it.ast, ictx));
    }
    exprs.push_back(b);
    names.push_back(it.name);
  }
  const size_t visible = exprs.size();

  expr::ExprPtr having;
  if (s.having) {
    ExprContext hctx = ctx;
    hctx.clause = "HAVING";
    hctx.win = nullptr;
    ASSIGN_OR_RETURN(having, BindExpr(*s.having, hctx));
    ASSIGN_OR_RETURN(having, AsPredicate(having, "HAVING"));
  }
  expr::ExprPtr qualify;
  if (s.qualify) {
    ExprContext qctx = ctx;
    qctx.clause = "QUALIFY";
    ASSIGN_OR_RETURN(qualify, BindExpr(*s.qualify, qctx));
    ASSIGN_OR_RETURN(qualify, AsPredicate(qualify, "QUALIFY"));
  }

  // ORDER BY: ordinals and output names refer to select columns; other expressions are
  // computed as hidden columns of the projection.
  std::vector<SortKey> keys;
  const bool order_by_all = OrdersByAll(s.order_by, names, visible);
  if (order_by_all) keys = SortKeysOfAll(s.order_by.front(), exprs, names, visible);
  for (const auto& o : s.order_by) {
    if (order_by_all) break;
    ASSIGN_OR_RETURN(int64_t k, Ordinal(*o.expr, visible, "ORDER BY"));
    int col = static_cast<int>(k) - 1;
    if (col < 0 && o.expr->kind == ExprKind::kColumnRef &&
        o.expr->As<ColumnRefExpression>().parts.size() == 1) {
      const std::string& n = o.expr->As<ColumnRefExpression>().parts[0];
      for (size_t i = 0; i < visible && col < 0; ++i) {
        if (NameEq(names[i], n)) col = static_cast<int>(i);
      }
    }
    if (col < 0) {
      ExprContext octx = ctx;
      octx.clause = "ORDER BY";
      ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*o.expr, octx));
      for (size_t i = 0; i < exprs.size() && col < 0; ++i) {
        if (exprs[i]->Equals(*b)) col = static_cast<int>(i);
      }
      if (col < 0) {
        if (s.distinct) {
          return Status::Binder("for SELECT DISTINCT, ORDER BY expressions must appear in the select list");
        }
        col = static_cast<int>(exprs.size());
        exprs.push_back(b);
        names.push_back("__order_" + std::to_string(col));
      }
    }
    SortKey key;
    key.descending = o.descending;
    key.nulls_first = o.nulls == NullsOrder::kDefault ? !o.descending : o.nulls == NullsOrder::kFirst;
    key.expr = expr::ColumnRef(col, exprs[col]->type, names[col], exprs[col]->nullable);
    keys.push_back(std::move(key));
  }

  if (s.qualify && win.count == 0) {
    return Status::Binder("QUALIFY clause requires a window function in the query");
  }
  if (aggregate && agg.grouping_id >= 0) {
    ASSIGN_OR_RETURN(plan, PlanGroupingSets(std::move(plan), &agg));
  } else if (aggregate) {
    auto a = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
    for (const auto& g : agg.groups) {
      std::string n = g->kind == expr::ExprKind::kColumnRef ? g->name : g->ToString();
      a->columns.push_back({n, g->type, g->nullable});
    }
    for (const auto& c : agg.aggregates) a->columns.push_back({c.display, c.binding.result_type, true});
    a->groups = std::move(agg.groups);
    a->aggregates = std::move(agg.aggregates);
    a->children.push_back(std::move(plan));
    plan = std::move(a);
  }
  if (!pending.empty()) {
    const int width = static_cast<int>(plan->columns.size());
    ASSIGN_OR_RETURN(plan, AttachPending(std::move(plan), &pending));
    if (having) {
      ASSIGN_OR_RETURN(having, ResolvePending(having, width));
    }
    for (auto& e : exprs) {
      ASSIGN_OR_RETURN(e, ResolvePending(e, width));
    }
  }
  if (having) plan = MakeFilter(std::move(plan), having);
  if (win.count > 0) {
    std::vector<expr::ExprPtr*> refs = {&qualify};
    for (auto& e : exprs) refs.push_back(&e);
    ASSIGN_OR_RETURN(plan, PlanWindows(std::move(plan), win, std::move(refs)));
    if (qualify) plan = MakeFilter(std::move(plan), qualify);
  }
  plan = MakeProject(std::move(plan), std::move(exprs), names);
  if (s.distinct) plan = MakeDistinct(std::move(plan));
  if (!keys.empty()) {
    auto sort = std::make_unique<LogicalOperator>(LogicalKind::kSort);
    sort->columns = plan->columns;
    sort->sort_keys = std::move(keys);
    sort->children.push_back(std::move(plan));
    plan = std::move(sort);
  }
  if (plan->columns.size() > visible) {
    auto refs = OutputRefs(*plan, visible);
    auto n = Names(*plan, visible);
    plan = MakeProject(std::move(plan), std::move(refs), std::move(n));
  }
  return ApplyLimit(s, std::move(plan));
}

Result<LogicalPtr> Binder::BindValues(const ValuesNode& v) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ctx.clause = "VALUES";
  size_t ncols = v.rows.empty() ? 0 : v.rows[0].size();
  std::vector<std::vector<expr::ExprPtr>> rows;
  std::vector<columnar::TypePtr> types(ncols);
  for (const auto& row : v.rows) {
    if (row.size() != ncols) return Status::Binder("VALUES lists must all be the same length");
    std::vector<expr::ExprPtr> bound;
    for (size_t c = 0; c < ncols; ++c) {
      ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*row[c], ctx));
      if (!types[c]) {
        types[c] = b->type;
      } else {
        ASSIGN_OR_RETURN(types[c], expr::CommonType(types[c], b->type));
      }
      bound.push_back(std::move(b));
    }
    rows.push_back(std::move(bound));
  }
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::VectorPtr> cols;
  for (size_t c = 0; c < ncols; ++c) {
    schema->fields.push_back({"col" + std::to_string(c + 1), types[c], true});  // Spark: col1, col2, ...
    cols.push_back(columnar::Vector::Make(types[c], static_cast<int64_t>(rows.size())));
  }
  expr::EvalContext ectx;
  for (auto& row : rows) {
    for (size_t c = 0; c < ncols; ++c) {
      ASSIGN_OR_RETURN(expr::ExprPtr e, expr::Cast(row[c], types[c]));
      ASSIGN_OR_RETURN(Value val, expr::EvaluateConstant(*e, ectx));
      if (val.is_null()) {
        cols[c]->AppendNull();
      } else {
        val.AppendTo(cols[c].get());
      }
    }
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kValues);
  op->columns = schema->fields;
  op->values = std::make_shared<columnar::RecordBatch>(schema, std::move(cols),
                                                       static_cast<int64_t>(rows.size()));
  return op;
}

Result<LogicalPtr> Binder::BindSetOperation(const SetOperationNode& node) {
  ASSIGN_OR_RETURN(LogicalPtr left, BindQueryNode(*node.left));
  ASSIGN_OR_RETURN(LogicalPtr right, BindQueryNode(*node.right));
  if (left->columns.size() != right->columns.size()) {
    return Status::Binder("Set operations can only apply to expressions with the same number of "
                          "result columns (" + std::to_string(left->columns.size()) + " vs " +
                          std::to_string(right->columns.size()) + ")");
  }
  std::vector<columnar::TypePtr> types;
  for (size_t i = 0; i < left->columns.size(); ++i) {
    ASSIGN_OR_RETURN(auto t, expr::CommonType(left->columns[i].type, right->columns[i].type));
    types.push_back(t);
  }
  auto names = Names(*left, left->columns.size());
  auto cast_side = [&](LogicalPtr side) -> Result<LogicalPtr> {
    bool needed = false;
    std::vector<expr::ExprPtr> exprs;
    for (size_t i = 0; i < types.size(); ++i) {
      const auto& f = side->columns[i];
      ASSIGN_OR_RETURN(auto e, expr::Cast(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable), types[i]));
      needed = needed || !f.type->Equals(*types[i]) || f.name != names[i];
      exprs.push_back(e);
    }
    if (!needed) return side;
    return MakeProject(std::move(side), std::move(exprs), names);
  };
  ASSIGN_OR_RETURN(left, cast_side(std::move(left)));
  ASSIGN_OR_RETURN(right, cast_side(std::move(right)));
  LogicalPtr op;
  if (node.op == SetOpKind::kUnion) {
    op = std::make_unique<LogicalOperator>(LogicalKind::kUnion);
  } else {
    op = std::make_unique<LogicalOperator>(LogicalKind::kSetOp);
    op->set_op = node.op == SetOpKind::kExcept ? SetOpType::kExcept : SetOpType::kIntersect;
    op->all = node.all;
  }
  op->columns = left->columns;
  for (auto& c : op->columns) c.nullable = true;
  op->children.push_back(std::move(left));
  op->children.push_back(std::move(right));
  if (node.op == SetOpKind::kUnion && !node.all) return MakeDistinct(std::move(op));
  return op;
}

Result<LogicalPtr> Binder::BindModifiersOnOutput(const QueryNode& query, LogicalPtr plan) {
  if (!query.order_by.empty()) {
    Scope scope;
    for (size_t i = 0; i < plan->columns.size(); ++i) {
      const auto& f = plan->columns[i];
      scope.columns.push_back({"", f.name, static_cast<int>(i), f.type, f.nullable, false});
    }
    ExprContext ctx;
    ctx.scope = &scope;
    ctx.clause = "ORDER BY";
    auto sort = std::make_unique<LogicalOperator>(LogicalKind::kSort);
    std::vector<expr::ExprPtr> refs = OutputRefs(*plan, plan->columns.size());
    std::vector<std::string> names = Names(*plan, plan->columns.size());
    const bool order_by_all = OrdersByAll(query.order_by, names, names.size());
    if (order_by_all) sort->sort_keys = SortKeysOfAll(query.order_by.front(), refs, names, names.size());
    for (const auto& o : query.order_by) {
      if (order_by_all) break;
      ASSIGN_OR_RETURN(int64_t k, Ordinal(*o.expr, plan->columns.size(), "ORDER BY"));
      SortKey key;
      if (k > 0) {
        const auto& f = plan->columns[k - 1];
        key.expr = expr::ColumnRef(static_cast<int>(k - 1), f.type, f.name, f.nullable);
      } else {
        ASSIGN_OR_RETURN(key.expr, BindExpr(*o.expr, ctx));
      }
      key.descending = o.descending;
      key.nulls_first = o.nulls == NullsOrder::kDefault ? !o.descending : o.nulls == NullsOrder::kFirst;
      sort->sort_keys.push_back(std::move(key));
    }
    sort->columns = plan->columns;
    sort->children.push_back(std::move(plan));
    plan = std::move(sort);
  }
  return ApplyLimit(query, std::move(plan));
}

Result<int64_t> Binder::BindLimitValue(const ParsedExpression& e, const char* what) {
  ASSIGN_OR_RETURN(Value v, BindConstantValue(e));
  if (v.is_null()) return int64_t{-1};
  if (!v.type()->IsInteger()) return Status::Binder(std::string(what) + " must be an integer");
  int64_t n = v.type()->id() == columnar::TypeId::kUInt64 ? static_cast<int64_t>(v.GetUInt()) : v.GetInt();
  if (n < 0) return Status::InvalidArgument(std::string(what) + " must not be negative");
  return n;
}

Result<LogicalPtr> Binder::ApplyLimit(const QueryNode& query, LogicalPtr plan) {
  if (!query.limit && !query.offset) return plan;
  int64_t limit = -1, offset = 0;
  if (query.limit) {
    ASSIGN_OR_RETURN(limit, BindLimitValue(*query.limit, "LIMIT"));
  }
  if (query.offset) {
    ASSIGN_OR_RETURN(offset, BindLimitValue(*query.offset, "OFFSET"));
    if (offset < 0) offset = 0;
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kLimit);
  op->columns = plan->columns;
  op->limit = limit;
  op->offset = offset;
  op->children.push_back(std::move(plan));
  return op;
}

}  // namespace shoal::sql
