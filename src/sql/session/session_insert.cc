// Session handler for INSERT INTO / INSERT OVERWRITE [REPLACE WHERE], and the query-to-table
// write shared with CREATE TABLE … AS SELECT.
#include <cctype>
#include <map>

#include "columnar/value.h"
#include "delta/json_fields.h"
#include "delta/schema_json.h"
#include "delta/stats_json.h"
#include "delta/table_path.h"
#include "expr/evaluate.h"
#include "scan/delta_schema.h"
#include "sql/session/database_impl.h"
#include "sql/write/column_defaults.h"
#include "sql/execution/executor.h"
#include "sql/write/generated_columns.h"
#include "sql/write/identity_columns.h"
#include "sql/session/query_result_impl.h"
#include "sql/parser/parser.h"
#include "sql/session/session.h"
#include "sql/binder/table_expression.h"
#include "sql/write/table_write_sink.h"
#include "table/table_properties.h"

namespace shoal::sql {

namespace {

// Spark's store-assignment rules (ANSI policy): numbers to numbers, atomic values to STRING,
// DATE <-> TIMESTAMP, NULL to anything, nested types element-wise. shoal also accepts a STRING
// for DATE / TIMESTAMP columns (written as literals in VALUES).
bool StoreAssignable(const columnar::DataType& from, const columnar::DataType& to) {
  using columnar::TypeId;
  if (from.id() == TypeId::kNull || from.Equals(to)) return true;
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (to.id() == TypeId::kString) return !from.IsNested();
  if (from.IsTemporal() && to.IsTemporal()) return from.id() != TypeId::kTime && to.id() != TypeId::kTime;
  if (from.id() == TypeId::kString && to.IsTemporal()) return to.id() != TypeId::kTime;
  if (from.id() != to.id() || !from.IsNested()) return false;
  if (from.children().size() != to.children().size()) return false;
  for (size_t i = 0; i < from.children().size(); ++i) {
    if (!StoreAssignable(*from.children()[i].type, *to.children()[i].type)) return false;
  }
  return true;
}

std::string Backquoted(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "`" : ", `") + n + "`";
  return s;
}

// The CHECK constraints of the table as a writer callback (NULL counts as a violation, as Delta).
Result<table::ConstraintCheck> CheckConstraints(const delta::Metadata& metadata, const columnar::Schema& schema) {
  struct Check {
    std::string name;
    std::string sql;
    expr::ExprPtr expr;
  };
  std::vector<Check> checks;
  for (const auto& [key, value] : metadata.configuration) {
    static const std::string kPrefix = "delta.constraints.";
    if (key.compare(0, kPrefix.size(), kPrefix) != 0) continue;
    auto bound = BindTableExpression(value, schema);
    if (!bound.ok()) return bound.status().WithContext("CHECK constraint " + key.substr(kPrefix.size()));
    checks.push_back({key.substr(kPrefix.size()), value, *bound});
  }
  if (checks.empty()) return table::ConstraintCheck();
  return table::ConstraintCheck([checks](const columnar::RecordBatch& batch) -> Status {
    expr::EvalContext ctx;
    std::vector<uint32_t> sel;
    for (const Check& c : checks) {
      sel.clear();
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*c.expr, batch, ctx, &sel));
      if (k == batch.num_rows) continue;
      int64_t row = 0;
      while (row < static_cast<int64_t>(sel.size()) && sel[row] == row) ++row;
      std::string msg = "CHECK constraint " + c.name + " " + c.sql + " violated by row with values:";
      for (int col : expr::CollectColumns(*c.expr)) {
        msg += "\n - " + batch.schema->fields[col].name + " : " +
               columnar::Value::FromVector(*batch.columns[col], row).ToString();
      }
      return Status::Constraint(msg);
    }
    return Status::OK();
  });
}

