#include "sql/write/generated_columns.h"

#include <strings.h>

#include <set>

#include "columnar/value.h"
#include "delta/schema_json.h"
#include "expr/cast.h"
#include "sql/parser/ast.h"
#include "sql/binder/table_expression.h"

namespace shoal::sql {
namespace {

// Functions whose value depends on when or how often they run.
bool IsNondeterministic(const expr::Expr& e) {
  static const std::set<std::string> kNames = {"current_date", "current_timestamp", "now",  "rand",
                                               "random",       "uuid",              "localtimestamp"};
  if (e.kind != expr::ExprKind::kFunction) return false;
  if (kNames.count(e.name)) return true;
  return e.name == "unix_timestamp" && e.args.empty();
}

Result<expr::ExprPtr> CastToColumn(expr::ExprPtr e, const columnar::TypePtr& type) {
  if (e->type->Equals(*type)) return e;
  return expr::Cast(std::move(e), type);
}

std::string RowValues(const columnar::RecordBatch& batch, const GeneratedColumns::Column& c, int64_t row) {
  std::string out;
  std::vector<int> cols{static_cast<int>(c.index)};
  for (int i : c.inputs) {
    if (i != cols[0]) cols.push_back(i);
  }
  for (int i : cols) {
    out += "\n - " + batch.schema->fields[static_cast<size_t>(i)].name + " : " +
           columnar::Value::FromVector(*batch.columns[static_cast<size_t>(i)], row).ToString();
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<const GeneratedColumns>> GeneratedColumns::Bind(const delta::Metadata& metadata,
                                                                       const columnar::Schema& table_schema) {
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  auto out = std::make_shared<GeneratedColumns>();
  out->generated_.assign(table_schema.size(), false);
  for (const auto& field : root.children) {
    auto sql = field.GenerationExpression();
    if (!sql) continue;
    int c = table_schema.Find(field.name);
    if (c < 0) return Status::Corruption("generated column " + field.name + " is not a table column");
    const columnar::Field& f = table_schema.fields[static_cast<size_t>(c)];
    Column col;
    col.index = static_cast<size_t>(c);
    col.name = f.name;
    col.sql = *sql;
    auto bound = BindTableExpression(*sql, table_schema);
    if (!bound.ok()) return bound.status().WithContext("generated column " + f.name + " AS (" + *sql + ")");
    auto cast = CastToColumn(*bound, f.type);
    if (!cast.ok()) return cast.status().WithContext("generated column " + f.name);
    col.value = *cast;
    col.inputs = expr::CollectColumns(*col.value);
    ASSIGN_OR_RETURN(col.matches, expr::IsDistinctFrom(expr::ColumnRef(c, f.type, f.name, f.nullable), col.value,
                                                       /*negated=*/true));
    out->generated_[col.index] = true;
    out->columns_.push_back(std::move(col));
  }
  if (out->columns_.empty()) return std::shared_ptr<const GeneratedColumns>();
  return std::shared_ptr<const GeneratedColumns>(std::move(out));
}

Status GeneratedColumns::Apply(columnar::RecordBatch* batch, const std::vector<bool>& supplied,
                               expr::EvalContext& ctx) const {
  for (const Column& c : columns_) {
    if (c.index < supplied.size() && supplied[c.index]) continue;
    auto v = expr::Evaluate(*c.value, *batch, ctx);
    if (!v.ok()) return v.status().WithContext("generated column " + c.name + " AS (" + c.sql + ")");
    batch->columns[c.index] = std::move(*v);
  }
  for (const Column& c : columns_) {
    if (c.index < supplied.size() && supplied[c.index]) RETURN_NOT_OK(CheckColumn(c, *batch, ctx));
  }
  return Status::OK();
}

Status GeneratedColumns::Check(const columnar::RecordBatch& batch, expr::EvalContext& ctx) const {
  for (const Column& c : columns_) RETURN_NOT_OK(CheckColumn(c, batch, ctx));
  return Status::OK();
}

Status GeneratedColumns::CheckColumn(const Column& c, const columnar::RecordBatch& batch,
                                     expr::EvalContext& ctx) const {
  std::vector<uint32_t> sel;
  ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*c.matches, batch, ctx, &sel));
  if (k == batch.num_rows) return Status::OK();
  int64_t row = 0;
  while (row < static_cast<int64_t>(sel.size()) && sel[static_cast<size_t>(row)] == row) ++row;
  std::string sql = c.sql.size() > 1 && c.sql.front() == '(' && c.sql.back() == ')' ? c.sql : "(" + c.sql + ")";
  return Status::Constraint("DeltaInvariantViolationException: CHECK constraint Generated Column (" +
                            QuoteIdentifier(c.name) + " <=> " + sql + ") violated by row with values:" +
                            RowValues(batch, c, row));
}

Status ValidateGenerationExpressions(const columnar::Schema& schema,
                                     const std::map<std::string, std::string>& expressions) {
  std::vector<bool> generated(schema.size(), false);
  for (const auto& [name, sql] : expressions) {
    int c = schema.Find(name);
    if (c < 0) return Status::InvalidArgument("generated column " + name + " is not a column of the table");
    generated[static_cast<size_t>(c)] = true;
  }
  for (const auto& [name, sql] : expressions) {
    const columnar::Field& f = schema.fields[static_cast<size_t>(schema.Find(name))];
    auto bound = BindTableExpression(sql, schema);
    if (!bound.ok()) {
      return Status::InvalidArgument("invalid generation expression for column " + f.name + " (" + sql +
                                     "): " + bound.status().message());
    }
    bool nondeterministic = false;
    expr::Visit(**bound, [&](const expr::Expr& e) { nondeterministic = nondeterministic || IsNondeterministic(e); });
    if (nondeterministic) {
      return Status::InvalidArgument("generation expression of column " + f.name + " (" + sql +
                                     ") is not deterministic");
    }
    for (int i : expr::CollectColumns(**bound)) {
      if (i >= 0 && static_cast<size_t>(i) < generated.size() && generated[static_cast<size_t>(i)]) {
        return Status::InvalidArgument("generation expression of column " + f.name + " (" + sql +
                                       ") references generated column " + schema.fields[static_cast<size_t>(i)].name);
      }
    }
    auto cast = CastToColumn(*bound, f.type);
    if (!cast.ok()) {
      return Status::InvalidArgument("generation expression of column " + f.name + " (" + sql + ") has type " +
                                     (*bound)->type->ToString() + ", which does not cast to " + f.type->ToString());
    }
  }
  return Status::OK();
}

}  // namespace shoal::sql
