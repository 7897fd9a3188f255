// The DML side of shoal/distributed.h: PlanStatementFiles, StageStatement, CommitStagedChanges,
// DiscardStagedChanges.
#include <charconv>
#include <set>

#include "delta/table_path.h"
#include "shoal/distributed.h"
#include "sql/binder/catalog.h"
#include "sql/binder/table_expression.h"
#include "sql/parser/parser.h"
#include "sql/session/database_impl.h"
#include "sql/session/distributed_table.h"
#include "sql/write/write_transaction.h"
#include "txn/transaction_state.h"

namespace shoal {

namespace {

// The statement's WHERE as SQL text ("" for MERGE or none).
std::string WhereText(const sql::Statement& s) {
  const sql::ParsedExpression* where = nullptr;
  if (s.kind == sql::StatementKind::kUpdate) where = s.As<sql::UpdateStatement>().where.get();
  if (s.kind == sql::StatementKind::kDelete) where = s.As<sql::DeleteStatement>().where.get();
  return where ? where->ToString() : std::string();
}

// The staged data and change data files of `write`, as storage paths inside `root`.
Result<std::vector<std::string>> StagedFilesOf(const std::string& root, const txn::WriteSet& write) {
  std::vector<std::string> out;
  for (const delta::AddFile& a : write.adds) {
    ASSIGN_OR_RETURN(std::string local, StagedFileInside(root, a.path, "staged add"));
    out.push_back(std::move(local));
  }
  for (const delta::AddCdcFile& c : write.cdc_files) {
    ASSIGN_OR_RETURN(std::string local, StagedFileInside(root, c.path, "staged change data file"));
    out.push_back(std::move(local));
  }
  return out;
}

void DeleteStaged(io::FileSystem& fs, const std::vector<std::string>& files) {
  for (const std::string& f : files) (void)fs.Delete(f);
}

Result<txn::TransactionState> ParseChanges(const StagedChanges& c, size_t i) {
  const std::string what = "staged changes " + std::to_string(i + 1);
  auto j = delta::ParseJson(c.transaction, what);
  if (!j.ok()) return Status::InvalidArgument(j.status().message());
  if (!j->is_object()) return Status::InvalidArgument(what + " is not a JSON object");
  auto state = txn::ParseTransactionState(*j, what);
  if (!state.ok()) return Status::InvalidArgument(state.status().message());
  return state;
}

// Adds `from` to `into`; a file in both is InvalidArgument (workers' file sets are disjoint).
template <typename Map>
Status MergeDisjoint(Map&& from, Map* into, const std::string& what) {
  for (auto& [path, v] : from) {
    if (!into->emplace(path, std::move(v)).second) {
      return Status::InvalidArgument(what + ": data file '" + path + "' is in the changes of two workers");
    }
  }
  return Status::OK();
}

// The union of the workers' read and write sets; the changes must be of one statement shape.
Status MergeState(txn::TransactionState&& from, txn::TransactionState* into) {
  txn::ReadSet& r = into->read;
  std::set<std::string> have;
  for (const txn::ReadPredicate& p : r.predicates) have.insert(p.sql);
  for (txn::ReadPredicate& p : from.read.predicates) {
    if (have.insert(p.sql).second) r.predicates.push_back(std::move(p));
  }
  r.whole_table = r.whole_table || from.read.whole_table;
  RETURN_NOT_OK(MergeDisjoint(std::move(from.read.files), &r.files, "read set"));
  r.app_ids.insert(from.read.app_ids.begin(), from.read.app_ids.end());
  r.domains.insert(from.read.domains.begin(), from.read.domains.end());
  txn::WriteSet& w = into->write;
  for (delta::AddFile& a : from.write.adds) w.adds.push_back(std::move(a));
  for (delta::AddCdcFile& c : from.write.cdc_files) w.cdc_files.push_back(std::move(c));
  RETURN_NOT_OK(MergeDisjoint(std::move(from.write.removes), &w.removes, "removes"));
  RETURN_NOT_OK(MergeDisjoint(std::move(from.write.row_deletes), &w.row_deletes, "row deletions"));
  return Status::OK();
}

}  // namespace

Result<TableFilePlan> PlanStatementFiles(Connection& connection, std::string_view table, std::string_view sql,
                                         std::optional<int64_t> version) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  ASSIGN_OR_RETURN(auto statement, ParseTableStatement(connection, sql, root));
  // Pin the version first, so that binding and planning see the same one.
  ASSIGN_OR_RETURN(TableFilePlan all, PlanTableFiles(connection, root, "", version));
  // On no files nothing changes, but a MERGE still inserts its source's unmatched rows: gone.
  ASSIGN_OR_RETURN(StagedChanges none, StageStatement(connection, root, sql, all.version, {}));
  RETURN_NOT_OK(DiscardStagedChanges(connection, root, {none}));
  const std::string where = WhereText(*statement);
  if (where.empty()) return all;
  Result<TableFilePlan> pruned = PlanTableFiles(connection, root, where, all.version);
  if (!pruned.ok() && (pruned.status().code() == StatusCode::kBinder ||
                       pruned.status().code() == StatusCode::kInvalidArgument)) {
    return all;  // bound above with the statement's aliases and subqueries: prune nothing
  }
  return pruned;
}

