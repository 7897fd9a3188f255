// Writes query results as csv, json, jsonl, markdown and line (the shell's --format and .mode),
// and dispatches to the box-drawing table renderer for `table` (alias `box`).
//
// Thread-safety: pure functions; a Sink is called from the calling thread only.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "cli/table_renderer.h"
#include "shoal/database.h"
#include "shoal/status.h"

namespace shoal::cli {

enum class OutputFormat { kTable, kBox, kCsv, kJson, kJsonl, kMarkdown, kLine };

// Parses "table", "box", "csv", "json", "jsonl", "markdown" or "line"; InvalidArgument naming
// the word otherwise.
Result<OutputFormat> ParseOutputFormat(std::string_view name);
const char* OutputFormatName(OutputFormat format);

// Receives output in chunks (about 64 KiB each, never per value).
using Sink = std::function<void(std::string_view)>;

// Header line of column names, then one line per row; RFC 4180 quoting (fields holding a comma,
// quote, CR or LF are quoted with inner quotes doubled); NULL is an empty field, the empty string
// is "" (so the two stay distinguishable).
void WriteCsv(const QueryResult& result, const Sink& sink, const TableLayout& layout = {});
// One line: a JSON array of objects keyed by column name in result order ("[]" when empty).
void WriteJson(const QueryResult& result, const Sink& sink);
// One JSON object per row, one per line.
void WriteJsonl(const QueryResult& result, const Sink& sink);

// True for statements whose result is rows to print in csv/json/jsonl (queries, SHOW, DESCRIBE,
// EXPLAIN, OPTIMIZE/VACUUM reports); false for DML, DDL and transaction control, whose
// affected-row counts only the table format shows.
bool PrintsRowsInDataFormats(std::string_view statement_type);

// A GitHub-flavoured Markdown table: header row, `---` separator (`---:` for numbers), rows with
// `|` and backslashes escaped and line breaks as spaces.
void WriteMarkdown(const QueryResult& result, const TableLayout& layout, const Sink& sink);
// One `name = value` line per column (names right-aligned), rows separated by an empty line.
void WriteLines(const QueryResult& result, const TableLayout& layout, const Sink& sink);

// Writes `result` in `format`: nothing for a result without columns, nor in csv/json/jsonl for
// a statement without rows (PrintsRowsInDataFormats).
void WriteResult(const QueryResult& result, OutputFormat format, const TableLayout& layout,
                 const Sink& sink);

}  // namespace shoal::cli
