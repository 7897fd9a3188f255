// PIVOT and UNPIVOT after FROM (Spark): PIVOT is an aggregation grouped by the relation's other
// columns with one FILTERed aggregate per (value, aggregate); UNPIVOT is an Expand with one
// projection per IN item, then (EXCLUDE NULLS, the default) a filter of the all-NULL rows.
#include <set>

#include "expr/coercion.h"
#include "sql/binder/binder.h"
#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

// A PIVOT value's name: its alias, else the value as text (a string literal without quotes).
std::string ValueName(const PivotClause::Value& v) {
  if (!v.alias.empty()) return v.alias;
  std::string out;
  for (size_t i = 0; i < v.exprs.size(); ++i) {
    const ParsedExpression& e = *v.exprs[i];
    bool literal = e.kind == ExprKind::kConstant && e.As<ConstantExpression>().literal_kind == LiteralKind::kString;
    out += (i ? "_" : "") + (literal ? e.As<ConstantExpression>().text : e.ToString());
  }
  return out;
}

}  // namespace

Result<LogicalPtr> Binder::BindPivot(LogicalPtr plan, const PivotClause& pivot, const std::string& alias,
                                     Scope* scope) {
  ExprContext base;
  base.scope = scope;
  base.clause = "PIVOT";
  for (const auto& a : pivot.aggregates) {
    if (a.expr->kind != ExprKind::kFunction || !expr::IsAggregateFunction(Lower(a.expr->As<FunctionExpression>().name))) {
      return Status::Binder("PIVOT needs aggregate function calls, got " + a.expr->ToString());
    }
  }
  // The FOR columns and what the aggregates read are not grouped by; every other column is.
  std::set<int> used;
  std::vector<expr::ExprPtr> for_columns;
  for (const auto& c : pivot.for_columns) {
    ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*c, base));
    for (int i : expr::CollectColumns(*b)) used.insert(i);
    for_columns.push_back(std::move(b));
  }
  {
    AggregateState probe;
    ExprContext pctx = base;
    pctx.agg = &probe;
    for (const auto& a : pivot.aggregates) {
      RETURN_NOT_OK(BindAggregate(a.expr->As<FunctionExpression>(), pctx).status());
    }
    for (const auto& call : probe.aggregates) {
      for (const auto& arg : call.args) {
        for (int i : expr::CollectColumns(*arg)) used.insert(i);
      }
    }
  }
  AggregateState agg;
  std::vector<std::string> names;
  for (const ScopeColumn& c : scope->columns) {
    if (c.hidden || used.count(c.index)) continue;
    agg.groups.push_back(expr::ColumnRef(c.index, c.type, c.name, c.nullable));
    names.push_back(c.name);
  }
  ExprContext ctx = base;
  ctx.agg = &agg;
  std::vector<expr::ExprPtr> refs;
  for (const auto& v : pivot.values) {
    std::vector<expr::ExprPtr> eqs;
    for (size_t i = 0; i < v.exprs.size(); ++i) {
      ASSIGN_OR_RETURN(expr::ExprPtr value, BindExpr(*v.exprs[i], base));
      ASSIGN_OR_RETURN(expr::ExprPtr eq, expr::Call("=", {for_columns[i], value}));
      eqs.push_back(std::move(eq));
    }
    ASSIGN_OR_RETURN(expr::ExprPtr pred, expr::And(eqs));
    const std::string value_name = ValueName(v);
    for (const auto& a : pivot.aggregates) {
      ASSIGN_OR_RETURN(expr::ExprPtr ref, BindAggregate(a.expr->As<FunctionExpression>(), ctx, pred));
      refs.push_back(std::move(ref));
      std::string agg_name = a.alias.empty() ? a.expr->ToString() : a.alias;
      names.push_back(pivot.aggregates.size() == 1 ? value_name : value_name + "_" + agg_name);
    }
  }
  auto a = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  for (const auto& g : agg.groups) a->columns.push_back({g->name, g->type, g->nullable});
  for (const auto& c : agg.aggregates) a->columns.push_back({c.display, c.binding.result_type, true});
  const size_t group_count = agg.groups.size();
  a->groups = std::move(agg.groups);
  a->aggregates = std::move(agg.aggregates);
  a->children.push_back(std::move(plan));
  // The output: the groups, then one column per (value, aggregate) in the written order.
  std::vector<expr::ExprPtr> exprs;
  for (size_t i = 0; i < group_count; ++i) {
    const auto& f = a->columns[i];
    exprs.push_back(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable));
  }
  for (auto& r : refs) exprs.push_back(std::move(r));
  LogicalPtr out = MakeProject(std::move(a), std::move(exprs), names);
  scope->columns.clear();
  for (size_t i = 0; i < out->columns.size(); ++i) {
    const auto& f = out->columns[i];
    scope->columns.push_back({alias, f.name, static_cast<int>(i), f.type, f.nullable, false});
  }
  return out;
}

