// Session handler for DESCRIBE LAYOUT.
// Placeholder handler until its implementation lands: it reports NotSupported.
#include "sql/session.h"

namespace shoal::sql {

Result<QueryResult> Session::RunDescribeLayout(const Statement& s) {
  return Status::NotSupported(StatementTypeName(s) + " LAYOUT is not supported yet");
}

}  // namespace shoal::sql
