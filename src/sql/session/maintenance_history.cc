// Session handlers for DESCRIBE HISTORY (one row per commit, newest first, from each commit's
// commitInfo) and DESCRIBE DETAIL (one row describing the latest snapshot), with Delta's
// column names (doc/maintenance.md).
#include <algorithm>
#include <cctype>

#include "delta/json_fields.h"
#include "delta/table_features.h"
#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/maintenance_statement.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

// The version of a commit file name "<20 digits>.json", or -1.
int64_t CommitVersion(const std::string& name) {
  if (name.size() != 25 || !name.ends_with(".json")) return -1;
  int64_t v = 0;
  for (size_t i = 0; i < 20; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return -1;
    if (v > (INT64_MAX - 9) / 10) return -1;
    v = v * 10 + (name[i] - '0');
  }
  return v;
}

// The commitInfo of a commit file, or nullopt when it has none.
Result<std::optional<delta::CommitInfo>> ReadCommitInfo(io::FileSystem& fs, const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(path));
  size_t pos = 0;
  int64_t line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find("\"commitInfo\"") == std::string_view::npos) continue;
    auto parsed = delta::ParseActionLine(line);
    if (!parsed.ok()) return parsed.status().WithContext(path + ": line " + std::to_string(line_no));
    if (parsed->has_value()) {
      if (auto* ci = std::get_if<delta::CommitInfo>(&**parsed)) return std::optional<delta::CommitInfo>(*ci);
    }
  }
  return std::optional<delta::CommitInfo>();
}

columnar::Value OptString(const delta::Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return columnar::Value::Null(columnar::String());
  return columnar::Value::String(it->is_string() ? it->get<std::string>() : delta::JsonText(*it));
}

columnar::Value OptJson(const delta::Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return columnar::Value::Null(columnar::String());
  return columnar::Value::String(delta::JsonText(*it));
}

columnar::Value StringList(const std::vector<std::string>& items) {
  std::vector<columnar::Value> values;
  for (const auto& s : items) values.push_back(columnar::Value::String(s));
  return columnar::Value::Nested(columnar::List(columnar::String()), std::move(values));
}

}  // namespace

Result<QueryResult> Session::RunDescribeHistory(const Statement& s) {
  const auto& d = s.As<DescribeStatement>();
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, d.name, LoadProgress()));
  if (d.limit && *d.limit < 0) return Status::InvalidArgument("DESCRIBE HISTORY LIMIT must not be negative");
  std::string log_dir = io::JoinPath(latest->snapshot()->table_root(), "_delta_log");
  ASSIGN_OR_RETURN(auto entries, db_->fs->List(log_dir));
  std::vector<std::pair<int64_t, io::FileInfo>> commits;
  int64_t newest = latest->snapshot()->version();
  for (auto& e : entries) {
    int64_t v = e.is_dir ? -1 : CommitVersion(e.name);
    if (v >= 0 && v <= newest) commits.emplace_back(v, std::move(e));
  }
  std::sort(commits.begin(), commits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });

  ResultRows rows;
  rows.AddColumn("version", columnar::Int64());
  rows.AddColumn("timestamp", columnar::Timestamp());
  rows.AddColumn("userId", columnar::String());
  rows.AddColumn("userName", columnar::String());
  rows.AddColumn("operation", columnar::String());
  rows.AddColumn("operationParameters", columnar::String());
  rows.AddColumn("readVersion", columnar::Int64());
  rows.AddColumn("isolationLevel", columnar::String());
  rows.AddColumn("isBlindAppend", columnar::Boolean());
  rows.AddColumn("operationMetrics", columnar::String());
  rows.AddColumn("userMetadata", columnar::String());
  rows.AddColumn("engineInfo", columnar::String());
  int64_t emitted = 0;
  for (const auto& [version, info] : commits) {
    if (d.limit && emitted >= *d.limit) break;
    if (interrupted_ && interrupted_->load(std::memory_order_relaxed)) return Status::Interrupted("Interrupted!");
    ASSIGN_OR_RETURN(auto ci, ReadCommitInfo(*db_->fs, io::JoinPath(log_dir, info.name)));
    delta::Json j = ci ? ci->json : delta::Json::object();
    // Delta reports the commit file's time unless in-commit timestamps are on.
    int64_t ts_ms = info.mtime_ms;
    if (ci && ci->InCommitTimestamp()) ts_ms = *ci->InCommitTimestamp();
    std::optional<int64_t> read_version = ci ? ci->ReadVersion() : std::nullopt;
    std::optional<bool> blind = ci ? ci->IsBlindAppend() : std::nullopt;
    rows.AddRow({columnar::Value::Int64(version), columnar::Value::Timestamp(ts_ms * 1000), OptString(j, "userId"),
                 OptString(j, "userName"), OptString(j, "operation"), OptJson(j, "operationParameters"),
                 read_version ? columnar::Value::Int64(*read_version) : columnar::Value::Null(columnar::Int64()),
                 OptString(j, "isolationLevel"),
                 blind ? columnar::Value::Boolean(*blind) : columnar::Value::Null(columnar::Boolean()),
                 OptJson(j, "operationMetrics"), OptString(j, "userMetadata"), OptString(j, "engineInfo")});
    ++emitted;
  }
  return rows.Build();
}

