// Tab completion for the interactive shell: SQL keywords, the warehouse's table names, column
// names of the tables the statement names, function names (with "("), and file paths inside an
// open single quote (read_parquet('data/...). Pure logic over a CompletionSource, so the line
// editor only glues it to libedit.
//
// Thread-safety: Complete is a pure function of its arguments (the callbacks may read state).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::cli {

struct CompletionSource {
  // The warehouse's table names.
  std::function<std::vector<std::string>()> tables;
  // The column names of `table` (empty when it is unknown).
  std::function<std::vector<std::string>(const std::string& table)> columns;
  // Scalar, aggregate and table function names.
  std::vector<std::string> functions;
};

// Candidates replacing `word`, the text from the word's start to the cursor, given `statement`
// (the whole statement up to the cursor: earlier lines and the current line). With `in_quotes`
// (InsideQuotes), `word` is a partial file path and the candidates are paths (directories end
// in '/'). Otherwise candidates keep what the user typed before the last '.' in `word`
// ("t.am" -> "t.amount"); keywords follow the case the user typed; functions end in '('.
// Sorted, without duplicates.
std::vector<std::string> Complete(std::string_view word, std::string_view statement, const CompletionSource& source,
                                  bool in_quotes = false);

// True when `before_cursor` ends inside an unclosed single-quoted string (a file path).
bool InsideQuotes(std::string_view before_cursor);

// The SQL keywords offered for completion (upper case).
const std::vector<std::string>& CompletionKeywords();

}  // namespace shoal::cli
