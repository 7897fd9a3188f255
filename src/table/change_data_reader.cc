#include "table/change_data_reader.h"

#include <map>

#include "columnar/value.h"
#include "delta/deletion_vector.h"
#include "delta/log_segment.h"
#include "scan/delta_scan.h"
#include "table/change_data_writer.h"
#include "table/live_rows_reader.h"

namespace shoal::table {
namespace {

std::string RangeText(int64_t start, int64_t end) {
  std::string out = "[";
  out.append(std::to_string(start)).append(", ").append(std::to_string(end)).append("]");
  return out;
}

// One file whose rows are change rows of a commit.
struct ChangePiece {
  delta::AddFile file;  // read with its deletion vector applied
  ChangeType type = ChangeType::kInsert;  // derived rows; ignored for change data files
  // Only these row positions (ReadRowsAt).
  std::optional<delta::DeletionVector> positions;
};

// The change pieces of one commit and whether they are change data files.
struct CommitChanges {
  std::vector<ChangePiece> pieces;
  bool from_cdc_files = false;
};

delta::AddFile AsFile(const delta::AddCdcFile& cdc) {
  delta::AddFile f;
  f.path = cdc.path;
  f.partition_values = cdc.partition_values;
  f.size = cdc.size;
  return f;
}

Result<delta::DeletionVector> LoadDv(io::FileSystem& fs, const std::string& root,
                                     const std::optional<delta::DeletionVectorDescriptor>& d) {
  if (!d) return delta::DeletionVector();
  return delta::DeletionVector::Load(fs, root, *d);
}

// a \ b.
delta::DeletionVector Minus(const delta::DeletionVector& a, const delta::DeletionVector& b) {
  delta::DeletionVector out;
  for (uint64_t r : a.ToVector()) {
    if (!b.Contains(r)) out.Add(r);
  }
  return out;
}

// Derives a commit's change rows from its add and remove actions (dataChange = true only).
Result<CommitChanges> DeriveChanges(io::FileSystem& fs, const std::string& root, int64_t version,
                                    const std::vector<delta::Action>& actions, bool partitioned) {
  std::map<std::string, const delta::AddFile*> adds;
  std::map<std::string, const delta::RemoveFile*> removes;
  for (const auto& a : actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->data_change) adds[add->path] = add;
    if (const auto* rm = std::get_if<delta::RemoveFile>(&a); rm && rm->data_change) removes[rm->path] = rm;
  }
  CommitChanges out;
  for (const auto& [path, rm] : removes) {
    auto add = adds.find(path);
    if (add != adds.end()) {
      // The same file with a new deletion vector: rows it newly deletes are deletes (a DML with
      // deletion vectors), rows it no longer deletes are inserts (e.g. RESTORE).
      ASSIGN_OR_RETURN(delta::DeletionVector before, LoadDv(fs, root, rm->deletion_vector));
      ASSIGN_OR_RETURN(delta::DeletionVector after, LoadDv(fs, root, add->second->deletion_vector));
      const delta::AddFile& all_rows = *add->second;
      delta::DeletionVector deleted = Minus(after, before), restored = Minus(before, after);
      if (!deleted.IsEmpty()) out.pieces.push_back({all_rows, ChangeType::kDelete, std::move(deleted)});
      if (!restored.IsEmpty()) out.pieces.push_back({all_rows, ChangeType::kInsert, std::move(restored)});
      continue;
    }
    if (partitioned && !rm->partition_values) {
      return Status::Corruption("version " + std::to_string(version) + ": remove of " + path +
                                " has no partitionValues, so its change rows cannot be read");
    }
    delta::AddFile f;
    f.path = rm->path;
    if (rm->partition_values) f.partition_values = *rm->partition_values;
    f.size = rm->size.value_or(0);
    f.deletion_vector = rm->deletion_vector;
    out.pieces.push_back({std::move(f), ChangeType::kDelete, std::nullopt});
  }
  for (const auto& [path, add] : adds) {
    if (removes.count(path)) continue;
    out.pieces.push_back({*add, ChangeType::kInsert, std::nullopt});
  }
  return out;
}

// Appends `_change_type` (unless the rows carry it), `_commit_version`, `_commit_timestamp`.
columnar::BatchPtr WithCommitColumns(const std::shared_ptr<columnar::Schema>& schema,
                                     const columnar::RecordBatch& rows, std::optional<ChangeType> type,
                                     int64_t version, int64_t timestamp_ms) {
  std::vector<columnar::VectorPtr> cols = rows.columns;
  if (type) cols.push_back(columnar::Value::String(ChangeTypeName(*type)).Broadcast(rows.num_rows));
  cols.push_back(columnar::Value::Int64(version).Broadcast(rows.num_rows));
  cols.push_back(columnar::Value::Timestamp(timestamp_ms * 1000).Broadcast(rows.num_rows));
  return std::make_shared<columnar::RecordBatch>(schema, std::move(cols), rows.num_rows);
}

// Reads the pieces' rows into `out` (batches of the output schema).
Status ReadPieces(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                  const std::shared_ptr<const scan::TableSchema>& schema, const CommitChanges& changes,
                  const std::shared_ptr<columnar::Schema>& out_schema, int64_t version, int64_t timestamp_ms,
                  std::vector<columnar::BatchPtr>* out) {
  std::vector<delta::AddFile> files;
  std::vector<std::optional<delta::DeletionVector>> positions;
  for (const auto& p : changes.pieces) {
    files.push_back(p.file);
    positions.push_back(p.positions);
  }
  return ReadRowsAt(fs, root, schema, std::move(files), positions,
                    [&](size_t file, const columnar::RecordBatch& rows) -> Status {
                      std::optional<ChangeType> type;
                      if (!changes.from_cdc_files) type = changes.pieces[file].type;
                      out->push_back(WithCommitColumns(out_schema, rows, type, version, timestamp_ms));
                      return Status::OK();
                    });
}

}  // namespace