Result<StagedChanges> StageStatement(Connection& connection, std::string_view table, std::string_view sql,
                                     int64_t version, const std::vector<std::string>& paths) {
  Connection::Impl& impl = connection.impl();
  if (impl.session.in_transaction()) {
    return Status::InvalidArgument("StageStatement cannot run inside a transaction block");
  }
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  ASSIGN_OR_RETURN(auto statement, ParseTableStatement(connection, sql, root));
  scan::TimeTravel at;
  at.version = version;
  auto opened = scan::DeltaTable::Open(impl.db->fs, root, at);
  if (!opened.ok()) return opened.status().WithContext("table " + root);
  ASSIGN_OR_RETURN(std::shared_ptr<const scan::DeltaTable> split, (*opened)->Restrict(paths));

  impl.session.PinTable(root, split);
  Status begun = connection.Begin();
  Result<QueryResult> result = begun.ok() ? connection.Query(sql) : Result<QueryResult>(begun);
  Result<std::vector<sql::Session::DetachedWrite>> detached = Status::OK();
  if (result.ok()) {
    detached = impl.session.DetachTransaction();
  } else if (begun.ok()) {
    (void)connection.Rollback();
  }
  impl.session.PinTable(root, nullptr);
  if (!result.ok()) return result.status();
  if (!detached.ok()) return detached.status();

  StagedChanges out;
  out.root = root;
  out.read_version = (*opened)->snapshot()->version();
  txn::TransactionState state;
  state.read_version = out.read_version;
  bool found = false;
  Status kept;
  for (sql::Session::DetachedWrite& d : *detached) {
    if (d.root != root) {
      // Another table the statement wrote (none can) or read (a Delta source): its reads are
      // not part of this table's commit, its writes would be lost.
      if (d.writes) {
        auto files = StagedFilesOf(d.root, d.write);
        if (files.ok()) DeleteStaged(*impl.db->fs, *files);
        kept = Status::NotSupported("StageStatement: the statement also writes table " + d.root);
      }
      continue;
    }
    found = true;
    state.operation = d.operation;
    state.operation_parameters = d.parameters;
    state.read = std::move(d.read);
    state.write = std::move(d.write);
  }
  if (!kept.ok() || (found && (state.write.app_txn || !state.write.added_file_deletes.empty() ||
                               state.write.metadata || state.write.protocol || !state.write.domains.empty() ||
                               state.write.generates_identity))) {
    if (found) {
      auto files = StagedFilesOf(root, state.write);
      if (files.ok()) DeleteStaged(*impl.db->fs, *files);
    }
    if (!kept.ok()) return kept;
    return Status::NotSupported(
        "StageStatement: the statement changes more than rows and data files (identity columns, an app "
        "transaction set with SET shoal.txn.appId, ...), which staged changes cannot carry");
  }
  if (!found) state.operation = statement->kind == sql::StatementKind::kDelete   ? "DELETE"
                                : statement->kind == sql::StatementKind::kUpdate ? "UPDATE"
                                                                                 : "MERGE";
  out.transaction = delta::JsonText(txn::TransactionStateToJson(state));
  for (int c = 0; result->num_rows() == 1 && c < result->num_columns(); ++c) {
    out.metric_names.push_back(result->column_name(c));
    const std::string text = result->GetText(0, c);
    int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    out.metrics.push_back(v);
  }
  return out;
}

