// Session handlers for DELETE, UPDATE and MERGE.
// Placeholder handlers until their implementation lands: each reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

namespace {
Status NotYet(const Statement& s) { return Status::NotSupported(StatementTypeName(s) + " is not supported yet"); }
}  // namespace

Result<QueryResult> Session::RunDelete(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunUpdate(const Statement& s) { return NotYet(s); }
Result<QueryResult> Session::RunMerge(const Statement& s) { return NotYet(s); }

}  // namespace shoal::sql
