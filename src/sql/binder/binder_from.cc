// FROM binding: CTE references, table functions, subqueries and joins.
#include <strings.h>

#include <cstdlib>
#include <random>

#include "sql/parser/token.h"
#include "sql/binder/binder.h"
#include "sql/binder/catalog.h"
#include "sql/binder/table_changes_binding.h"

namespace shoal::sql {

namespace {

Status RenameColumns(LogicalOperator* plan, const std::vector<std::string>& aliases,
                     const std::string& what) {
  if (aliases.size() > plan->columns.size()) {
    return Status::Binder(what + " has " + std::to_string(plan->columns.size()) +
                          " columns available but " + std::to_string(aliases.size()) +
                          " columns specified");
  }
  for (size_t i = 0; i < aliases.size(); ++i) plan->columns[i].name = aliases[i];
  return Status::OK();
}

// The columns of a NATURAL join: the names visible on both sides, in the left side's order.
std::vector<std::string> NaturalJoinColumns(const Scope& left, const Scope& right) {
  std::vector<std::string> out;
  for (const auto& l : left.columns) {
    if (l.hidden) continue;
    bool dup = false;
    for (const auto& o : out) dup = dup || NameEq(o, l.name);
    if (dup) continue;
    for (const auto& r : right.columns) {
      if (!r.hidden && NameEq(r.name, l.name)) {
        out.push_back(l.name);
        break;
      }
    }
  }
  return out;
}

// A RIGHT or FULL join's USING columns, merged as SQL merges them: the right value (RIGHT) or
// COALESCE(left, right) (FULL; a projection adds it), unqualified and at the left column's place;
// the left and right columns stay reachable qualified (hidden).
Result<LogicalPtr> MergeUsingColumns(LogicalPtr join, const std::vector<std::pair<int, int>>& pairs,
                                     Scope* scope) {
  const bool full = join->join_type == LogicalJoinType::kFull;
  std::vector<ScopeColumn> merged;
  std::vector<expr::ExprPtr> exprs;
  std::vector<std::string> names;
  if (full) {
    for (size_t i = 0; i < join->columns.size(); ++i) {
      const auto& f = join->columns[i];
      exprs.push_back(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable));
      names.push_back(f.name);
    }
  }
  for (const auto& [li, ri] : pairs) {
    const ScopeColumn& l = scope->columns[li];
    const ScopeColumn& r = scope->columns[ri];
    ScopeColumn m{"", l.name, r.index, r.type, true, false};
    if (full) {
      ASSIGN_OR_RETURN(auto coalesce, expr::Call("coalesce", {expr::ColumnRef(l.index, l.type, l.name, true),
                                                              expr::ColumnRef(r.index, r.type, r.name, true)}));
      m.index = static_cast<int>(exprs.size());
      m.type = coalesce->type;
      exprs.push_back(coalesce);
      names.push_back(l.name);
    }
    merged.push_back(m);
  }
  std::vector<ScopeColumn> columns;
  for (size_t p = 0; p < scope->columns.size(); ++p) {
    columns.push_back(scope->columns[p]);
    for (size_t k = 0; k < pairs.size(); ++k) {
      if (pairs[k].first != static_cast<int>(p)) continue;
      columns.back().hidden = true;
      columns.push_back(merged[k]);
    }
  }
  scope->columns = std::move(columns);
  if (!full) return join;
  return MakeProject(std::move(join), std::move(exprs), std::move(names));
}

void AddToScope(const LogicalOperator& plan, const std::string& table, Scope* scope) {
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const auto& f = plan.columns[i];
    scope->columns.push_back({table, f.name, static_cast<int>(i), f.type, f.nullable, false});
  }
}
}  // namespace

const CommonTableExpr* Binder::FindCte(const std::string& name) const {
  for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
    for (const auto& c : **it) {
      if (!NameEq(c.name, name)) continue;
      bool in_progress = false;
      for (const auto& b : binding_ctes_) in_progress = in_progress || NameEq(b, name);
      if (!in_progress) return &c;
    }
  }
  return nullptr;
}

Result<LogicalPtr> Binder::BindTableRef(const TableRef& ref, Scope* scope) {
  auto bound = BindTableRefSampled(ref, scope);
  if (!bound.ok()) return PointAt(bound.status(), ref.position);
  return bound;
}

