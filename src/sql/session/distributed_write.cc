// The write side of shoal/distributed.h: StageInsert, CommitStagedFiles, DiscardStagedFiles.
#include <charconv>
#include <set>

#include "delta/table_path.h"
#include "shoal/distributed.h"
#include "sql/binder/catalog.h"
#include "sql/parser/parser.h"
#include "sql/session/database_impl.h"
#include "sql/session/distributed_table.h"

namespace shoal {

namespace {

struct StagedAdd {
  delta::AddFile add;
  std::string local;  // the data file's path on storage
};

// The add actions of `lines`, each of a distinct data file inside `root`.
Result<std::vector<StagedAdd>> ParseStagedAdds(const std::string& root, const std::vector<std::string>& lines) {
  std::vector<StagedAdd> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string what = "staged action " + std::to_string(i + 1);
    ASSIGN_OR_RETURN(std::optional<delta::Action> action, delta::ParseActionLine(lines[i]));
    const delta::AddFile* add = action ? std::get_if<delta::AddFile>(&*action) : nullptr;
    if (!add) return Status::InvalidArgument(what + " is not an add action: " + lines[i].substr(0, 200));
    ASSIGN_OR_RETURN(std::string local, StagedFileInside(root, add->path, what));
    if (!seen.insert(add->path).second) {
      return Status::InvalidArgument(what + ": data file '" + add->path + "' is added twice");
    }
    out.push_back({*add, std::move(local)});
  }
  return out;
}

void DeleteFiles(io::FileSystem& fs, const std::vector<StagedAdd>& adds) {
  for (const StagedAdd& a : adds) (void)fs.Delete(a.local);
}

}  // namespace

Result<StagedFiles> StageInsert(Connection& connection, std::string_view insert_sql) {
  Connection::Impl& impl = connection.impl();
  if (impl.session.in_transaction()) {
    return Status::InvalidArgument("StageInsert cannot run inside a transaction block");
  }
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(insert_sql, impl.session.lex_options()));
  if (statements.size() != 1 || statements[0]->kind != sql::StatementKind::kInsert) {
    return Status::InvalidArgument("StageInsert takes one INSERT statement");
  }
  const auto& insert = statements[0]->As<sql::InsertStatement>();
  if (insert.overwrite || insert.replace_where) {
    return Status::InvalidArgument(
        "StageInsert stages appends; INSERT OVERWRITE is CommitStagedFiles with StagedCommitOptions::overwrite");
  }
  StagedFiles out;
  ASSIGN_OR_RETURN(out.root, sql::Catalog(impl.db->fs, impl.db->dir).TableRoot(insert.table));
  RETURN_NOT_OK(connection.Begin());
  Result<QueryResult> result = connection.Query(insert_sql);
  if (!result.ok()) {
    (void)connection.Rollback();
    return result.status();
  }
  ASSIGN_OR_RETURN(std::vector<sql::Session::DetachedWrite> detached, impl.session.DetachTransaction());
  for (const sql::Session::DetachedWrite& d : detached) {
    const txn::WriteSet& w = d.write;
    if (!d.writes) continue;  // a table the statement only read
    if (!w.OnlyAdds() || !w.cdc_files.empty() || w.app_txn || !w.added_file_deletes.empty()) {
      for (const delta::AddFile& a : w.adds) {
        auto local = delta::ResolveTablePath(d.root, a.path);
        if (local.ok()) (void)impl.db->fs->Delete(*local);
      }
      return Status::NotSupported(
          "StageInsert: the INSERT changes more than data files (identity columns, an app transaction set with SET "
          "shoal.txn.appId, ...), which a staged write cannot carry");
    }
    out.root = d.root;
    out.read_version = d.read_version;
    for (const delta::AddFile& a : w.adds) out.add_actions.push_back(delta::SerializeAction(delta::Action(a)));
  }
  if (result->num_rows() == 1 && result->num_columns() == 2) {
    const std::string text = result->GetText(0, 1);
    std::from_chars(text.data(), text.data() + text.size(), out.rows);
  }
  return out;
}

Result<StagedCommit> CommitStagedFiles(Connection& connection, std::string_view table,
                                       const std::vector<std::string>& add_actions,
                                       const StagedCommitOptions& options) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  const std::shared_ptr<io::FileSystem>& fs = connection.impl().db->fs;
  ASSIGN_OR_RETURN(std::vector<StagedAdd> adds, ParseStagedAdds(root, add_actions));
  for (const StagedAdd& a : adds) {
    ASSIGN_OR_RETURN(bool exists, fs->Exists(a.local));
    if (!exists) return Status::InvalidArgument("staged data file '" + a.local + "' does not exist");
  }
  ASSIGN_OR_RETURN(std::optional<delta::Txn> app, StagedAppTransaction(options));
  scan::TimeTravel at;
  if (options.read_version >= 0) at.version = options.read_version;
  auto opened = scan::DeltaTable::Open(fs, root, at);
  if (!opened.ok()) return opened.status().WithContext("table " + root);
  std::shared_ptr<const scan::DeltaTable> base = *opened;
  delta::Json params = delta::Json::object();
  params["mode"] = options.overwrite ? "Overwrite" : "Append";
  params["partitionBy"] = "[]";
  ASSIGN_OR_RETURN(std::unique_ptr<txn::Transaction> t,
                   txn::Transaction::Begin(fs, root, base->snapshot(),
                                           sql::SqlTransactionOptions(fs, root, "WRITE", std::move(params), app)));
  if (options.overwrite) {
    t->ReadWholeTable();
    for (const delta::AddFile& f : base->snapshot()->files()) RETURN_NOT_OK(t->RemoveFile(f));
  }
  for (const StagedAdd& a : adds) t->AddFile(a.add);
  return CommitStagedTransaction(*t, static_cast<int64_t>(adds.size()), [&] { DeleteFiles(*fs, adds); });
}

Status DiscardStagedFiles(Connection& connection, std::string_view table, const std::vector<std::string>& add_actions) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  ASSIGN_OR_RETURN(std::vector<StagedAdd> adds, ParseStagedAdds(root, add_actions));
  const std::shared_ptr<io::FileSystem>& fs = connection.impl().db->fs;
  // Never a file the table holds (a job that did commit after all, under a retry).
  auto latest = scan::DeltaTable::Open(fs, root);
  if (!latest.ok()) return latest.status().WithContext("table " + root);
  const delta::FileList& live = (*latest)->snapshot()->file_list();
  std::set<std::string_view> live_paths;
  for (size_t i = 0; i < live.size(); ++i) live_paths.insert(live.path(i));
  std::vector<StagedAdd> gone;
  for (StagedAdd& a : adds) {
    if (!live_paths.count(a.add.path)) gone.push_back(std::move(a));
  }
  DeleteFiles(*fs, gone);
  return Status::OK();
}

}  // namespace shoal
