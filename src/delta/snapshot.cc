#include "delta/snapshot.h"

#include <charconv>
#include <type_traits>
#include <variant>
#include <deque>
#include <string_view>
#include <unordered_map>

#include "delta/table_features.h"
#include "delta/table_path.h"

namespace shoal::delta {

static_assert(std::is_same_v<std::variant_alternative_t<0, Action>, Protocol>);
static_assert(std::is_same_v<std::variant_alternative_t<1, Action>, Metadata>);
static_assert(std::is_same_v<std::variant_alternative_t<2, Action>, AddFile>);
static_assert(std::is_same_v<std::variant_alternative_t<3, Action>, RemoveFile>);
static_assert(std::is_same_v<std::variant_alternative_t<5, Action>, Txn>);
static_assert(std::is_same_v<std::variant_alternative_t<7, Action>, DomainMetadata>);

// Applies actions in log order; owns the intermediate hash maps.
class LogReplay {
 public:
  explicit LogReplay(Snapshot* snap) : snap_(snap) {}

  Status Apply(Action&& action) {
    switch (action.index()) {
      case 0:
        protocol_ = std::move(std::get<Protocol>(action));
        return Status::OK();
      case 1:
        metadata_ = std::move(std::get<Metadata>(action));
        return Status::OK();
      case 2:
        ApplyAdd(std::move(std::get<AddFile>(action)));
        return Status::OK();
      case 3:
        ApplyRemove(std::move(std::get<RemoveFile>(action)));
        return Status::OK();
      case 5: {
        auto& t = std::get<Txn>(action);
        std::string id = t.app_id;
        snap_->txns_[std::move(id)] = std::move(t);
        return Status::OK();
      }
      case 7: {
        auto& d = std::get<DomainMetadata>(action);
        if (d.removed) {
          snap_->domains_.erase(d.domain);
        } else {
          std::string key = d.domain;
          snap_->domains_[std::move(key)] = std::move(d);
        }
        return Status::OK();
      }
      default:  // cdc, commitInfo, checkpointMetadata: no snapshot state; sidecar: caller
        return Status::OK();
    }
  }

  void ApplyAdd(AddFile&& add) {
    std::string dv_id = add.DvUniqueId();
    if (!tombstones_.empty()) tombstones_.erase(TombstoneKey(add.path, dv_id));
    auto it = active_.find(std::string_view(add.path));
    if (it != active_.end()) {
      // Same path added again (new DV or re-add): the later add replaces the earlier one.
      Slot& old = slots_[it->second];
      old.live = false;
      active_.erase(it);
    }
    slots_.push_back(Slot{std::move(add), std::move(dv_id), true});
    Slot& s = slots_.back();
    active_.emplace(std::string_view(s.add.path), slots_.size() - 1);
  }

  void ApplyRemove(RemoveFile&& rm) {
    std::string dv_id = rm.DvUniqueId();
    auto it = active_.find(std::string_view(rm.path));
    if (it != active_.end() && slots_[it->second].dv_id == dv_id) {
      slots_[it->second].live = false;
      active_.erase(it);
    }
    std::string key = TombstoneKey(rm.path, dv_id);
    tombstones_[std::move(key)] = std::move(rm);
  }

  Status Finish() {
    if (!protocol_) {
      return Status::Corruption("table " + snap_->segment_.table_root + " at version " +
                                std::to_string(snap_->segment_.version) +
                                ": no protocol action found in the log");
    }
    if (!metadata_) {
      return Status::Corruption("table " + snap_->segment_.table_root + " at version " +
                                std::to_string(snap_->segment_.version) +
                                ": no metadata action found in the log");
    }
    snap_->protocol_ = std::move(*protocol_);
    snap_->metadata_ = std::move(*metadata_);
    snap_->files_.reserve(active_.size());
    active_.clear();
    for (auto& s : slots_) {
      if (s.live) snap_->files_.push_back(std::move(s.add));
    }
    slots_.clear();
    snap_->tombstones_.reserve(tombstones_.size());
    for (auto& [k, rm] : tombstones_) snap_->tombstones_.push_back(std::move(rm));
    return Status::OK();
  }

  bool has_protocol() const { return protocol_.has_value(); }
  const Protocol& protocol() const { return *protocol_; }

 private:
  static std::string TombstoneKey(const std::string& path, const std::string& dv_id) {
    std::string k;
    k.reserve(path.size() + 1 + dv_id.size());
    k.append(path);
    k.push_back('\0');
    k.append(dv_id);
    return k;
  }

  struct Slot {
    AddFile add;
    std::string dv_id;
    bool live;
  };