Result<QueryResult> Session::RunDescribeDetail(const Statement& s) {
  const auto& d = s.As<DescribeStatement>();
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, d.name, LoadProgress()));
  const delta::Snapshot& snap = *latest->snapshot();
  const delta::Metadata& meta = snap.metadata();
  const delta::Protocol& protocol = snap.protocol();

  int64_t size = 0;
  const delta::FileList& files = snap.file_list();
  for (size_t i = 0; i < files.size(); ++i) size += files.file_size(i);
  std::vector<std::string> features = delta::RequiredWriterFeatures(protocol);
  for (const auto& f : delta::RequiredReaderFeatures(protocol)) {
    if (std::find(features.begin(), features.end(), f) == features.end()) features.push_back(f);
  }
  auto map_type = columnar::Map(columnar::String(), columnar::String());
  const columnar::TypePtr& entry_type = map_type->element();
  std::vector<columnar::Value> entries;
  for (const auto& [k, v] : meta.configuration) {
    entries.push_back(columnar::Value::Nested(entry_type, {columnar::Value::String(k), columnar::Value::String(v)}));
  }
  columnar::Value name = columnar::Value::Null(columnar::String());
  if (meta.name) {
    name = columnar::Value::String(*meta.name);
  } else if (!d.name.IsPath()) {
    name = columnar::Value::String(d.name.ToString());
  }
  auto ts = [](std::optional<int64_t> ms) {
    return ms && *ms >= 0 ? columnar::Value::Timestamp(*ms * 1000) : columnar::Value::Null(columnar::Timestamp());
  };

  ResultRows rows;
  rows.AddColumn("format", columnar::String());
  rows.AddColumn("id", columnar::String());
  rows.AddColumn("name", columnar::String());
  rows.AddColumn("description", columnar::String());
  rows.AddColumn("location", columnar::String());
  rows.AddColumn("createdAt", columnar::Timestamp());
  rows.AddColumn("lastModified", columnar::Timestamp());
  rows.AddColumn("partitionColumns", columnar::List(columnar::String()));
  rows.AddColumn("numFiles", columnar::Int64());
  rows.AddColumn("sizeInBytes", columnar::Int64());
  rows.AddColumn("properties", map_type);
  rows.AddColumn("minReaderVersion", columnar::Int32());
  rows.AddColumn("minWriterVersion", columnar::Int32());
  rows.AddColumn("tableFeatures", columnar::List(columnar::String()));
  rows.AddRow({columnar::Value::String("delta"), columnar::Value::String(meta.id), name,
               meta.description ? columnar::Value::String(*meta.description) : columnar::Value::Null(columnar::String()),
               columnar::Value::String(snap.table_root()), ts(meta.created_time), ts(snap.timestamp_ms()),
               StringList(meta.partition_columns), columnar::Value::Int64(static_cast<int64_t>(snap.num_files())),
               columnar::Value::Int64(size), columnar::Value::Nested(map_type, std::move(entries)),
               columnar::Value::Int32(protocol.min_reader_version), columnar::Value::Int32(protocol.min_writer_version),
               StringList(features)});
  return rows.Build();
}

}  // namespace shoal::sql