Result<ChangeRows> ReadTableChanges(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                    int64_t start_version, std::optional<int64_t> end_version) {
  if (start_version < 0) {
    return Status::InvalidArgument("table_changes: the start version " + std::to_string(start_version) +
                                   " is negative");
  }
  ASSIGN_OR_RETURN(auto latest, scan::DeltaTable::Open(fs, table_root));
  const int64_t latest_version = latest->snapshot()->version();
  if (start_version > latest_version) {
    return Status::InvalidArgument("Provided Start version(" + std::to_string(start_version) +
                                   ") for reading change data is invalid. Start version cannot be greater than "
                                   "the latest version of the table(" + std::to_string(latest_version) + ").");
  }
  int64_t end = std::min(end_version.value_or(latest_version), latest_version);
  if (end < start_version) {
    return Status::InvalidArgument("CDC range from start " + std::to_string(start_version) + " to end " +
                                   std::to_string(end) + " was invalid. End cannot be before start.");
  }
  scan::TimeTravel at_end, at_start;
  at_end.version = end;
  at_start.version = start_version;
  ASSIGN_OR_RETURN(auto end_table, end == latest_version ? latest : scan::DeltaTable::Open(fs, table_root, at_end));
  ASSIGN_OR_RETURN(auto start_table, scan::DeltaTable::Open(fs, table_root, at_start));
  const delta::Metadata& end_meta = end_table->snapshot()->metadata();
  ASSIGN_OR_RETURN(delta::Metadata cdc_meta, ChangeDataMetadata(end_meta));
  ASSIGN_OR_RETURN(scan::TableSchema cdc_schema, scan::BuildTableSchema(cdc_meta));
  auto cdc_table = std::make_shared<const scan::TableSchema>(std::move(cdc_schema));
  const std::shared_ptr<const scan::TableSchema>& data_table = end_table->schema();

  ChangeRows out;
  out.schema = std::make_shared<columnar::Schema>(cdc_table->schema);
  out.schema->fields.push_back({"_commit_version", columnar::Int64(), false});
  out.schema->fields.push_back({"_commit_timestamp", columnar::Timestamp(), false});

  ASSIGN_OR_RETURN(std::vector<delta::CommitTimestamp> stamps,
                   delta::ListCommitTimestamps(*fs, table_root, end_table->snapshot()->InCommitTimestamps()));
  std::map<int64_t, int64_t> stamp_of;
  for (const auto& s : stamps) stamp_of[s.version] = s.timestamp_ms;

  delta::Metadata meta = start_table->snapshot()->metadata();
  const std::string log_dir = delta::LogDirOf(table_root);
  for (int64_t v = start_version; v <= end; ++v) {
    const std::string path = io::JoinPath(log_dir, delta::CommitFileName(v));
    ASSIGN_OR_RETURN(std::string text, fs->ReadAll(path));
    ASSIGN_OR_RETURN(std::vector<delta::Action> actions, delta::ParseCommitFile(text, path));
    bool has_cdc = false;
    for (const auto& a : actions) {
      if (v > start_version) {
        if (const auto* m = std::get_if<delta::Metadata>(&a)) meta = *m;
      }
      has_cdc = has_cdc || std::holds_alternative<delta::AddCdcFile>(a);
    }
    if (!ChangeDataFeedEnabled(meta)) {
      return Status::InvalidArgument("Error getting change data for range " + RangeText(start_version, end) +
                                     " as change data was not recorded for version [" + std::to_string(v) +
                                     "] (delta.enableChangeDataFeed is not true at that version)");
    }
    auto stamp = stamp_of.find(v);
    const int64_t ts = stamp != stamp_of.end() ? stamp->second : 0;
    CommitChanges changes;
    if (has_cdc) {
      changes.from_cdc_files = true;
      for (const auto& a : actions) {
        if (const auto* c = std::get_if<delta::AddCdcFile>(&a)) changes.pieces.push_back({AsFile(*c), {}, {}});
      }
      RETURN_NOT_OK(ReadPieces(fs, table_root, cdc_table, changes, out.schema, v, ts, &out.batches)
                        .WithContext("reading the change data files of version " + std::to_string(v)));
    } else {
      ASSIGN_OR_RETURN(changes, DeriveChanges(*fs, table_root, v, actions, !meta.partition_columns.empty()));
      RETURN_NOT_OK(ReadPieces(fs, table_root, data_table, changes, out.schema, v, ts, &out.batches)
                        .WithContext("reading the changed data files of version " + std::to_string(v)));
    }
  }
  return out;
}

