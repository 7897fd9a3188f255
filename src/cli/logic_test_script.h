// Parses sqllogictest scripts (DuckDB dialect, the subset shoal's test/sql/**.test files use)
// into records, unrolling `loop` blocks and applying `mode skip`/`halt`/`require`.
//
// Record grammar (records are separated by blank lines; `#` lines are comments):
//   statement ok [CON]            SQL...
//   statement error [CON]         SQL... [---- expected error text (a substring of ToString())]
//   statement error <Name>...     SQL...  (expected text given on the header line)
//   query <types> [rowsort|valuesort|nosort] [CON]   SQL... ---- rows (tab-separated values)
//   restart | halt | mode skip | mode unskip | require <feature> | loop VAR FROM TO ... endloop
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::cli {

enum class SortMode { kNoSort, kRowSort, kValueSort };

struct LogicTestRecord {
  enum class Kind { kStatementOk, kStatementError, kQuery, kRestart };
  Kind kind = Kind::kStatementOk;
  int line = 0;            // 1-based line of the record's header
  std::string sql;
  std::string connection;  // "" = the default connection
  std::string expected_error;  // kStatementError: required substring ("" = any error)
  std::string types;       // kQuery: one letter per result column
  SortMode sort = SortMode::kNoSort;
  std::vector<std::string> expected;  // kQuery: expected result lines
};

struct LogicTestScript {
  std::vector<LogicTestRecord> records;
  int skipped = 0;          // records inside `mode skip`
  std::string skip_reason;  // set when the whole file is to be skipped (`require` unknown)
};

// Parses `text`; `path` names the file in errors (InvalidArgument "path:line: ..."). A `require`
// of a feature not in `features` stops parsing with skip_reason set.
Result<LogicTestScript> ParseLogicTest(std::string_view text, std::string_view path,
                                       const std::set<std::string>& features);

// Replaces each ${NAME} whose NAME is in `vars`; other text is kept as is.
std::string SubstituteVariables(std::string_view text, const std::map<std::string, std::string>& vars);

}  // namespace shoal::cli
