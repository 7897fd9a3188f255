#include "txn/transaction_state.h"

namespace shoal::txn {
namespace {

constexpr int kFormatVersion = 1;

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

}  // namespace

TransactionState CaptureState(const Transaction& txn) {
  TransactionState s;
  s.txn_id = txn.txn_id();
  s.read_version = txn.read_version();
  s.isolation_level = txn.options().isolation_level.value_or(IsolationLevel::kWriteSerializable);
  s.operation = txn.options().operation;
  s.operation_parameters = txn.options().operation_parameters;
  s.engine_info = txn.options().engine_info;
  s.read = txn.read_set();
  s.write = txn.write_set();
  return s;
}

delta::Json TransactionStateToJson(const TransactionState& state) {
  const ReadSet& read = state.read;
  const WriteSet& write = state.write;
  delta::Json j = delta::Json::object();
  j["formatVersion"] = kFormatVersion;
  j["txnId"] = state.txn_id;
  j["readVersion"] = state.read_version;
  j["isolationLevel"] = IsolationLevelName(state.isolation_level);
  j["operation"] = state.operation;
  j["operationParameters"] = state.operation_parameters;
  j["engineInfo"] = state.engine_info;
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

Result<TransactionState> ParseTransactionState(const delta::Json& j, const std::string& what) {
  if (!j.is_object()) return Status::Corruption(what + ": not a JSON object");
  delta::JsonFields f(j, what);
  int64_t format = 0;
  RETURN_NOT_OK(f.RequiredInt64("formatVersion", &format));
  if (format != kFormatVersion) {
    return Status::NotSupported(what + ": prepared transaction format " + std::to_string(format));
  }
  TransactionState out;
  RETURN_NOT_OK(f.RequiredString("txnId", &out.txn_id));
  RETURN_NOT_OK(f.RequiredInt64("readVersion", &out.read_version));
  std::string level;
  RETURN_NOT_OK(f.RequiredString("isolationLevel", &level));
  auto parsed_level = ParseIsolationLevel(level);
  if (!parsed_level) return Status::Corruption(what + ": unknown isolationLevel '" + level + "'");
  out.isolation_level = *parsed_level;
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
      out.read.predicates.push_back({nullptr, p["sql"].get<std::string>()});
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


void BindReadPredicates(const scan::TableSchema* schema, const PredicateRebinder& rebinder, ReadSet* read) {
  std::vector<ReadPredicate> bound;
  for (ReadPredicate& p : read->predicates) {
    if (p.expr) {
      bound.push_back(std::move(p));
      continue;
    }
    Result<expr::ExprPtr> e = Status::NotSupported("no predicate rebinder");
    if (rebinder && schema) e = rebinder(p.sql, *schema);
    if (e.ok() && *e) {
      bound.push_back({*e, std::move(p.sql)});
    } else {
      read->whole_table = true;
    }
  }
  read->predicates = std::move(bound);
}

}  // namespace shoal::txn
