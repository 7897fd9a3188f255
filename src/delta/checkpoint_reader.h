// CheckpointReader: streams the actions of one checkpoint (or sidecar) file. JSON checkpoints
// (V2 `.checkpoint.<uuid>.json`, JSON sidecars) are read here; the Parquet implementation is
// plugged in by the integrator through CheckpointReaders, and without it Parquet checkpoints
// fail with NotSupported naming the file — never a silently wrong snapshot.
//
// Thread-safety: implementations must be safe for concurrent Read calls.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "delta/actions.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

// Receives each action; a non-OK status stops the read and is returned.
using ActionSink = std::function<Status(Action&&)>;

class CheckpointReader {
 public:
  virtual ~CheckpointReader() = default;
  // Calls `sink` for every action in the checkpoint file at `path`. Rows of a Parquet
  // checkpoint map to the same Action structs as the JSON log (null columns = absent).
  virtual Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) = 0;
};

// Newline-delimited JSON checkpoints and sidecars.
class JsonCheckpointReader final : public CheckpointReader {
 public:
  Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) override;
};

// The readers a snapshot load may use, by file format.
struct CheckpointReaders {
  // Default: JsonCheckpointReader.
  std::shared_ptr<CheckpointReader> json = std::make_shared<JsonCheckpointReader>();
  // Default: none; Parquet checkpoints and sidecars then fail with NotSupported.
  std::shared_ptr<CheckpointReader> parquet;
};

// Reads `path` with the reader for its extension (.json or .parquet).
Status ReadCheckpointFile(io::FileSystem& fs, const CheckpointReaders& readers,
                          const std::string& path, const ActionSink& sink);

}  // namespace shoal::delta
