#include "table/table_creator.h"

#include <strings.h>

#include <chrono>
#include <cstdio>
#include <set>

#include "delta/json_fields.h"
#include "delta/table_features.h"
#include "table/table_properties.h"
#include "table/uuid.h"
#include "txn/conflict_checker.h"

namespace shoal::table {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<delta::Protocol> ProtocolForMetadata(const delta::Metadata& metadata) {
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(metadata.configuration));
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  std::set<std::string> used;
  if (props.append_only) used.insert("appendOnly");
  if (props.enable_deletion_vectors) used.insert("deletionVectors");
  if (props.column_mapping != ColumnMapping::kNone) used.insert("columnMapping");
  if (SchemaUsesTimestampNtz(root)) used.insert("timestampNtz");
  if (SchemaUsesIdentity(root)) used.insert("identityColumns");
  if (SchemaUsesGeneratedColumns(root)) used.insert("generatedColumns");
  if (SchemaUsesColumnDefaults(root)) used.insert("allowColumnDefaults");
  if (!props.constraints.empty()) used.insert("checkConstraints");
  if (props.enable_row_tracking) {
    used.insert("rowTracking");
    used.insert("domainMetadata");
  }
  if (props.enable_in_commit_timestamps) used.insert("inCommitTimestamp");
  // delta.checkpointPolicy = v2: V2 checkpoints (UUID-named, with sidecars) need the feature.
  if (props.checkpoint_policy == "v2") used.insert("v2Checkpoint");
  if (props.enable_change_data_feed) {
    // PROTOCOL.md "Change Data Files": _change_type is the change data's own column.
    for (const auto& f : root.children) {
      if (strcasecmp(f.name.c_str(), "_change_type") == 0) {
        return Status::InvalidArgument(
            "delta.enableChangeDataFeed = true on a table with a column named _change_type, which the change data "
            "feed reserves");
      }
    }
    used.insert("changeDataFeed");
  }
  if (props.enable_type_widening) used.insert("typeWidening");
  for (const auto& f : props.explicit_features) {
    const delta::TableFeature* known = delta::FindTableFeature(f);
    if (!known) return Status::InvalidArgument("unknown table feature delta.feature." + f);
    if (!known->shoal_writes) return Status::NotSupported("shoal cannot write table feature " + f);
    used.insert(std::string(known->name));
  }
  delta::Protocol p;
  std::vector<std::string> reader, writer;
  // Stable order: the order of KnownTableFeatures.
  for (const auto& f : delta::KnownTableFeatures()) {
    std::string n(f.name);
    if (!used.count(n)) continue;
    writer.push_back(n);
    if (f.reader_writer) reader.push_back(n);
  }
  p.min_writer_version = 7;
  p.writer_features = writer;
  if (reader.empty()) {
    p.min_reader_version = 1;
  } else {
    p.min_reader_version = 3;
    p.reader_features = reader;
  }
  return p;
}

std::string CommitFilePath(const std::string& table_root, int64_t version) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%020lld.json", static_cast<long long>(version));
  return io::JoinPath(io::JoinPath(table_root, "_delta_log"), buf);
}

