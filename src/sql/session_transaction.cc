// Session handlers for transaction statements.
// Placeholder handlers until their implementation lands: each reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

namespace {
Status NotYet(const Statement& s) { return Status::NotSupported(StatementTypeName(s) + " is not supported yet"); }
}  // namespace

Result<QueryResult> Session::RunTransaction(const Statement& s) { return NotYet(s); }

Result<TableWrite*> Session::BeginTableWrite(const TableName&, const std::string& operation, delta::Json) {
  return Status::NotSupported(operation + " is not supported yet");
}
Result<txn::CommitResult> Session::EndTableWrite(TableWrite*) { return Status::NotSupported("writes are not supported yet"); }
void Session::AbortTableWrite(TableWrite*, const Status&) {}

}  // namespace shoal::sql
