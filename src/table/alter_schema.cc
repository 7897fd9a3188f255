#include "table/alter_schema.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "delta/json_fields.h"
#include "delta/table_features.h"
#include "table/table_creator.h"
#include "table/table_properties.h"
#include "table/uuid.h"

namespace shoal::table {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool EqualsIgnoreCase(const std::string& a, const std::string& b) { return Lower(a) == Lower(b); }

std::string JoinDotted(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

// The config key equal to `key` ignoring case, or "".
std::string FindConfigKey(const delta::StringMap& config, const std::string& key) {
  for (const auto& [k, v] : config) {
    if (EqualsIgnoreCase(k, key)) return k;
  }
  return "";
}

Result<ColumnMapping> MappingOf(const delta::Metadata& metadata) {
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(metadata.configuration));
  return props.column_mapping;
}

// Index of the child struct field named `name` (case-insensitive), or -1.
int FindChild(const delta::SchemaField& node, const std::string& name) {
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (EqualsIgnoreCase(node.children[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

// Follows a dotted path through struct fields (case-insensitive); nullptr when a part is
// absent or not a struct.
delta::SchemaField* FindPath(delta::SchemaField* root, const std::vector<std::string>& path) {
  delta::SchemaField* node = root;
  for (const auto& part : path) {
    if (!node->IsStruct()) return nullptr;
    int i = FindChild(*node, part);
    if (i < 0) return nullptr;
    node = &node->children[i];
  }
  return node;
}

// Gives every struct field without a column-mapping id one, with its current name as physical
// name (what the data files already use).
void AssignIdentityMapping(delta::SchemaField* node, int64_t* max_id) {
  for (auto& child : node->children) {
    bool is_struct_field = node->IsStruct();
    if (is_struct_field && !child.ColumnMappingId()) {
      child.metadata["delta.columnMapping.id"] = ++*max_id;
      child.metadata["delta.columnMapping.physicalName"] = child.name;
    }
    AssignIdentityMapping(&child, max_id);
  }
}

int64_t MaxColumnId(const delta::SchemaField& node) {
  int64_t m = node.ColumnMappingId().value_or(0);
  for (const auto& c : node.children) m = std::max(m, MaxColumnId(c));
  return m;
}

delta::Json FieldJson(const delta::SchemaField& field) {
  delta::Json j = delta::Json::object();
  j["name"] = field.name;
  j["type"] = delta::SchemaTypeToJson(field);
  j["nullable"] = field.nullable;
  j["metadata"] = field.metadata;
  return j;
}

Status RequireColumnMapping(const delta::Metadata& metadata, const std::string& what) {
  ASSIGN_OR_RETURN(ColumnMapping mode, MappingOf(metadata));
  if (mode != ColumnMapping::kNone) return Status::OK();
  return Status::NotSupported(what +
                              " is not supported for your Delta table. Enable Column Mapping on your Delta "
                              "table with mapping mode 'name' by running: ALTER TABLE table_name SET "
                              "TBLPROPERTIES ('delta.columnMapping.mode' = 'name').");
}

// Finishes a result: validates the new configuration and computes the protocol upgrade.
Result<AlterResult> Finish(const delta::Protocol& protocol, delta::Metadata metadata, std::string operation,
                           delta::Json parameters) {
  RETURN_NOT_OK(ParseTableProperties(metadata.configuration).status());
  AlterResult r;
  ASSIGN_OR_RETURN(r.protocol, UpgradeProtocolFor(protocol, metadata));
  r.metadata = std::move(metadata);
  r.operation = std::move(operation);
  r.parameters = std::move(parameters);
  return r;
}

std::string ModeName(ColumnMapping m) {
  switch (m) {
    case ColumnMapping::kNone: return "none";
    case ColumnMapping::kName: return "name";
    case ColumnMapping::kId: return "id";
  }
  return "none";
}

}  // namespace

Result<std::optional<delta::Protocol>> UpgradeProtocolFor(const delta::Protocol& current,
                                                          const delta::Metadata& metadata) {
  // shoal's implicit deletion-vector default applies to new tables only: an existing table
  // needs the feature only when the property is set explicitly.
  delta::Metadata probe = metadata;
  if (FindConfigKey(probe.configuration, "delta.enableDeletionVectors").empty()) {
    probe.configuration["delta.enableDeletionVectors"] = "false";
  }
  ASSIGN_OR_RETURN(delta::Protocol needed, ProtocolForMetadata(probe));
  std::vector<std::string> reader = delta::RequiredReaderFeatures(current);
  std::vector<std::string> writer = delta::RequiredWriterFeatures(current);
  bool changed = false;
  for (const auto& f : needed.writer_features.value_or(std::vector<std::string>{})) {
    if (std::find(writer.begin(), writer.end(), f) == writer.end()) {
      writer.push_back(f);
      changed = true;
    }
  }
  for (const auto& f : needed.reader_features.value_or(std::vector<std::string>{})) {
    if (std::find(reader.begin(), reader.end(), f) == reader.end()) {
      reader.push_back(f);
      changed = true;
    }
  }
  if (!changed) return std::optional<delta::Protocol>();
  delta::Protocol p;
  p.min_writer_version = 7;
  p.writer_features = writer;
  if (reader.empty()) {
    p.min_reader_version = 1;
  } else {
    p.min_reader_version = 3;
    p.reader_features = reader;
  }
  return std::optional<delta::Protocol>(p);
}

Result<AlterResult> AddColumns(const delta::Metadata& metadata, const delta::Protocol& protocol,
                               const columnar::Schema& columns, const ColumnSpecs& specs) {
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  for (const auto& f : columns.fields) {
    if (!f.nullable) {
      return Status::NotSupported("NOT NULL is not supported for ALTER TABLE ADD COLUMNS (column " + f.name +
                                  "): Delta tables only allow adding nullable columns");
    }
    if (FindChild(root, f.name) >= 0) {
      return Status::InvalidArgument("Cannot add column " + f.name + " because it already exists");
    }
  }
  for (const auto& [name, spec] : specs) {
    if (spec.identity || spec.generation_expression) {
      return Status::NotSupported("ALTER TABLE ADD COLUMNS cannot add identity or generated column " + name);
    }
  }
  ASSIGN_OR_RETURN(delta::SchemaField added, ToDeltaSchema(columns, specs));
  delta::Metadata out = metadata;
  ASSIGN_OR_RETURN(ColumnMapping mode, MappingOf(metadata));
  delta::Json params_columns = delta::Json::array();
  for (auto& f : added.children) root.children.push_back(f);
  if (mode != ColumnMapping::kNone) {
    std::string key = FindConfigKey(out.configuration, "delta.columnMapping.maxColumnId");
    int64_t max_id = MaxColumnId(root);
    if (!key.empty()) {
      try {
        max_id = std::max(max_id, static_cast<int64_t>(std::stoll(out.configuration[key])));
      } catch (...) {
        return Status::Corruption("delta.columnMapping.maxColumnId is not a number: " + out.configuration[key]);
      }
      out.configuration.erase(key);
    }
    AssignColumnMapping(&root, &max_id);
    out.configuration["delta.columnMapping.maxColumnId"] = std::to_string(max_id);
  }
  for (size_t i = root.children.size() - added.children.size(); i < root.children.size(); ++i) {
    delta::Json c = delta::Json::object();
    c["column"] = FieldJson(root.children[i]);
    params_columns.push_back(c);
  }
  out.schema_string = delta::SerializeSchemaJson(root);
  delta::Json params = delta::Json::object();
  params["columns"] = delta::JsonText(params_columns);
  return Finish(protocol, std::move(out), "ADD COLUMNS", std::move(params));
}

Result<AlterResult> RenameColumn(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                 const std::vector<std::string>& path, const std::string& new_name) {
  RETURN_NOT_OK(RequireColumnMapping(metadata, "Column rename"));
  if (path.empty() || new_name.empty()) return Status::InvalidArgument("RENAME COLUMN needs a column and a new name");
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  std::vector<std::string> parent_path(path.begin(), path.end() - 1);
  delta::SchemaField* parent = FindPath(&root, parent_path);
  int idx = (parent && parent->IsStruct()) ? FindChild(*parent, path.back()) : -1;
  if (idx < 0) return Status::Binder("Column " + JoinDotted(path) + " does not exist");
  for (size_t i = 0; i < parent->children.size(); ++i) {
    if (static_cast<int>(i) != idx && EqualsIgnoreCase(parent->children[i].name, new_name)) {
      return Status::InvalidArgument("Cannot rename column " + JoinDotted(path) + " to " + new_name +
                                     ": a column with that name already exists");
    }
  }
  std::string old_name = parent->children[idx].name;
  parent->children[idx].name = new_name;
  delta::Metadata out = metadata;
  if (parent_path.empty()) {
    for (auto& pc : out.partition_columns) {
      if (EqualsIgnoreCase(pc, old_name)) pc = new_name;
    }
  }
  out.schema_string = delta::SerializeSchemaJson(root);
  std::vector<std::string> new_path = parent_path;
  new_path.push_back(new_name);
  delta::Json params = delta::Json::object();
  params["oldColumnPath"] = JoinDotted(path);
  params["newColumnPath"] = JoinDotted(new_path);
  return Finish(protocol, std::move(out), "RENAME COLUMN", std::move(params));
}

Result<AlterResult> DropColumns(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                const std::vector<std::string>& columns, bool if_exists) {
  RETURN_NOT_OK(RequireColumnMapping(metadata, "DROP COLUMN"));
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  std::vector<std::string> dropped;
  for (const auto& name : columns) {
    int idx = FindChild(root, name);
    if (idx < 0) {
      if (if_exists) continue;
      return Status::Binder("Column " + name + " does not exist");
    }
    for (const auto& pc : metadata.partition_columns) {
      if (EqualsIgnoreCase(pc, name)) {
        return Status::InvalidArgument("Dropping partition columns (" + pc + ") is not allowed.");
      }
    }
    dropped.push_back(root.children[idx].name);
    root.children.erase(root.children.begin() + idx);
  }
  if (root.children.empty()) return Status::InvalidArgument("Cannot drop all columns of a table");
  delta::Metadata out = metadata;
  out.schema_string = delta::SerializeSchemaJson(root);
  delta::Json params = delta::Json::object();
  params["columns"] = delta::JsonText(delta::Json(dropped));
  return Finish(protocol, std::move(out), "DROP COLUMNS", std::move(params));
}

Result<AlterResult> SetProperties(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                  const std::map<std::string, std::string>& properties) {
  // Validate the request itself as CREATE TABLE would (unknown delta.* keys, bad values).
  RETURN_NOT_OK(ParseTableProperties(properties).status());
  ASSIGN_OR_RETURN(ColumnMapping old_mode, MappingOf(metadata));
  delta::Metadata out = metadata;
  std::vector<std::string> explicit_features;
  int32_t min_reader = 0, min_writer = 0;
  for (const auto& [k, v] : properties) {
    std::string lk = Lower(k);
    if (lk.starts_with("delta.constraints.")) {
      return Status::InvalidArgument("Cannot set " + k + " with SET TBLPROPERTIES: use ALTER TABLE ADD CONSTRAINT");
    }
    if (lk.starts_with("delta.feature.")) {
      explicit_features.push_back(k.substr(std::string("delta.feature.").size()));
      continue;
    }
    if (lk == "delta.minreaderversion" || lk == "delta.minwriterversion") {
      int32_t n = 0;
      try {
        n = std::stoi(v);
      } catch (...) {
        return Status::InvalidArgument(k + " must be an integer, got '" + v + "'");
      }
      if (n < 1 || n > (lk == "delta.minreaderversion" ? delta::kMaxReaderVersion : delta::kMaxWriterVersion)) {
        return Status::InvalidArgument(k + " = " + v + " is not a valid protocol version");
      }
      (lk == "delta.minreaderversion" ? min_reader : min_writer) = n;
      continue;
    }
    std::string existing = FindConfigKey(out.configuration, k);
    if (!existing.empty()) out.configuration.erase(existing);
    out.configuration[k] = v;
  }
  // Enabling row tracking names the materialized row id columns (as CREATE TABLE does); the
  // commit backfills row ids of the existing files (txn/row_tracking.h).
  if (FindConfigKey(out.configuration, "delta.enableRowTracking").size() &&
      out.configuration[FindConfigKey(out.configuration, "delta.enableRowTracking")] == "true") {
    for (const char* key : {"delta.rowTracking.materializedRowIdColumnName",
                            "delta.rowTracking.materializedRowCommitVersionColumnName"}) {
      if (FindConfigKey(out.configuration, key).empty()) {
        bool id = std::string(key).find("RowId") != std::string::npos;
        out.configuration[key] = (id ? "_row-id-col-" : "_row-commit-version-col-") + RandomUuid();
      }
    }
  }
  ASSIGN_OR_RETURN(ColumnMapping new_mode, MappingOf(out));
  if (new_mode != old_mode) {
    if (!(old_mode == ColumnMapping::kNone && new_mode == ColumnMapping::kName)) {
      return Status::NotSupported("Changing column mapping mode from '" + ModeName(old_mode) + "' to '" +
                                  ModeName(new_mode) + "' is not supported.");
    }
    ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(out.schema_string));
    int64_t max_id = MaxColumnId(root);
    AssignIdentityMapping(&root, &max_id);
    out.schema_string = delta::SerializeSchemaJson(root);
    std::string key = FindConfigKey(out.configuration, "delta.columnMapping.maxColumnId");
    if (!key.empty()) out.configuration.erase(key);
    out.configuration["delta.columnMapping.maxColumnId"] = std::to_string(max_id);
  }
  RETURN_NOT_OK(ParseTableProperties(out.configuration).status());
  RETURN_NOT_OK(ValidateColumnProperties(out));
  // Protocol: features the new metadata needs, explicit feature requests and legacy versions.
  delta::Metadata probe = out;
  for (const auto& f : explicit_features) probe.configuration["delta.feature." + f] = "supported";
  ASSIGN_OR_RETURN(std::optional<delta::Protocol> upgraded, UpgradeProtocolFor(protocol, probe));
  if (min_reader > 0 || min_writer > 0) {
    delta::Protocol base = upgraded.value_or(protocol);
    delta::Protocol legacy;
    legacy.min_reader_version = std::min(min_reader > 0 ? min_reader : 1, 2);
    legacy.min_writer_version = std::min(min_writer > 0 ? min_writer : 1, 6);
    std::vector<std::string> reader = delta::RequiredReaderFeatures(base);
    std::vector<std::string> writer = delta::RequiredWriterFeatures(base);
    bool changed = false;
    for (const auto& f : delta::RequiredWriterFeatures(legacy)) {
      if (std::find(writer.begin(), writer.end(), f) == writer.end()) writer.push_back(f), changed = true;
    }
    for (const auto& f : delta::RequiredReaderFeatures(legacy)) {
      if (std::find(reader.begin(), reader.end(), f) == reader.end()) reader.push_back(f), changed = true;
    }
    if (changed) {
      delta::Protocol p;
      p.min_writer_version = 7;
      p.writer_features = writer;
      p.min_reader_version = reader.empty() ? 1 : 3;
      if (!reader.empty()) p.reader_features = reader;
      upgraded = p;
    }
  }
  if (upgraded) RETURN_NOT_OK(delta::CheckCanWrite(*upgraded));
  AlterResult r;
  r.protocol = upgraded;
  r.metadata = std::move(out);
  r.operation = "SET TBLPROPERTIES";
  r.parameters["properties"] = delta::JsonText(delta::Json(properties));
  return r;
}

Result<AlterResult> UnsetProperties(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                    const std::vector<std::string>& keys, bool if_exists,
                                    const std::string& table_name) {
  delta::Metadata out = metadata;
  for (const auto& k : keys) {
    std::string lk = Lower(k);
    if (lk == "delta.columnmapping.mode" || lk == "delta.columnmapping.maxcolumnid") {
      ASSIGN_OR_RETURN(ColumnMapping mode, MappingOf(metadata));
      if (mode != ColumnMapping::kNone) {
        return Status::NotSupported("Changing column mapping mode from '" + ModeName(mode) +
                                    "' to 'none' is not supported.");
      }
    }
    if (lk.starts_with("delta.constraints.")) {
      return Status::InvalidArgument("Cannot unset " + k + " with UNSET TBLPROPERTIES: use ALTER TABLE DROP CONSTRAINT");
    }
    std::string existing = FindConfigKey(out.configuration, k);
    if (existing.empty()) {
      if (if_exists) continue;
      return Status::InvalidArgument("Attempted to unset non-existent property '" + k + "' in table " + table_name);
    }
    out.configuration.erase(existing);
  }
  delta::Json params = delta::Json::object();
  params["properties"] = delta::JsonText(delta::Json(keys));
  params["ifExists"] = if_exists ? "true" : "false";
  return Finish(protocol, std::move(out), "UNSET TBLPROPERTIES", std::move(params));
}

Result<AlterResult> SetColumnNullable(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                      const std::string& column, bool nullable) {
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  int idx = FindChild(root, column);
  if (idx < 0) return Status::Binder("Column " + column + " does not exist");
  root.children[idx].nullable = nullable;
  delta::Metadata out = metadata;
  out.schema_string = delta::SerializeSchemaJson(root);
  delta::Json params = delta::Json::object();
  params["column"] = delta::JsonText(FieldJson(root.children[idx]));
  return Finish(protocol, std::move(out), "CHANGE COLUMN", std::move(params));
}

Result<AlterResult> AddCheckConstraint(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                       const std::string& name, const std::string& expression) {
  if (name.empty() || expression.empty()) return Status::InvalidArgument("CHECK constraint needs a name and an expression");
  std::string key = "delta.constraints." + Lower(name);
  std::string existing = FindConfigKey(metadata.configuration, key);
  if (!existing.empty()) {
    return Status::InvalidArgument("Constraint '" + name + "' already exists. Please delete the old constraint first.\n" +
                                   "Old constraint:\n" + metadata.configuration.at(existing));
  }
  delta::Metadata out = metadata;
  out.configuration[key] = expression;
  delta::Json params = delta::Json::object();
  params["name"] = name;
  params["expr"] = expression;
  return Finish(protocol, std::move(out), "ADD CONSTRAINT", std::move(params));
}

Result<AlterResult> DropCheckConstraint(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                        const std::string& name, bool if_exists, const std::string& table_name) {
  std::string existing = FindConfigKey(metadata.configuration, "delta.constraints." + Lower(name));
  delta::Metadata out = metadata;
  delta::Json params = delta::Json::object();
  params["name"] = name;
  if (existing.empty()) {
    if (!if_exists) {
      return Status::InvalidArgument("Cannot drop nonexistent constraint " + name + " from table " + table_name +
                                     ". To avoid throwing an error, provide the parameter IF EXISTS.");
    }
    params["existed"] = "false";
  } else {
    params["expr"] = metadata.configuration.at(existing);
    params["existed"] = "true";
    out.configuration.erase(existing);
  }
  return Finish(protocol, std::move(out), "DROP CONSTRAINT", std::move(params));
}

}  // namespace shoal::table
