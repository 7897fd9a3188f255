#include "sql/parser/token.h"
#include "sql/write/dml_binding.h"

#include <strings.h>

#include "expr/cast.h"
#include "expr/evaluate.h"
#include "sql/binder/binder.h"
#include "sql/execution/executor.h"
#include "sql/optimizer/decorrelation.h"
#include "sql/optimizer/optimizer.h"
#include "sql/parser/parser.h"
#include "sql/execution/physical_planner.h"

namespace shoal::sql {
namespace {

std::string Items(const std::vector<const ParsedExpression*>& items) {
  if (items.empty()) return "1";
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", (" : "(") + items[i]->ToString() + ")";
  return out;
}

std::string Target(const TableName& table, const std::string& alias) {
  std::string out = table.ToString();
  if (!alias.empty()) out += " AS " + QuoteIdentifier(alias);
  return out;
}

}  // namespace

Result<LogicalPtr> DmlBinder::BindSelectText(const std::string& sql) {
  ASSIGN_OR_RETURN(StatementPtr st, ParseStatement(sql));
  if (st->kind != StatementKind::kSelect) return Status::Internal("DML binding: not a SELECT: " + sql);
  ExecContext* ctx = ctx_;
  Binder binder([ctx](LogicalPtr plan) -> Result<std::vector<columnar::BatchPtr>> {
    ASSIGN_OR_RETURN(plan, Optimize(std::move(plan)));
    ASSIGN_OR_RETURN(PhysicalPtr phys, CreatePhysicalPlan(*plan));
    return Executor(ctx).Run(phys.get());
  });
  binder.set_catalog(catalog_);
  // The text is built from the statement's parts: its offsets are not the caller's.
  return WithoutErrorOffset(binder.BindQuery(*st->As<SelectStatement>().query));
}

Status DmlBinder::BindOnTable(const TableName& table, const std::string& alias,
                              const std::vector<const ParsedExpression*>& items, const ParsedExpression* where,
                              std::vector<expr::ExprPtr>* bound_items, expr::ExprPtr* bound_where) {
  std::string sql = "SELECT " + Items(items) + " FROM " + Target(table, alias);
  if (where) sql += " WHERE (" + where->ToString() + ")";
  ASSIGN_OR_RETURN(LogicalPtr plan, BindSelectText(sql));
  const LogicalOperator* op = plan.get();
  if (op->kind != LogicalKind::kProject) {
    return Status::Binder("aggregate functions are not allowed in UPDATE or DELETE");
  }
  bound_items->assign(op->exprs.begin(), op->exprs.begin() + static_cast<long>(items.size()));
  if (HasDependentJoin(*plan)) {
    return Status::NotSupported("correlated subquery in UPDATE, DELETE or MERGE is not supported");
  }
  op = op->children[0].get();
  if (where) {
    if (op->kind != LogicalKind::kFilter) return Status::Internal("DML binding: expected a filter for WHERE");
    *bound_where = op->predicate;
    op = op->children[0].get();
  }
  if (op->kind != LogicalKind::kGet) {
    return Status::Binder("aggregate functions are not allowed in UPDATE or DELETE");
  }
  return Status::OK();
}

Result<LogicalPtr> DmlBinder::BindOnJoin(const TableRef& source, const TableName& table, const std::string& alias,
                                         const std::vector<const ParsedExpression*>& items,
                                         std::vector<expr::ExprPtr>* bound_items) {
  std::string sql = "SELECT " + Items(items) + " FROM " + source.ToString() + " CROSS JOIN " + Target(table, alias);
  ASSIGN_OR_RETURN(LogicalPtr plan, BindSelectText(sql));
  if (HasDependentJoin(*plan)) return Status::NotSupported("correlated subquery in MERGE is not supported");
  if (plan->kind != LogicalKind::kProject || plan->children[0]->kind != LogicalKind::kJoin) {
    return Status::Binder("aggregate functions are not allowed in MERGE");
  }
  bound_items->assign(plan->exprs.begin(), plan->exprs.begin() + static_cast<long>(items.size()));
  LogicalPtr join = std::move(plan->children[0]);
  return std::move(join->children[0]);
}

