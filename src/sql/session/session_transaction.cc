// Session write path (BeginTableWrite / EndTableWrite / AbortTableWrite) and the transaction
// statements BEGIN, COMMIT, ROLLBACK, PREPARE TRANSACTION, COMMIT PREPARED, ROLLBACK PREPARED
// (doc/sql_writes.md).
#include <algorithm>
#include <cctype>
#include <charconv>

#include "sql/session/database_impl.h"
#include "sql/session/session.h"
#include "sql/binder/table_expression.h"
#include "sql/write/transaction_read_source.h"
#include "table/change_data_writer.h"
#include "txn/prepared.h"

namespace shoal::sql {

namespace {

std::string NormalizeRoot(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

bool HasWrites(const txn::Transaction& t) {
  const txn::WriteSet& w = t.write_set();
  return !w.adds.empty() || !w.OnlyAdds() || w.app_txn.has_value() || !w.added_file_deletes.empty();
}

// Where PREPARE TRANSACTION records which tables hold the prepared id (one root a line).
std::string PreparedIndexPath(const std::string& warehouse, const std::string& id) {
  return io::JoinPath(io::JoinPath(io::JoinPath(warehouse, "_shoal"), "prepared"), id + ".tables");
}

txn::PredicateRebinder Rebinder() {
  return [](const std::string& sql, const scan::TableSchema& schema) { return BindTableExpression(sql, schema.schema); };
}

// A fresh transaction on the same snapshot and id carrying `t`'s read and write sets, with the
// final commitInfo operation (an explicit transaction only knows it once statements ran).
Result<std::unique_ptr<txn::Transaction>> Rebegin(const std::shared_ptr<io::FileSystem>& fs, TableTransaction& tt) {
  txn::TransactionOptions o = SqlTransactionOptions(fs, tt.root, tt.operation, tt.parameters, std::nullopt);
  o.txn_id = tt.txn->txn_id();
  ASSIGN_OR_RETURN(auto t, txn::Transaction::Begin(fs, tt.root, tt.base->snapshot(), std::move(o)));
  t->RestoreState(tt.txn->read_set(), tt.txn->write_set());
  return t;
}

}  // namespace

Catalog Session::MakeCatalog() {
  Catalog catalog(db_->fs, db_->dir);
  catalog.set_latest_hook(
      [this](const TableName& name, const std::string& root) { return ResolveLatest(name, root); });
  catalog.set_relation_hook([this](const std::string& lower_name) -> std::shared_ptr<const TableSource> {
    // A stream registered for the next statement, then a relation registered until removed.
    auto it = relations_.find(lower_name);
    if (it != relations_.end()) {
      it->second.used = true;
      return it->second.source;
    }
    auto reg = registered_.find(lower_name);
    return reg == registered_.end() ? nullptr : reg->second;
  });
  catalog.set_temp_view_hook([this](const std::string& lower_name) -> std::optional<ViewDefinition> {
    auto it = temp_views_.find(lower_name);
    if (it == temp_views_.end()) return std::nullopt;
    return it->second;
  });
  catalog.set_load_progress(LoadProgress());
  return catalog;
}

void Session::RegisterRelation(const std::string& name, std::shared_ptr<const TableSource> source) {
  std::string key = Lower(name);
  if (source) {
    registered_[key] = std::move(source);
  } else {
    registered_.erase(key);
  }
}

Result<std::optional<delta::Txn>> Session::AppTransactionSetting() const {
  auto app = Setting("shoal.txn.appid");
  auto version = Setting("shoal.txn.version");
  if (!app && !version) return std::optional<delta::Txn>();
  if (!app || !version || app->empty()) {
    return Status::InvalidArgument("SET shoal.txn.appId and shoal.txn.version together (both are needed)");
  }
  delta::Txn t;
  t.app_id = *app;
  auto [end, ec] = std::from_chars(version->data(), version->data() + version->size(), t.version);
  if (ec != std::errc() || end != version->data() + version->size() || t.version < 0) {
    return Status::InvalidArgument("shoal.txn.version must be a non-negative integer, got '" + *version + "'");
  }
  return std::optional<delta::Txn>(std::move(t));
}

Result<TableTransaction*> Session::TableTransactionFor(const std::string& display_name, const std::string& root) {
  auto it = txns_.find(root);
  if (it != txns_.end()) return it->second.get();
  auto tt = std::make_unique<TableTransaction>();
  tt->root = root;
  tt->display_name = display_name;
  if (auto pin = pinned_.find(root); pin != pinned_.end()) {
    tt->base = pin->second;
  } else {
    auto table = scan::DeltaTable::Open(db_->fs, root, {}, LoadProgress());
    if (!table.ok()) return table.status().WithContext("table " + display_name);
    tt->base = *table;
  }
  ASSIGN_OR_RETURN(std::optional<delta::Txn> app, AppTransactionSetting());
  ASSIGN_OR_RETURN(tt->txn, txn::Transaction::Begin(db_->fs, root, tt->base->snapshot(),
                                                    SqlTransactionOptions(db_->fs, root, "WRITE",
                                                                          delta::Json::object(), app)));
  tt->view = tt->base;
  tt->view_stale = false;
  TableTransaction* p = tt.get();
  txns_[root] = std::move(tt);
  return p;
}

Result<std::shared_ptr<const scan::DeltaTable>> Session::TransactionView(TableTransaction* tt) {
  if (tt->view_stale) {
    if (HasWrites(*tt->txn)) {
      ASSIGN_OR_RETURN(tt->view, TableWithStagedWrites(db_->fs, *tt->base->snapshot(), *tt->txn));
    } else {
      tt->view = tt->base;
    }
    tt->view_stale = false;
  }
  return tt->view;
}

Result<std::shared_ptr<const TableSource>> Session::ResolveLatest(const TableName& name, const std::string& raw_root) {
  std::string root = NormalizeRoot(raw_root);
  for (auto it = writes_.rbegin(); it != writes_.rend(); ++it) {
    TableWrite* w = it->write.get();
    if (w->root == root && w->table) {
      return std::shared_ptr<const TableSource>(
          std::make_shared<TransactionReadSource>(w->table, name.ToString(), w->txn));
    }
  }
  if (!in_transaction_ || failed_) return std::shared_ptr<const TableSource>();
  if (!txns_.count(root)) {
    auto exists = db_->fs->Exists(io::JoinPath(root, "_delta_log"));
    if (!exists.ok() || !*exists) return std::shared_ptr<const TableSource>();
  }
  ASSIGN_OR_RETURN(TableTransaction * tt, TableTransactionFor(name.ToString(), root));
  ASSIGN_OR_RETURN(auto view, TransactionView(tt));
  return std::shared_ptr<const TableSource>(
      std::make_shared<TransactionReadSource>(view, name.ToString(), tt->txn.get()));
}

Result<TableWrite*> Session::BeginTableWrite(const TableName& name, const std::string& operation,
                                             delta::Json parameters) {
  if (failed_) {
    return Status::Transaction("current transaction is aborted, commands ignored until end of transaction block");
  }
  Catalog catalog(db_->fs, db_->dir);
  ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(name));
  root = NormalizeRoot(root);
  ASSIGN_OR_RETURN(bool exists, db_->fs->Exists(io::JoinPath(root, "_delta_log")));
  if (!exists) return Status::Catalog("Table with name " + name.ToString() + " does not exist!");
  StatementWrite sw;
  sw.write = std::make_unique<TableWrite>();
  TableWrite* w = sw.write.get();
  w->root = root;
  w->display_name = name.ToString();
  ASSIGN_OR_RETURN(std::optional<delta::Txn> app, AppTransactionSetting());
  if (in_transaction_) {
    ASSIGN_OR_RETURN(TableTransaction * tt, TableTransactionFor(w->display_name, root));
    if (!tt->operation_set) {
      tt->operation = operation;
      tt->parameters = std::move(parameters);
      tt->operation_set = true;
    }
    sw.table_txn = tt;
    w->txn = tt->txn.get();
    if (table::ChangeDataFeedEnabled(tt->txn->metadata())) sw.before = tt->txn->write_set();
    ASSIGN_OR_RETURN(w->table, TransactionView(tt));
    app = tt->txn->write_set().app_txn;
  } else {
    auto table = scan::DeltaTable::Open(db_->fs, root, {}, LoadProgress());
    if (!table.ok()) return table.status().WithContext("table " + w->display_name);
    w->table = *table;
    ASSIGN_OR_RETURN(sw.own_txn, txn::Transaction::Begin(db_->fs, root, w->table->snapshot(),
                                                         SqlTransactionOptions(db_->fs, root, operation,
                                                                               std::move(parameters), app)));
    w->txn = sw.own_txn.get();
  }
  if (app) {
    auto have = w->table->snapshot()->AppTransactionVersion(app->app_id);
    w->already_committed = have && *have >= app->version;
  }
  writes_.push_back(std::move(sw));
  return w;
}

Result<txn::CommitResult> Session::EndTableWrite(TableWrite* write) {
  auto it = std::find_if(writes_.begin(), writes_.end(), [&](const StatementWrite& s) { return s.write.get() == write; });
  if (it == writes_.end()) return Status::Internal("EndTableWrite of a write that is not open");
  StatementWrite sw = std::move(*it);
  writes_.erase(it);
  if (sw.table_txn) {
    TableTransaction* tt = sw.table_txn;
    Status st;
    if (sw.before) st = table::StageWriteSetChanges(db_->fs, *sw.before, tt->txn.get(), &write->staged_files);
    tt->staged_files.insert(tt->staged_files.end(), write->staged_files.begin(), write->staged_files.end());
    if (st.ok()) st = FoldOwnFileChanges(tt->txn.get(), &tt->staged_files);
    tt->view_stale = true;
    if (!st.ok()) {
      if (!failed_) failed_ = st;
      return st;
    }
    txn::CommitResult r;
    r.version = -1;  // staged, not committed
    return r;
  }
  Status st = FoldOwnFileChanges(sw.own_txn.get(), &write->staged_files);
  if (!st.ok()) {
    DeleteStagedFiles(*db_->fs, write->staged_files);
    return st;
  }
  auto r = sw.own_txn->Commit();
  if (!r.ok() || r->already_committed) DeleteStagedFiles(*db_->fs, write->staged_files);
  return r;
}

void Session::AbortTableWrite(TableWrite* write, const Status& error) {
  auto it = std::find_if(writes_.begin(), writes_.end(), [&](const StatementWrite& s) { return s.write.get() == write; });
  if (it == writes_.end()) return;
  DeleteStagedFiles(*db_->fs, write->staged_files);
  if (it->table_txn && !failed_) failed_ = error.ok() ? Status::Internal("write abandoned") : error;
  writes_.erase(it);
}

void Session::DiscardTransaction() {
  for (auto& [root, tt] : txns_) DeleteStagedFiles(*db_->fs, tt->staged_files);
  txns_.clear();
  in_transaction_ = false;
  failed_.reset();
}

Result<QueryResult> Session::CommitTransaction() {
  if (failed_) {
    DiscardTransaction();
    return Status::Transaction("current transaction is aborted; it was rolled back");
  }
  std::vector<TableTransaction*> order;
  for (auto& [root, tt] : txns_) {
    if (HasWrites(*tt->txn)) order.push_back(tt.get());
  }
  for (size_t i = 0; i < order.size(); ++i) {
    TableTransaction& tt = *order[i];
    auto t = Rebegin(db_->fs, tt);
    Result<txn::CommitResult> r = t.ok() ? (*t)->Commit() : Result<txn::CommitResult>(t.status());
    if (!r.ok() || r->already_committed) DeleteStagedFiles(*db_->fs, tt.staged_files);
    tt.staged_files.clear();
    if (!r.ok()) {
      DiscardTransaction();  // the tables not committed yet are rolled back
      return r.status();
    }
  }
  txns_.clear();
  in_transaction_ = false;
  failed_.reset();
  return QueryResult();
}

Result<QueryResult> Session::PrepareTransaction(const std::string& id) {
  if (failed_) {
    DiscardTransaction();
    return Status::Transaction("current transaction is aborted; it was rolled back");
  }
  std::vector<TableTransaction*> tables;
  for (auto& [root, tt] : txns_) {
    if (HasWrites(*tt->txn)) tables.push_back(tt.get());
  }
  for (TableTransaction* tt : tables) {
    auto path = txn::PreparedPath(tt->root, id);
    if (!path.ok()) {
      DiscardTransaction();
      return Status::Transaction(path.status().message());
    }
  }
  std::string index = PreparedIndexPath(db_->dir, id);
  std::string roots;
  for (TableTransaction* tt : tables) roots += tt->root + "\n";
  Status st = db_->fs->CreateDirs(io::DirName(index));
  if (st.ok()) st = db_->fs->PutIfAbsent(index, roots);
  if (!st.ok()) {
    DiscardTransaction();
    if (io::IsAlreadyExists(st)) return Status::Transaction("transaction identifier \"" + id + "\" is already in use");
    return st;
  }
  std::vector<TableTransaction*> done;
  for (TableTransaction* tt : tables) {
    auto t = Rebegin(db_->fs, *tt);
    Status p = t.ok() ? txn::PrepareTransaction(**t, id) : t.status();
    if (!p.ok()) {
      for (TableTransaction* d : done) (void)txn::RollbackPrepared(*db_->fs, d->root, id);
      (void)db_->fs->Delete(index);
      DiscardTransaction();
      return p;
    }
    done.push_back(tt);
    tt->staged_files.clear();  // now owned by the prepared transaction
  }
  DiscardTransaction();
  return QueryResult();
}

Result<std::vector<Session::DetachedWrite>> Session::DetachTransaction() {
  if (!in_transaction_) return Status::Transaction("no transaction is active");
  if (failed_) {
    Status error = *failed_;
    DiscardTransaction();
    return error;
  }
  std::vector<DetachedWrite> out;
  for (auto& [root, tt] : txns_) {
    const bool writes = HasWrites(*tt->txn);
    if (!writes && tt->txn->read_set().Empty()) continue;
    out.push_back({root, tt->txn->read_version(), tt->txn->write_set(), tt->txn->read_set(), writes, tt->operation,
                   tt->parameters});
    tt->staged_files.clear();  // the caller's now
  }
  DiscardTransaction();
  return out;
}

void Session::PinTable(const std::string& root, std::shared_ptr<const scan::DeltaTable> table) {
  if (table) {
    pinned_[NormalizeRoot(root)] = std::move(table);
  } else {
    pinned_.erase(NormalizeRoot(root));
  }
}

Result<QueryResult> Session::FinishPrepared(const std::string& id, bool commit) {
  if (in_transaction_) {
    return Status::Transaction(std::string(commit ? "COMMIT" : "ROLLBACK") +
                               " PREPARED cannot run inside a transaction block");
  }
  std::string index = PreparedIndexPath(db_->dir, id);
  std::vector<std::string> roots;
  ASSIGN_OR_RETURN(bool indexed, db_->fs->Exists(index));
  if (indexed) {
    ASSIGN_OR_RETURN(std::string text, db_->fs->ReadAll(index));
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      if (nl == std::string::npos) nl = text.size();
      if (nl > start) roots.push_back(text.substr(start, nl - start));
      start = nl + 1;
    }
  } else {
    // No index (e.g. written by another tool): look in the warehouse's tables.
    ASSIGN_OR_RETURN(auto entries, db_->fs->List(db_->dir));
    for (const auto& e : entries) {
      if (!e.is_dir) continue;
      std::string root = io::JoinPath(db_->dir, e.name);
      auto path = txn::PreparedPath(root, id);
      if (!path.ok()) return Status::Transaction(path.status().message());
      ASSIGN_OR_RETURN(bool has, db_->fs->Exists(*path));
      if (has) roots.push_back(root);
    }
  }
  std::vector<std::string> pending;
  for (const std::string& root : roots) {
    auto path = txn::PreparedPath(root, id);
    if (!path.ok()) return Status::Transaction(path.status().message());
    ASSIGN_OR_RETURN(bool has, db_->fs->Exists(*path));
    if (has) pending.push_back(root);
  }
  if (pending.empty()) {
    if (indexed) (void)db_->fs->Delete(index);
    return Status::Transaction("prepared transaction with identifier \"" + id + "\" does not exist");
  }
  Status first;
  for (const std::string& root : pending) {
    Status st;
    if (commit) {
      auto r = txn::CommitPrepared(db_->fs, root, id, Rebinder(),
                                   SqlTransactionOptions(db_->fs, root, "WRITE", delta::Json::object(), std::nullopt));
      st = r.status();
    } else {
      st = txn::RollbackPrepared(*db_->fs, root, id);
    }
    if (!st.ok() && first.ok()) first = st;
  }
  if (indexed) {
    bool left = false;
    for (const std::string& root : pending) {
      auto path = txn::PreparedPath(root, id);
      auto has = db_->fs->Exists(*path);
      left |= !has.ok() || *has;
    }
    if (!left) (void)db_->fs->Delete(index);
  }
  RETURN_NOT_OK(first);
  return QueryResult();
}

Result<QueryResult> Session::RunTransaction(const Statement& s) {
  const auto& t = s.As<TransactionStatement>();
  switch (t.transaction_kind) {
    case TransactionStatement::Kind::kBegin:
      if (in_transaction_) return Status::Transaction("cannot start a transaction within a transaction");
      in_transaction_ = true;
      failed_.reset();
      return QueryResult();
    case TransactionStatement::Kind::kCommit:
      if (!in_transaction_) return Status::Transaction("cannot commit - no transaction is active");
      return CommitTransaction();
    case TransactionStatement::Kind::kRollback:
      if (!in_transaction_) return Status::Transaction("cannot rollback - no transaction is active");
      DiscardTransaction();
      return QueryResult();
    case TransactionStatement::Kind::kPrepare:
      if (!in_transaction_) return Status::Transaction("PREPARE TRANSACTION: no transaction is active");
      return PrepareTransaction(t.transaction_id);
    case TransactionStatement::Kind::kCommitPrepared:
      return FinishPrepared(t.transaction_id, true);
    case TransactionStatement::Kind::kRollbackPrepared:
      return FinishPrepared(t.transaction_id, false);
  }
  return Status::Internal("unknown transaction statement");
}

}  // namespace shoal::sql
