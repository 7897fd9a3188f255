#include "sql/session/distributed_table.h"

#include "delta/table_path.h"
#include "sql/binder/catalog.h"
#include "sql/parser/parser.h"
#include "sql/session/database_impl.h"

namespace shoal {

Result<std::string> ExistingTableRoot(Connection& connection, std::string_view table) {
  if (table.empty()) return Status::InvalidArgument("table path is empty");
  Database::Impl& db = *connection.impl().db;
  sql::TableName name;
  name.path = std::string(table);
  ASSIGN_OR_RETURN(std::string root, sql::Catalog(db.fs, db.dir).TableRoot(name));
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  ASSIGN_OR_RETURN(bool exists, db.fs->Exists(io::JoinPath(root, "_delta_log")));
  if (!exists) return Status::Catalog("Table with name " + name.ToString() + " does not exist!");
  return root;
}

Result<std::string> StagedFileInside(const std::string& root, const std::string& path, const std::string& what) {
  auto local = delta::ResolveTablePath(root, path);
  if (!local.ok()) return local.status().WithContext(what);
  auto normal = delta::NormalizePathNoDotDot(*local);
  if (!normal.ok() || *normal != *local || local->compare(0, root.size() + 1, root + "/") != 0) {
    return Status::InvalidArgument(what + ": data file '" + path + "' is not inside table " + root);
  }
  return *local;
}

Result<std::unique_ptr<sql::Statement>> ParseTableStatement(Connection& connection, std::string_view sql,
                                                            const std::string& root) {
  Connection::Impl& impl = connection.impl();
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql, impl.session.lex_options()));
  if (statements.size() != 1) {
    return Status::InvalidArgument("a distributed statement is one UPDATE, DELETE or MERGE, got " +
                                   std::to_string(statements.size()) + " statements");
  }
  const sql::Statement& s = *statements[0];
  const sql::TableName* target = nullptr;
  if (s.kind == sql::StatementKind::kUpdate) target = &s.As<sql::UpdateStatement>().table;
  if (s.kind == sql::StatementKind::kDelete) target = &s.As<sql::DeleteStatement>().table;
  if (s.kind == sql::StatementKind::kMerge) target = &s.As<sql::MergeStatement>().target;
  if (!target) {
    return Status::InvalidArgument("a distributed statement is one UPDATE, DELETE or MERGE, got: " +
                                   std::string(sql.substr(0, 200)));
  }
  ASSIGN_OR_RETURN(std::string target_root, sql::Catalog(impl.db->fs, impl.db->dir).TableRoot(*target));
  while (target_root.size() > 1 && target_root.back() == '/') target_root.pop_back();
  if (target_root != root) {
    return Status::InvalidArgument("the statement changes table " + target->ToString() + ", not " + root);
  }
  return std::move(statements[0]);
}

Result<std::optional<delta::Txn>> StagedAppTransaction(const StagedCommitOptions& options) {
  if (options.app_id.empty() && options.app_version < 0) return std::optional<delta::Txn>();
  if (options.app_id.empty() || options.app_version < 0) {
    return Status::InvalidArgument("an app transaction needs both app_id and a non-negative app_version");
  }
  delta::Txn app;
  app.app_id = options.app_id;
  app.version = options.app_version;
  return std::optional<delta::Txn>(std::move(app));
}

Result<StagedCommit> CommitStagedTransaction(txn::Transaction& t, int64_t files, const std::function<void()>& discard) {
  Result<txn::CommitResult> r = t.Commit();
  if (!r.ok()) {
    if (r.status().code() == StatusCode::kConflict) discard();
    return r.status();
  }
  StagedCommit out;
  out.version = r->version;
  out.already_committed = r->already_committed;
  if (r->already_committed) {
    discard();
  } else {
    out.files = files;
  }
  return out;
}

}  // namespace shoal
