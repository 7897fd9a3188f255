// Reads the checkpoint of a log segment for replay (PROTOCOL.md "Checkpoints"): classic, all
// parts of a multi-part one, or a V2 spec checkpoint and its sidecars under
// `_delta_log/_sidecars/` — the sidecars fetched in parallel, and the top-level file skipped
// when `_last_checkpoint` inlines its non-file actions and sidecar list.
//
// Validation, so a damaged checkpoint is an error rather than a wrong snapshot: a UUID-named
// checkpoint must hold exactly one checkpointMetadata of its own version; a sidecar must exist
// and have the size its sidecar action records; a top-level file `_last_checkpoint` describes
// must have the recorded size. Every failure is Corruption naming the file, except read errors,
// which stay IOError (with the file named).
//
// Thread-safety: LoadCheckpoint uses its own worker threads and only the thread-safe FileSystem;
// the sinks are called from the calling thread only.
#pragma once

#include <functional>

#include "delta/checkpoint_reader.h"
#include "delta/log_segment.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::delta {

// Feeds the checkpoint's actions (minus sidecar and checkpointMetadata) to `actions`, and add
// rows decoded column-wise to `files`. `threads` <= 0: min(hardware threads, 8).
// Errors: Corruption (IOError for a failed read) prefixed "checkpoint <path>: " for a damaged or
// unreadable checkpoint or sidecar (the caller may fall back to an older checkpoint);
// NotSupported without a needed reader.
Status LoadCheckpoint(io::FileSystem& fs, const LogSegment& seg, const CheckpointReaders& readers, int threads,
                      const ActionSink& actions, const FileListSink& files);

// True for a status LoadCheckpoint returns for a damaged or unreadable checkpoint (Corruption,
// IOError; not NotSupported).
bool IsCheckpointDamage(const Status& st);

}  // namespace shoal::delta
