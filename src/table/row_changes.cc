#include "table/row_changes.h"

#include <algorithm>

#include "delta/stats_json.h"
#include "delta/table_path.h"
#include "scan/file_set_scan.h"
#include "scan/partition_values.h"
#include "table/data_file_writer.h"

namespace shoal::table {
namespace {

Result<const delta::AddFile*> FileById(const scan::DeltaTable& table, int64_t id) {
  const auto& files = table.snapshot()->files();
  if (id < 0 || id >= static_cast<int64_t>(files.size())) {
    return Status::InvalidArgument("row address names file id " + std::to_string(id) +
                                   " of a snapshot with " + std::to_string(files.size()) +
                                   " files");
  }
  return &files[static_cast<size_t>(id)];
}

// A scan task reading `file` (all rows but its DV's) as file id `id`.
Result<scan::FileTask> TaskFor(const scan::DeltaTable& table, const delta::AddFile& file,
                               int64_t id) {
  return scan::MakeFileTask(table.snapshot()->table_root(), *table.schema(), file, id);
}

// Rewrites `files` without the rows in `deletes`, staging removes and the new adds.
Status RewriteFiles(std::shared_ptr<io::FileSystem> fs, const scan::DeltaTable& table,
                    txn::Transaction* txn,
                    const std::vector<std::pair<int64_t, const delta::DeletionVector*>>& files,
                    std::vector<std::string>* staged_files, RowDeleteStats* stats) {
  if (files.empty()) return Status::OK();
  const scan::TableSchema& schema = *table.schema();
  std::vector<scan::FileTask> tasks;
  std::map<int64_t, const delta::DeletionVector*> by_id;
  for (const auto& [id, dv] : files) {
    ASSIGN_OR_RETURN(const delta::AddFile* add, FileById(table, id));
    ASSIGN_OR_RETURN(scan::FileTask task, TaskFor(table, *add, id));
    tasks.push_back(std::move(task));
    by_id[id] = dv;
  }
  scan::FileSetScanSpec spec;
  spec.fs = fs;
  spec.table_root = table.snapshot()->table_root();
  spec.table = table.schema();
  for (size_t c = 0; c < schema.columns.size(); ++c) spec.columns.push_back(static_cast<int>(c));
  spec.with_row_address = true;
  spec.files_total = static_cast<int64_t>(tasks.size());
  scan::FileSetScan scan(std::move(spec), std::move(tasks));
  ASSIGN_OR_RETURN(auto writer,
                   DataFileWriter::Make(fs, table.snapshot()->table_root(), txn->metadata()));
  auto out_schema = std::make_shared<columnar::Schema>(writer->schema());
  const size_t n = schema.columns.size();
  auto local = scan.MakeLocal();
  columnar::BatchPtr batch;
  uint64_t order = 0;
  std::vector<uint32_t> keep;
  while (true) {
    ASSIGN_OR_RETURN(bool more, scan.Next(local.get(), &batch, &order));
    if (!more) break;
    const auto& ids = *batch->columns[n];
    const auto& rows = *batch->columns[n + 1];
    keep.clear();
    for (int64_t i = 0; i < batch->num_rows; ++i) {
      const delta::DeletionVector* dv = by_id[ids.Get<int64_t>(i)];
      if (!dv || !dv->Contains(static_cast<uint64_t>(rows.Get<int64_t>(i))))
        keep.push_back(static_cast<uint32_t>(i));
    }
    if (keep.empty()) continue;
    std::vector<columnar::VectorPtr> cols(batch->columns.begin(),
                                          batch->columns.begin() + static_cast<long>(n));
    columnar::RecordBatch data(out_schema, std::move(cols), batch->num_rows);
    auto kept = columnar::GatherBatch(data, keep.data(), static_cast<int64_t>(keep.size()));
    kept->schema = out_schema;
    RETURN_NOT_OK(writer->Write(*kept));
    stats->rows_copied += static_cast<int64_t>(keep.size());
  }
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> adds, writer->Finish());
  for (delta::AddFile& a : adds) {
    ASSIGN_OR_RETURN(std::string path,
                     delta::ResolveTablePath(table.snapshot()->table_root(), a.path));
    staged_files->push_back(std::move(path));
    txn->AddFile(std::move(a));
  }
  for (const auto& [id, dv] : files) {
    ASSIGN_OR_RETURN(const delta::AddFile* add, FileById(table, id));
    RETURN_NOT_OK(txn->RemoveFile(*add));
    ++stats->files_rewritten;
  }
  return Status::OK();
}

}  // namespace

