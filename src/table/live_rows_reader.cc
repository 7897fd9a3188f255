#include "table/live_rows_reader.h"

#include "delta/table_path.h"
#include "scan/delta_scan.h"
#include "scan/file_set_scan.h"
#include "table/optimize_plan.h"

namespace shoal::table {

Status ReadLiveRows(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                    const std::shared_ptr<const scan::TableSchema>& schema,
                    const std::vector<delta::AddFile>& files, const LiveRowsSink& sink,
                    int64_t batch_rows) {
  if (files.empty()) return Status::OK();
  std::vector<scan::FileTask> tasks;
  tasks.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const delta::AddFile& add = files[i];
    ASSIGN_OR_RETURN(scan::FileTask task,
                     scan::MakeFileTask(table_root, *schema, add, static_cast<int64_t>(i)));
    tasks.push_back(std::move(task));
  }
  scan::FileSetScanSpec spec;
  spec.fs = fs;
  spec.table_root = table_root;
  spec.table = schema;
  for (size_t c = 0; c < schema->columns.size(); ++c) spec.columns.push_back(static_cast<int>(c));
  spec.batch_rows = batch_rows;
  spec.files_total = static_cast<int64_t>(files.size());
  scan::FileSetScan scan(std::move(spec), std::move(tasks));
  // One worker: the scan then yields file after file, row groups and batches in order; the
  // order keys (file << 40 | row group << 20 | batch) prove it.
  auto local = scan.MakeLocal();
  uint64_t last_key = 0;
  bool first = true;
  while (true) {
    columnar::BatchPtr batch;
    uint64_t key = 0;
    ASSIGN_OR_RETURN(bool more, scan.Next(local.get(), &batch, &key));
    if (!more) break;
    size_t file = static_cast<size_t>(key >> 40);
    if (file >= files.size())
      return Status::Internal("scan returned unknown file index " + std::to_string(file));
    if (!first && key <= last_key)
      return Status::Internal("live rows of " + files[file].path + " arrived out of order");
    first = false;
    last_key = key;
    RETURN_NOT_OK(sink(file, *batch));
  }
  return Status::OK();
}

Status ReadRowsAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                  const std::shared_ptr<const scan::TableSchema>& schema, std::vector<delta::AddFile> files,
                  const std::vector<std::optional<delta::DeletionVector>>& positions, const LiveRowsSink& sink) {
  if (!positions.empty() && positions.size() != files.size()) {
    return Status::Internal("ReadRowsAt: " + std::to_string(positions.size()) + " position sets for " +
                            std::to_string(files.size()) + " files");
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (positions[i]) files[i].deletion_vector.reset();
  }
  std::vector<uint64_t> next(files.size(), 0);
  std::vector<uint32_t> keep;
  return ReadLiveRows(fs, table_root, schema, files, [&](size_t file, const columnar::RecordBatch& rows) -> Status {
    const uint64_t first = next[file];
    next[file] += static_cast<uint64_t>(rows.num_rows);
    if (positions.empty() || !positions[file]) return rows.num_rows > 0 ? sink(file, rows) : Status::OK();
    keep.clear();
    for (int64_t i = 0; i < rows.num_rows; ++i) {
      if (positions[file]->Contains(first + static_cast<uint64_t>(i))) keep.push_back(static_cast<uint32_t>(i));
    }
    if (keep.empty()) return Status::OK();
    return sink(file, *columnar::GatherBatch(rows, keep.data(), static_cast<int64_t>(keep.size())));
  });
}

}  // namespace shoal::table
