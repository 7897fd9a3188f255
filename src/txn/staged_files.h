// Durability of the files a transaction stages: before a commit (or a prepared transaction)
// names a data file, the file's directory entry must survive a power loss. The data file
// writer fsyncs each file's bytes; this fsyncs the directories that hold them, once each.
//
// Thread-safety: a stateless free function.
#pragma once

#include <string>

#include "io/file_system.h"
#include "shoal/status.h"
#include "txn/write_set.h"

namespace shoal::txn {

// Fsyncs (FileSystem::SyncDir) every distinct directory holding a file `write` adds (data and change data files), so a
// durable log entry never references a file a crash removes. Paths that do not resolve inside
// `table_root` are skipped (they are not this transaction's files).
Status SyncStagedFileDirectories(io::FileSystem& fs, const std::string& table_root,
                                 const WriteSet& write);

}  // namespace shoal::txn