Result<std::vector<delta::Action>> CreateTableActions(const std::string& name, const columnar::Schema& schema,
                                                      const std::vector<std::string>& partition_columns,
                                                      const std::map<std::string, std::string>& properties,
                                                      const CreateTableOptions& options) {
  ASSIGN_OR_RETURN(delta::SchemaField root, ToDeltaSchema(schema, options.columns));

  // Partition columns: top-level, primitive, distinct, not all columns.
  std::vector<std::string> parts;
  std::set<std::string> seen_parts;
  for (const auto& pc : partition_columns) {
    int idx = schema.Find(pc);
    if (idx < 0) return Status::InvalidArgument("partition column " + pc + " is not a column of the table");
    const auto& f = schema.fields[idx];
    if (f.type->IsNested()) {
      return Status::InvalidArgument("partition column " + pc + " has nested type " + f.type->ToString());
    }
    if (!seen_parts.insert(Lower(f.name)).second) {
      return Status::InvalidArgument("partition column " + pc + " is listed twice");
    }
    parts.push_back(f.name);
  }
  if (!parts.empty() && parts.size() == schema.size()) {
    return Status::InvalidArgument("Cannot use all columns for partition columns");
  }

  std::map<std::string, std::string> config;
  for (const auto& [k, v] : properties) {
    std::string lk = Lower(k);
    // Protocol requests are folded into the protocol action, as Delta does.
    if (lk.starts_with("delta.feature.") || lk == "delta.minreaderversion" || lk == "delta.minwriterversion") continue;
    config[k] = v;
  }
  for (const auto& [cname, expr] : options.check_constraints) {
    if (cname.empty() || expr.empty()) return Status::InvalidArgument("CHECK constraint needs a name and an expression");
    std::string key = "delta.constraints." + Lower(cname);
    if (config.count(key)) return Status::InvalidArgument("constraint " + cname + " already exists");
    config[key] = expr;
  }
  // Validate everything (including delta.feature.* requests) before building the protocol.
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(properties));
  RETURN_NOT_OK(ParseTableProperties(config).status());
  if (props.enable_deletion_vectors && !config.count("delta.enableDeletionVectors")) {
    // Make the shoal default explicit so other engines see the same setting.
    config["delta.enableDeletionVectors"] = "true";
  }
  if (props.column_mapping != ColumnMapping::kNone) {
    int64_t max_id = 0;
    AssignColumnMapping(&root, &max_id);
    config["delta.columnMapping.maxColumnId"] = std::to_string(max_id);
  }
  if (props.enable_row_tracking) {
    if (!config.count("delta.rowTracking.materializedRowIdColumnName")) {
      config["delta.rowTracking.materializedRowIdColumnName"] = "_row-id-col-" + RandomUuid();
    }
    if (!config.count("delta.rowTracking.materializedRowCommitVersionColumnName")) {
      config["delta.rowTracking.materializedRowCommitVersionColumnName"] = "_row-commit-version-col-" + RandomUuid();
    }
  }

  int64_t now = options.timestamp_ms.value_or(NowMs());
  delta::Metadata meta;
  meta.id = options.table_id.value_or(RandomUuid());
  if (!name.empty()) meta.name = name;
  meta.description = options.description;
  meta.schema_string = delta::SerializeSchemaJson(root);
  meta.partition_columns = parts;
  meta.configuration = config;
  meta.created_time = now;
  RETURN_NOT_OK(ValidateColumnProperties(meta));

  // Explicit features (delta.feature.*) come from the original properties.
  delta::Metadata with_features = meta;
  for (const auto& [k, v] : properties) {
    if (Lower(k).starts_with("delta.feature.")) with_features.configuration[k] = v;
  }
  ASSIGN_OR_RETURN(delta::Protocol protocol, ProtocolForMetadata(with_features));

  delta::CommitInfo ci;
  ci.json["timestamp"] = now;
  if (props.enable_in_commit_timestamps) ci.json["inCommitTimestamp"] = now;
  ci.json["operation"] = "CREATE TABLE";
  delta::Json params = delta::Json::object();
  params["isManaged"] = "false";
  params["description"] = options.description ? delta::Json(*options.description) : delta::Json(nullptr);
  params["partitionBy"] = delta::JsonText(delta::Json(parts));
  params["properties"] = delta::JsonText(delta::Json(config));
  ci.json["operationParameters"] = params;
  ci.json["isolationLevel"] = "Serializable";
  ci.json["isBlindAppend"] = true;
  ci.json["operationMetrics"] = delta::Json::object();
  ci.json["engineInfo"] = "shoal/0.1.0";
  ci.json["txnId"] = RandomUuid();

  return std::vector<delta::Action>{ci, protocol, meta};
}

Result<std::vector<delta::Action>> CreateTable(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                               const std::string& name, const columnar::Schema& schema,
                                               const std::vector<std::string>& partition_columns,
                                               const std::map<std::string, std::string>& properties,
                                               const CreateTableOptions& options) {
  ASSIGN_OR_RETURN(auto actions, CreateTableActions(name, schema, partition_columns, properties, options));
  std::string log_dir = io::JoinPath(table_root, "_delta_log");
  ASSIGN_OR_RETURN(bool log_exists, fs->Exists(log_dir));
  if (log_exists) {
    // A table whose early commits were cleaned up still exists: any commit or checkpoint counts.
    ASSIGN_OR_RETURN(auto entries, fs->List(log_dir));
    for (const auto& e : entries) {
      if (!e.is_dir && (e.name.ends_with(".json") || e.name.find(".checkpoint") != std::string::npos)) {
        return Status::Catalog("Table " + table_root + " already exists");
      }
    }
  }
  RETURN_NOT_OK(fs->CreateDirs(log_dir));
  Status st = fs->PutIfAbsent(CommitFilePath(table_root, 0), delta::SerializeCommit(actions));
  // Another writer created the table since the check above: Delta's answer to two writers
  // creating one table in an empty directory.
  if (io::IsAlreadyExists(st)) return txn::ProtocolChangedConflict(0);
  RETURN_NOT_OK(st);
  return actions;
}

}  // namespace shoal::table
