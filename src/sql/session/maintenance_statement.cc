#include "sql/session/maintenance_statement.h"

#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"
#include "sql/parser/parser.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

Result<columnar::Value> FirstValue(Session& session, const std::string& sql) {
  ASSIGN_OR_RETURN(StatementPtr statement, ParseStatement(sql));
  if (statement->kind != StatementKind::kSelect) return Status::Internal("probe query is not a SELECT: " + sql);
  ASSIGN_OR_RETURN(QueryResult r, WithoutErrorOffset(session.RunSelect(*statement)));
  if (r.num_rows() != 1 || r.num_columns() != 1 || r.batches().empty()) {
    return Status::Internal("probe query did not return one value: " + sql);
  }
  for (const auto& b : r.batches()) {
    if (b->num_rows > 0) return columnar::Value::FromVector(*b->column(0), 0);
  }
  return Status::Internal("probe query did not return one value: " + sql);
}

}  // namespace

Result<std::shared_ptr<const scan::DeltaTable>> OpenMaintenanceTable(
    const Database::Impl& db, const TableName& name,
    const std::function<void(int64_t done, int64_t planned)>& load_progress) {
  ASSIGN_OR_RETURN(std::string root, Catalog(db.fs, db.dir).TableRoot(name));
  auto exists = db.fs->Exists(io::JoinPath(root, "_delta_log"));
  if (!exists.ok() || !*exists) return Status::Catalog("Table with name " + name.ToString() + " does not exist!");
  auto table = scan::DeltaTable::Open(db.fs, root, {}, load_progress);
  if (!table.ok()) return table.status().WithContext("table " + name.ToString());
  return *table;
}

Result<int64_t> CountRows(Session& session, const std::string& sql) {
  ASSIGN_OR_RETURN(columnar::Value v, FirstValue(session, sql));
  if (v.is_null() || !v.type()->IsInteger()) return Status::Internal("probe query did not count: " + sql);
  return v.GetInt();
}

Result<columnar::Value> EvaluateConstant(Session& session, const ParsedExpression& e) {
  return FirstValue(session, "SELECT " + e.ToString());
}

}  // namespace shoal::sql
