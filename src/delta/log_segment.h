// LogSegment: the files of `_delta_log/` needed to reconstruct one table version — the latest
// complete checkpoint at or before it plus the contiguous commits after it — and the
// commit-timestamp lookups time travel needs.
//
// Recognized names (PROTOCOL.md "File Types"): `%020d.json` commits, `%020d.checkpoint.parquet`,
// multi-part `%020d.checkpoint.%010d.%010d.parquet`, V2 `%020d.checkpoint.<uuid>.(json|parquet)`,
// `%020d.crc`, log compactions `%020d.%020d.compacted.json`, `_last_checkpoint`.
// Hidden/temp files (leading '.', trailing ".tmp") are ignored. The directory listing is
// authoritative; `_last_checkpoint` (which may be corrupt or stale) only says where the listing
// may start: from its version on (io::FileSystem::ListFrom), when that part of the log holds a
// complete checkpoint at or before the wanted version; otherwise the whole log is listed.
// Thread-safety: plain values and free functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "delta/actions.h"
#include "delta/json_fields.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

enum class LogFileKind {
  kCommit,
  kClassicCheckpoint,    // %020d.checkpoint.parquet
  kMultiPartCheckpoint,  // %020d.checkpoint.%010d.%010d.parquet
  kV2Checkpoint,         // %020d.checkpoint.<uuid>.json|parquet
  kCrc,
  kCompacted,
};

struct LogFile {
  std::string path;  // full path
  std::string name;  // file name in _delta_log
  LogFileKind kind = LogFileKind::kCommit;
  int64_t version = 0;
  int64_t end_version = 0;  // compacted files: last version covered
  int32_t part = 0;         // multi-part checkpoints: 1-based part number
  int32_t num_parts = 0;
  int64_t size = 0;
  int64_t mtime_ms = 0;
  bool IsCheckpoint() const {
    return kind == LogFileKind::kClassicCheckpoint || kind == LogFileKind::kMultiPartCheckpoint ||
           kind == LogFileKind::kV2Checkpoint;
  }
  bool IsJson() const { return name.size() >= 5 && name.compare(name.size() - 5, 5, ".json") == 0; }
};

// Classifies a `_delta_log` file name; std::nullopt for anything else.
std::optional<LogFile> ClassifyLogFileName(std::string_view name);

// `_last_checkpoint`'s `v2Checkpoint` (as Spark writes it): the UUID-named checkpoint file and,
// optionally, its non-file actions and sidecar list inlined so readers can skip the file.
struct V2CheckpointInfo {
  std::string path;  // file name in _delta_log
  int64_t size_in_bytes = -1;
  int64_t modification_time = 0;
  std::optional<std::vector<std::string>> non_file_actions;  // action lines, incl. checkpointMetadata
  std::optional<std::vector<Sidecar>> sidecar_files;
};

// Contents of `_delta_log/_last_checkpoint` (PROTOCOL.md "Last Checkpoint File Schema").
struct LastCheckpointInfo {
  int64_t version = 0;
  std::optional<int64_t> size;
  std::optional<int64_t> parts;
  std::optional<int64_t> size_in_bytes;
  std::optional<int64_t> num_of_add_files;
  std::optional<Json> checkpoint_schema;
  std::optional<std::string> checksum;
  std::optional<V2CheckpointInfo> v2_checkpoint;
};
Result<LastCheckpointInfo> ParseLastCheckpoint(std::string_view text);

