// What the maintenance statements (ALTER, VACUUM, RESTORE, DESCRIBE HISTORY/DETAIL, COPY)
// share: opening the table a statement names and running small SQL probe queries through the
// session (row counts for new constraints, constant time-travel targets).
//
// Thread-safety: free functions; the session is used by its one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "columnar/value.h"
#include "scan/delta_scan.h"
#include "shoal/database.h"
#include "sql/parser/ast.h"

namespace shoal::sql {

class Session;

// The latest version of the table `name` refers to; Catalog error "Table with name X does not
// exist!" when it has no _delta_log. `load_progress` follows the log's load (Session::LoadProgress).
Result<std::shared_ptr<const scan::DeltaTable>> OpenMaintenanceTable(
    const Database::Impl& db, const TableName& name,
    const std::function<void(int64_t done, int64_t planned)>& load_progress = {});

// Runs `sql` (one SELECT returning one BIGINT) on the session and returns the value.
Result<int64_t> CountRows(Session& session, const std::string& sql);

// Evaluates a constant expression (SELECT <expr>) on the session.
Result<columnar::Value> EvaluateConstant(Session& session, const ParsedExpression& e);

}  // namespace shoal::sql
