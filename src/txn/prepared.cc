#include "txn/prepared.h"

#include <cctype>

#include "delta/json_fields.h"
#include "delta/log_segment.h"
#include "delta/snapshot.h"
#include "delta/table_path.h"
#include "txn/conflict_checker.h"
#include "txn/staged_files.h"
#include "txn/transaction_state.h"

namespace shoal::txn {
namespace {

constexpr const char* kPreparedDir = "_shoal/prepared";
constexpr size_t kMaxPreparedBytes = size_t{1} << 30;

Result<TransactionState> ReadPreparedFile(io::FileSystem& fs, const std::string& table_root,
                                          const std::string& id) {
  ASSIGN_OR_RETURN(std::string path, PreparedPath(table_root, id));
  ASSIGN_OR_RETURN(bool exists, fs.Exists(path));
  if (!exists) return Status::Transaction("there is no prepared transaction '" + id + "'");
  ASSIGN_OR_RETURN(io::FileInfo info, fs.Stat(path));
  if (info.size < 0 || static_cast<size_t>(info.size) > kMaxPreparedBytes) {
    return Status::Corruption(path + ": implausible size " + std::to_string(info.size));
  }
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(path));
  ASSIGN_OR_RETURN(delta::Json j, delta::ParseJson(text, path));
  return ParseTransactionState(j, path);
}

Status DeleteStagedFile(io::FileSystem& fs, const std::string& table_root, const std::string& path) {
  auto local = delta::ResolveTablePath(table_root, path);
  if (!local.ok()) return Status::OK();  // never delete outside the table
  ASSIGN_OR_RETURN(bool exists, fs.Exists(*local));
  if (exists) RETURN_NOT_OK(fs.Delete(*local));
  return Status::OK();
}

Status DeleteStagedFiles(io::FileSystem& fs, const std::string& table_root, const WriteSet& write) {
  for (const auto& add : write.adds) RETURN_NOT_OK(DeleteStagedFile(fs, table_root, add.path));
  for (const auto& cdc : write.cdc_files) RETURN_NOT_OK(DeleteStagedFile(fs, table_root, cdc.path));
  return Status::OK();
}

// The version at which the transaction `txn_id` (read at `read_version`) committed, if it did:
// COMMIT PREPARED can land and then fail to delete the prepared file.
Result<std::optional<int64_t>> FindOwnCommit(io::FileSystem& fs, const std::string& table_root,
                                             int64_t read_version, const std::string& txn_id) {
  const std::string log_dir = delta::LogDirOf(table_root);
  for (int64_t v = read_version + 1;; ++v) {
    std::string file = io::JoinPath(log_dir, delta::CommitFileName(v));
    ASSIGN_OR_RETURN(bool exists, fs.Exists(file));
    if (!exists) return std::optional<int64_t>();
    ASSIGN_OR_RETURN(std::string text, fs.ReadAll(file));
    ASSIGN_OR_RETURN(auto actions, delta::ParseCommitFile(text, file));
    if (WinningCommit::FromActions(v, std::move(actions)).TxnId() == txn_id) return std::optional<int64_t>(v);
  }
}

}  // namespace

Result<std::string> PreparedPath(const std::string& table_root, const std::string& id) {
  bool ok = !id.empty() && id.size() <= 128 && std::isalnum(static_cast<unsigned char>(id[0]));
  for (char c : id) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
  }
  if (!ok) {
    return Status::InvalidArgument("invalid prepared transaction id '" + id +
                                   "': use 1 to 128 letters, digits, '_', '-' or '.'");
  }
  return io::JoinPath(io::JoinPath(table_root, kPreparedDir), id + ".json");
}

Status PrepareTransaction(const Transaction& txn, const std::string& id) {
  ASSIGN_OR_RETURN(std::string path, PreparedPath(txn.table_root(), id));
  RETURN_NOT_OK(txn.fs()->CreateDirs(io::DirName(path)));
  RETURN_NOT_OK(SyncStagedFileDirectories(*txn.fs(), txn.table_root(), txn.write_set()));
  delta::Json j = TransactionStateToJson(CaptureState(txn));
  j["id"] = id;
  Status st = txn.fs()->PutIfAbsent(path, delta::JsonText(j, 2) + "\n");
  if (io::IsAlreadyExists(st)) {
    return Status::Transaction("prepared transaction '" + id + "' already exists");
  }
  return st;
}

