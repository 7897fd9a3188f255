#include "txn/staged_files.h"

#include <set>

#include "delta/table_path.h"

namespace shoal::txn {

Status SyncStagedFileDirectories(io::FileSystem& fs, const std::string& table_root,
                                 const WriteSet& write) {
  std::set<std::string> dirs;
  auto note = [&](const std::string& path) {
    auto local = delta::ResolveTablePath(table_root, path);
    if (local.ok()) dirs.insert(io::DirName(*local));
  };
  for (const auto& add : write.adds) note(add.path);
  for (const auto& cdc : write.cdc_files) note(cdc.path);
  for (const auto& dir : dirs) {
    RETURN_NOT_OK(fs.SyncDir(dir).WithContext("making the staged files in " + dir + " durable"));
  }
  return Status::OK();
}

}  // namespace shoal::txn
