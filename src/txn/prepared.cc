#include "txn/prepared.h"

#include <cctype>

#include "delta/json_fields.h"
#include "delta/log_segment.h"
#include "delta/snapshot.h"
#include "delta/table_path.h"
#include "txn/conflict_checker.h"
#include "txn/staged_files.h"

namespace shoal::txn {
namespace {

constexpr int kFormatVersion = 1;
constexpr const char* kPreparedDir = "_shoal/prepared";
constexpr size_t kMaxPreparedBytes = size_t{1} << 30;

// ---- base64 (RFC 4648, with padding) for deletion-vector bytes

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64Encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kB64[(v >> s) & 63]);
  }
  if (i < in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) v |= uint8_t(in[i + 1]) << 8;
    out.push_back(kB64[(v >> 18) & 63]);
    out.push_back(kB64[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? kB64[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view in, std::string_view what) {
  if (in.size() % 4 != 0) return Status::Corruption(std::string(what) + ": bad base64 length");
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = in[i + k];
      int d;
      if (c >= 'A' && c <= 'Z') d = c - 'A';
      else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
      else if (c >= '0' && c <= '9') d = c - '0' + 52;
      else if (c == '+') d = 62;
      else if (c == '/') d = 63;
      else if (c == '=' && i + 4 == in.size() && k >= 2) { d = 0; ++pad; }
      else return Status::Corruption(std::string(what) + ": bad base64 character");
      if (pad && c != '=') return Status::Corruption(std::string(what) + ": bad base64 padding");
      v = (v << 6) | d;
    }
    out.push_back(char(v >> 16));
    if (pad < 2) out.push_back(char((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(char(v & 0xFF));
  }
  return out;
}

delta::Json DvToJson(const delta::DeletionVector& dv) {
  delta::DeletionVector copy = dv;
  copy.RunOptimize();
  return Base64Encode(copy.Serialize());
}

Result<delta::DeletionVector> DvFromJson(const delta::Json& j, std::string_view what) {
  if (!j.is_string()) return Status::Corruption(std::string(what) + ": row set is not a string");
  ASSIGN_OR_RETURN(std::string bytes, Base64Decode(j.get_ref<const std::string&>(), what));
  return delta::DeletionVector::Deserialize(bytes, what);
}

Result<delta::AddFile> AddFromJson(const delta::Json& j, std::string_view what) {
  ASSIGN_OR_RETURN(auto action, delta::ParseActionJson(j));
  if (!action || !std::holds_alternative<delta::AddFile>(*action)) {
    return Status::Corruption(std::string(what) + ": expected an add action");
  }
  return std::get<delta::AddFile>(std::move(*action));
}

// ---- the file format

delta::Json ToJson(const Transaction& txn, const std::string& id) {
  const ReadSet& read = txn.read_set();
  const WriteSet& write = txn.write_set();
  delta::Json j = delta::Json::object();
  j["formatVersion"] = kFormatVersion;
  j["id"] = id;
  j["txnId"] = txn.txn_id();
  j["readVersion"] = txn.read_version();
  j["isolationLevel"] = IsolationLevelName(txn.options().isolation_level.value_or(
      IsolationLevel::kWriteSerializable));
  j["operation"] = txn.options().operation;
  j["operationParameters"] = txn.options().operation_parameters;
  j["engineInfo"] = txn.options().engine_info;
  j["dataChange"] = write.data_change;
  j["generatesIdentity"] = write.generates_identity;

  delta::Json rs = delta::Json::object();
  delta::Json preds = delta::Json::array();
  for (const auto& p : read.predicates) preds.push_back(delta::Json{{"sql", p.sql}});
  rs["predicates"] = std::move(preds);
  rs["wholeTable"] = read.whole_table;
  delta::Json files = delta::Json::array();
  for (const auto& [path, f] : read.files) {
    delta::Json e = delta::Json::object();
    e["add"] = delta::ActionToJson(f.file);
    if (f.matched_rows) e["matchedRows"] = DvToJson(*f.matched_rows);
    files.push_back(std::move(e));
  }
  rs["files"] = std::move(files);
  rs["appIds"] = read.app_ids;
  rs["domains"] = read.domains;
  j["readSet"] = std::move(rs);

  delta::Json ws = delta::Json::object();
  delta::Json actions = delta::Json::array();
  if (write.protocol) actions.push_back(delta::ActionToJson(*write.protocol));
  if (write.metadata) actions.push_back(delta::ActionToJson(*write.metadata));
  if (write.app_txn) actions.push_back(delta::ActionToJson(*write.app_txn));
  for (const auto& [name, d] : write.domains) actions.push_back(delta::ActionToJson(d));
  for (const auto& [path, r] : write.removes) actions.push_back(delta::ActionToJson(r));
  for (const auto& a : write.adds) actions.push_back(delta::ActionToJson(a));
  for (const auto& c : write.cdc_files) actions.push_back(delta::ActionToJson(c));
  ws["actions"] = std::move(actions);
  delta::Json deletes = delta::Json::array();
  for (const auto& [path, d] : write.row_deletes) {
    deletes.push_back(delta::Json{{"add", delta::ActionToJson(d.base)}, {"rows", DvToJson(d.rows)}});
  }
  ws["rowDeletes"] = std::move(deletes);
  j["writeSet"] = std::move(ws);
  return j;
}

struct Loaded {
  std::string txn_id;
  int64_t read_version = -1;
  IsolationLevel isolation = IsolationLevel::kWriteSerializable;
  std::string operation;
  delta::Json operation_parameters = delta::Json::object();
  std::string engine_info;
  std::vector<std::string> predicate_sql;
  ReadSet read;
  WriteSet write;
};

Result<Loaded> Parse(std::string_view text, const std::string& what) {
  ASSIGN_OR_RETURN(delta::Json j, delta::ParseJson(text, what));
  if (!j.is_object()) return Status::Corruption(what + ": not a JSON object");
  delta::JsonFields f(j, what);
  int64_t format = 0;
  RETURN_NOT_OK(f.RequiredInt64("formatVersion", &format));
  if (format != kFormatVersion) {
    return Status::NotSupported(what + ": prepared transaction format " + std::to_string(format));
  }
  Loaded out;
  RETURN_NOT_OK(f.RequiredString("txnId", &out.txn_id));
  RETURN_NOT_OK(f.RequiredInt64("readVersion", &out.read_version));
  std::string level;
  RETURN_NOT_OK(f.RequiredString("isolationLevel", &level));
  auto parsed_level = ParseIsolationLevel(level);
  if (!parsed_level) return Status::Corruption(what + ": unknown isolationLevel '" + level + "'");
  out.isolation = *parsed_level;
  RETURN_NOT_OK(f.RequiredString("operation", &out.operation));
  if (const delta::Json* p = f.Find("operationParameters"); p && p->is_object()) {
    out.operation_parameters = *p;
  }
  std::optional<std::string> engine;
  RETURN_NOT_OK(f.OptionalString("engineInfo", &engine));
  out.engine_info = engine.value_or(kEngineInfo);
  RETURN_NOT_OK(f.RequiredBool("dataChange", &out.write.data_change));
  RETURN_NOT_OK(f.RequiredBool("generatesIdentity", &out.write.generates_identity));

  const delta::Json* rs = nullptr;
  RETURN_NOT_OK(f.OptionalObject("readSet", &rs));
  if (!rs) return f.Missing("readSet");
  delta::JsonFields r(*rs, "readSet");
  if (const delta::Json* preds = r.Find("predicates")) {
    if (!preds->is_array()) return r.WrongType("predicates", "array");
    for (const auto& p : *preds) {
      if (!p.is_object() || !p.contains("sql") || !p["sql"].is_string()) {
        return Status::Corruption(what + ": readSet.predicates entry without sql");
      }
      out.predicate_sql.push_back(p["sql"].get<std::string>());
    }
  }
  RETURN_NOT_OK(r.RequiredBool("wholeTable", &out.read.whole_table));
  if (const delta::Json* files = r.Find("files")) {
    if (!files->is_array()) return r.WrongType("files", "array");
    for (const auto& e : *files) {
      if (!e.is_object() || !e.contains("add")) return Status::Corruption(what + ": readSet.files entry");
      ASSIGN_OR_RETURN(delta::AddFile add, AddFromJson(e["add"], what));
      ReadFile rf;
      rf.file = add;
      if (e.contains("matchedRows")) {
        ASSIGN_OR_RETURN(rf.matched_rows, DvFromJson(e["matchedRows"], what + " " + add.path));
      }
      out.read.files[add.path] = std::move(rf);
    }
  }
  std::vector<std::string> ids, domains;
  RETURN_NOT_OK(r.StringArray("appIds", false, &ids));
  RETURN_NOT_OK(r.StringArray("domains", false, &domains));
  out.read.app_ids.insert(ids.begin(), ids.end());
  out.read.domains.insert(domains.begin(), domains.end());

  const delta::Json* ws = nullptr;
  RETURN_NOT_OK(f.OptionalObject("writeSet", &ws));
  if (!ws) return f.Missing("writeSet");
  delta::JsonFields w(*ws, "writeSet");
  if (const delta::Json* actions = w.Find("actions")) {
    if (!actions->is_array()) return w.WrongType("actions", "array");
    for (const auto& a : *actions) {
      ASSIGN_OR_RETURN(auto action, delta::ParseActionJson(a));
      if (!action) continue;
      if (auto* add = std::get_if<delta::AddFile>(&*action)) {
        out.write.adds.push_back(std::move(*add));
      } else if (auto* cdc = std::get_if<delta::AddCdcFile>(&*action)) {
        out.write.cdc_files.push_back(std::move(*cdc));
      } else if (auto* rm = std::get_if<delta::RemoveFile>(&*action)) {
        std::string path = rm->path;
        out.write.removes[path] = std::move(*rm);
      } else if (auto* m = std::get_if<delta::Metadata>(&*action)) {
        out.write.metadata = std::move(*m);
      } else if (auto* p = std::get_if<delta::Protocol>(&*action)) {
        out.write.protocol = std::move(*p);
      } else if (auto* t = std::get_if<delta::Txn>(&*action)) {
        out.write.app_txn = std::move(*t);
      } else if (auto* d = std::get_if<delta::DomainMetadata>(&*action)) {
        std::string name = d->domain;
        out.write.domains[name] = std::move(*d);
      }
    }
  }
  if (const delta::Json* deletes = w.Find("rowDeletes")) {
    if (!deletes->is_array()) return w.WrongType("rowDeletes", "array");
    for (const auto& e : *deletes) {
      if (!e.is_object() || !e.contains("add") || !e.contains("rows")) {
        return Status::Corruption(what + ": writeSet.rowDeletes entry");
      }
      ASSIGN_OR_RETURN(delta::AddFile add, AddFromJson(e["add"], what));
      StagedRowDelete del;
      ASSIGN_OR_RETURN(del.rows, DvFromJson(e["rows"], what + " " + add.path));
      del.base = std::move(add);
      std::string path = del.base.path;
      out.write.row_deletes[path] = std::move(del);
    }
  }
  return out;
}

Result<Loaded> ReadPreparedFile(io::FileSystem& fs, const std::string& table_root,
                                const std::string& id) {
  ASSIGN_OR_RETURN(std::string path, PreparedPath(table_root, id));
  ASSIGN_OR_RETURN(bool exists, fs.Exists(path));
  if (!exists) return Status::Transaction("there is no prepared transaction '" + id + "'");
  ASSIGN_OR_RETURN(io::FileInfo info, fs.Stat(path));
  if (info.size < 0 || static_cast<size_t>(info.size) > kMaxPreparedBytes) {
    return Status::Corruption(path + ": implausible size " + std::to_string(info.size));
  }
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(path));
  return Parse(text, path);
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
  Status st = txn.fs()->PutIfAbsent(path, delta::JsonText(ToJson(txn, id), 2) + "\n");
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
  ASSIGN_OR_RETURN(Loaded loaded, ReadPreparedFile(*fs, table_root, id));
  std::shared_ptr<const delta::Snapshot> snapshot;
  if (loaded.read_version >= 0) {
    delta::SnapshotOptions so;
    so.version = loaded.read_version;
    ASSIGN_OR_RETURN(snapshot, delta::Snapshot::Load(fs, table_root, so));
  }
  options.txn_id = loaded.txn_id;
  options.isolation_level = loaded.isolation;
  options.operation = loaded.operation;
  options.operation_parameters = loaded.operation_parameters;
  options.engine_info = loaded.engine_info;
  options.app_txn = loaded.write.app_txn;
  ASSIGN_OR_RETURN(auto txn, Transaction::Begin(fs, table_root, snapshot, std::move(options)));
  // Predicates bind against the metadata the transaction would commit with.
  delta::Metadata metadata = loaded.write.metadata ? *loaded.write.metadata : txn->metadata();
  auto schema = scan::BuildTableSchema(metadata);
  for (const auto& sql : loaded.predicate_sql) {
    Result<expr::ExprPtr> bound = Status::NotSupported("no predicate rebinder");
    if (rebinder && schema.ok()) bound = rebinder(sql, *schema);
    if (bound.ok() && *bound) {
      loaded.read.predicates.push_back({*bound, sql});
    } else {
      loaded.read.whole_table = true;
    }
  }
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
  ASSIGN_OR_RETURN(Loaded loaded, ReadPreparedFile(fs, table_root, id));
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
    ASSIGN_OR_RETURN(Loaded loaded, ReadPreparedFile(fs, table_root, id));
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
