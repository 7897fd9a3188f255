// Column defaults (Delta feature allowColumnDefaults, column metadata CURRENT_DEFAULT): the
// value a write stores in a column it does not supply, and the DEFAULT keyword of INSERT …
// VALUES and UPDATE/MERGE SET. A default is a constant expression (literals, functions of
// literals, current_date()/now() fixed per statement); it is evaluated once per statement.
//
// Thread-safety: a ColumnDefaults is immutable after Evaluate; share it freely.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "columnar/value.h"
#include "delta/actions.h"
#include "sql/parser/ast.h"
#include "shoal/status.h"

namespace shoal::sql {

class ColumnDefaults {
 public:
  // Evaluates the defaults of `metadata`'s top-level columns, cast to the column types of
  // `table_schema` (scan::BuildTableSchema(metadata).schema). Errors name the column.
  static Result<ColumnDefaults> Evaluate(const delta::Metadata& metadata, const columnar::Schema& table_schema,
                                         int64_t statement_timestamp);

  // True when table column `c` has a default.
  bool Has(size_t c) const { return c < sql_.size() && sql_[c].has_value(); }
  // The value a write stores when it omits column `c`: its default, else NULL of its type.
  const columnar::Value& ValueOf(size_t c) const { return values_[c]; }
  // SQL text standing for column `c`'s default: its CURRENT_DEFAULT, else "NULL".
  std::string SqlOf(size_t c) const { return Has(c) ? *sql_[c] : "NULL"; }
  // A freshly parsed expression for the DEFAULT keyword in column `c`.
  Result<ExprPtr> ParsedOf(size_t c) const;

 private:
  std::vector<std::optional<std::string>> sql_;  // per table column
  std::vector<columnar::Value> values_;          // per table column
};

// Checks a default for `field` (CREATE TABLE … DEFAULT, ALTER COLUMN SET DEFAULT): it binds
// without column references, subqueries or aggregates, evaluates, and casts to the column's
// type. InvalidArgument naming the column otherwise.
Status ValidateDefaultExpression(const std::string& sql, const columnar::Field& field);

// True when `e` is the DEFAULT keyword.
bool IsDefaultKeyword(const ParsedExpression& e);

// Resolves the DEFAULT cells of INSERT … VALUES. The VALUES positions map to
// `named_columns`, or without a list to every table column (when the widths agree) or else to
// those not `omittable` (generated, GENERATED ALWAYS identity). A position whose every cell is
// DEFAULT and whose column is `computed` (generated or identity) is removed so that the write
// computes it; other DEFAULT cells become the column's default expression (NULL when it has
// none); a computed column with only some DEFAULT cells must have been split off first
// (SplitMixedComputedDefaults). Sets *rewritten to the new VALUES and returns the column list to
// insert it with.
Result<std::vector<std::string>> ResolveDefaultKeywords(const ValuesNode& values, const columnar::Schema& table_schema,
                                                        const std::vector<std::string>& named_columns,
                                                        const ColumnDefaults& defaults,
                                                        const std::function<bool(size_t)>& omittable,
                                                        const std::function<bool(size_t)>& computed,
                                                        QueryPtr* rewritten);

// INSERT … VALUES whose computed columns (generated or identity) hold DEFAULT in some rows and
// values in others: the rows split into groups in which each such column is DEFAULT in every
// row or in none (one group per pattern, in order of first use; rows keep their order within a
// group), to be written one after the other in the same transaction. Empty when no computed
// column is mixed. The VALUES positions map to columns as in ResolveDefaultKeywords.
Result<std::vector<QueryPtr>> SplitMixedComputedDefaults(const ValuesNode& values, const columnar::Schema& table_schema,
                                                         const std::vector<std::string>& named_columns,
                                                         const std::function<bool(size_t)>& omittable,
                                                         const std::function<bool(size_t)>& computed);

// True when some cell of `query` (a VALUES node) is the DEFAULT keyword.
bool HasDefaultKeyword(const QueryNode& query);

}  // namespace shoal::sql
