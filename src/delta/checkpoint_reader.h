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
#include "delta/file_list.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

// Receives each action; a non-OK status stops the read and is returned.
using ActionSink = std::function<Status(Action&&)>;
// Receives add rows decoded column-wise, in batches and in file order, in place of their
// AddFile actions; a non-OK status stops the read and is returned.
using FileListSink = std::function<Status(FileList&&)>;

class CheckpointReader {
 public:
  virtual ~CheckpointReader() = default;
  // Calls `sink` for every action in the checkpoint file at `path`. Rows of a Parquet
  // checkpoint map to the same Action structs as the JSON log (null columns = absent).
  virtual Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) = 0;
  // Like Read, but a reader that decodes add rows column-wise may hand some or all of them to
  // `files` instead of `sink` (the order between the two is not kept; a valid checkpoint holds
  // each (path, DV) once, so replay does not depend on it). `known_size` >= 0 is the file's
  // size from the log listing (spares object storage a request). The default calls Read.
  virtual Status ReadWithFiles(io::FileSystem& fs, const std::string& path, const ActionSink& sink,
                               const FileListSink& files, int64_t known_size = -1) {
    (void)files;
    (void)known_size;
    return Read(fs, path, sink);
  }
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

// Reads `path` with the reader for its extension (.json or .parquet); with `files`, through
// ReadWithFiles.
Status ReadCheckpointFile(io::FileSystem& fs, const CheckpointReaders& readers,
                          const std::string& path, const ActionSink& sink, const FileListSink* files = nullptr,
                          int64_t known_size = -1);

}  // namespace shoal::delta