Result<LogicalPtr> Binder::BindUnpivot(LogicalPtr plan, const UnpivotClause& unpivot, const std::string& alias,
                                       Scope* scope) {
  auto find = [&](const std::string& name) -> Result<const ScopeColumn*> {
    const ScopeColumn* found = nullptr;
    for (const ScopeColumn& c : scope->columns) {
      if (c.hidden || !NameEq(c.name, name)) continue;
      if (found) return Status::Binder("UNPIVOT column \"" + name + "\" is ambiguous");
      found = &c;
    }
    if (!found) return Status::Binder("Referenced column \"" + name + "\" in UNPIVOT not found");
    return found;
  };
  // Per value column, the IN items' columns, cast to their common type.
  const size_t nv = unpivot.value_columns.size();
  std::vector<std::vector<expr::ExprPtr>> values(nv);
  std::set<int> used;
  for (const auto& item : unpivot.items) {
    for (size_t j = 0; j < nv; ++j) {
      ASSIGN_OR_RETURN(const ScopeColumn* c, find(item.columns[j]));
      used.insert(c->index);
      values[j].push_back(expr::ColumnRef(c->index, c->type, c->name, c->nullable));
    }
  }
  std::vector<columnar::TypePtr> types(nv);
  for (size_t j = 0; j < nv; ++j) {
    types[j] = values[j][0]->type;
    for (size_t k = 1; k < values[j].size(); ++k) {
      auto common = expr::CommonType(types[j], values[j][k]->type);
      if (!common.ok()) {
        return Status::Binder("UNPIVOT: the columns of \"" + unpivot.value_columns[j] + "\" have no common type (" +
                              common.status().message() + ")");
      }
      types[j] = *common;
    }
    for (auto& v : values[j]) {
      ASSIGN_OR_RETURN(v, expr::Cast(v, types[j]));
    }
  }
  std::vector<const ScopeColumn*> others;
  for (const ScopeColumn& c : scope->columns) {
    if (!c.hidden && !used.count(c.index)) others.push_back(&c);
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kExpand);
  for (const ScopeColumn* c : others) op->columns.push_back({c->name, c->type, c->nullable});
  op->columns.push_back({unpivot.name_column, columnar::String(), false});
  for (size_t j = 0; j < nv; ++j) op->columns.push_back({unpivot.value_columns[j], types[j], true});
  for (size_t k = 0; k < unpivot.items.size(); ++k) {
    const auto& item = unpivot.items[k];
    std::vector<expr::ExprPtr> set;
    for (const ScopeColumn* c : others) set.push_back(expr::ColumnRef(c->index, c->type, c->name, c->nullable));
    std::string name = item.alias;  // else the item's columns joined by '_'
    for (size_t j = 0; item.alias.empty() && j < nv; ++j) name += (j ? "_" : "") + item.columns[j];
    set.push_back(expr::Literal(columnar::Value::String(name)));
    for (size_t j = 0; j < nv; ++j) set.push_back(values[j][k]);
    op->expand_sets.push_back(std::move(set));
  }
  op->children.push_back(std::move(plan));
  LogicalPtr out = std::move(op);
  const size_t width = out->columns.size();
  if (!unpivot.include_nulls) {
    // EXCLUDE NULLS: a row whose values are all NULL is dropped.
    std::vector<expr::ExprPtr> present;
    for (size_t j = 0; j < nv; ++j) {
      const auto& f = out->columns[width - nv + j];
      present.push_back(expr::IsNull(expr::ColumnRef(static_cast<int>(width - nv + j), f.type, f.name, true), true));
    }
    ASSIGN_OR_RETURN(expr::ExprPtr keep, expr::Or(present));
    out = MakeFilter(std::move(out), keep);
  }
  scope->columns.clear();
  for (size_t i = 0; i < width; ++i) {
    const auto& f = out->columns[i];
    scope->columns.push_back({alias, f.name, static_cast<int>(i), f.type, f.nullable, false});
  }
  return out;
}

}  // namespace shoal::sql
