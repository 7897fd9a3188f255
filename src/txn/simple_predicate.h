// Binds predicates written in a small SQL subset, `<column> <op> <literal> [AND ...]`, to a
// table schema: the re-binder prepared transactions use when no SQL binder is available (the
// txn layer's own tests store such predicates).
//
// Thread-safety: pure function.
#pragma once

#include <string>

#include "expr/expr.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"

namespace shoal::txn {

// op: = <> != < <= > >=; literal: integer, decimal number, 'string' with '' escapes, true,
// false; AND in any case. InvalidArgument naming the text and position on anything else.
Result<expr::ExprPtr> BindSimplePredicate(const std::string& sql, const scan::TableSchema& schema);

}  // namespace shoal::txn
