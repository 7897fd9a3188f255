// WITH RECURSIVE: a recursive CTE is iterated to its fixpoint while binding, through the
// SubqueryRunner, and bound as VALUES of its rows (as uncorrelated subqueries are). The anchor
// (left of the top-level UNION [ALL]) runs once; the recursive term (its right) is re-bound and
// run on the working table — the previous iteration's new rows — until an iteration adds none.
// UNION keeps only rows not seen before (EXCEPT against the result so far); UNION ALL keeps all.
#include <strings.h>

#include "sql/binder/binder.h"

namespace shoal::sql {

namespace {

// Beyond these a recursive CTE fails (OutOfRangeException) instead of running on.
constexpr int kMaxRecursionIterations = 10000;
constexpr int64_t kMaxRecursionRows = 10'000'000;

columnar::BatchPtr ConcatRows(const std::vector<columnar::Field>& columns,
                              const std::vector<columnar::BatchPtr>& batches) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = columns;
  int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows;
  std::vector<columnar::VectorPtr> vectors;
  for (size_t i = 0; i < columns.size(); ++i) {
    std::vector<columnar::VectorPtr> parts;
    for (const auto& b : batches) {
      if (b->num_rows > 0) parts.push_back(b->columns[i]);
    }
    if (parts.empty()) {
      vectors.push_back(columnar::Vector::Make(columns[i].type, 0));
    } else {
      vectors.push_back(parts.size() == 1 ? parts[0] : columnar::Concat(parts));
    }
  }
  return std::make_shared<columnar::RecordBatch>(schema, std::move(vectors), rows);
}

LogicalPtr ValuesOf(const std::vector<columnar::Field>& columns, columnar::BatchPtr rows) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kValues);
  op->columns = columns;
  op->values = std::move(rows);
  return op;
}

std::vector<expr::ExprPtr> ColumnRefs(const std::vector<columnar::Field>& columns) {
  std::vector<expr::ExprPtr> out;
  for (size_t i = 0; i < columns.size(); ++i) {
    out.push_back(expr::ColumnRef(static_cast<int>(i), columns[i].type, columns[i].name, columns[i].nullable));
  }
  return out;
}

// Pops the CTE's name from the binder's in-progress list when the binding ends.
class BindingCteScope {
 public:
  BindingCteScope(std::vector<std::string>* names, const std::string& name) : names_(names) {
    names_->push_back(name);
  }
  ~BindingCteScope() { names_->pop_back(); }
  BindingCteScope(const BindingCteScope&) = delete;
  BindingCteScope& operator=(const BindingCteScope&) = delete;

 private:
  std::vector<std::string>* names_;
};

}  // namespace

Result<LogicalPtr> Binder::BindWorkingTableRef(const std::string& name) {
  for (auto it = working_tables_.rbegin(); it != working_tables_.rend(); ++it) {
    WorkingTable& w = **it;
    if (strcasecmp(w.name.c_str(), name.c_str()) != 0) continue;
    if (!w.allowed) {
      return Status::Binder("recursive reference to \"" + name +
                            "\" is allowed only on the right of its query's top-level UNION [ALL]");
    }
    if (++w.references > 1) {
      return Status::Binder("recursive CTE \"" + name + "\" may be referenced only once in its recursive term");
    }
    return ValuesOf(w.columns, w.rows);
  }
  return LogicalPtr();
}

