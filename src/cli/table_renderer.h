// Renders a query result as a DuckDB-like box-drawing table: column names and types as two
// header rows, numbers right-aligned, long values truncated with "…" to fit the width, and the
// middle rows (and, if still too wide, middle columns) elided with a "N rows (M shown)" footer.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "shoal/database.h"

namespace shoal::cli {

struct TableLayout {
  // Total width of the table in terminal columns (the terminal width, or 80 off a terminal).
  int max_width = 80;
  // Results with more rows show the first and last max_rows/2 rows.
  int max_rows = 40;
  // Column names (and, in a table, types) above the rows (the shell's .headers).
  bool headers = true;
  // How NULL is shown (.nullvalue); unset: "NULL", and an empty field in csv.
  std::optional<std::string> null_value;
};

std::string RenderTable(const QueryResult& result, const TableLayout& layout);

// Terminal columns taken by UTF-8 text: East Asian wide characters and emoji count 2, combining
// marks 0, every other code point (and every invalid byte) 1.
int DisplayWidth(std::string_view utf8);
// `utf8` if it fits in `width` columns, else its longest prefix that fits in width-1 columns
// followed by "…".
std::string FitToWidth(std::string_view utf8, int width);

}  // namespace shoal::cli
