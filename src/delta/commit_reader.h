// Reads and parses the JSON commit files of a log segment on a few threads, so snapshot
// loading is not bound by one core parsing JSON. Results keep version order; replay is the
// caller's (sequential) job.
// Thread-safety: ReadCommits is a free function; it uses its own worker threads and only the
// (thread-safe) FileSystem.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "delta/actions.h"
#include "delta/log_segment.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

struct ParsedCommit {
  int64_t version = 0;
  // The commit's actions in file order, except commitInfo (kept apart below).
  std::vector<Action> actions;
  // The first commitInfo.inCommitTimestamp, when present.
  std::optional<int64_t> in_commit_timestamp;
  // The commit's last commitInfo, kept only when requested (the snapshot's own version).
  std::optional<CommitInfo> commit_info;
  // Read or parse error naming the file and line; the rest of the struct is then unspecified.
  Status status;
};

struct CommitReadOptions {
  // Worker threads; 0: min(hardware threads, 8). 1, or fewer than 64 commits: the calling
  // thread reads them all, in order.
  int threads = 0;
  // Parse every line through the JSON DOM (the old path; for comparisons).
  bool dom_only = false;
  // Keep the commitInfo of this version (ParsedCommit::commit_info).
  std::optional<int64_t> keep_commit_info_of;
  // Called after each file is read and parsed with the total bytes read so far (from the
  // reader threads, possibly at once). Default: none.
  std::function<void(int64_t bytes_read)> on_read;
};

// Reads `commits` (ascending versions) and parses each; one ParsedCommit per file, in the same
// order. Checkpoint-only actions (sidecar, checkpointMetadata) in a commit are Corruption.
// Per-file errors are reported in ParsedCommit::status so the caller picks the first (entries
// after a failed one may be left unread).
std::vector<ParsedCommit> ReadCommits(io::FileSystem& fs, const std::vector<LogFile>& commits,
                                      const CommitReadOptions& options = {});

}  // namespace shoal::delta