Result<LogicalPtr> Binder::BindRecursiveCte(const CommonTableExpr& cte) {
  const std::string what = "WITH RECURSIVE \"" + cte.name + "\"";
  BindingCteScope in_progress(&binding_ctes_, cte.name);
  auto name_columns = [&](std::vector<columnar::Field>* columns) -> Status {
    if (cte.columns.size() > columns->size()) {
      return Status::Binder(what + " has " + std::to_string(columns->size()) + " columns available but " +
                            std::to_string(cte.columns.size()) + " columns specified");
    }
    for (size_t i = 0; i < cte.columns.size(); ++i) (*columns)[i].name = cte.columns[i];
    return Status::OK();
  };
  // Binds `query` with the CTE's name standing for `table` (a guard when !table->allowed).
  auto bind_with = [&](const QueryNode& query, WorkingTable* table) -> Result<LogicalPtr> {
    working_tables_.push_back(table);
    Result<LogicalPtr> plan = BindQueryNode(query);
    working_tables_.pop_back();
    return plan;
  };
  const QueryNode& q = *cte.query;
  WorkingTable guard;
  guard.name = cte.name;
  if (q.kind != QueryKind::kSetOperation || q.As<SetOperationNode>().op != SetOpKind::kUnion ||
      q.HasModifiers()) {
    ASSIGN_OR_RETURN(LogicalPtr plan, bind_with(q, &guard));  // fails on a self-reference
    RETURN_NOT_OK(name_columns(&plan->columns));
    return plan;
  }
  const auto& set = q.As<SetOperationNode>();
  ASSIGN_OR_RETURN(LogicalPtr anchor, bind_with(*set.left, &guard));
  std::vector<columnar::Field> columns = anchor->columns;
  for (auto& c : columns) c.nullable = true;
  RETURN_NOT_OK(name_columns(&columns));

  auto run = [&](LogicalPtr plan) -> Result<columnar::BatchPtr> {
    ASSIGN_OR_RETURN(std::vector<columnar::BatchPtr> batches, runner_(std::move(plan)));
    return ConcatRows(columns, batches);
  };
  ASSIGN_OR_RETURN(columnar::BatchPtr total, run(std::move(anchor)));
  if (!set.all) {
    auto distinct = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
    distinct->columns = columns;
    distinct->groups = ColumnRefs(columns);
    distinct->children.push_back(ValuesOf(columns, total));
    ASSIGN_OR_RETURN(total, run(std::move(distinct)));
  }
  columnar::BatchPtr working = total;
  for (int iteration = 1;; ++iteration) {
    if (iteration > kMaxRecursionIterations) {
      return Status::OutOfRange(what + " did not reach a fixpoint within " +
                                std::to_string(kMaxRecursionIterations) + " iterations (the recursion limit)");
    }
    WorkingTable table;
    table.name = cte.name;
    table.allowed = true;
    table.rows = working;
    table.columns = columns;
    ASSIGN_OR_RETURN(LogicalPtr step, bind_with(*set.right, &table));
    if (table.references == 0) {
      // No self-reference: an ordinary UNION, bound as such.
      ASSIGN_OR_RETURN(LogicalPtr plan, BindQueryNode(q));
      RETURN_NOT_OK(name_columns(&plan->columns));
      return plan;
    }
    if (step->columns.size() != columns.size()) {
      return Status::Binder(what + ": the recursive term returns " + std::to_string(step->columns.size()) +
                            " columns, the anchor " + std::to_string(columns.size()));
    }
    std::vector<expr::ExprPtr> casts;
    bool cast_needed = false;
    for (size_t i = 0; i < columns.size(); ++i) {
      const auto& f = step->columns[i];
      expr::ExprPtr ref = expr::ColumnRef(static_cast<int>(i), f.type, f.name, f.nullable);
      if (!(*f.type == *columns[i].type)) {
        auto cast = expr::ImplicitCast(ref, columns[i].type);
        if (!cast.ok()) {
          return Status::Binder(what + ": the recursive term's column " + std::to_string(i + 1) + " is " +
                                f.type->ToString() + ", the anchor's " + columns[i].type->ToString());
        }
        ref = std::move(cast).value();
        cast_needed = true;
      }
      casts.push_back(std::move(ref));
    }
    if (cast_needed) {
      std::vector<std::string> names;
      for (const auto& c : columns) names.push_back(c.name);
      step = MakeProject(std::move(step), std::move(casts), std::move(names));
    }
    ASSIGN_OR_RETURN(columnar::BatchPtr fresh, run(std::move(step)));
    if (!set.all && fresh->num_rows > 0) {
      auto except = std::make_unique<LogicalOperator>(LogicalKind::kSetOp);
      except->set_op = SetOpType::kExcept;
      except->all = false;
      except->columns = columns;
      except->children.push_back(ValuesOf(columns, fresh));
      except->children.push_back(ValuesOf(columns, total));
      ASSIGN_OR_RETURN(fresh, run(std::move(except)));
    }
    if (fresh->num_rows == 0) break;
    total = ConcatRows(columns, {total, fresh});
    if (total->num_rows > kMaxRecursionRows) {
      return Status::OutOfRange(what + " produced more than " + std::to_string(kMaxRecursionRows) +
                                " rows (the recursion limit)");
    }
    working = std::move(fresh);
  }
  return ValuesOf(columns, total);
}

}  // namespace shoal::sql
