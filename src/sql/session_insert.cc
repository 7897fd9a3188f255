// Session handler for INSERT.
// Placeholder handlers until their implementation lands: each reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

namespace {
Status NotYet(const Statement& s) { return Status::NotSupported(StatementTypeName(s) + " is not supported yet"); }
}  // namespace

Result<QueryResult> Session::RunInsert(const Statement& s) { return NotYet(s); }

}  // namespace shoal::sql
