// Writes a log compaction file `<x>.<y>.compacted.json` (PROTOCOL.md "Log Compaction Files"):
// the actions of commits x..y reconciled as replay would — per (path, DV unique id) the newest
// add or remove, the latest protocol and metaData, the latest txn per appId, the latest
// domainMetadata per domain (removed=true kept: it must still hide an older domain) — without
// commitInfo and cdc actions. Readers replay it in place of those commits (LogSegment).
//
// Thread-safety: stateless; the file's content is a function of the commits, so two writers of
// the same range write the same file (the first one stays).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::table {

struct LogCompactionInfo {
  int64_t start_version = 0;
  int64_t end_version = 0;
  std::string path;
  int64_t num_actions = 0;
};

// Compacts commits [start, end] of the table; default range: from the latest checkpoint's next
// version (or 0) to the latest version. InvalidArgument when the range holds fewer than two
// commits or a commit is missing; an existing file for the range is kept and reported.
// `progress` (when set) is called with the commits' bytes read of planned (their total plus one
// for the write), possibly from several reader threads at once, and with planned of planned once
// the file is written.
Result<LogCompactionInfo> WriteLogCompaction(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                             std::optional<int64_t> start = std::nullopt,
                                             std::optional<int64_t> end = std::nullopt,
                                             const std::function<void(int64_t done, int64_t planned)>& progress = {});

}  // namespace shoal::table