Result<int64_t> ChangeStartVersionAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                     int64_t timestamp_ms) {
  ASSIGN_OR_RETURN(auto latest, scan::DeltaTable::Open(fs, table_root));
  ASSIGN_OR_RETURN(std::vector<delta::CommitTimestamp> stamps,
                   delta::ListCommitTimestamps(*fs, table_root, latest->snapshot()->InCommitTimestamps()));
  for (const auto& s : stamps) {
    if (s.timestamp_ms >= timestamp_ms) return s.version;
  }
  return Status::InvalidArgument("The provided timestamp (" + std::to_string(timestamp_ms) +
                                 " ms) is after the latest version available to this table (" + table_root + ")");
}

Result<int64_t> ChangeEndVersionAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                   int64_t timestamp_ms) {
  ASSIGN_OR_RETURN(auto latest, scan::DeltaTable::Open(fs, table_root));
  ASSIGN_OR_RETURN(std::vector<delta::CommitTimestamp> stamps,
                   delta::ListCommitTimestamps(*fs, table_root, latest->snapshot()->InCommitTimestamps()));
  std::optional<int64_t> found;
  for (const auto& s : stamps) {
    if (s.timestamp_ms <= timestamp_ms) found = s.version;
  }
  if (!found) {
    return Status::InvalidArgument("The provided timestamp (" + std::to_string(timestamp_ms) +
                                   " ms) is before the earliest version available to this table (" + table_root +
                                   ")");
  }
  return *found;
}

}  // namespace shoal::table
