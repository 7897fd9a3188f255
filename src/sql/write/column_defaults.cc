#include "sql/write/column_defaults.h"

#include "delta/schema_json.h"
#include "expr/cast.h"
#include "expr/evaluate.h"
#include "sql/parser/parser.h"
#include "sql/binder/table_expression.h"

namespace shoal::sql {
namespace {

// Binds and evaluates `sql` as a constant of `field`'s type.
Result<columnar::Value> EvaluateConstant(const std::string& sql, const columnar::Field& field, int64_t timestamp) {
  columnar::Schema none;
  auto bound = BindTableExpression(sql, none);
  if (!bound.ok()) {
    return Status::InvalidArgument("invalid DEFAULT for column " + field.name + " (" + sql +
                                   "): " + bound.status().message());
  }
  if (!expr::CollectColumns(**bound).empty()) {
    return Status::InvalidArgument("DEFAULT for column " + field.name + " (" + sql + ") must be a constant");
  }
  columnar::RecordBatch one(std::make_shared<columnar::Schema>(), {}, 1);
  expr::EvalContext ctx(timestamp);
  auto v = expr::Evaluate(**bound, one, ctx);
  if (!v.ok()) return v.status().WithContext("DEFAULT for column " + field.name);
  columnar::Value value = columnar::Value::FromVector(**v, 0);
  auto cast = expr::CastValue(value, field.type);
  if (!cast.ok()) {
    return Status::InvalidArgument("DEFAULT for column " + field.name + " (" + sql + ") of type " +
                                   (*bound)->type->ToString() + " does not cast to " + field.type->ToString() +
                                   ": " + cast.status().message());
  }
  return *cast;
}

}  // namespace

Result<ColumnDefaults> ColumnDefaults::Evaluate(const delta::Metadata& metadata, const columnar::Schema& table_schema,
                                                int64_t statement_timestamp) {
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  ColumnDefaults out;
  out.sql_.resize(table_schema.size());
  for (const auto& f : table_schema.fields) out.values_.push_back(columnar::Value::Null(f.type));
  for (const auto& field : root.children) {
    auto sql = field.DefaultExpression();
    if (!sql) continue;
    int c = table_schema.Find(field.name);
    if (c < 0) continue;
    ASSIGN_OR_RETURN(out.values_[static_cast<size_t>(c)],
                     EvaluateConstant(*sql, table_schema.fields[static_cast<size_t>(c)], statement_timestamp));
    out.sql_[static_cast<size_t>(c)] = *sql;
  }
  return out;
}

Result<ExprPtr> ColumnDefaults::ParsedOf(size_t c) const { return WithoutErrorOffset(ParseExpression(SqlOf(c))); }

Status ValidateDefaultExpression(const std::string& sql, const columnar::Field& field) {
  return EvaluateConstant(sql, field, 0).status();
}

bool IsDefaultKeyword(const ParsedExpression& e) {
  return e.kind == ExprKind::kConstant && e.As<ConstantExpression>().literal_kind == LiteralKind::kDefault;
}

bool HasDefaultKeyword(const QueryNode& query) {
  if (query.kind != QueryKind::kValues) return false;
  for (const auto& row : query.As<ValuesNode>().rows) {
    for (const auto& cell : row) {
      if (IsDefaultKeyword(*cell)) return true;
    }
  }
  return false;
}

namespace {

// The table column each VALUES position writes: `named_columns`, or without a list every table
// column (when the widths agree) or else those not `omittable`.
Result<std::vector<size_t>> ValuesColumns(size_t width, const columnar::Schema& table_schema,
                                          const std::vector<std::string>& named_columns,
                                          const std::function<bool(size_t)>& omittable) {
  std::vector<size_t> column;
  if (!named_columns.empty()) {
    for (const auto& name : named_columns) {
      int c = table_schema.Find(name);
      if (c < 0) return Status::Binder("Column " + name + " does not exist in the table");
      column.push_back(static_cast<size_t>(c));
    }
  } else {
    for (size_t c = 0; c < table_schema.size(); ++c) {
      if (width == table_schema.size() || !omittable(c)) column.push_back(c);
    }
  }
  if (column.size() != width) {
    return Status::Binder("INSERT … VALUES has " + std::to_string(width) + " values per row but writes " +
                          std::to_string(column.size()) + " columns");
  }
  return column;
}

}  // namespace

Result<std::vector<QueryPtr>> SplitMixedComputedDefaults(const ValuesNode& values, const columnar::Schema& table_schema,
                                                         const std::vector<std::string>& named_columns,
                                                         const std::function<bool(size_t)>& omittable,
                                                         const std::function<bool(size_t)>& computed) {
  std::vector<QueryPtr> groups;
  const size_t width = values.rows.empty() ? 0 : values.rows[0].size();
  for (const auto& row : values.rows) {
    if (row.size() != width) return groups;  // the planner reports ragged VALUES
  }
  ASSIGN_OR_RETURN(std::vector<size_t> column, ValuesColumns(width, table_schema, named_columns, omittable));
  std::vector<size_t> mixed;  // positions of computed columns with DEFAULT in some rows only
  for (size_t j = 0; j < width; ++j) {
    if (!computed(column[j])) continue;
    size_t defaults_here = 0;
    for (const auto& row : values.rows) defaults_here += IsDefaultKeyword(*row[j]) ? 1 : 0;
    if (defaults_here > 0 && defaults_here < values.rows.size()) mixed.push_back(j);
  }
  if (mixed.empty()) return groups;
  // One group per pattern of DEFAULT cells over the mixed positions, in order of first use.
  std::vector<std::vector<bool>> patterns;
  std::vector<std::unique_ptr<ValuesNode>> nodes;
  for (const auto& row : values.rows) {
    std::vector<bool> pattern;
    for (size_t j : mixed) pattern.push_back(IsDefaultKeyword(*row[j]));
    size_t g = 0;
    while (g < patterns.size() && patterns[g] != pattern) ++g;
    if (g == patterns.size()) {
      patterns.push_back(pattern);
      nodes.push_back(std::make_unique<ValuesNode>(values.position));
    }
    // The cells re-parsed from their text (the AST has no copy); DEFAULT stays DEFAULT.
    std::vector<ExprPtr> cells;
    for (const auto& cell : row) {
      ASSIGN_OR_RETURN(ExprPtr copy, ParseExpression(cell->ToString()));
      cells.push_back(std::move(copy));
    }
    nodes[g]->rows.push_back(std::move(cells));
  }
  for (auto& node : nodes) {
    UpdateHeight(*node);
    groups.push_back(std::move(node));
  }
  return groups;
}

Result<std::vector<std::string>> ResolveDefaultKeywords(const ValuesNode& values, const columnar::Schema& table_schema,
                                                        const std::vector<std::string>& named_columns,
                                                        const ColumnDefaults& defaults,
                                                        const std::function<bool(size_t)>& omittable,
                                                        const std::function<bool(size_t)>& computed,
                                                        QueryPtr* rewritten) {
  const size_t width = values.rows.empty() ? 0 : values.rows[0].size();
  ASSIGN_OR_RETURN(std::vector<size_t> column, ValuesColumns(width, table_schema, named_columns, omittable));
  std::vector<bool> dropped(width, false);
  for (size_t j = 0; j < width; ++j) {
    size_t defaults_here = 0;
    for (const auto& row : values.rows) defaults_here += IsDefaultKeyword(*row[j]) ? 1 : 0;
    if (defaults_here == 0 || !computed(column[j])) continue;
    if (defaults_here != values.rows.size()) {
      // SplitMixedComputedDefaults separates such rows first.
      return Status::Internal("DEFAULT for generated or identity column " + table_schema.fields[column[j]].name +
                              " in only some VALUES rows reached ResolveDefaultKeywords");
    }
    dropped[j] = true;
  }
  // A new VALUES node: the kept cells re-parsed from their text (the AST has no copy).
  auto out = std::make_unique<ValuesNode>(values.position);
  for (const auto& row : values.rows) {
    std::vector<ExprPtr> cells;
    for (size_t j = 0; j < width; ++j) {
      if (dropped[j]) continue;
      std::string text = IsDefaultKeyword(*row[j]) ? defaults.SqlOf(column[j]) : row[j]->ToString();
      ASSIGN_OR_RETURN(ExprPtr cell, ParseExpression(text));
      cells.push_back(std::move(cell));
    }
    if (cells.empty()) return Status::NotSupported("INSERT … VALUES with only DEFAULT values of computed columns");
    out->rows.push_back(std::move(cells));
  }
  UpdateHeight(*out);
  *rewritten = std::move(out);
  std::vector<std::string> names;
  for (size_t j = 0; j < width; ++j) {
    if (!dropped[j]) names.push_back(table_schema.fields[column[j]].name);
  }
  return names;
}

}  // namespace shoal::sql
