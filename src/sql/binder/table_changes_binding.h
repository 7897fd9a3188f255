// table_changes('table', start [, end]): the change data feed of a Delta table as a FROM item
// (Databricks' function; table/change_data_reader.h reads the rows). `table` is a table name
// (`t`, `db.t`) or a path; start and end are versions (integers) or timestamps (TIMESTAMP,
// DATE or a string such as '2024-01-01 00:00:00'). The rows are read at bind time.
//
// Thread-safety: a pure function.
#pragma once

#include <memory>

#include "sql/binder/catalog.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

inline constexpr const char* kTableChangesFunction = "table_changes";

Result<std::shared_ptr<const TableSource>> BindTableChanges(const Catalog& catalog, const TableFunctionArgs& args);

}  // namespace shoal::sql
