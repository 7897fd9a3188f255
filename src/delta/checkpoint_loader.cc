#include "delta/checkpoint_loader.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "delta/table_path.h"

namespace shoal::delta {

namespace {

Status Damage(const std::string& path, const std::string& what) {
  return Status::Corruption("checkpoint " + path + ": " + what);
}

// One sidecar's rows, read on a worker thread and applied later in sidecar order.
struct SidecarRows {
  std::string path;
  std::vector<Action> actions;
  std::vector<FileList> files;
  Status status;
};

Status ReadSidecar(io::FileSystem& fs, const CheckpointReaders& readers, const std::string& checkpoint,
                   const Sidecar& sc, SidecarRows* out) {
  auto info = fs.Stat(out->path);
  if (!info.ok()) return Damage(checkpoint, "sidecar " + out->path + " is missing (" + info.status().message() + ")");
  if (info->size != sc.size_in_bytes) {
    return Damage(checkpoint, "sidecar " + out->path + " is " + std::to_string(info->size) +
                                  " bytes, the checkpoint records " + std::to_string(sc.size_in_bytes));
  }
  const FileListSink files = [&](FileList&& f) {
    out->files.push_back(std::move(f));
    return Status::OK();
  };
  Status st = ReadCheckpointFile(
      fs, readers, out->path,
      [&](Action&& a) {
        if (!std::holds_alternative<AddFile>(a) && !std::holds_alternative<RemoveFile>(a)) {
          return Status::Corruption(out->path + ": a sidecar holds only add and remove actions");
        }
        out->actions.push_back(std::move(a));
        return Status::OK();
      },
      &files, info->size);
  if (st.ok() || st.IsNotSupported()) return st;
  // A read error stays an IOError (it may be transient), everything else is Corruption.
  if (st.IsIOError()) return st.WithContext("checkpoint " + checkpoint + ": sidecar " + out->path);
  return Damage(checkpoint, "sidecar " + out->path + ": " + st.message());
}

Status ReadSidecars(io::FileSystem& fs, const LogSegment& seg, const CheckpointReaders& readers, int threads,
                    const std::string& checkpoint, const std::vector<Sidecar>& sidecars, const ActionSink& actions,
                    const FileListSink& files) {
  const std::string dir = io::JoinPath(seg.log_dir, "_sidecars");
  std::vector<SidecarRows> rows(sidecars.size());
  for (size_t i = 0; i < sidecars.size(); ++i) {
    auto path = ResolveTablePath(dir, sidecars[i].path);
    if (!path.ok()) return Damage(checkpoint, "bad sidecar path " + sidecars[i].path);
    rows[i].path = std::move(*path);
  }
  if (threads <= 0) threads = static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), sidecars.size()));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < rows.size(); i = next++) {
      rows[i].status = ReadSidecar(fs, readers, checkpoint, sidecars[i], &rows[i]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (auto& r : rows) {
    RETURN_NOT_OK(r.status);
    for (auto& f : r.files) RETURN_NOT_OK(files(std::move(f)));
    for (auto& a : r.actions) RETURN_NOT_OK(actions(std::move(a)));
  }
  return Status::OK();
}

}  // namespace

bool IsCheckpointDamage(const Status& st) { return st.IsCorruption() || st.IsIOError(); }

Status LoadCheckpoint(io::FileSystem& fs, const LogSegment& seg, const CheckpointReaders& readers, int threads,
                      const ActionSink& actions, const FileListSink& files) {
  if (seg.checkpoint_files.empty()) return Status::OK();
  const LogFile& first = seg.checkpoint_files.front();
  const int64_t version = *seg.checkpoint_version;
  // (Judged by the name: the SQL layer replays a transaction's staged state as a pseudo
  // checkpoint file of kind kV2Checkpoint that is not a V2 spec file.)
  const auto named = ClassifyLogFileName(first.name);
  const bool uuid_named = named && named->kind == LogFileKind::kV2Checkpoint;
  const V2CheckpointInfo* inlined = nullptr;
  if (uuid_named && seg.last_checkpoint && seg.last_checkpoint->version == version &&
      seg.last_checkpoint->v2_checkpoint && seg.last_checkpoint->v2_checkpoint->path == first.name) {
    inlined = &*seg.last_checkpoint->v2_checkpoint;
    if (inlined->size_in_bytes >= 0 && first.size != inlined->size_in_bytes) {
      return Damage(first.path, "is " + std::to_string(first.size) + " bytes, _last_checkpoint records " +
                                    std::to_string(inlined->size_in_bytes));
    }
  }

  std::vector<Sidecar> sidecars;
  int metadata_actions = 0;
  auto take = [&](Action&& a) -> Status {
    if (auto* sc = std::get_if<Sidecar>(&a)) {
      sidecars.push_back(std::move(*sc));
      return Status::OK();
    }
    if (auto* cm = std::get_if<CheckpointMetadata>(&a)) {
      ++metadata_actions;
      if (cm->version != version) {
        return Status::Corruption("checkpointMetadata.version " + std::to_string(cm->version) +
                                  " in a checkpoint of version " + std::to_string(version));
      }
      return Status::OK();
    }
    return actions(std::move(a));
  };
  if (inlined && inlined->non_file_actions && inlined->sidecar_files) {
    // Everything but the file actions is in _last_checkpoint: the top-level file is not read.
    for (const std::string& line : *inlined->non_file_actions) {
      auto action = ParseActionLine(line);
      Status st = action.status();
      if (st.ok() && (!*action || std::holds_alternative<AddFile>(**action) ||
                      std::holds_alternative<RemoveFile>(**action) || std::holds_alternative<Sidecar>(**action))) {
        st = Status::Corruption("a file, sidecar or unknown action among nonFileActions");
      }
      if (st.ok()) st = take(std::move(**action));
      if (!st.ok()) return Damage(first.path, "(inlined in _last_checkpoint) " + st.message());
    }
    sidecars = *inlined->sidecar_files;
  } else {
    for (const auto& cp : seg.checkpoint_files) {
      Status st = ReadCheckpointFile(fs, readers, cp.path, take, &files, cp.size > 0 ? cp.size : -1);
      if (st.IsNotSupported() || st.IsIOError()) return st.WithContext("checkpoint " + cp.path);
      if (!st.ok()) return Damage(cp.path, st.message());
    }
  }
  if (uuid_named && metadata_actions != 1) {
    return Damage(first.path, "a V2 checkpoint holds exactly one checkpointMetadata action, found " +
                                  std::to_string(metadata_actions));
  }
  if (metadata_actions > 1) return Damage(first.path, "more than one checkpointMetadata action");
  if (!sidecars.empty() && metadata_actions == 0) {
    return Damage(first.path, "sidecar actions in a checkpoint without checkpointMetadata (V1 spec)");
  }
  return ReadSidecars(fs, seg, readers, threads, first.path, sidecars, actions, files);
}

}  // namespace shoal::delta
