// Points at the offending token of a failed statement, as PostgreSQL's and DuckDB's shells do:
// the statement's line and a caret under the token. Errors locate it by their offset
// (Status::error_offset, into the text the shell ran); binder errors without one (about SQL
// the engine built, e.g. UPDATE's SET list) by the first whole, unquoted occurrence of the
// column or table "not found" in the statement.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "shoal/status.h"

namespace shoal::cli {

struct TokenPosition {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes of the line
};

// Where in `sql` the error points, if it says.
std::optional<TokenPosition> LocateError(const Status& status, std::string_view sql);

// "LINE 2: <the line>\n" and a caret line under the token; "" when the error locates nothing.
std::string ErrorPointer(const Status& status, std::string_view sql);

}  // namespace shoal::cli
