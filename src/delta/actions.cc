#include "delta/actions.h"

#include <limits>

#include "delta/action_line_parser.h"
#include "delta/json_fields.h"

namespace shoal::delta {

std::string DeletionVectorDescriptor::UniqueId() const {
  std::string id;
  id.reserve(1 + path_or_inline_dv.size() + 12);
  id.push_back(storage_type);
  id.append(path_or_inline_dv);
  if (offset) {
    id.push_back('@');
    id.append(std::to_string(*offset));
  }
  return id;
}

std::optional<int64_t> CommitInfo::Int(std::string_view key) const {
  if (!json.is_object()) return std::nullopt;
  auto it = json.find(key);
  if (it == json.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned()) {
    uint64_t u = it->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  return it->get<int64_t>();
}

std::optional<std::string> CommitInfo::Str(std::string_view key) const {
  if (!json.is_object()) return std::nullopt;
  auto it = json.find(key);
  if (it == json.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<bool> CommitInfo::IsBlindAppend() const {
  if (!json.is_object()) return std::nullopt;
  auto it = json.find("isBlindAppend");
  if (it == json.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

StringMap CommitInfo::OperationParameters() const {
  StringMap out;
  if (!json.is_object()) return out;
  auto it = json.find("operationParameters");
  if (it == json.end() || !it->is_object()) return out;
  for (auto p = it->begin(); p != it->end(); ++p) {
    out.emplace(p.key(), p->is_string() ? p->get<std::string>() : JsonText(*p));
  }
  return out;
}

namespace {

Status ParseOptionalStringMap(const JsonFields& f, std::string_view key,
                              std::optional<StringMap>* out) {
  if (!f.Find(key)) {
    out->reset();
    return Status::OK();
  }
  StringMap m;
  RETURN_NOT_OK(f.StringMap(key, &m));
  *out = std::move(m);
  return Status::OK();
}

Status ParseOptionalDv(const JsonFields& f, std::optional<DeletionVectorDescriptor>* out) {
  const Json* dv = nullptr;
  RETURN_NOT_OK(f.OptionalObject("deletionVector", &dv));
  if (!dv) {
    out->reset();
    return Status::OK();
  }
  ASSIGN_OR_RETURN(auto d, ParseDeletionVector(*dv));
  *out = std::move(d);
  return Status::OK();
}

Status CheckInt32(const JsonFields& f, std::string_view key, int64_t v) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return f.WrongType(key, "a 32-bit integer");
  }
  return Status::OK();
}

Result<Protocol> ParseProtocol(const Json& j) {
  JsonFields f(j, "protocol");
  Protocol p;
  int64_t r = 0, w = 0;
  RETURN_NOT_OK(f.RequiredInt64("minReaderVersion", &r));
  RETURN_NOT_OK(f.RequiredInt64("minWriterVersion", &w));
  RETURN_NOT_OK(CheckInt32(f, "minReaderVersion", r));
  RETURN_NOT_OK(CheckInt32(f, "minWriterVersion", w));
  p.min_reader_version = static_cast<int32_t>(r);
  p.min_writer_version = static_cast<int32_t>(w);
  if (f.Find("readerFeatures")) {
    p.reader_features.emplace();
    RETURN_NOT_OK(f.StringArray("readerFeatures", false, &*p.reader_features));
  }
  if (f.Find("writerFeatures")) {
    p.writer_features.emplace();
    RETURN_NOT_OK(f.StringArray("writerFeatures", false, &*p.writer_features));
  }
  return p;
}

Result<Metadata> ParseMetadata(const Json& j) {
  JsonFields f(j, "metaData");
  Metadata m;
  RETURN_NOT_OK(f.RequiredString("id", &m.id));
  RETURN_NOT_OK(f.OptionalString("name", &m.name));
  RETURN_NOT_OK(f.OptionalString("description", &m.description));
  const Json* fmt = nullptr;
  RETURN_NOT_OK(f.OptionalObject("format", &fmt));
  if (!fmt) return f.Missing("format");
  JsonFields ff(*fmt, "metaData.format");
  RETURN_NOT_OK(ff.RequiredString("provider", &m.format.provider));
  RETURN_NOT_OK(ff.StringMap("options", &m.format.options));
  RETURN_NOT_OK(f.RequiredString("schemaString", &m.schema_string));
  RETURN_NOT_OK(f.StringArray("partitionColumns", true, &m.partition_columns));
  RETURN_NOT_OK(f.StringMap("configuration", &m.configuration));
  RETURN_NOT_OK(f.OptionalInt64("createdTime", &m.created_time));
  return m;
}

Result<AddFile> ParseAdd(const Json& j) {
  JsonFields f(j, "add");
  AddFile a;
  RETURN_NOT_OK(f.RequiredString("path", &a.path));
  RETURN_NOT_OK(f.NullableStringMap("partitionValues", true, &a.partition_values));
  RETURN_NOT_OK(f.RequiredInt64("size", &a.size));
  RETURN_NOT_OK(f.RequiredInt64("modificationTime", &a.modification_time));
  RETURN_NOT_OK(f.RequiredBool("dataChange", &a.data_change));
  RETURN_NOT_OK(f.OptionalString("stats", &a.stats));
  RETURN_NOT_OK(ParseOptionalStringMap(f, "tags", &a.tags));
  RETURN_NOT_OK(ParseOptionalDv(f, &a.deletion_vector));
  RETURN_NOT_OK(f.OptionalInt64("baseRowId", &a.base_row_id));
  RETURN_NOT_OK(f.OptionalInt64("defaultRowCommitVersion", &a.default_row_commit_version));
  RETURN_NOT_OK(f.OptionalString("clusteringProvider", &a.clustering_provider));
  return a;
}

Result<RemoveFile> ParseRemove(const Json& j) {
  JsonFields f(j, "remove");
  RemoveFile r;
  RETURN_NOT_OK(f.RequiredString("path", &r.path));
  RETURN_NOT_OK(f.OptionalInt64("deletionTimestamp", &r.deletion_timestamp));
  RETURN_NOT_OK(f.RequiredBool("dataChange", &r.data_change));
  RETURN_NOT_OK(f.OptionalBool("extendedFileMetadata", &r.extended_file_metadata));
  if (f.Find("partitionValues")) {
    r.partition_values.emplace();
    RETURN_NOT_OK(f.NullableStringMap("partitionValues", false, &*r.partition_values));
  }
  RETURN_NOT_OK(f.OptionalInt64("size", &r.size));
  RETURN_NOT_OK(ParseOptionalStringMap(f, "tags", &r.tags));
  RETURN_NOT_OK(ParseOptionalDv(f, &r.deletion_vector));
  RETURN_NOT_OK(f.OptionalInt64("baseRowId", &r.base_row_id));
  RETURN_NOT_OK(f.OptionalInt64("defaultRowCommitVersion", &r.default_row_commit_version));
  RETURN_NOT_OK(f.OptionalString("stats", &r.stats));
  return r;
}

Result<AddCdcFile> ParseCdc(const Json& j) {
  JsonFields f(j, "cdc");
  AddCdcFile c;
  RETURN_NOT_OK(f.RequiredString("path", &c.path));
  RETURN_NOT_OK(f.NullableStringMap("partitionValues", true, &c.partition_values));
  RETURN_NOT_OK(f.RequiredInt64("size", &c.size));
  RETURN_NOT_OK(ParseOptionalStringMap(f, "tags", &c.tags));
  RETURN_NOT_OK(f.RequiredBool("dataChange", &c.data_change));
  return c;
}

Result<Txn> ParseTxn(const Json& j) {
  JsonFields f(j, "txn");
  Txn t;
  RETURN_NOT_OK(f.RequiredString("appId", &t.app_id));
  RETURN_NOT_OK(f.RequiredInt64("version", &t.version));
  RETURN_NOT_OK(f.OptionalInt64("lastUpdated", &t.last_updated));
  return t;
}

Result<DomainMetadata> ParseDomain(const Json& j) {
  JsonFields f(j, "domainMetadata");
  DomainMetadata d;
  RETURN_NOT_OK(f.RequiredString("domain", &d.domain));
  RETURN_NOT_OK(f.RequiredString("configuration", &d.configuration));
  RETURN_NOT_OK(f.RequiredBool("removed", &d.removed));
  return d;
}

Result<CheckpointMetadata> ParseCheckpointMetadata(const Json& j) {
  JsonFields f(j, "checkpointMetadata");
  CheckpointMetadata c;
  RETURN_NOT_OK(f.RequiredInt64("version", &c.version));
  RETURN_NOT_OK(ParseOptionalStringMap(f, "tags", &c.tags));
  return c;
}

Result<Sidecar> ParseSidecar(const Json& j) {
  JsonFields f(j, "sidecar");
  Sidecar s;
  RETURN_NOT_OK(f.RequiredString("path", &s.path));
  RETURN_NOT_OK(f.RequiredInt64("sizeInBytes", &s.size_in_bytes));
  RETURN_NOT_OK(f.RequiredInt64("modificationTime", &s.modification_time));
  RETURN_NOT_OK(ParseOptionalStringMap(f, "tags", &s.tags));
  return s;
}

template <typename T>
Result<std::optional<Action>> Wrap(Result<T> r) {
  if (!r.ok()) return r.status();
  return std::optional<Action>(Action(std::move(r).value()));
}

Result<std::optional<Action>> NotAnObject(const char* kind) {
  return Status::Corruption(std::string(kind) + ": action is not a JSON object");
}

}  // namespace

Result<DeletionVectorDescriptor> ParseDeletionVector(const Json& j) {
  JsonFields f(j, "deletionVector");
  DeletionVectorDescriptor d;
  std::string st;
  RETURN_NOT_OK(f.RequiredString("storageType", &st));
  if (st.size() != 1 || (st[0] != 'u' && st[0] != 'i' && st[0] != 'p')) {
    return Status::Corruption("deletionVector: unknown storageType '" + st + "'");
  }
  d.storage_type = st[0];
  RETURN_NOT_OK(f.RequiredString("pathOrInlineDv", &d.path_or_inline_dv));
  std::optional<int64_t> offset;
  RETURN_NOT_OK(f.OptionalInt64("offset", &offset));
  if (offset) {
    if (*offset < 0 || *offset > std::numeric_limits<int32_t>::max()) {
      return Status::Corruption("deletionVector: offset " + std::to_string(*offset) +
                                " out of range");
    }
    d.offset = static_cast<int32_t>(*offset);
  }
  int64_t size = 0;
  RETURN_NOT_OK(f.RequiredInt64("sizeInBytes", &size));
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) {
    return Status::Corruption("deletionVector: sizeInBytes " + std::to_string(size) +
                              " out of range");
  }
  d.size_in_bytes = static_cast<int32_t>(size);
  RETURN_NOT_OK(f.RequiredInt64("cardinality", &d.cardinality));
  if (d.cardinality < 0) return Status::Corruption("deletionVector: negative cardinality");
  RETURN_NOT_OK(f.OptionalInt64("maxRowIndex", &d.max_row_index));
  return d;
}

Result<std::optional<Action>> ParseActionJson(const Json& obj) {
  if (!obj.is_object()) return Status::Corruption("action is not a JSON object");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    const Json& v = *it;
    if (v.is_null()) continue;  // checkpoint-style rows carry null for the other kinds
    if (k == "add") return v.is_object() ? Wrap(ParseAdd(v)) : NotAnObject("add");
    if (k == "remove") return v.is_object() ? Wrap(ParseRemove(v)) : NotAnObject("remove");
    if (k == "metaData") return v.is_object() ? Wrap(ParseMetadata(v)) : NotAnObject("metaData");
    if (k == "protocol") return v.is_object() ? Wrap(ParseProtocol(v)) : NotAnObject("protocol");
    if (k == "txn") return v.is_object() ? Wrap(ParseTxn(v)) : NotAnObject("txn");
    if (k == "cdc") return v.is_object() ? Wrap(ParseCdc(v)) : NotAnObject("cdc");
    if (k == "commitInfo") {
      if (!v.is_object()) return NotAnObject("commitInfo");
      return std::optional<Action>(CommitInfo{v});
    }
    if (k == "domainMetadata") {
      return v.is_object() ? Wrap(ParseDomain(v)) : NotAnObject("domainMetadata");
    }
    if (k == "checkpointMetadata") {
      return v.is_object() ? Wrap(ParseCheckpointMetadata(v)) : NotAnObject("checkpointMetadata");
    }
    if (k == "sidecar") return v.is_object() ? Wrap(ParseSidecar(v)) : NotAnObject("sidecar");
    // Unknown action kinds are skipped (forward compatibility).
  }
  return std::optional<Action>();
}

Result<std::optional<Action>> ParseActionLine(std::string_view line) {
  if (auto fast = TryParseFileActionLine(line)) return std::optional<Action>(std::move(*fast));
  return ParseActionLineDom(line);
}

Result<std::optional<Action>> ParseActionLineDom(std::string_view line) {
  size_t b = line.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return std::optional<Action>();
  ASSIGN_OR_RETURN(Json j, ParseJson(line, "action"));
  return ParseActionJson(j);
}

Result<std::vector<Action>> ParseCommitFile(std::string_view text, std::string_view file) {
  std::vector<Action> out;
  RETURN_NOT_OK(ForEachActionInText(text, file, [&](Action&& a) {
    out.push_back(std::move(a));
    return Status::OK();
  }));
  return out;
}

// ---- serialization -------------------------------------------------------------------------

namespace {

Json StringMapJson(const StringMap& m) {
  Json o = Json::object();
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

Json PartitionValuesJson(const PartitionValues& m) {
  Json o = Json::object();
  for (const auto& [k, v] : m) o[k] = v ? Json(*v) : Json(nullptr);
  return o;
}

Json StringArrayJson(const std::vector<std::string>& v) {
  Json a = Json::array();
  for (const auto& s : v) a.push_back(s);
  return a;
}

struct ToJson {
  Json operator()(const Protocol& p) const {
    Json o = Json::object();
    o["minReaderVersion"] = p.min_reader_version;
    o["minWriterVersion"] = p.min_writer_version;
    if (p.reader_features) o["readerFeatures"] = StringArrayJson(*p.reader_features);
    if (p.writer_features) o["writerFeatures"] = StringArrayJson(*p.writer_features);
    return o;
  }
  Json operator()(const Metadata& m) const {
    Json o = Json::object();
    o["id"] = m.id;
    if (m.name) o["name"] = *m.name;
    if (m.description) o["description"] = *m.description;
    Json fmt = Json::object();
    fmt["provider"] = m.format.provider;
    fmt["options"] = StringMapJson(m.format.options);
    o["format"] = std::move(fmt);
    o["schemaString"] = m.schema_string;
    o["partitionColumns"] = StringArrayJson(m.partition_columns);
    o["configuration"] = StringMapJson(m.configuration);
    if (m.created_time) o["createdTime"] = *m.created_time;
    return o;
  }
  Json operator()(const AddFile& a) const {
    Json o = Json::object();
    o["path"] = a.path;
    o["partitionValues"] = PartitionValuesJson(a.partition_values);
    o["size"] = a.size;
    o["modificationTime"] = a.modification_time;
    o["dataChange"] = a.data_change;
    if (a.stats) o["stats"] = *a.stats;
    if (a.tags) o["tags"] = StringMapJson(*a.tags);
    if (a.deletion_vector) o["deletionVector"] = DeletionVectorToJson(*a.deletion_vector);
    if (a.base_row_id) o["baseRowId"] = *a.base_row_id;
    if (a.default_row_commit_version) o["defaultRowCommitVersion"] = *a.default_row_commit_version;
    if (a.clustering_provider) o["clusteringProvider"] = *a.clustering_provider;
    return o;
  }
  Json operator()(const RemoveFile& r) const {
    Json o = Json::object();
    o["path"] = r.path;
    if (r.deletion_timestamp) o["deletionTimestamp"] = *r.deletion_timestamp;
    o["dataChange"] = r.data_change;
    if (r.extended_file_metadata) o["extendedFileMetadata"] = *r.extended_file_metadata;
    if (r.partition_values) o["partitionValues"] = PartitionValuesJson(*r.partition_values);
    if (r.size) o["size"] = *r.size;
    if (r.tags) o["tags"] = StringMapJson(*r.tags);
    if (r.deletion_vector) o["deletionVector"] = DeletionVectorToJson(*r.deletion_vector);
    if (r.base_row_id) o["baseRowId"] = *r.base_row_id;
    if (r.default_row_commit_version) o["defaultRowCommitVersion"] = *r.default_row_commit_version;
    if (r.stats) o["stats"] = *r.stats;
    return o;
  }
  Json operator()(const AddCdcFile& c) const {
    Json o = Json::object();
    o["path"] = c.path;
    o["partitionValues"] = PartitionValuesJson(c.partition_values);
    o["size"] = c.size;
    if (c.tags) o["tags"] = StringMapJson(*c.tags);
    o["dataChange"] = c.data_change;
    return o;
  }
  Json operator()(const Txn& t) const {
    Json o = Json::object();
    o["appId"] = t.app_id;
    o["version"] = t.version;
    if (t.last_updated) o["lastUpdated"] = *t.last_updated;
    return o;
  }
  Json operator()(const CommitInfo& c) const { return c.json; }
  Json operator()(const DomainMetadata& d) const {
    Json o = Json::object();
    o["domain"] = d.domain;
    o["configuration"] = d.configuration;
    o["removed"] = d.removed;
    return o;
  }
  Json operator()(const CheckpointMetadata& c) const {
    Json o = Json::object();
    o["version"] = c.version;
    if (c.tags) o["tags"] = StringMapJson(*c.tags);
    return o;
  }
  Json operator()(const Sidecar& s) const {
    Json o = Json::object();
    o["path"] = s.path;
    o["sizeInBytes"] = s.size_in_bytes;
    o["modificationTime"] = s.modification_time;
    if (s.tags) o["tags"] = StringMapJson(*s.tags);
    return o;
  }
};

struct KindName {
  const char* operator()(const Protocol&) const { return "protocol"; }
  const char* operator()(const Metadata&) const { return "metaData"; }
  const char* operator()(const AddFile&) const { return "add"; }
  const char* operator()(const RemoveFile&) const { return "remove"; }
  const char* operator()(const AddCdcFile&) const { return "cdc"; }
  const char* operator()(const Txn&) const { return "txn"; }
  const char* operator()(const CommitInfo&) const { return "commitInfo"; }
  const char* operator()(const DomainMetadata&) const { return "domainMetadata"; }
  const char* operator()(const CheckpointMetadata&) const { return "checkpointMetadata"; }
  const char* operator()(const Sidecar&) const { return "sidecar"; }
};

}  // namespace

Json DeletionVectorToJson(const DeletionVectorDescriptor& dv) {
  Json o = Json::object();
  o["storageType"] = std::string(1, dv.storage_type);
  o["pathOrInlineDv"] = dv.path_or_inline_dv;
  if (dv.offset) o["offset"] = *dv.offset;
  o["sizeInBytes"] = dv.size_in_bytes;
  o["cardinality"] = dv.cardinality;
  if (dv.max_row_index) o["maxRowIndex"] = *dv.max_row_index;
  return o;
}

const char* ActionKindName(const Action& action) { return std::visit(KindName{}, action); }

Json ActionToJson(const Action& action) {
  Json o = Json::object();
  o[ActionKindName(action)] = std::visit(ToJson{}, action);
  return o;
}

std::string SerializeAction(const Action& action) {
  return JsonText(ActionToJson(action));
}

std::string SerializeCommit(const std::vector<Action>& actions) {
  std::string out;
  for (const auto& a : actions) {
    out += SerializeAction(a);
    out.push_back('\n');
  }
  return out;
}

}  // namespace shoal::delta