Result<LogicalPtr> Binder::BindTableRefSampled(const TableRef& ref, Scope* scope) {
  ASSIGN_OR_RETURN(LogicalPtr plan, BindTableRefUnsampled(ref, scope));
  if (!ref.sample) return plan;
  const TableSample& sample = *ref.sample;
  if (sample.kind == TableSample::Kind::kRows) {
    // Spark: the first n rows of the relation, as LIMIT n.
    auto limit = std::make_unique<LogicalOperator>(LogicalKind::kLimit);
    limit->columns = plan->columns;
    limit->limit = sample.rows;
    limit->children.push_back(std::move(plan));
    return LogicalPtr(std::move(limit));
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kSample);
  op->columns = plan->columns;
  op->sample_fraction = sample.kind == TableSample::Kind::kPercent
                            ? std::strtod(sample.percent.c_str(), nullptr) / 100.0
                            : static_cast<double>(sample.bucket) / static_cast<double>(sample.buckets);
  // Without REPEATABLE, a new sample each time the statement is bound (Spark: a random seed).
  op->sample_seed = sample.seed ? static_cast<uint64_t>(*sample.seed) : std::random_device{}() * 0x9E3779B97F4A7C15ULL;
  op->children.push_back(std::move(plan));
  return LogicalPtr(std::move(op));
}

Result<LogicalPtr> Binder::BindTableRefUnsampled(const TableRef& ref, Scope* scope) {
  switch (ref.kind) {
    case TableRefKind::kBaseTable: {
      const auto& b = ref.As<BaseTableRef>();
      if (!b.name.IsPath() && b.name.parts.size() == 1) {
        ASSIGN_OR_RETURN(LogicalPtr working, BindWorkingTableRef(b.name.parts[0]));
        if (working) {
          if (b.time_travel) return Status::Binder("time travel is not possible on a CTE");
          RETURN_NOT_OK(RenameColumns(working.get(), ref.column_aliases, "table \"" + b.name.parts[0] + "\""));
          AddToScope(*working, ref.alias.empty() ? b.name.parts[0] : ref.alias, scope);
          return working;
        }
        if (const CommonTableExpr* cte = FindCte(b.name.parts[0])) {
          if (b.time_travel) return Status::Binder("time travel is not possible on a CTE");
          if (cte->recursive) {
            ASSIGN_OR_RETURN(LogicalPtr p, BindRecursiveCte(*cte));
            RETURN_NOT_OK(RenameColumns(p.get(), ref.column_aliases, "table \"" + cte->name + "\""));
            AddToScope(*p, ref.alias.empty() ? cte->name : ref.alias, scope);
            return p;
          }
          binding_ctes_.push_back(cte->name);
          // The CTE's own WITH list must not see itself or later CTEs: bind it with the CTE
          // stack as it is (recursion is rejected by binding_ctes_).
          auto plan = BindQueryNode(*cte->query);
          binding_ctes_.pop_back();
          if (!plan.ok()) return plan.status();
          LogicalPtr p = std::move(plan).value();
          RETURN_NOT_OK(RenameColumns(p.get(), cte->columns, "CTE \"" + cte->name + "\""));
          RETURN_NOT_OK(RenameColumns(p.get(), ref.column_aliases, "table \"" + cte->name + "\""));
          AddToScope(*p, ref.alias.empty() ? cte->name : ref.alias, scope);
          return p;
        }
      }
      if (catalog_) {
        if (auto source = catalog_->FindRelation(b.name)) {
          if (b.time_travel) return Status::Binder("time travel is not possible on " + source->ToString());
          return BindSourceScan(std::move(source), ref.alias.empty() ? b.name.parts[0] : ref.alias,
                                ref.column_aliases, "relation", scope);
        }
        ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, catalog_->FindView(b.name));
        if (view) {
          if (b.time_travel) return Status::Binder("time travel is not possible on view " + view->name);
          ASSIGN_OR_RETURN(LogicalPtr p, BindView(*view));
          RETURN_NOT_OK(RenameColumns(p.get(), ref.column_aliases, "view \"" + view->name + "\""));
          AddToScope(*p, ref.alias.empty() ? view->name : ref.alias, scope);
          return p;
        }
        return BindCatalogTable(b, ref, scope);
      }
      return Status::Catalog("Table with name " + b.name.ToString() + " does not exist!");
    }
    case TableRefKind::kTableFunction: return BindTableFunction(ref.As<TableFunctionRef>(), scope);
    case TableRefKind::kSubquery: {
      const auto& s = ref.As<SubqueryRef>();
      return BindNamedQuery(*s.query, ref.alias, ref.column_aliases, scope);
    }
    case TableRefKind::kJoin: return BindJoin(ref.As<JoinRef>(), scope);
  }
  return Status::Internal("unknown table reference");
}

