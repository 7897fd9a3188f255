// Session handlers for DELETE, UPDATE and MERGE: each runs as one TableWrite (auto-commit or
// inside the session's transaction) and returns Delta's metrics row.
#include "delta/json_fields.h"
#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"
#include "sql/write/dml.h"
#include "sql/session/query_result_impl.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

QueryResult CountsResult(const std::vector<std::pair<std::string, int64_t>>& values, const std::string& type) {
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::VectorPtr> cols;
  for (const auto& [name, v] : values) {
    schema->fields.push_back({name, columnar::Int64(), false});
    auto vec = columnar::Vector::Make(columnar::Int64(), 1);
    vec->Append<int64_t>(v);
    cols.push_back(std::move(vec));
  }
  auto batch = std::make_shared<columnar::RecordBatch>(schema, std::move(cols), 1);
  return MakeQueryResult(schema, {batch}, type);
}

std::string PredicateParameter(const ParsedExpression* where) {
  delta::Json list = delta::Json::array();
  if (where) list.push_back(where->ToString());
  return delta::JsonText(list);
}

}  // namespace

// Runs `body` as the statement's write to `name`, then ends (or abandons) the write.
template <typename Body>
static Result<DmlCounts> RunWrite(Session* session, const TableName& name, const std::string& operation,
                                  delta::Json params, Body&& body) {
  ASSIGN_OR_RETURN(TableWrite * w, session->BeginTableWrite(name, operation, std::move(params)));
  // A replayed app transaction (already committed) writes nothing.
  Result<DmlCounts> counts = w->already_committed ? Result<DmlCounts>(DmlCounts()) : body(w);
  if (!counts.ok()) {
    session->AbortTableWrite(w, counts.status());
    return counts.status();
  }
  auto committed = session->EndTableWrite(w);
  if (!committed.ok()) return committed.status();
  return counts;
}

Result<QueryResult> Session::RunDelete(const Statement& st) {
  const auto& s = st.As<DeleteStatement>();
  ExecContext ctx;
  InitContext(&ctx);
  Catalog catalog = MakeCatalog();
  DmlEnvironment env{&catalog, &ctx};
  delta::Json params = {{"predicate", PredicateParameter(s.where.get())}};
  ASSIGN_OR_RETURN(DmlCounts c, RunWrite(this, s.table, "DELETE", std::move(params), [&](TableWrite* w) {
                     DmlTarget t{db_->fs, w->table, w->txn, &w->staged_files};
                     return ExecuteDelete(s, t, env);
                   }));
  return CountsResult({{"num_affected_rows", c.affected()}}, "DELETE");
}

Result<QueryResult> Session::RunUpdate(const Statement& st) {
  const auto& s = st.As<UpdateStatement>();
  ExecContext ctx;
  InitContext(&ctx);
  Catalog catalog = MakeCatalog();
  DmlEnvironment env{&catalog, &ctx};
  delta::Json params = {{"predicate", PredicateParameter(s.where.get())}};
  ASSIGN_OR_RETURN(DmlCounts c, RunWrite(this, s.table, "UPDATE", std::move(params), [&](TableWrite* w) {
                     DmlTarget t{db_->fs, w->table, w->txn, &w->staged_files};
                     return ExecuteUpdate(s, t, env);
                   }));
  return CountsResult({{"num_affected_rows", c.affected()}}, "UPDATE");
}

Result<QueryResult> Session::RunMerge(const Statement& st) {
  const auto& s = st.As<MergeStatement>();
  ExecContext ctx;
  InitContext(&ctx);
  Catalog catalog = MakeCatalog();
  DmlEnvironment env{&catalog, &ctx};
  delta::Json params = {{"predicate", PredicateParameter(s.on.get())}};
  ASSIGN_OR_RETURN(DmlCounts c, RunWrite(this, s.target, "MERGE", std::move(params), [&](TableWrite* w) {
                     DmlTarget t{db_->fs, w->table, w->txn, &w->staged_files};
                     return ExecuteMerge(s, t, env);
                   }));
  return CountsResult({{"num_affected_rows", c.affected()},
                       {"num_updated_rows", c.updated},
                       {"num_deleted_rows", c.deleted},
                       {"num_inserted_rows", c.inserted}},
                      "MERGE");
}

}  // namespace shoal::sql
