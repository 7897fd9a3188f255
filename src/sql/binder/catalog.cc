#include "sql/binder/catalog.h"

#include <cctype>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "delta/log_segment.h"
#include "delta/table_path.h"
#include "expr/expr.h"
#include "io/s3_uri.h"
#include "sql/functions/delta_table_source.h"
#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

Status CheckNamePart(const TableName& name, const std::string& part) {
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("table name " + name.ToString() + ": " + why +
                                   "; a table name is a directory of the warehouse and may not leave it");
  };
  if (part.empty()) return bad("a part is empty");
  if (part == "." || part == "..") return bad("'" + part + "' is not a name");
  if (part.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
    return bad("'" + part + "' holds a path separator or NUL");
  }
  if (part[0] == '.') return bad("'" + part + "' names a hidden directory");
  std::string lower = Lower(part);
  if (lower == "_shoal" || lower == "_delta_log") return bad("'" + part + "' is the engine's own directory");
  return Status::OK();
}

// A delta.`path` the user gave absolute (or as a URI) stays as written; a relative one is a
// directory of the warehouse.
bool IsAbsoluteTablePath(const std::string& path) {
  return path.starts_with('/') || path.find("://") != std::string::npos || path.starts_with("file:");
}

}  // namespace

Result<std::string> Catalog::TableRoot(const TableName& name) const {
  if (name.IsPath()) {
    if (IsAbsoluteTablePath(name.path)) return name.path;
    auto rel = delta::NormalizePathNoDotDot(name.path);
    if (!rel.ok() || rel->empty() || *rel == ".") {
      return Status::InvalidArgument("table path " + name.ToString() +
                                     ": a relative path names a directory inside the warehouse and may not use '..'");
    }
    return io::JoinPath(warehouse_, *rel);
  }
  std::string rel;
  for (const std::string& p : name.parts) {
    RETURN_NOT_OK(CheckNamePart(name, p));
    rel = rel.empty() ? p : rel + "/" + p;
  }
  // Table names are case-insensitive (Spark): a table's directory is its lower-case name. A
  // directory written with capitals (by an older shoal or another tool) keeps being found when
  // no lower-case one exists.
  std::string lower = Lower(rel);
  std::string lower_root = io::JoinPath(warehouse_, lower);
  if (lower == rel || !fs_) return lower_root;
  auto lower_exists = fs_->Exists(io::JoinPath(lower_root, "_delta_log"));
  if (lower_exists.ok() && *lower_exists) return lower_root;
  std::string exact_root = io::JoinPath(warehouse_, rel);
  auto exact_exists = fs_->Exists(io::JoinPath(exact_root, "_delta_log"));
  if (exact_exists.ok() && *exact_exists) return exact_root;
  return lower_root;
}

Result<std::shared_ptr<const TableSource>> Catalog::ResolveTable(const TableName& name,
                                                                const scan::TimeTravel& at) const {
  if (auto registered = FindRelation(name)) {
    if (at.version || at.timestamp_ms) {
      return Status::Binder("time travel is not possible on registered relation " + name.ToString());
    }
    return registered;
  }
  ASSIGN_OR_RETURN(std::string root, TableRoot(name));
  if (latest_hook_ && !at.version && !at.timestamp_ms) {
    ASSIGN_OR_RETURN(std::shared_ptr<const TableSource> own, latest_hook_(name, root));
    if (own) return own;
  }
  auto exists = fs_->Exists(io::JoinPath(root, "_delta_log"));
  // A storage that cannot answer (S3 access denied, endpoint unreachable) is that error, not a
  // missing table.
  if (!exists.ok() && io::IsS3Path(root)) return exists.status().WithContext("table " + name.ToString());
  if (!exists.ok() || !*exists) {
    return Status::Catalog("Table with name " + name.ToString() + " does not exist!");
  }
  auto table = scan::DeltaTable::Open(fs_, root, at, load_progress_);
  if (!table.ok()) return table.status().WithContext("table " + name.ToString());
  return std::shared_ptr<const TableSource>(std::make_shared<DeltaTableSource>(*table, name.ToString(), fs_));
}

void Catalog::SpeculateLookup(const TableName& name) const {
  if (!fs_ || name.IsPath() || name.parts.size() != 1 || !fs_->IsRemote(warehouse_)) return;
  // What FindView and then ResolveTable will ask, in one round trip: the view file, the table's
  // log and the start of its snapshot (the lower-case names: a name written with capitals
  // looks further only when those are absent).
  const std::string lower = Lower(name.parts[0]);
  const std::string root = io::JoinPath(warehouse_, lower);
  std::vector<io::SpeculativeRead> reads = delta::SnapshotSpeculation(root);
  reads.push_back({io::SpeculativeRead::Kind::kExists, ViewFilePath(warehouse_, lower), {}, 0});
  reads.push_back({io::SpeculativeRead::Kind::kExists, io::JoinPath(root, "_delta_log"), {}, 0});
  fs_->Speculate(reads);
}

std::shared_ptr<const TableSource> Catalog::FindRelation(const TableName& name) const {
  if (!relation_hook_ || name.IsPath() || name.parts.size() != 1) return nullptr;
  return relation_hook_(Lower(name.parts[0]));
}

Result<std::optional<ViewDefinition>> Catalog::FindView(const TableName& name) const {
  if (name.IsPath() || name.parts.size() != 1) return std::optional<ViewDefinition>();
  if (FindRelation(name)) return std::optional<ViewDefinition>();  // the registered one wins
  if (temp_view_hook_) {
    if (auto view = temp_view_hook_(Lower(name.parts[0]))) return view;
  }
  // A catalog without a file system (table expressions bind against a schema alone) has none.
  if (!fs_) return std::optional<ViewDefinition>();
  SpeculateLookup(name);
  return ReadView(*fs_, warehouse_, name.parts[0]);
}

Result<scan::TimeTravel> EvaluateTimeTravel(TimeTravel::Kind kind, const columnar::Value& v) {
  scan::TimeTravel at;
  if (v.is_null()) return Status::InvalidArgument("time travel target must not be NULL");
  const columnar::TypePtr& t = v.type();
  if (kind == TimeTravel::Kind::kVersion) {
    if (!t->IsInteger()) {
      return Status::InvalidArgument("VERSION AS OF needs an integer, got " + v.ToString());
    }
    at.version = v.GetInt();
    return at;
  }
  // A DATE or text without an offset is a wall-clock time in the session zone.
  const columnar::TimeZone* zone = expr::ScopedTimeZone::Current();
  const columnar::TimeZone& session_zone = zone ? *zone : columnar::TimeZone::Utc();
  switch (t->id()) {
    case columnar::TypeId::kTimestamp:
    case columnar::TypeId::kTimestampNtz:
      at.timestamp_ms = columnar::FloorDiv(v.GetInt(), 1000);
      return at;
    case columnar::TypeId::kDate:
      at.timestamp_ms = columnar::FloorDiv(session_zone.ToUtc(v.GetInt() * columnar::kMicrosPerDay), 1000);
      return at;
    case columnar::TypeId::kString: {
      auto ts = columnar::ParseTimestampInZone(v.GetString(), session_zone);
      if (!ts) return Status::InvalidArgument("TIMESTAMP AS OF: '" + v.GetString() + "' is not a timestamp");
      at.timestamp_ms = columnar::FloorDiv(*ts, 1000);
      return at;
    }
    default:
      return Status::InvalidArgument("TIMESTAMP AS OF needs a timestamp, got " + v.ToString());
  }
}

}  // namespace shoal::sql