void CollectRowAddresses(const columnar::Vector& file_ids, const columnar::Vector& row_indexes,
                         const uint32_t* sel, int64_t n, FilePositions* out) {
  const int64_t* ids = file_ids.data<int64_t>();
  const int64_t* rows = row_indexes.data<int64_t>();
  int64_t current = -1;
  delta::DeletionVector* dv = nullptr;
  for (int64_t k = 0; k < n; ++k) {
    int64_t i = sel ? sel[k] : k;
    if (file_ids.IsNull(i) || row_indexes.IsNull(i)) continue;
    if (!dv || ids[i] != current) {
      current = ids[i];
      dv = &(*out)[current];
    }
    dv->Add(static_cast<uint64_t>(rows[i]));
  }
}

bool UsesDeletionVectors(const delta::Metadata& metadata) {
  auto it = metadata.configuration.find("delta.enableDeletionVectors");
  return it != metadata.configuration.end() && it->second == "true";
}

int64_t LiveRows(const delta::AddFile& file) {
  if (!file.stats) return -1;
  auto s = delta::ParseStatsJson(*file.stats);
  if (!s.ok() || !s->num_records) return -1;
  int64_t live = *s->num_records;
  if (file.deletion_vector) live -= file.deletion_vector->cardinality;
  return live;
}

Status RecordRowReads(const scan::DeltaTable& table, txn::Transaction* txn,
                      const FilePositions& read) {
  const bool row_level = txn->row_level_concurrency();
  for (const auto& [id, rows] : read) {
    ASSIGN_OR_RETURN(const delta::AddFile* add, FileById(table, id));
    if (row_level) {
      txn->ReadRows(*add, rows);
    } else {
      txn->ReadFile(*add);
    }
  }
  return Status::OK();
}

Result<RowDeleteStats> StageRowDeletes(std::shared_ptr<io::FileSystem> fs,
                                       const scan::DeltaTable& table, txn::Transaction* txn,
                                       const FilePositions& deletes,
                                       std::vector<std::string>* staged_files) {
  RowDeleteStats stats;
  const bool dvs = UsesDeletionVectors(txn->metadata());
  std::vector<std::pair<int64_t, const delta::DeletionVector*>> rewrite;
  for (const auto& [id, rows] : deletes) {
    if (rows.IsEmpty()) continue;
    ASSIGN_OR_RETURN(const delta::AddFile* add, FileById(table, id));
    const int64_t n = static_cast<int64_t>(rows.Cardinality());
    stats.rows_deleted += n;
    const bool staged_dv = txn->write_set().row_deletes.count(add->path) > 0;
    if (!staged_dv && LiveRows(*add) == n) {
      RETURN_NOT_OK(txn->RemoveFile(*add));
      ++stats.files_removed;
    } else if (dvs || staged_dv) {
      RETURN_NOT_OK(txn->DeleteRows(*add, rows));
      ++stats.files_with_dv;
    } else {
      rewrite.emplace_back(id, &rows);
    }
  }
  RETURN_NOT_OK(RewriteFiles(std::move(fs), table, txn, rewrite, staged_files, &stats));
  return stats;
}

Result<int64_t> StageFileRemoves(const scan::DeltaTable& table, txn::Transaction* txn,
                                 const std::vector<int64_t>& file_ids) {
  int64_t total = 0;
  for (int64_t id : file_ids) {
    ASSIGN_OR_RETURN(const delta::AddFile* add, FileById(table, id));
    RETURN_NOT_OK(txn->RemoveFile(*add));
    int64_t live = LiveRows(*add);
    total = (total < 0 || live < 0) ? -1 : total + live;
  }
  return total;
}

}  // namespace shoal::table
