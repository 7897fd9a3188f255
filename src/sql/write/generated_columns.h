// Generated columns (Delta feature generatedColumns, column metadata
// delta.generationExpression): binds each expression, parsed from its stored SQL text, over the
// table's logical columns; computes the columns a write does not supply and checks the ones it
// does (NULL-safe equality with the expression's value cast to the column type, as Delta's
// implicit "Generated Column" CHECK constraint). Also validates the expressions of CREATE TABLE.
//
// Thread-safety: a bound GeneratedColumns is immutable; Fill/Check may run on many threads
// with distinct EvalContexts.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "columnar/vector.h"
#include "delta/actions.h"
#include "expr/evaluate.h"
#include "expr/expr.h"
#include "shoal/status.h"

namespace shoal::sql {

class GeneratedColumns {
 public:
  struct Column {
    size_t index = 0;        // table column
    std::string name;        // logical column name
    std::string sql;         // delta.generationExpression as stored
    expr::ExprPtr value;     // the expression over table columns, cast to the column's type
    expr::ExprPtr matches;   // `column <=> value`
    std::vector<int> inputs; // table columns the expression reads
  };

  // Binds the generation expressions of `metadata`'s top-level columns over `table_schema`
  // (scan::BuildTableSchema(metadata).schema); nullptr when the table has none. Errors name
  // the column when an expression does not parse or bind.
  static Result<std::shared_ptr<const GeneratedColumns>> Bind(const delta::Metadata& metadata,
                                                              const columnar::Schema& table_schema);

  const std::vector<Column>& columns() const { return columns_; }
  // True when table column `c` is generated.
  bool IsGenerated(size_t c) const { return c < generated_.size() && generated_[c]; }

  // Replaces, in `batch` (table columns in table order), every generated column `c` with
  // !supplied[c] by its computed value, and checks the supplied ones as Check() does.
  // `supplied` has one entry per table column.
  Status Apply(columnar::RecordBatch* batch, const std::vector<bool>& supplied, expr::EvalContext& ctx) const;

  // Checks every generated column of `batch` against its expression: Constraint naming the
  // column, the expression and the offending row's values on the first mismatch.
  Status Check(const columnar::RecordBatch& batch, expr::EvalContext& ctx) const;

 private:
  Status CheckColumn(const Column& c, const columnar::RecordBatch& batch, expr::EvalContext& ctx) const;

  std::vector<Column> columns_;
  std::vector<bool> generated_;  // per table column
};

// Validates CREATE TABLE's generation expressions (`expressions`: column name -> SQL) over the
// declared `schema`: each must bind, read only non-generated columns of the table, be
// deterministic (no subqueries, aggregates, window functions, current_date/now/rand), and have
// a type that casts to its column's type. InvalidArgument naming the column otherwise.
Status ValidateGenerationExpressions(const columnar::Schema& schema,
                                     const std::map<std::string, std::string>& expressions);

}  // namespace shoal::sql