// Rows of `table` matching `pred`, by file index: positions within each file.
Result<std::map<int64_t, std::vector<uint64_t>>> MatchingRows(const scan::DeltaTable& table, const expr::ExprPtr& pred) {
  scan::DeltaScanOptions o;
  for (size_t c = 0; c < table.schema()->columns.size(); ++c) o.columns.push_back(static_cast<int>(c));
  o.filters = {pred};
  o.with_row_address = true;
  ASSIGN_OR_RETURN(auto scan, table.Plan(o));
  auto local = scan->MakeLocal();
  std::map<int64_t, std::vector<uint64_t>> rows;
  columnar::BatchPtr batch;
  uint64_t order = 0;
  while (true) {
    ASSIGN_OR_RETURN(bool more, scan->Next(local.get(), &batch, &order));
    if (!more) break;
    size_t nc = batch->num_columns();
    const auto& file = *batch->columns[nc - 2];
    const auto& pos = *batch->columns[nc - 1];
    for (int64_t i = 0; i < batch->num_rows; ++i) {
      rows[columnar::Value::FromVector(file, i).GetInt()].push_back(
          static_cast<uint64_t>(columnar::Value::FromVector(pos, i).GetInt()));
    }
  }
  return rows;
}

// Stages the removal of what INSERT OVERWRITE replaces: everything, or the rows matching
// REPLACE WHERE (whole files when all their rows match, else deletion vectors).
Status StageOverwrite(TableWrite* write, const ParsedExpression* replace_where, const columnar::Schema& schema,
                      io::FileSystem& fs) {
  const auto& files = write->table->snapshot()->files();
  if (!replace_where) {
    write->txn->ReadWholeTable();
    for (const auto& f : files) RETURN_NOT_OK(write->txn->RemoveFile(f));
    return Status::OK();
  }
  std::string sql = replace_where->ToString();
  ASSIGN_OR_RETURN(expr::ExprPtr pred, BindTableExpression(sql, schema));
  write->txn->ReadPredicate(pred, sql);
  ASSIGN_OR_RETURN(auto matches, MatchingRows(*write->table, pred));
  ASSIGN_OR_RETURN(table::TableProperties props, table::ParseTableProperties(write->txn->metadata().configuration));
  for (auto& [id, positions] : matches) {
    if (id < 0 || id >= static_cast<int64_t>(files.size())) return Status::Internal("scan returned a bad file id");
    const delta::AddFile& f = files[id];
    std::optional<int64_t> live;
    if (f.stats) {
      auto st = delta::ParseStatsJson(*f.stats);
      if (st.ok() && st->num_records) live = *st->num_records - (f.deletion_vector ? f.deletion_vector->cardinality : 0);
    }
    if (live && *live == static_cast<int64_t>(positions.size())) {
      RETURN_NOT_OK(write->txn->RemoveFile(f));
      continue;
    }
    if (!props.enable_deletion_vectors) {
      return Status::NotSupported("INSERT … REPLACE WHERE on " + write->display_name + ": file " + f.path +
                                  " matches only partly and the table has no deletion vectors");
    }
    delta::DeletionVector dv;
    dv.AddMany(positions.data(), positions.size());
    RETURN_NOT_OK(write->txn->DeleteRows(f, dv));
  }
  (void)fs;
  return Status::OK();
}

}  // namespace

QueryResult InsertedRowsResult(int64_t rows) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back({"num_affected_rows", columnar::Int64(), false});
  schema->fields.push_back({"num_inserted_rows", columnar::Int64(), false});
  std::vector<columnar::VectorPtr> cols;
  for (int i = 0; i < 2; ++i) {
    auto v = columnar::Vector::Make(columnar::Int64(), 1);
    v->Append<int64_t>(rows);
    cols.push_back(v);
  }
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  batches.push_back(std::make_shared<columnar::RecordBatch>(schema, std::move(cols), 1));
  return MakeQueryResult(schema, std::move(batches), "INSERT");
}

