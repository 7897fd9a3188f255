// WriteColumnRules: what one write statement (INSERT, UPDATE, MERGE) applies to the target's
// columns beyond casting — column defaults (CURRENT_DEFAULT) for omitted columns and the
// DEFAULT keyword, generated columns (computed when not supplied, checked when supplied) and
// identity columns (never updated; generated or checked on insert).
// Keeps the DML code's share of these rules to a few calls.
//
// Thread-safety: immutable after Make; ApplyGenerated may run on many threads with distinct
// EvalContexts.
#pragma once

#include <memory>
#include <vector>

#include "columnar/vector.h"
#include "sql/write/column_defaults.h"
#include "sql/write/generated_columns.h"
#include "sql/write/identity_columns.h"

namespace shoal::sql {

class WriteColumnRules {
 public:
  // Binds the generated columns and evaluates the defaults of `metadata` over `table_schema`
  // (its logical columns, scan::BuildTableSchema order).
  static Result<WriteColumnRules> Make(const delta::Metadata& metadata, const columnar::Schema& table_schema,
                                       int64_t statement_timestamp);

  const std::shared_ptr<const GeneratedColumns>& generated() const { return generated_; }
  const ColumnDefaults& defaults() const { return defaults_; }
  bool IsGenerated(size_t c) const { return generated_ && generated_->IsGenerated(c); }

  const IdentityColumns& identity() const { return identity_; }

  // Resolves the value of UPDATE's (or MERGE … UPDATE's) `SET c = *value`. NotSupported on an
  // identity column, whatever the value. For the DEFAULT keyword: on a generated column returns
  // false (drop the assignment: the column is recomputed); otherwise points *value at the
  // column's default expression (NULL without one), owned by *storage. Other values stay.
  Result<bool> ResolveUpdateValue(size_t c, const ParsedExpression** value, std::vector<ExprPtr>* storage) const;

  // Resolves the value an INSERT (MERGE … INSERT) supplies for column c. For the DEFAULT
  // keyword: on a generated or identity column returns false (drop it: the column is computed
  // or gets a generated identity value); otherwise as ResolveUpdateValue. A value other than
  // DEFAULT for a GENERATED ALWAYS identity column is a Binder error.
  Result<bool> ResolveInsertValue(size_t c, const ParsedExpression** value, std::vector<ExprPtr>* storage) const;

  // The value of a column an INSERT omits: its default, else NULL of its type.
  const columnar::Value& OmittedValue(size_t c) const { return defaults_.ValueOf(c); }

  // Computes, in `batch` (table columns in table order), the generated columns not supplied
  // and checks the supplied ones (Constraint on a mismatch).
  Status ApplyGenerated(columnar::RecordBatch* batch, const std::vector<bool>& supplied, expr::EvalContext& ctx) const;

 private:
  // The DEFAULT keyword on a column that is neither generated nor identity.
  Result<bool> ResolveDefault(size_t c, const ParsedExpression** value, std::vector<ExprPtr>* storage) const;

  std::shared_ptr<const GeneratedColumns> generated_;
  ColumnDefaults defaults_;
  IdentityColumns identity_;
};

}  // namespace shoal::sql