Result<StagedCommit> CommitStagedChanges(Connection& connection, std::string_view table,
                                         const std::vector<StagedChanges>& changes,
                                         const StagedCommitOptions& options) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  const std::shared_ptr<io::FileSystem>& fs = connection.impl().db->fs;
  if (options.overwrite) return Status::InvalidArgument("CommitStagedChanges does not overwrite");
  if (changes.empty()) return Status::InvalidArgument("CommitStagedChanges: no staged changes");
  txn::TransactionState merged;
  for (size_t i = 0; i < changes.size(); ++i) {
    if (changes[i].root != root) {
      return Status::InvalidArgument("staged changes " + std::to_string(i + 1) + " are of table " + changes[i].root +
                                     ", not " + root);
    }
    ASSIGN_OR_RETURN(txn::TransactionState state, ParseChanges(changes[i], i));
    if (i == 0) {
      merged.read_version = state.read_version;
      merged.operation = state.operation;
      merged.operation_parameters = state.operation_parameters;
    } else if (state.read_version != merged.read_version || state.operation != merged.operation) {
      return Status::InvalidArgument("staged changes " + std::to_string(i + 1) + " are of another statement (" +
                                     state.operation + " at version " + std::to_string(state.read_version) +
                                     ", the first: " + merged.operation + " at version " +
                                     std::to_string(merged.read_version) + ")");
    }
    if (!state.write.data_change || state.write.app_txn || state.write.metadata || state.write.protocol ||
        !state.write.domains.empty() || !state.write.added_file_deletes.empty() || state.write.generates_identity) {
      return Status::InvalidArgument("staged changes " + std::to_string(i + 1) +
                                     " carry more than rows and data files");
    }
    RETURN_NOT_OK(MergeState(std::move(state), &merged));
  }
  if (options.read_version >= 0 && options.read_version != merged.read_version) {
    return Status::InvalidArgument("the staged changes were made at version " + std::to_string(merged.read_version) +
                                   ", not " + std::to_string(options.read_version));
  }
  ASSIGN_OR_RETURN(std::optional<delta::Txn> app, StagedAppTransaction(options));
  // Every staged file is inside the table, distinct and on storage; every changed file is live
  // at the read version as the worker read it.
  ASSIGN_OR_RETURN(std::vector<std::string> staged, StagedFilesOf(root, merged.write));
  std::set<std::string> distinct;
  for (const std::string& f : staged) {
    if (!distinct.insert(f).second) return Status::InvalidArgument("staged file '" + f + "' is staged twice");
    ASSIGN_OR_RETURN(bool exists, fs->Exists(f));
    if (!exists) return Status::InvalidArgument("staged file '" + f + "' does not exist");
  }
  scan::TimeTravel at;
  at.version = merged.read_version;
  auto opened = scan::DeltaTable::Open(fs, root, at);
  if (!opened.ok()) return opened.status().WithContext("table " + root);
  std::shared_ptr<const scan::DeltaTable> base = *opened;
  std::map<std::string, std::optional<std::string>, std::less<>> live;  // path -> DV id
  for (const delta::AddFile& f : base->snapshot()->files()) {
    live.emplace(f.path, f.deletion_vector ? std::optional<std::string>(f.deletion_vector->UniqueId())
                                           : std::nullopt);
  }
  auto check_live = [&](const delta::AddFile& f, const char* what) -> Status {
    auto it = live.find(f.path);
    std::optional<std::string> dv =
        f.deletion_vector ? std::optional<std::string>(f.deletion_vector->UniqueId()) : std::nullopt;
    if (it == live.end() || it->second != dv) {
      return Status::InvalidArgument(std::string(what) + " data file '" + f.path + "' is not live as read in version " +
                                     std::to_string(merged.read_version) + " of " + root);
    }
    return Status::OK();
  };
  for (const auto& [path, d] : merged.write.row_deletes) RETURN_NOT_OK(check_live(d.base, "changed"));
  for (const auto& [path, f] : merged.read.files) RETURN_NOT_OK(check_live(f.file, "read"));
  for (const auto& [path, r] : merged.write.removes) {
    if (!live.count(path)) return Status::InvalidArgument("removed data file '" + path + "' is not live");
  }

  ASSIGN_OR_RETURN(std::unique_ptr<txn::Transaction> t,
                   txn::Transaction::Begin(fs, root, base->snapshot(),
                                           sql::SqlTransactionOptions(fs, root, merged.operation,
                                                                      merged.operation_parameters, app)));
  txn::BindReadPredicates(base->schema().get(),
                          [](const std::string& text, const scan::TableSchema& schema) {
                            return sql::BindTableExpression(text, schema.schema);
                          },
                          &merged.read);
  if (app) merged.write.app_txn = app;
  t->RestoreState(std::move(merged.read), std::move(merged.write));
  const auto files = static_cast<int64_t>(t->write_set().adds.size() + t->write_set().row_deletes.size());
  return CommitStagedTransaction(*t, files, [&] { DeleteStaged(*fs, staged); });
}

Status DiscardStagedChanges(Connection& connection, std::string_view table, const std::vector<StagedChanges>& changes) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  const std::shared_ptr<io::FileSystem>& fs = connection.impl().db->fs;
  std::vector<std::string> staged;
  for (size_t i = 0; i < changes.size(); ++i) {
    ASSIGN_OR_RETURN(txn::TransactionState state, ParseChanges(changes[i], i));
    ASSIGN_OR_RETURN(std::vector<std::string> files, StagedFilesOf(root, state.write));
    staged.insert(staged.end(), files.begin(), files.end());
  }
  // Never a file the table holds (a job that did commit after all, under a retry).
  auto latest = scan::DeltaTable::Open(fs, root);
  if (!latest.ok()) return latest.status().WithContext("table " + root);
  std::set<std::string> live;
  const delta::FileList& files = (*latest)->snapshot()->file_list();
  for (size_t i = 0; i < files.size(); ++i) {
    auto local = delta::ResolveTablePath(root, std::string(files.path(i)));
    if (local.ok()) live.insert(*local);
  }
  for (const std::string& f : staged) {
    if (!live.count(f)) (void)fs->Delete(f);
  }
  return Status::OK();
}

}  // namespace shoal
