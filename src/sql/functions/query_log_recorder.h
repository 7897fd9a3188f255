// Records the filter shape of scans over Delta tables with shoal.localSort.auto = 'true' into
// the table's query log (table/query_log.h), for the layout advisor. The check is a lookup in
// the snapshot's configuration map, so other tables pay nothing; logging failures never fail the
// query.
//
// Thread-safety: the returned Scan is used as any Scan (Next from several workers); recording
// happens once, when it is destroyed.
#pragma once

#include <memory>
#include <vector>

#include "expr/expr.h"
#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "sql/functions/table_function.h"
#include "table/query_log.h"

namespace shoal::sql {

// True when the table's configuration has shoal.localSort.auto = true (case-insensitive key).
bool QueryLogEnabled(const scan::DeltaTable& table);

// The shape of `filters` (conjuncts over output columns; `columns[i]` is output i's table column
// index): =/IN -> eq, </<=/>/>= -> range, IS NULL -> is null, LIKE 'x%'/starts_with -> prefix,
// AND flattened; other conjuncts (OR, <>, NOT, functions of columns) are left out.
table::QueryShape ShapeOfFilters(const std::vector<expr::ExprPtr>& filters, const std::vector<int>& columns,
                                 const scan::TableSchema& schema);

// Wraps `scan` so that after it ran to its end one query-log entry (shape, rows in/out, bytes
// read) is appended; returns `scan` unchanged when logging is off for the table, there is no
// file system, the request has no usable filter or a LIMIT.
std::unique_ptr<Scan> RecordQueryShape(std::unique_ptr<Scan> scan, std::shared_ptr<io::FileSystem> fs,
                                       std::shared_ptr<const scan::DeltaTable> table, const ScanRequest& request);

}  // namespace shoal::sql