  Snapshot* snap_;
  std::optional<Protocol> protocol_;
  std::optional<Metadata> metadata_;
  std::deque<Slot> slots_;  // stable addresses: active_ keys view slot paths
  std::unordered_map<std::string_view, size_t> active_;
  std::unordered_map<std::string, RemoveFile> tombstones_;
};

std::optional<int64_t> Snapshot::AppTransactionVersion(const std::string& app_id) const {
  auto it = txns_.find(app_id);
  if (it == txns_.end()) return std::nullopt;
  return it->second.version;
}

InCommitTimestampConfig Snapshot::InCommitTimestamps() const {
  InCommitTimestampConfig c;
  auto it = metadata_.configuration.find("delta.enableInCommitTimestamps");
  c.enabled = it != metadata_.configuration.end() && it->second == "true";
  auto v = metadata_.configuration.find("delta.inCommitTimestampEnablementVersion");
  if (v != metadata_.configuration.end()) {
    int64_t n = 0;
    const std::string& t = v->second;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (ec == std::errc() && end == t.data() + t.size() && n >= 0) c.enablement_version = n;
  }
  return c;
}

Result<std::shared_ptr<const Snapshot>> Snapshot::Load(std::shared_ptr<io::FileSystem> fs,
                                                       const std::string& table_root,
                                                       const SnapshotOptions& options) {
  ASSIGN_OR_RETURN(LogSegment seg, BuildLogSegment(*fs, table_root, options.version));
  return LoadSegment(std::move(fs), std::move(seg), options);
}

Result<std::shared_ptr<const Snapshot>> Snapshot::LoadSegment(std::shared_ptr<io::FileSystem> fs,
                                                              LogSegment segment,
                                                              const SnapshotOptions& options) {
  std::shared_ptr<Snapshot> snap(new Snapshot());
  snap->fs_ = fs;
  snap->segment_ = std::move(segment);
  const LogSegment& seg = snap->segment_;
  LogReplay replay(snap.get());

  // Checkpoint (all parts), following V2 sidecars into _delta_log/_sidecars/.
  std::vector<Sidecar> sidecars;
  for (const auto& cp : seg.checkpoint_files) {
    RETURN_NOT_OK(ReadCheckpointFile(*fs, options.readers, cp.path, [&](Action&& a) {
      if (auto* sc = std::get_if<Sidecar>(&a)) {
        sidecars.push_back(std::move(*sc));
        return Status::OK();
      }
      return replay.Apply(std::move(a));
    }));
  }
  std::string sidecar_dir = io::JoinPath(seg.log_dir, "_sidecars");
  for (const auto& sc : sidecars) {
    ASSIGN_OR_RETURN(std::string path, ResolveTablePath(sidecar_dir, sc.path));
    RETURN_NOT_OK(ReadCheckpointFile(*fs, options.readers, path, [&](Action&& a) {
      if (std::holds_alternative<Sidecar>(a)) {
        return Status::Corruption(path + ": sidecar file contains a sidecar action");
      }
      return replay.Apply(std::move(a));
    }));
  }

  // Commits in order.
  snap->commit_timestamps_.reserve(seg.commits.size());
  for (const auto& commit : seg.commits) {
    ASSIGN_OR_RETURN(std::string text, fs->ReadAll(commit.path));
    std::optional<int64_t> ict;
    bool last = commit.version == seg.version;
    RETURN_NOT_OK(ForEachActionInText(text, commit.path, [&](Action&& a) {
      if (auto* ci = std::get_if<CommitInfo>(&a)) {
        if (!ict) ict = ci->InCommitTimestamp();
        if (last) snap->latest_commit_info_ = std::move(*ci);
        return Status::OK();
      }
      if (std::holds_alternative<Sidecar>(a) || std::holds_alternative<CheckpointMetadata>(a)) {
        return Status::Corruption(commit.path + ": commit contains a checkpoint-only action");
      }
      return replay.Apply(std::move(a));
    }));
    snap->commit_timestamps_.push_back({commit.version, ict.value_or(commit.mtime_ms)});
  }

  RETURN_NOT_OK(replay.Finish());
  if (options.check_protocol) RETURN_NOT_OK(CheckCanRead(snap->protocol_).WithContext(seg.table_root));

  if (!snap->commit_timestamps_.empty() && snap->commit_timestamps_.back().version == seg.version) {
    snap->timestamp_ms_ = snap->commit_timestamps_.back().timestamp_ms;
  } else if (seg.last_commit) {
    snap->timestamp_ms_ = seg.last_commit->mtime_ms;
    if (snap->InCommitTimestamps().enabled) {
      auto ict = ReadInCommitTimestamp(*fs, *seg.last_commit);
      if (ict.ok()) snap->timestamp_ms_ = *ict;
    }
  } else if (!seg.checkpoint_files.empty()) {
    snap->timestamp_ms_ = seg.checkpoint_files.front().mtime_ms;
  }
  return std::shared_ptr<const Snapshot>(std::move(snap));
}

}  // namespace shoal::delta
