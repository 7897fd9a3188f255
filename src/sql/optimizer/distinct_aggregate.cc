#include "sql/optimizer/distinct_aggregate.h"

#include <string>

namespace shoal::sql {

namespace {

bool Splittable(const LogicalOperator& op) {
  if (op.kind != LogicalKind::kAggregate || op.aggregates.empty()) return false;
  const AggregateCall& first = op.aggregates[0];
  if (first.args.size() != 1) return false;
  for (const AggregateCall& a : op.aggregates) {
    const std::string& n = a.binding.name;
    if (!a.binding.distinct || a.args.size() != 1 || !a.args[0]->Equals(*first.args[0])) return false;
    if (n != "count" && n != "sum" && n != "avg" && n != "min" && n != "max") return false;
  }
  return true;
}

Status Split(LogicalOperator* op) {
  const expr::ExprPtr x = op->aggregates[0].args[0];
  const size_t ngroups = op->groups.size();
  auto inner = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  inner->groups = op->groups;
  inner->groups.push_back(x);
  for (size_t i = 0; i < ngroups; ++i) inner->columns.push_back(op->columns[i]);
  inner->columns.push_back({"__distinct", x->type, x->nullable});
  inner->children.push_back(std::move(op->children[0]));

  std::vector<expr::ExprPtr> groups;
  for (size_t i = 0; i < ngroups; ++i) {
    const auto& f = inner->columns[i];
    groups.push_back(expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable));
  }
  const expr::ExprPtr xref = expr::ColumnRef(static_cast<int>(ngroups), x->type, "__distinct", x->nullable);
  for (AggregateCall& a : op->aggregates) {
    ASSIGN_OR_RETURN(expr::AggregateBinding plain,
                     expr::ResolveAggregate(a.binding.name, a.binding.arg_types, /*distinct=*/false));
    if (!plain.result_type->Equals(*a.binding.result_type)) {
      return Status::Internal("DISTINCT split changed the type of " + a.display);
    }
    a.binding = std::move(plain);
    a.args = {xref};
  }
  op->groups = std::move(groups);
  op->children[0] = std::move(inner);
  return Status::OK();
}

}  // namespace

Status SplitDistinctAggregates(LogicalOperator* op) {
  for (auto& c : op->children) RETURN_NOT_OK(SplitDistinctAggregates(c.get()));
  if (Splittable(*op)) RETURN_NOT_OK(Split(op));
  return Status::OK();
}

}  // namespace shoal::sql
