// Session handlers for CREATE TABLE, DROP TABLE and DESCRIBE.
// Placeholder handlers until their implementation lands: each reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

namespace {
Status NotYet(const Statement& s) { return Status::NotSupported(StatementTypeName(s) + " is not supported yet"); }
}  // namespace

Result<QueryResult> Session::RunCreateTable(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunDropTable(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunDescribe(const Statement& s) { return NotYet(s); }

}  // namespace shoal::sql
