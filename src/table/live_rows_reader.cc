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

}  // namespace shoal::table
