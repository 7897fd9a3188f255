// A query's answer as text, in the form both TPC-H runners write (bench_tpch_run for shoal,
// tools/duckdb/tpch.mjs for DuckDB), and the comparison that decides whether shoal's answer is
// DuckDB's: same columns count, same rows as multisets (decimals and integers exactly, a cell
// of a DOUBLE/FLOAT column to 1e-9 relative; where shoal's column is a DECIMAL of scale s and
// DuckDB's a DOUBLE — a DECIMAL division, whose type Spark's rules keep DECIMAL — DuckDB's value
// rounded to s digits), and shoal's rows in the order the query's final
// ORDER BY asks for (rows it leaves tied may come in any order).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "shoal/database.h"
#include "shoal/status.h"

namespace shoal::tpch {

struct Answer {
  std::vector<std::string> columns;
  std::vector<std::string> types;  // SQL spelling of each column's type, as the engine names it
  std::vector<std::vector<std::optional<std::string>>> rows;  // nullopt = NULL
};

// The text form: line 1 {"columns":[...],"types":[...]}, then one JSON array of strings or
// nulls per row.
std::string FormatAnswer(const Answer& answer);
Result<Answer> ParseAnswer(const std::string& text);

Answer AnswerOf(const QueryResult& result);

// Runs a query file's ';'-separated statements on `con`; the answer is the last statement's
// that returned columns (Q15: the SELECT between CREATE VIEW and DROP VIEW). With
// timeout_s > 0 a statement still running then is interrupted (InterruptException) and
// *timed_out set.
Result<Answer> RunQueryText(Connection& con, const std::string& sql, double timeout_s = 0,
                            bool* timed_out = nullptr);

// True when `got` (shoal's) is `want` (DuckDB's) for `sql`; otherwise *why says how it differs.
// `float_tolerance` is the relative difference allowed in DOUBLE/FLOAT columns.
bool SameAnswer(const Answer& got, const Answer& want, const std::string& sql, std::string* why,
                double float_tolerance = 1e-9);

}  // namespace shoal::tpch