Result<int64_t> Session::WriteQueryInto(TableWrite* write, const delta::Metadata& metadata, const QueryNode& query,
                                        const std::vector<std::string>& named_columns,
                                        const ParsedExpression* replace_where, bool overwrite) {
  if (write->already_committed) return int64_t{0};
  ASSIGN_OR_RETURN(scan::TableSchema table, scan::BuildTableSchema(metadata));
  const size_t ncols = table.schema.size();
  const std::string& name = write->display_name;
  ASSIGN_OR_RETURN(IdentityColumns identity, IdentityColumns::Make(metadata, table.schema));
  auto always = [&](size_t c) { return identity.IsAlways(c); };

  ExecContext ctx;
  InitContext(&ctx);
  // Generated columns and defaults; an INSERT without a column list may omit the generated ones.
  ASSIGN_OR_RETURN(std::shared_ptr<const GeneratedColumns> generated_columns,
                   GeneratedColumns::Bind(metadata, table.schema));
  ASSIGN_OR_RETURN(ColumnDefaults defaults, ColumnDefaults::Evaluate(metadata, table.schema, ctx.statement_timestamp));
  auto omittable = [&](size_t c) { return always(c) || (generated_columns && generated_columns->IsGenerated(c)); };
  auto computed = [&](size_t c) { return omittable(c) || identity.Is(c); };
  const QueryNode* q = &query;
  QueryPtr rewritten;
  std::vector<std::string> columns = named_columns;
  if (HasDefaultKeyword(query) && !query.HasModifiers()) {
    // DEFAULT in only some rows of a generated or identity column: the rows are written group by
    // group into this transaction. A later group sees the identity high-water marks the earlier
    // ones moved (the transaction's metadata); an overwrite is staged by the first group only.
    ASSIGN_OR_RETURN(std::vector<QueryPtr> groups,
                     SplitMixedComputedDefaults(query.As<ValuesNode>(), table.schema, named_columns, omittable, computed));
    if (!groups.empty()) {
      int64_t rows = 0;
      for (size_t g = 0; g < groups.size(); ++g) {
        // The groups are re-parsed from the cells' text: their offsets are not the caller's.
        ASSIGN_OR_RETURN(int64_t n, WithoutErrorOffset(WriteQueryInto(write, write->txn->metadata(), *groups[g],
                                                                      named_columns, replace_where, overwrite && g == 0)));
        rows += n;
      }
      return rows;
    }
    ASSIGN_OR_RETURN(columns, ResolveDefaultKeywords(query.As<ValuesNode>(), table.schema, named_columns, defaults,
                                                     omittable, computed, &rewritten));
    q = rewritten.get();
  }
  columnar::SchemaPtr qschema;
  Result<PhysicalPtr> planned = PlanQuery(*q, ctx, &qschema);
  if (rewritten) planned = WithoutErrorOffset(std::move(planned));  // cells re-parsed from their text
  ASSIGN_OR_RETURN(PhysicalPtr plan, std::move(planned));

  // Which query column feeds which table column.
  std::vector<int> source(ncols, -1);
  std::vector<size_t> targets;
  if (!columns.empty()) {
    for (const auto& col : columns) {
      size_t c = 0;
      while (c < ncols && Lower(table.schema.fields[c].name) != Lower(col)) ++c;
      if (c == ncols) return Status::Binder("Column " + col + " does not exist in table " + name);
      for (size_t t : targets) {
        if (t == c) return Status::Binder("Column " + col + " is specified more than once in the INSERT column list");
      }
      targets.push_back(c);
    }
  } else {
    for (size_t c = 0; c < ncols; ++c) {
      if (!omittable(c) || qschema->size() == ncols) targets.push_back(c);
    }
    // Trailing columns with a DEFAULT may be left out too (Spark fills them with the default).
    while (targets.size() > qschema->size() && defaults.Has(targets.back())) targets.pop_back();
  }
  std::vector<std::string> table_names, data_names;
  for (size_t t : targets) table_names.push_back(table.schema.fields[t].name);
  for (const auto& f : qschema->fields) data_names.push_back(f.name);
  if (qschema->size() != targets.size()) {
    return Status::Binder("Cannot write to " + name + ", the reason is " +
                          (qschema->size() < targets.size() ? "not enough" : "too many") +
                          " data columns: Table columns: " + Backquoted(table_names) +
                          ". Data columns: " + Backquoted(data_names) + ".");
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    size_t c = targets[i];
    const columnar::Field& f = table.schema.fields[c];
    RETURN_NOT_OK(identity.CheckExplicitInsert(c));
    if (!StoreAssignable(*qschema->fields[i].type, *f.type)) {
      return Status::Binder("Cannot write incompatible data for the table " + name + ": Cannot safely cast `" +
                            f.name + "` \"" + qschema->fields[i].type->ToString() + "\" to \"" +
                            f.type->ToString() + "\".");
    }
    source[c] = static_cast<int>(i);
  }

  TableWriteSpec spec;
  spec.fs = db_->fs;
  spec.root = write->root;
  spec.table_name = name;
  spec.metadata = metadata;
  spec.table_schema = std::make_shared<columnar::Schema>(table.schema);
  spec.source_index = source;
  spec.identity.resize(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    if (identity.Is(c) && source[c] < 0) spec.identity[c] = identity.Sequence(c);
  }
  ASSIGN_OR_RETURN(spec.writer_options.check, CheckConstraints(metadata, table.schema));
  spec.generated = generated_columns;
  spec.defaults.resize(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    if (defaults.Has(c)) spec.defaults[c] = defaults.ValueOf(c);
  }
  if (replace_where) {
    spec.replace_where_sql = replace_where->ToString();
    ASSIGN_OR_RETURN(spec.replace_where, BindTableExpression(spec.replace_where_sql, table.schema));
  }
  if (overwrite) RETURN_NOT_OK(StageOverwrite(write, replace_where, table.schema, *db_->fs));

  TableWriteSink sink(std::move(spec));
  sink.children.push_back(std::move(plan));
  auto ran = Executor(&ctx).Run(&sink);
  for (const auto& add : sink.adds()) {
    auto local = delta::ResolveTablePath(write->root, add.path);
    if (local.ok()) write->staged_files.push_back(*local);
  }
  RETURN_NOT_OK(ran.status());
  for (const auto& add : sink.adds()) write->txn->AddFile(add);

  // Identity high-water marks move in the same commit.
  std::vector<int64_t> used(ncols, 0);
  bool generated = false;
  for (size_t c = 0; c < ncols; ++c) {
    used[c] = sink.identity_count(c);
    generated = generated || used[c] > 0;
  }
  if (generated) {
    ASSIGN_OR_RETURN(delta::Metadata updated, identity.WithHighWaterMarks(metadata, used));
    write->txn->UpdateMetadata(std::move(updated));
    write->txn->SetGeneratesIdentityValues(true);
  }
  return sink.rows_written();
}

Result<QueryResult> Session::RunInsert(const Statement& s) {
  const auto& ins = s.As<InsertStatement>();
  delta::Json params = delta::Json::object();
  // INSERT INTO … REPLACE WHERE is an overwrite of the matching rows (Databricks).
  const bool overwrite = ins.overwrite || ins.replace_where != nullptr;
  params["mode"] = overwrite ? "Overwrite" : "Append";
  params["partitionBy"] = "[]";
  if (ins.replace_where) params["predicate"] = delta::JsonText(delta::Json::array({ins.replace_where->ToString()}));
  ASSIGN_OR_RETURN(TableWrite * w, BeginTableWrite(ins.table, "WRITE", std::move(params)));
  auto rows = WriteQueryInto(w, w->txn->metadata(), *ins.query, ins.columns, ins.replace_where.get(), overwrite);
  if (!rows.ok()) {
    AbortTableWrite(w, rows.status());
    return rows.status();
  }
  RETURN_NOT_OK(EndTableWrite(w).status());
  return InsertedRowsResult(*rows);
}

}  // namespace shoal::sql
