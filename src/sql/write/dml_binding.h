// Binding and running the pieces of a DML statement through the regular binder, optimizer and
// executor: the statement's expressions are bound by binding a generated SELECT over the
// target (and, for MERGE, `source CROSS JOIN target`), so they resolve names, aliases,
// subqueries and casts exactly as queries do; the DML plans are then built around a
// DmlTargetSource and run like queries.
//
// Thread-safety: a DmlBinder serves one statement on one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/parser/ast.h"
#include "sql/binder/catalog.h"
#include "sql/write/dml_target_source.h"
#include "sql/binder/logical_plan.h"
#include "sql/execution/physical_operator.h"
#include "table/data_file_writer.h"

namespace shoal::sql {

class DmlBinder {
 public:
  DmlBinder(const Catalog* catalog, ExecContext* ctx) : catalog_(catalog), ctx_(ctx) {}

  // Binds `items` (and `where`, as a BOOLEAN predicate) over the columns of `table` seen as
  // `alias`. The bound expressions index the table's columns.
  Status BindOnTable(const TableName& table, const std::string& alias,
                     const std::vector<const ParsedExpression*>& items, const ParsedExpression* where,
                     std::vector<expr::ExprPtr>* bound_items, expr::ExprPtr* bound_where);

  // Binds `items` over `source CROSS JOIN table AS alias`: the bound expressions index the
  // source's columns followed by the table's. Returns the source's plan.
  Result<LogicalPtr> BindOnJoin(const TableRef& source, const TableName& table, const std::string& alias,
                                const std::vector<const ParsedExpression*>& items,
                                std::vector<expr::ExprPtr>* bound_items);

  // Binds the table's CHECK constraints (delta.constraints.*) into a check for DataFileWriter;
  // none when the table has none.
  Result<table::ConstraintCheck> BindChecks(const TableName& table, const delta::Metadata& metadata);

  // Optimizes, plans and runs `plan`, returning its batches.
  Result<std::vector<columnar::BatchPtr>> Run(LogicalPtr plan);

 private:
  Result<LogicalPtr> BindSelectText(const std::string& sql);

  const Catalog* catalog_;
  ExecContext* ctx_;
};

// A Get of every column of `source` (table columns then row addresses).
LogicalPtr MakeTargetGet(std::shared_ptr<const DmlTargetSource> source);
// `e` coerced to BOOLEAN (BinderException naming `clause` when it cannot be).
Result<expr::ExprPtr> AsCondition(expr::ExprPtr e, const std::string& clause);
// `e` cast to `type` unless it already has it.
Result<expr::ExprPtr> CastTo(expr::ExprPtr e, const columnar::TypePtr& type);
// The table column an assignment names (`c`, or `q.c` when q is the table's alias/name).
Result<int> AssignedColumn(const Assignment& a, const columnar::Schema& schema, const std::string& alias);

}  // namespace shoal::sql
