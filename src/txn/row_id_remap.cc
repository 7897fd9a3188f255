#include "txn/row_id_remap.h"

#include <map>

#include "delta/json_fields.h"
#include "delta/schema_json.h"
#include "scan/delta_scan.h"
#include "scan/file_set_scan.h"
#include "txn/row_tracking.h"

namespace shoal::txn {
namespace {

// Parquet field ids of the materialized columns in id-mapped tables: far above any id column
// mapping assigns (maxColumnId counts up from 1), so a later column never reuses them.
constexpr int32_t kRowIdFieldId = 2147483000;
constexpr int32_t kRowCommitVersionFieldId = 2147483001;

}  // namespace

Result<std::optional<delta::Metadata>> MetadataWithRowIdColumns(const delta::Protocol& protocol,
                                                                const delta::Metadata& metadata) {
  if (!RowTrackingEnabled(protocol, metadata)) return std::optional<delta::Metadata>();
  std::string id_col = MaterializedRowIdColumn(metadata);
  std::string version_col = MaterializedRowCommitVersionColumn(metadata);
  if (id_col.empty() || version_col.empty()) return std::optional<delta::Metadata>();
  ASSIGN_OR_RETURN(delta::Json schema, delta::ParseJson(metadata.schema_string, "schemaString"));
  if (!schema.is_object() || !schema.contains("fields") || !schema["fields"].is_array()) {
    return Status::Corruption("schemaString has no fields array");
  }
  auto mode = metadata.configuration.find("delta.columnMapping.mode");
  bool mapped = mode != metadata.configuration.end() && (mode->second == "name" || mode->second == "id");
  schema["fields"].push_back(delta::HiddenFieldJson(id_col, "long", true, mapped, kRowIdFieldId));
  schema["fields"].push_back(delta::HiddenFieldJson(version_col, "long", true, mapped, kRowCommitVersionFieldId));
  delta::Metadata out = metadata;
  out.schema_string = delta::JsonText(schema);
  return std::optional<delta::Metadata>(std::move(out));
}

Result<FileRowIds> ReadFileRowIds(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                  const delta::Metadata& with_columns, const delta::AddFile& file) {
  ASSIGN_OR_RETURN(int64_t n, NumRecordsOf(file));
  ASSIGN_OR_RETURN(scan::TableSchema schema, scan::BuildTableSchema(with_columns));
  int id_col = schema.Find(MaterializedRowIdColumn(with_columns));
  int version_col = schema.Find(MaterializedRowCommitVersionColumn(with_columns));
  if (id_col < 0 || version_col < 0) {
    return Status::InvalidArgument("row tracking: the schema has no materialized row id columns");
  }
  auto table = std::make_shared<const scan::TableSchema>(std::move(schema));
  FileRowIds out;
  out.ids.assign(static_cast<size_t>(n), -1);
  out.versions.assign(static_cast<size_t>(n), -1);
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  delta::AddFile all_rows = file;
  all_rows.deletion_vector.reset();  // ids of deleted rows are needed too
  ASSIGN_OR_RETURN(scan::FileTask task, scan::MakeFileTask(table_root, *table, all_rows, 0));
  scan::FileSetScanSpec spec;
  spec.fs = fs;
  spec.table_root = table_root;
  spec.table = table;
  spec.columns = {id_col, version_col};
  spec.batch_rows = 65536;
  spec.with_row_address = true;
  spec.prewhere = scan::FileSetScanSpec::Prewhere::kOff;
  scan::FileSetScan scan(std::move(spec), {std::move(task)});
  auto local = scan.MakeLocal();
  for (;;) {
    columnar::BatchPtr batch;
    uint64_t key = 0;
    ASSIGN_OR_RETURN(bool more, scan.Next(local.get(), &batch, &key));
    if (!more) break;
    const columnar::Vector& ids = *batch->column(0);
    const columnar::Vector& versions = *batch->column(1);
    const columnar::Vector& pos = *batch->column(3);
    for (int64_t i = 0; i < batch->num_rows; ++i) {
      int64_t p = pos.Get<int64_t>(i);
      if (p < 0 || p >= n) {
        return Status::Corruption(file.path + ": row position " + std::to_string(p) + " past numRecords " +
                                  std::to_string(n));
      }
      size_t at = static_cast<size_t>(p);
      seen[at] = 1;
      if (ids.IsValid(i)) {
        out.ids[at] = ids.Get<int64_t>(i);
      } else if (file.base_row_id) {
        out.ids[at] = *file.base_row_id + p;
      } else {
        return Status::InvalidArgument("row tracking: row " + std::to_string(p) + " of " + file.path +
                                       " has no row id (no materialized value, no baseRowId)");
      }
      if (versions.IsValid(i)) {
        out.versions[at] = versions.Get<int64_t>(i);
      } else if (file.default_row_commit_version) {
        out.versions[at] = *file.default_row_commit_version;
      }
    }
  }
  for (int64_t p = 0; p < n; ++p) {
    if (!seen[static_cast<size_t>(p)]) {
      return Status::Corruption(file.path + ": numRecords is " + std::to_string(n) + " but row " +
                                std::to_string(p) + " was not read");
    }
  }
  return out;
}

Result<RowIdIndex> RowIdIndex::Build(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                     const delta::Metadata& with_columns, std::vector<delta::AddFile> files) {
  RowIdIndex index;
  index.files_ = std::move(files);
  for (size_t f = 0; f < index.files_.size(); ++f) {
    const delta::AddFile& file = index.files_[f];
    ASSIGN_OR_RETURN(FileRowIds ids, ReadFileRowIds(fs, table_root, with_columns, file));
    delta::DeletionVector dv;
    if (file.deletion_vector) {
      auto loaded = delta::DeletionVector::Load(*fs, table_root, *file.deletion_vector);
      if (!loaded.ok()) return loaded.status().WithContext("deletion vector of " + file.path);
      dv = std::move(loaded).value();
    }
    index.where_.reserve(index.where_.size() + ids.ids.size());
    for (size_t p = 0; p < ids.ids.size(); ++p) {
      if (!dv.IsEmpty() && dv.Contains(p)) continue;
      auto [it, inserted] = index.where_.try_emplace(ids.ids[p], Location{static_cast<uint32_t>(f), p});
      if (!inserted) {
        return Status::InvalidArgument("row tracking: row id " + std::to_string(ids.ids[p]) + " occurs in " +
                                       index.files_[it->second.file].path + " and " + file.path);
      }
    }
  }
  return index;
}

Result<std::vector<RemappedRows>> RemapThroughRowIds(const delta::DeletionVector& rows,
                                                     const delta::AddFile& source,
                                                     const FileRowIds& source_ids, const RowIdIndex& index) {
  std::map<uint32_t, std::vector<uint64_t>> by_file;
  Status st;
  rows.ForEach([&](uint64_t p) {
    if (p >= source_ids.ids.size()) {
      st = Status::InvalidArgument("row " + std::to_string(p) + " of " + source.path + " is past its rows");
      return false;
    }
    const RowIdIndex::Location* loc = index.Find(source_ids.ids[p]);
    if (!loc) {
      st = Status::InvalidArgument("row " + std::to_string(p) + " of " + source.path + " (row id " +
                                   std::to_string(source_ids.ids[p]) + ") is not a live row of the rewrite");
      return false;
    }
    by_file[loc->file].push_back(loc->position);
    return true;
  });
  RETURN_NOT_OK(st);
  std::vector<RemappedRows> out;
  for (auto& [f, positions] : by_file) {
    RemappedRows r;
    r.output = index.files()[f];
    r.rows.AddMany(positions.data(), positions.size());
    out.push_back(std::move(r));
  }
  return out;
}

delta::DeletionVector LivePositions(int64_t num_records, const delta::DeletionVector& dv) {
  delta::DeletionVector out;
  if (dv.IsEmpty()) {
    if (num_records > 0) out.AddRange(0, static_cast<uint64_t>(num_records));
    return out;
  }
  std::vector<uint64_t> live;
  for (int64_t p = 0; p < num_records; ++p) {
    if (!dv.Contains(static_cast<uint64_t>(p))) live.push_back(static_cast<uint64_t>(p));
  }
  out.AddMany(live.data(), live.size());
  return out;
}

}  // namespace shoal::txn
