// Writes the checkpoint of a snapshot (PROTOCOL.md "Checkpoints"), then `_last_checkpoint`:
// - tables with the v2Checkpoint feature: a V2 spec checkpoint — the file actions (add, and
//   remove tombstones younger than delta.deletedFileRetentionDuration) in one or more Parquet
//   sidecars `_delta_log/_sidecars/<uuid>.parquet` (at most `part_size` actions each), then the
//   UUID-named top-level `<v>.checkpoint.<uuid>.json` holding checkpointMetadata, the non-file
//   actions and one sidecar action per sidecar; `_last_checkpoint` carries `v2Checkpoint`
//   (path, size, the non-file actions and sidecar list inlined, as Spark writes them);
// - other tables: a classic V1 checkpoint `<v>.checkpoint.parquet`, or, with more than
//   `part_size` actions, a multi-part one `<v>.checkpoint.<i>.<n>.parquet` whose rows are
//   clustered by Spark's hash partitioning of (path[, DV unique id]) as the protocol requires
//   (non-file actions hash as a null key); `_last_checkpoint` then carries `parts`.
// The JSON top-level file: it holds only the few non-file actions and sidecar pointers (the bulk
// is in Parquet sidecars), needs no Parquet reader to find the protocol, and is usually not read
// at all because `_last_checkpoint` inlines it.
//
// Thread-safety: stateless; each file appears atomically (temp file + rename, or a UUID name).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "parquet/metadata.h"
#include "shoal/status.h"
#include "table/checkpoint_rows.h"

namespace shoal::table {

struct CheckpointOptions {
  // "Now" for tombstone expiry, ms since the epoch; default: the current time.
  std::optional<int64_t> now_ms;
  parquet::CompressionCodec codec = parquet::CompressionCodec::kSnappy;  // Spark's default
  // Actions per Parquet file (multi-part parts, V2 sidecars); default: the table's
  // delta.checkpoint.partSize (1,000,000 when unset).
  std::optional<int64_t> part_size;
  // Called as actions are written to the checkpoint's files: actions done of planned.
  // Default: none.
  std::function<void(int64_t done, int64_t planned)> progress;
};

struct CheckpointInfo {
  int64_t version = 0;
  std::string path;            // classic: the file; multi-part: part 1; V2: the top-level file
  int64_t size = 0;            // number of actions (rows, over all files)
  int64_t size_in_bytes = 0;   // bytes of all files
  int64_t num_add_files = 0;
  int32_t parts = 0;           // multi-part: the number of parts; else 0
  bool v2 = false;             // a V2 spec (UUID-named) checkpoint
  std::vector<std::string> sidecars;  // V2: the sidecar files
};

// Writes the checkpoint of `snapshot` and updates _last_checkpoint.
Result<CheckpointInfo> WriteCheckpoint(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                       const CheckpointOptions& options = {});

}  // namespace shoal::table
