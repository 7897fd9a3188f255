// FROM binding: CTE references, table functions, subqueries and joins.
#include <strings.h>

#include "sql/binder/binder.h"

namespace shoal::sql {

namespace {
bool NameEq(const std::string& a, const std::string& b) { return strcasecmp(a.c_str(), b.c_str()) == 0; }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

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
  switch (ref.kind) {
    case TableRefKind::kBaseTable: {
      const auto& b = ref.As<BaseTableRef>();
      if (!b.name.IsPath() && b.name.parts.size() == 1) {
        if (const CommonTableExpr* cte = FindCte(b.name.parts[0])) {
          if (b.time_travel) return Status::Binder("time travel is not possible on a CTE");
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
      if (catalog_) return BindCatalogTable(b, ref, scope);
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
  const TableFunction* fn = TableFunctionRegistry::Get().Find(call.name);
  if (!fn) {
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
  ASSIGN_OR_RETURN(std::shared_ptr<const TableSource> source, fn->bind(args));
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGet);
  op->source = source;
  const auto& schema = source->schema();
  for (size_t i = 0; i < schema.size(); ++i) {
    op->projected.push_back(static_cast<int>(i));
    op->columns.push_back(schema.fields[i]);
  }
  std::string alias = ref.alias.empty() ? fn->name : ref.alias;
  RETURN_NOT_OK(RenameColumns(op.get(), ref.column_aliases, "table function \"" + alias + "\""));
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
  }
  expr::ExprPtr cond;
  if (!join.using_columns.empty()) {
    std::vector<expr::ExprPtr> eqs;
    for (const auto& name : join.using_columns) {
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
      // The merged column is the left one, except for a RIGHT join.
      combined.columns[op->join_type == LogicalJoinType::kRight ? li : ri].hidden = true;
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
  for (const auto& f : right->columns) op->columns.push_back(f);
  bool left_nullable = op->join_type == LogicalJoinType::kRight || op->join_type == LogicalJoinType::kFull;
  bool right_nullable = op->join_type == LogicalJoinType::kLeft || op->join_type == LogicalJoinType::kFull;
  for (int i = 0; i < static_cast<int>(op->columns.size()); ++i) {
    if (i < lw ? left_nullable : right_nullable) op->columns[i].nullable = true;
  }
  for (auto& c : combined.columns) c.nullable = op->columns[c.index].nullable;
  op->children.push_back(std::move(left));
  op->children.push_back(std::move(right));
  if (lateral_info) {  // a dependent join: decorrelation plans the ON condition with it
    op->subquery = std::move(lateral_info);
    op->predicate = cond;
  } else if (cond) {
    RETURN_NOT_OK(AddJoinCondition(op.get(), cond));
  }
  *scope = std::move(combined);
  return LogicalPtr(std::move(op));
}

}  // namespace shoal::sql
