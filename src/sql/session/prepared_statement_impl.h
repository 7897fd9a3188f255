// The data behind shoal::PreparedStatement: the parsed statement, whose parameter literals share
// its ParameterValues, and the connection it runs on.
//
// Thread-safety: used by one thread at a time.
#pragma once

#include <memory>

#include "shoal/prepared.h"
#include "sql/parser/ast.h"
#include "sql/session/database_impl.h"

namespace shoal {

struct PreparedStatement::Impl {
  std::shared_ptr<Connection::Impl> conn;
  sql::StatementPtr statement;
};

namespace sql {
// InvalidArgument when `s` has parameters (? / $N): only a prepared statement can run it.
Status CheckNoParameters(const Statement& s);
}  // namespace sql

}  // namespace shoal
