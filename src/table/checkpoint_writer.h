// Writes a classic single-file Parquet checkpoint `<v>.checkpoint.parquet` of a snapshot
// (PROTOCOL.md "Checkpoints", "Checkpoint Schema"): one row per action — protocol, metaData,
// txn, domainMetadata, add, remove (tombstones younger than delta.deletedFileRetentionDuration)
// — each in its own nullable struct column, stats as a JSON string, partitionValues as
// map<string,string>; then `_last_checkpoint` (version, size, sizeInBytes, numOfAddFiles).
//
// Thread-safety: stateless; checkpoints of one version written concurrently produce equal
// content, and each file appears atomically (temp file + rename).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "columnar/type.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "parquet/metadata.h"
#include "shoal/status.h"

namespace shoal::table {

struct CheckpointOptions {
  // "Now" for tombstone expiry, ms since the epoch; default: the current time.
  std::optional<int64_t> now_ms;
  parquet::CompressionCodec codec = parquet::CompressionCodec::kSnappy;  // Spark's default
};

struct CheckpointInfo {
  int64_t version = 0;
  std::string path;            // the checkpoint file
  int64_t size = 0;            // number of actions (rows)
  int64_t size_in_bytes = 0;   // file size
  int64_t num_add_files = 0;
};

// The columnar schema of a classic checkpoint file.
columnar::Schema CheckpointSchema();

// Writes the checkpoint of `snapshot` and updates _last_checkpoint.
Result<CheckpointInfo> WriteCheckpoint(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                       const CheckpointOptions& options = {});

}  // namespace shoal::table