struct LogSegment {
  std::string table_root;
  std::string log_dir;
  int64_t version = -1;  // the version this segment reconstructs
  std::optional<int64_t> checkpoint_version;
  std::vector<LogFile> checkpoint_files;  // one file, or all parts in part order
  std::vector<LogFile> commits;           // versions checkpoint_version+1 .. version, ascending
  // Log compaction files that may replace runs of `commits` during replay (PROTOCOL.md "Log
  // Compaction Files"): disjoint, ascending, each [version, end_version] inside the commits'
  // range and ending before `version` (whose own commit is always read, for its commitInfo).
  std::vector<LogFile> compactions;
  // The commit file of `version` itself when listed (also when it is covered by the checkpoint);
  // its mtime is the fallback commit timestamp.
  std::optional<LogFile> last_commit;
  // Parsed `_last_checkpoint`, when present and valid (informational).
  std::optional<LastCheckpointInfo> last_checkpoint;
  // Set when a newer checkpoint could not be read and this segment was built below it (the
  // fallback of Snapshot::Load): that checkpoint's error.
  std::optional<std::string> skipped_checkpoint;
};

struct LogSegmentOptions {
  // Version to reconstruct; default: the latest.
  std::optional<int64_t> version;
  // Use only checkpoints at or below this version; default: any.
  std::optional<int64_t> max_checkpoint_version;
  // Replace runs of commits by log compaction files; default true.
  bool use_compactions = true;
};

// Lists `<table_root>/_delta_log` (from `_last_checkpoint`'s version when it can) and builds the
// segment for `version` (latest when absent). On remote storage `_last_checkpoint` and the
// first kSpeculativeLogEntries names of the log are asked for together (SnapshotSpeculation):
// when the log has no more names than that, one round trip finds the whole segment.
// Errors: InvalidArgument when there is no (or an empty) _delta_log or the version does not
// exist or was cleaned up; Corruption "versions not contiguous: missing version N".
Result<LogSegment> BuildLogSegment(io::FileSystem& fs, const std::string& table_root,
                                   std::optional<int64_t> version = std::nullopt);
Result<LogSegment> BuildLogSegment(io::FileSystem& fs, const std::string& table_root,
                                   const LogSegmentOptions& options);

// Log names listed speculatively with `_last_checkpoint` (one page of an S3 listing).
inline constexpr size_t kSpeculativeLogEntries = 1000;
// The reads BuildLogSegment starts with on remote storage: `_last_checkpoint` and the first
// kSpeculativeLogEntries names of the log. A catalog that resolves a name may speculate them
// (io::FileSystem::Speculate) together with its own lookups.
std::vector<io::SpeculativeRead> SnapshotSpeculation(const std::string& table_root);

// Lists and classifies every log file, sorted by (version, kind, name).
Result<std::vector<LogFile>> ListLogFiles(io::FileSystem& fs, const std::string& table_root);

struct CommitTimestamp {
  int64_t version = 0;
  int64_t timestamp_ms = 0;
};

// In-commit timestamps (inCommitTimestamp feature): from `enablement_version` on, a commit's
// timestamp is its commitInfo.inCommitTimestamp instead of the file modification time.
struct InCommitTimestampConfig {
  bool enabled = false;
  int64_t enablement_version = 0;
};

// Reads the inCommitTimestamp of one commit file (its commitInfo); Corruption when absent.
Result<int64_t> ReadInCommitTimestamp(io::FileSystem& fs, const LogFile& commit);

// Timestamps of all listed commits, ascending by version: file mtimes adjusted to be strictly
// increasing (as Delta does) before ICT enablement, in-commit timestamps after it.
Result<std::vector<CommitTimestamp>> ListCommitTimestamps(io::FileSystem& fs,
                                                          const std::string& table_root,
                                                          const InCommitTimestampConfig& ict = {});

// The latest version whose commit timestamp is <= `timestamp_ms` (time travel "AS OF").
// InvalidArgument when the timestamp is before the earliest available commit.
Result<int64_t> FindVersionAtTimestamp(io::FileSystem& fs, const std::string& table_root,
                                       int64_t timestamp_ms,
                                       const InCommitTimestampConfig& ict = {});

// "<table_root>/_delta_log"
std::string LogDirOf(std::string_view table_root);
// "%020d.json"
std::string CommitFileName(int64_t version);

}  // namespace shoal::delta
