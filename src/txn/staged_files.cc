#include "txn/staged_files.h"

#include <set>

#include "delta/table_path.h"

namespace shoal::txn {

Status SyncStagedFileDirectories(io::FileSystem& fs, const std::string& table_root,
                                 const WriteSet& write) {
  std::set<std::string> dirs;
  for (const auto& add : write.adds) {
    auto local = delta::ResolveTablePath(table_root, add.path);
    if (local.ok()) dirs.insert(io::DirName(*local));
  }
  for (const auto& dir : dirs) {
    RETURN_NOT_OK(fs.SyncDir(dir).WithContext("making the staged files in " + dir + " durable"));
  }
  return Status::OK();
}

}  // namespace shoal::txn
