// Compares a query's result with a sqllogictest record's expected rows: values in text form
// (QueryResult::GetText), NULL as "NULL", the empty string as "(empty)", columns tab-separated,
// with rowsort / valuesort applied to both sides.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "cli/logic_test_script.h"
#include "shoal/database.h"

namespace shoal::cli {

// One line per row, values tab-separated, as a test file writes them.
std::vector<std::string> ResultLines(const QueryResult& result);

// "" when `result` matches `record` (a kQuery record); otherwise a description of the mismatch
// listing the expected and the actual lines.
std::string CheckQueryResult(const LogicTestRecord& record, const QueryResult& result);

}  // namespace shoal::cli