Result<std::unique_ptr<Transaction>> LoadPrepared(std::shared_ptr<io::FileSystem> fs,
                                                  const std::string& table_root,
                                                  const std::string& id,
                                                  const PredicateRebinder& rebinder,
                                                  TransactionOptions options) {
  ASSIGN_OR_RETURN(TransactionState loaded, ReadPreparedFile(*fs, table_root, id));
  std::shared_ptr<const delta::Snapshot> snapshot;
  if (loaded.read_version >= 0) {
    delta::SnapshotOptions so;
    so.version = loaded.read_version;
    ASSIGN_OR_RETURN(snapshot, delta::Snapshot::Load(fs, table_root, so));
  }
  options.txn_id = loaded.txn_id;
  options.isolation_level = loaded.isolation_level;
  options.operation = loaded.operation;
  options.operation_parameters = loaded.operation_parameters;
  options.engine_info = loaded.engine_info;
  options.app_txn = loaded.write.app_txn;
  ASSIGN_OR_RETURN(auto txn, Transaction::Begin(fs, table_root, snapshot, std::move(options)));
  // Predicates bind against the metadata the transaction would commit with.
  delta::Metadata metadata = loaded.write.metadata ? *loaded.write.metadata : txn->metadata();
  auto schema = scan::BuildTableSchema(metadata);
  BindReadPredicates(schema.ok() ? &*schema : nullptr, rebinder, &loaded.read);
  txn->RestoreState(std::move(loaded.read), std::move(loaded.write));
  return txn;
}

Result<CommitResult> CommitPrepared(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                    const std::string& id, const PredicateRebinder& rebinder,
                                    TransactionOptions options) {
  ASSIGN_OR_RETURN(auto txn, LoadPrepared(fs, table_root, id, rebinder, std::move(options)));
  ASSIGN_OR_RETURN(std::string path, PreparedPath(table_root, id));
  auto result = txn->Commit();
  if (result.ok()) {
    RETURN_NOT_OK(fs->Delete(path));
    return result;
  }
  if (result.status().IsConflict()) {
    RETURN_NOT_OK(fs->Delete(path));  // first, as in RollbackPrepared
    RETURN_NOT_OK(fs->SyncDir(io::DirName(path)));
    RETURN_NOT_OK(DeleteStagedFiles(*fs, table_root, txn->write_set()));
  }
  return result;
}

Status RollbackPrepared(io::FileSystem& fs, const std::string& table_root, const std::string& id) {
  ASSIGN_OR_RETURN(TransactionState loaded, ReadPreparedFile(fs, table_root, id));
  ASSIGN_OR_RETURN(auto committed, FindOwnCommit(fs, table_root, loaded.read_version, loaded.txn_id));
  if (committed) {
    // Its staged files are live data now: only the stale prepared file goes.
    ASSIGN_OR_RETURN(std::string path, PreparedPath(table_root, id));
    RETURN_NOT_OK(fs.Delete(path));
    return Status::Transaction("prepared transaction \"" + id + "\" was already committed as version " +
                               std::to_string(*committed) + " of " + table_root);
  }
  // The prepared file goes first (durably): while it exists, its staged files must too, or a
  // later COMMIT PREPARED would commit references to deleted files. Leftover staged files
  // are orphans VACUUM removes.
  ASSIGN_OR_RETURN(std::string path, PreparedPath(table_root, id));
  RETURN_NOT_OK(fs.Delete(path));
  RETURN_NOT_OK(fs.SyncDir(io::DirName(path)));
  return DeleteStagedFiles(fs, table_root, loaded.write);
}

Result<std::vector<PreparedSummary>> ListPrepared(io::FileSystem& fs, const std::string& table_root) {
  std::vector<PreparedSummary> out;
  std::string dir = io::JoinPath(table_root, kPreparedDir);
  ASSIGN_OR_RETURN(bool exists, fs.Exists(dir));
  if (!exists) return out;
  ASSIGN_OR_RETURN(auto entries, fs.List(dir));
  for (const auto& e : entries) {
    if (e.is_dir || e.name.size() <= 5 || e.name.compare(e.name.size() - 5, 5, ".json") != 0) continue;
    std::string id = e.name.substr(0, e.name.size() - 5);
    if (!PreparedPath(table_root, id).ok()) continue;
    ASSIGN_OR_RETURN(TransactionState loaded, ReadPreparedFile(fs, table_root, id));
    PreparedSummary s;
    s.id = id;
    s.txn_id = loaded.txn_id;
    s.read_version = loaded.read_version;
    s.operation = loaded.operation;
    for (const auto& add : loaded.write.adds) {
      auto local = delta::ResolveTablePath(table_root, add.path);
      if (local.ok()) s.staged_files.push_back(*local);
    }
    for (const auto& cdc : loaded.write.cdc_files) {
      auto local = delta::ResolveTablePath(table_root, cdc.path);
      if (local.ok()) s.staged_files.push_back(*local);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace shoal::txn
