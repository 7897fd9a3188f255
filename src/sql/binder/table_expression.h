// Binds SQL expression text against a table's columns (outside any query): CHECK constraints,
// INSERT … REPLACE WHERE, and read predicates of prepared transactions re-bound when they are
// committed. Column references resolve case-insensitively to the schema's top-level columns;
// the bound expression's column indices are schema indices.
//
// Thread-safety: pure function.
#pragma once

#include <string>

#include "columnar/type.h"
#include "expr/expr.h"
#include "shoal/status.h"

namespace shoal::sql {

// Parses and binds `sql` (one scalar expression, no subqueries or aggregates).
Result<expr::ExprPtr> BindTableExpression(const std::string& sql, const columnar::Schema& schema);

}  // namespace shoal::sql