Result<LogicalPtr> Binder::BindNamedQuery(const QueryNode& query, const std::string& alias,
                                          const std::vector<std::string>& column_aliases,
                                          Scope* scope) {
  ASSIGN_OR_RETURN(LogicalPtr plan, BindQueryNode(query));
  RETURN_NOT_OK(RenameColumns(plan.get(), column_aliases, "subquery \"" + alias + "\""));
  AddToScope(*plan, alias, scope);
  return plan;
}

Result<LogicalPtr> Binder::BindTableFunction(const TableFunctionRef& ref, Scope* scope) {
  const FunctionExpression& call = *ref.call;
  const bool table_changes = strcasecmp(call.name.c_str(), kTableChangesFunction) == 0;
  const TableFunction* fn = TableFunctionRegistry::Get().Find(call.name);
  if (!fn && !table_changes) {
    return Status::Catalog("Table Function with name " + call.name +
                           " does not exist. Candidates: " + [] {
                             std::string s;
                             for (const auto& n : TableFunctionRegistry::Get().Names()) {
                               s += (s.empty() ? "" : ", ") + n;
                             }
                             return s;
                           }());
  }
  TableFunctionArgs args;
  for (size_t i = 0; i < call.args.size(); ++i) {
    ASSIGN_OR_RETURN(columnar::Value v, BindConstantValue(*call.args[i]));
    const std::string& n = i < call.arg_names.size() ? call.arg_names[i] : std::string();
    if (n.empty()) {
      args.positional.push_back(std::move(v));
    } else {
      args.named.emplace_back(Lower(n), std::move(v));
    }
  }
  if (table_changes) {
    if (!catalog_) return Status::Binder("table_changes needs a catalog to resolve its table");
    ASSIGN_OR_RETURN(std::shared_ptr<const TableSource> source, BindTableChanges(*catalog_, args));
    return BindSourceScan(std::move(source), ref.alias.empty() ? kTableChangesFunction : ref.alias,
                          ref.column_aliases, "table function", scope);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<const TableSource> source, fn->bind(args));
  return BindSourceScan(std::move(source), ref.alias.empty() ? fn->name : ref.alias, ref.column_aliases,
                        "table function", scope);
}

Result<LogicalPtr> Binder::BindSourceScan(std::shared_ptr<const TableSource> source, const std::string& alias,
                                          const std::vector<std::string>& column_aliases, const std::string& what,
                                          Scope* scope) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGet);
  op->source = source;
  const auto& schema = source->schema();
  for (size_t i = 0; i < schema.size(); ++i) {
    op->projected.push_back(static_cast<int>(i));
    op->columns.push_back(schema.fields[i]);
  }
  RETURN_NOT_OK(RenameColumns(op.get(), column_aliases, what + " \"" + alias + "\""));
  AddToScope(*op, alias, scope);
  return LogicalPtr(std::move(op));
}

