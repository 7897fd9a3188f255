// Snapshot: the state of a Delta table at one version, reconstructed by log replay
// (PROTOCOL.md "Action Reconciliation"): the checkpoint's actions, then each later commit in
// order. Latest protocol/metadata win; a remove cancels the active add with the same
// (path, deletion-vector unique id) and a later add of a path replaces the earlier one (e.g.
// with a new DV); txn is latest per appId; domainMetadata latest per domain (removed=true
// deletes it); removes are kept as tombstones (for VACUUM).
//
// A damaged checkpoint is never replayed partially: Load falls back to an older checkpoint or the
// JSON log, or fails with Corruption naming the file (SnapshotOptions::checkpoint_fallback).
// Log compaction files replace the commits they cover (LogSegment::compactions).
//
// Replay is built for large logs (doc/snapshot_loading.md): commit files are read and parsed on
// a few threads, then applied in version order; files are moved, never copied; checkpoint files
// that no later commit touches skip the hash maps entirely (a reconciled checkpoint holds each
// (path, DV) at most once).
// Thread-safety: immutable after Load; safe to share between threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/checkpoint_reader.h"
#include "delta/file_list.h"
#include "delta/log_segment.h"
#include "delta/schema_json.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

struct SnapshotOptions {
  // Version to load; default: the latest.
  std::optional<int64_t> version;
  // Readers for checkpoint files; default: JSON only (Parquet checkpoints -> NotSupported).
  CheckpointReaders readers;
  // Reject tables whose protocol shoal cannot read (CheckCanRead); default true.
  bool check_protocol = true;
  // Threads reading and parsing commit files; 0 (default): min(hardware threads, 8).
  int threads = 0;
  // Parse commit lines through the JSON DOM instead of the add/remove fast path; default false
  // (the old path, kept for benchmarks and comparisons).
  bool dom_json_parser = false;
  // Replay log compaction files in place of the commits they cover; default true. Load
  // retries without them when a load that used them fails for another cause than the
  // checkpoint (a damaged compaction file), and keeps the first error if that fails too.
  bool use_compactions = true;
  // Load: when the checkpoint is damaged (corrupt, truncated, a sidecar missing), rebuild the
  // snapshot from an older checkpoint or the JSON log if they still reach the version (the
  // segment's skipped_checkpoint then holds the error); otherwise, or when false, the
  // checkpoint's Corruption error naming the file. Default true.
  bool checkpoint_fallback = true;
  // Called as the load advances, with bytes of log files done of planned: commits and
  // compaction files read, the checkpoint loaded, commits replayed (so planned counts the
  // commits' bytes twice). From the loading thread and the commit readers, possibly at once;
  // `done` is not always growing between threads (take the largest). Default: none.
  std::function<void(int64_t done, int64_t planned)> progress;
};

class Snapshot {
 public:
  // Builds the log segment for options.version and replays it.
  static Result<std::shared_ptr<const Snapshot>> Load(std::shared_ptr<io::FileSystem> fs,
                                                      const std::string& table_root,
                                                      const SnapshotOptions& options = {});
  // Replays an already-built segment.
  static Result<std::shared_ptr<const Snapshot>> LoadSegment(std::shared_ptr<io::FileSystem> fs,
                                                             LogSegment segment,
                                                             const SnapshotOptions& options = {});

  int64_t version() const { return segment_.version; }
  const std::string& table_root() const { return segment_.table_root; }
  const LogSegment& segment() const { return segment_; }
  const Protocol& protocol() const { return protocol_; }
  const Metadata& metadata() const { return metadata_; }
  // Active data files, in the order they were (last) added, column-wise (file_list.h). Scans
  // and planners read this and Get() only the files they keep.
  const FileList& file_list() const { return files_; }
  size_t num_files() const { return files_.size(); }
  // The same files as AddFile objects, built on first use (O(files): about 1 us and three
  // allocations per file) and kept; for callers that need every file as an object (writing a
  // checkpoint, RESTORE, conflict checks). Index i is file_list()'s file i.
  const std::vector<AddFile>& files() const;
  // Removed files still remembered by the log, with their deletionTimestamp.
  const std::vector<RemoveFile>& tombstones() const { return tombstones_; }
  // appId -> latest txn action.
  const std::map<std::string, Txn>& app_transactions() const { return txns_; }
  std::optional<int64_t> AppTransactionVersion(const std::string& app_id) const;
  // domain -> latest non-removed domainMetadata.
  const std::map<std::string, DomainMetadata>& domain_metadata() const { return domains_; }
  // Timestamps of the replayed commits (after the checkpoint), ascending: the commit's
  // inCommitTimestamp when present, else its file modification time.
  const std::vector<CommitTimestamp>& commit_timestamps() const { return commit_timestamps_; }
  // Timestamp of this version (inCommitTimestamp or commit-file mtime; -1 when unknown).
  int64_t timestamp_ms() const { return timestamp_ms_; }
  // The commitInfo of the snapshot's own version, when it was replayed.
  const std::optional<CommitInfo>& latest_commit_info() const { return latest_commit_info_; }
  // In-commit timestamp configuration from the metadata (for FindVersionAtTimestamp).
  InCommitTimestampConfig InCommitTimestamps() const;

  Result<SchemaField> Schema() const { return ParseSchemaJson(metadata_.schema_string); }
  std::shared_ptr<io::FileSystem> fs() const { return fs_; }

 private:
  friend class LogReplay;
  Snapshot() = default;
  // LoadSegment; sets *checkpoint_damaged when it fails on a damaged checkpoint.
  static Result<std::shared_ptr<const Snapshot>> LoadSegmentImpl(std::shared_ptr<io::FileSystem> fs,
                                                                 LogSegment segment, const SnapshotOptions& options,
                                                                 bool* checkpoint_damaged);

  std::shared_ptr<io::FileSystem> fs_;
  LogSegment segment_;
  Protocol protocol_;
  Metadata metadata_;
  FileList files_;
  mutable std::once_flag materialized_once_;
  mutable std::vector<AddFile> materialized_;
  std::vector<RemoveFile> tombstones_;
  std::map<std::string, Txn> txns_;
  std::map<std::string, DomainMetadata> domains_;
  std::vector<CommitTimestamp> commit_timestamps_;
  std::optional<CommitInfo> latest_commit_info_;
  int64_t timestamp_ms_ = -1;
};

}  // namespace shoal::delta