Result<table::ConstraintCheck> DmlBinder::BindChecks(const TableName& table, const delta::Metadata& metadata) {
  static const std::string kPrefix = "delta.constraints.";
  std::vector<std::string> names;
  std::vector<ExprPtr> parsed;
  for (const auto& [key, value] : metadata.configuration) {
    if (key.compare(0, kPrefix.size(), kPrefix) != 0) continue;
    ASSIGN_OR_RETURN(ExprPtr e, WithoutErrorOffset(ParseExpression(value)));
    names.push_back(key.substr(kPrefix.size()));
    parsed.push_back(std::move(e));
  }
  if (parsed.empty()) return table::ConstraintCheck();
  std::vector<const ParsedExpression*> items;
  for (const auto& e : parsed) items.push_back(e.get());
  std::vector<expr::ExprPtr> bound;
  expr::ExprPtr unused;
  RETURN_NOT_OK(BindOnTable(table, "", items, nullptr, &bound, &unused));
  std::vector<std::string> texts;
  for (size_t i = 0; i < bound.size(); ++i) {
    ASSIGN_OR_RETURN(bound[i], AsCondition(bound[i], "CHECK constraint " + names[i]));
    texts.push_back(parsed[i]->ToString());
  }
  int64_t ts = ctx_->statement_timestamp;
  return table::ConstraintCheck([bound, names, texts, ts](const columnar::RecordBatch& batch) -> Status {
    expr::EvalContext ectx(ts);
    for (size_t i = 0; i < bound.size(); ++i) {
      ASSIGN_OR_RETURN(columnar::VectorPtr v, expr::Evaluate(*bound[i], batch, ectx));
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        if (v->IsValid(r) && v->Get<uint8_t>(r) == 0) {
          return Status::Constraint("CHECK constraint " + names[i] + " " + texts[i] + " violated by row " +
                                    std::to_string(r) + " of the new rows");
        }
      }
    }
    return Status::OK();
  });
}

Result<std::vector<columnar::BatchPtr>> DmlBinder::Run(LogicalPtr plan) {
  ASSIGN_OR_RETURN(plan, Optimize(std::move(plan)));
  ASSIGN_OR_RETURN(PhysicalPtr phys, CreatePhysicalPlan(*plan));
  return Executor(ctx_).Run(phys.get());
}

LogicalPtr MakeTargetGet(std::shared_ptr<const DmlTargetSource> source) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGet);
  const auto& schema = source->schema();
  for (size_t i = 0; i < schema.size(); ++i) {
    op->projected.push_back(static_cast<int>(i));
    op->columns.push_back(schema.fields[i]);
  }
  op->source = std::move(source);
  return op;
}

Result<expr::ExprPtr> AsCondition(expr::ExprPtr e, const std::string& clause) {
  if (e->type->id() == columnar::TypeId::kBoolean) return e;
  auto r = expr::ImplicitCast(e, columnar::Boolean());
  if (!r.ok()) return Status::Binder(clause + " must be BOOLEAN, got " + e->type->ToString());
  return r;
}

Result<expr::ExprPtr> CastTo(expr::ExprPtr e, const columnar::TypePtr& type) {
  if (e->type->Equals(*type)) return e;
  return expr::Cast(std::move(e), type);
}

Result<int> AssignedColumn(const Assignment& a, const columnar::Schema& schema, const std::string& alias) {
  const auto& parts = a.column;
  if (parts.empty()) return Status::Binder("assignment without a column");
  if (parts.size() == 2 && !alias.empty() && NameEq(parts[0], alias) && schema.Find(parts[1]) >= 0) {
    return schema.Find(parts[1]);
  }
  if (parts.size() > 1) {
    return Status::NotSupported("assigning to a nested field or qualified column " + a.ToString() +
                                " is not supported");
  }
  int c = schema.Find(parts[0]);
  if (c < 0) return Status::Binder("Referenced column \"" + parts[0] + "\" not found in the target table");
  return c;
}

}  // namespace shoal::sql
