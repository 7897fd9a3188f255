// Session handlers for ALTER TABLE, VACUUM, RESTORE and COPY.
// Placeholder handlers until their implementation lands: each reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

namespace {
Status NotYet(const Statement& s) { return Status::NotSupported(StatementTypeName(s) + " is not supported yet"); }
}  // namespace

Result<QueryResult> Session::RunAlterTable(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunVacuum(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunRestore(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunCopy(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunDescribeHistory(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunDescribeDetail(const Statement& s) { return NotYet(s); }

}  // namespace shoal::sql
