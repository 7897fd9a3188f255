#include "sql/write/write_column_rules.h"

namespace shoal::sql {

Result<WriteColumnRules> WriteColumnRules::Make(const delta::Metadata& metadata, const columnar::Schema& table_schema,
                                                int64_t statement_timestamp) {
  WriteColumnRules r;
  ASSIGN_OR_RETURN(r.generated_, GeneratedColumns::Bind(metadata, table_schema));
  ASSIGN_OR_RETURN(r.defaults_, ColumnDefaults::Evaluate(metadata, table_schema, statement_timestamp));
  ASSIGN_OR_RETURN(r.identity_, IdentityColumns::Make(metadata, table_schema));
  return r;
}

Result<bool> WriteColumnRules::ResolveDefault(size_t c, const ParsedExpression** value,
                                              std::vector<ExprPtr>* storage) const {
  ASSIGN_OR_RETURN(ExprPtr parsed, defaults_.ParsedOf(c));
  *value = parsed.get();
  storage->push_back(std::move(parsed));
  return true;
}

Result<bool> WriteColumnRules::ResolveUpdateValue(size_t c, const ParsedExpression** value,
                                                  std::vector<ExprPtr>* storage) const {
  if (identity_.Is(c)) return identity_.UpdateNotSupported(c);
  if (!IsDefaultKeyword(**value)) return true;
  if (IsGenerated(c)) return false;
  return ResolveDefault(c, value, storage);
}

Result<bool> WriteColumnRules::ResolveInsertValue(size_t c, const ParsedExpression** value,
                                                  std::vector<ExprPtr>* storage) const {
  if (IsDefaultKeyword(**value)) {
    if (IsGenerated(c) || identity_.Is(c)) return false;
    return ResolveDefault(c, value, storage);
  }
  RETURN_NOT_OK(identity_.CheckExplicitInsert(c));
  return true;
}

Status WriteColumnRules::ApplyGenerated(columnar::RecordBatch* batch, const std::vector<bool>& supplied,
                                        expr::EvalContext& ctx) const {
  if (!generated_) return Status::OK();
  return generated_->Apply(batch, supplied, ctx);
}

}  // namespace shoal::sql