Result<LogicalPtr> Binder::BindJoin(const JoinRef& join, Scope* scope) {
  Scope ls, rs;
  ASSIGN_OR_RETURN(LogicalPtr left, BindTableRef(*join.left, &ls));
  const bool lateral = join.right->kind == TableRefKind::kSubquery && join.right->As<SubqueryRef>().lateral;
  std::shared_ptr<SubqueryInfo> lateral_info;
  LogicalPtr right;
  if (lateral) {
    // The subquery may name the left side's columns: they are outer references to it.
    if (join.type == JoinType::kRight || join.type == JoinType::kFull) {
      return Status::NotSupported("RIGHT or FULL JOIN LATERAL is not supported");
    }
    ExprContext lctx;
    lctx.scope = &ls;
    lctx.clause = "LATERAL";
    ASSIGN_OR_RETURN(right, BindLateral(*join.right, lctx, &rs, &lateral_info));
  } else {
    ASSIGN_OR_RETURN(right, BindTableRef(*join.right, &rs));
  }
  const int lw = static_cast<int>(left->columns.size());
  Scope combined = ls;
  for (auto c : rs.columns) {
    c.index += lw;
    combined.columns.push_back(c);
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  switch (join.type) {
    case JoinType::kInner:
    case JoinType::kCross: op->join_type = LogicalJoinType::kInner; break;
    case JoinType::kLeft: op->join_type = LogicalJoinType::kLeft; break;
    case JoinType::kRight: op->join_type = LogicalJoinType::kRight; break;
    case JoinType::kFull: op->join_type = LogicalJoinType::kFull; break;
    case JoinType::kSemi: op->join_type = LogicalJoinType::kSemi; break;
    case JoinType::kAnti: op->join_type = LogicalJoinType::kAnti; break;
  }
  const bool left_only = op->join_type == LogicalJoinType::kSemi || op->join_type == LogicalJoinType::kAnti;
  const std::vector<std::string>& using_columns = join.natural ? NaturalJoinColumns(ls, rs) : join.using_columns;
  expr::ExprPtr cond;
  std::vector<std::pair<int, int>> using_pairs;  // (left, right) positions in `combined`
  if (!using_columns.empty()) {
    std::vector<expr::ExprPtr> eqs;
    for (const auto& name : using_columns) {
      auto find = [&](const Scope& s, int offset, const char* side) -> Result<int> {
        int found = -1;
        for (size_t i = 0; i < s.columns.size(); ++i) {
          if (s.columns[i].hidden || !NameEq(s.columns[i].name, name)) continue;
          if (found >= 0) return Status::Binder("USING column \"" + name + "\" is ambiguous on the " + side + " side");
          found = static_cast<int>(i);
        }
        if (found < 0) return Status::Binder("USING column \"" + name + "\" not found on the " + side + " side of the join");
        return found + offset;
      };
      ASSIGN_OR_RETURN(int li, find(ls, 0, "left"));
      ASSIGN_OR_RETURN(int ri, find(rs, lw, "right"));
      const auto& lc = combined.columns[li];
      const auto& rc = combined.columns[ri];
      ASSIGN_OR_RETURN(auto eq, expr::Call("=", {expr::ColumnRef(lc.index, lc.type, lc.name, lc.nullable),
                                                 expr::ColumnRef(rc.index, rc.type, rc.name, rc.nullable)}));
      eqs.push_back(eq);
      using_pairs.emplace_back(li, ri);
      // The merged column is the left one (RIGHT and FULL joins: see MergeUsingColumns).
      combined.columns[ri].hidden = true;
    }
    ASSIGN_OR_RETURN(cond, expr::And(eqs));
  } else if (join.condition) {
    if (ContainsAggregate(*join.condition)) return Status::Binder("JOIN condition cannot contain aggregates");
    ExprContext ctx;
    ctx.scope = &combined;
    ctx.clause = "JOIN condition";
    ASSIGN_OR_RETURN(cond, BindExpr(*join.condition, ctx));
    if (cond->type->id() != columnar::TypeId::kBoolean) {
      ASSIGN_OR_RETURN(cond, expr::ImplicitCast(cond, columnar::Boolean()));
    }
  }
  op->columns = left->columns;
  if (!left_only) {
    for (const auto& f : right->columns) op->columns.push_back(f);
  }
  bool left_nullable = op->join_type == LogicalJoinType::kRight || op->join_type == LogicalJoinType::kFull;
  bool right_nullable = op->join_type == LogicalJoinType::kLeft || op->join_type == LogicalJoinType::kFull;
  for (int i = 0; i < static_cast<int>(op->columns.size()); ++i) {
    if (i < lw ? left_nullable : right_nullable) op->columns[i].nullable = true;
  }
  op->children.push_back(std::move(left));
  op->children.push_back(std::move(right));
  if (lateral_info) {  // a dependent join: decorrelation plans the ON condition with it
    op->subquery = std::move(lateral_info);
    op->predicate = cond;
  } else if (cond) {
    RETURN_NOT_OK(AddJoinCondition(op.get(), cond));
  }
  if (left_only) {
    *scope = std::move(ls);  // the right side was visible to the condition only
    return LogicalPtr(std::move(op));
  }
  for (auto& c : combined.columns) c.nullable = op->columns[c.index].nullable;
  LogicalPtr plan(std::move(op));
  if (!using_pairs.empty() &&
      (plan->join_type == LogicalJoinType::kRight || plan->join_type == LogicalJoinType::kFull)) {
    ASSIGN_OR_RETURN(plan, MergeUsingColumns(std::move(plan), using_pairs, &combined));
  }
  if (!using_columns.empty()) {
    // Spark's column order: the USING (or NATURAL) columns first, in their order, then the
    // other columns of both sides. Only the scope's order changes (what * expands to).
    std::vector<ScopeColumn> first, rest;
    std::vector<bool> taken(combined.columns.size(), false);
    for (const auto& name : using_columns) {
      for (size_t i = 0; i < combined.columns.size(); ++i) {
        if (taken[i] || combined.columns[i].hidden || !NameEq(combined.columns[i].name, name)) continue;
        first.push_back(combined.columns[i]);
        taken[i] = true;
        break;
      }
    }
    for (size_t i = 0; i < combined.columns.size(); ++i) {
      if (!taken[i]) rest.push_back(combined.columns[i]);
    }
    first.insert(first.end(), rest.begin(), rest.end());
    combined.columns = std::move(first);
  }
  *scope = std::move(combined);
  return plan;
}

}  // namespace shoal::sql
