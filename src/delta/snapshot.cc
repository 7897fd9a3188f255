#include "delta/snapshot.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <type_traits>
#include <variant>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "delta/checkpoint_loader.h"
#include "delta/commit_reader.h"

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
//
// Checkpoint add/remove rows whose path no later commit touches (`touched_`) are final: they go
// straight into the snapshot without hashing. The others, and every commit action, go through
// `active_` (live adds by path) and `tomb_index_` (removes by path + DV id).
class LogReplay {
 public:
  explicit LogReplay(Snapshot* snap) : snap_(snap) {}

  // Paths added or removed by the commits after the checkpoint; must outlive checkpoint replay.
  void SetTouchedPaths(const std::unordered_set<std::string_view>* touched) {
    touched_ = touched;
    touched_bits_.assign(touched && !touched->empty() ? kFilterWords : 0, 0);
    if (touched) {
      for (std::string_view p : *touched) {
        uint32_t h = QuickHash(p);
        touched_bits_[h >> 6] |= uint64_t{1} << (h & 63);
      }
    }
  }

  // Applies one action of the checkpoint (or a sidecar).
  Status ApplyCheckpointAction(Action&& action) {
    if (auto* add = std::get_if<AddFile>(&action)) {
      if (Touched(add->path)) {
        // Keep its place among the checkpoint files; key it through a stable copy of the path.
        TrackBase(add->path, add->DvUniqueId(), snap_->files_.size());
      }
      snap_->files_.Append(*add);
      return Status::OK();
    }
    if (auto* rm = std::get_if<RemoveFile>(&action)) {
      if (!Touched(rm->path)) {
        ApplyRemove(std::move(*rm), /*final_tombstone=*/true);
        return Status::OK();
      }
    }
    return Apply(std::move(action));
  }

  // Applies add rows of the checkpoint decoded column-wise (the Parquet leaf scan).
  Status ApplyCheckpointFiles(FileList&& files) {
    const size_t base = snap_->files_.size();
    if (!touched_bits_.empty()) {
      for (size_t i = 0; i < files.size(); ++i) {
        if (Touched(files.path(i))) TrackBase(files.path(i), files.DvUniqueId(i), base + i);
      }
    }
    snap_->files_.AppendList(std::move(files));
    return Status::OK();
  }

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
        ApplyRemove(std::move(std::get<RemoveFile>(action)), false);
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
    ClearTombstone(add.path, dv_id);
    slots_.push_back(Slot{std::move(add), true});
    Slot& s = slots_.back();
    ReplaceActive(s.add.path, Ref{slots_.size() - 1, false, std::move(dv_id)});
  }

  void ApplyRemove(RemoveFile&& rm, bool final_tombstone) {
    if (final_tombstone) {
      snap_->tombstones_.push_back(std::move(rm));
      return;
    }
    std::string dv_id = rm.DvUniqueId();
    auto it = active_.find(std::string_view(rm.path));
    if (it != active_.end() && it->second.dv_id == dv_id) {
      Kill(it->second);
      active_.erase(it);
    }
    // The latest remove of a (path, DV) is the tombstone.
    ClearTombstone(rm.path, dv_id);
    tombs_.push_back(Tomb{std::move(rm), std::move(dv_id), true});
    Tomb& t = tombs_.back();
    tomb_index_.emplace(TombKey{t.rm.path, t.dv_id}, tombs_.size() - 1);
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
    active_.clear();
    FileList& files = snap_->files_;
    if (!dead_base_.empty()) {
      std::vector<bool> dead(files.size(), false);
      for (size_t i : dead_base_) dead[i] = true;
      files.Erase(dead);
    }
    // The live commit adds join the list as views into their own strings: the slots are kept
    // (the dead ones emptied) instead of copied and freed here.
    auto kept = std::make_shared<std::deque<Slot>>(std::move(slots_));
    slots_.clear();
    std::vector<FileList::PartitionEntry> pv;
    for (Slot& s : *kept) {
      if (!s.live) {
        s.add = AddFile();
        continue;
      }
      AddFile& a = s.add;
      pv.clear();
      for (const auto& [k, v] : a.partition_values) {
        pv.push_back(FileList::PartitionEntry{k, v ? std::string_view(*v) : std::string_view(), !v.has_value()});
      }
      FileList::Row r;
      r.path = a.path;
      r.partition_values = pv;
      r.size = a.size;
      r.modification_time = a.modification_time;
      r.data_change = a.data_change;
      if (a.stats) r.stats = *a.stats;
      files.AppendRow(r, FileList::ExtrasOf(a));
    }
    files.KeepAlive(std::move(kept));
    tomb_index_.clear();
    snap_->tombstones_.reserve(snap_->tombstones_.size() + tombs_.size());
    for (auto& t : tombs_) {
      if (t.live) snap_->tombstones_.push_back(std::move(t.rm));
    }
    tombs_.clear();
    return Status::OK();
  }

  // Sizes the hash maps for `adds` / `removes` commit actions.
  void Reserve(size_t adds, size_t removes) {
    active_.reserve(adds);
    tomb_index_.reserve(removes);
  }

  bool has_protocol() const { return protocol_.has_value(); }
  const Protocol& protocol() const { return *protocol_; }

 private:
  // A live add: slots_[index], or snap_->files_[index] for a checkpoint file (`base`).
  struct Ref {
    size_t index;
    bool base;
    std::string dv_id;
  };
  struct Slot {
    AddFile add;
    bool live;
  };

  // A checkpoint file that a later commit touches: tracked through the maps at files_[index].
  void TrackBase(std::string_view path, std::string dv_id, size_t index) {
    ClearTombstone(path, dv_id);
    base_keys_.emplace_back(path);
    ReplaceActive(base_keys_.back(), Ref{index, true, std::move(dv_id)});
  }

  bool Touched(std::string_view path) const {
    if (touched_bits_.empty()) return false;
    uint32_t h = QuickHash(path);
    if ((touched_bits_[h >> 6] & (uint64_t{1} << (h & 63))) == 0) return false;
    return touched_->count(path) != 0;
  }

  // A cheap pre-filter for `touched_` (a few hundred paths against a million checkpoint rows):
  // a bitmap over a hash of the length and three 8-byte samples of the path.
  static constexpr size_t kFilterWords = 1024;  // 65,536 bits
  static uint32_t QuickHash(std::string_view p) {
    uint64_t h = p.size() * 0x9E3779B97F4A7C15ull;
    if (p.size() >= 8) {
      for (size_t at : {p.size() / 4, p.size() / 2, p.size() - 8}) {
        uint64_t w;
        std::memcpy(&w, p.data() + std::min(at, p.size() - 8), 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
      }
    } else {
      for (char ch : p) h = (h ^ static_cast<uint8_t>(ch)) * 0xBF58476D1CE4E5B9ull;
    }
    return static_cast<uint32_t>(h >> 48);  // 16 bits
  }

  void Kill(const Ref& r) {
    if (r.base) {
      dead_base_.push_back(r.index);
    } else {
      slots_[r.index].live = false;
    }
  }

  // Same path added again (new DV or re-add): the later add replaces the earlier one.
  void ReplaceActive(std::string_view path, Ref ref) {
    auto it = active_.find(path);
    if (it != active_.end()) {
      Kill(it->second);
      active_.erase(it);
    }
    active_.emplace(path, std::move(ref));
  }

  void ClearTombstone(std::string_view path, std::string_view dv_id) {
    if (tomb_index_.empty()) return;
    auto it = tomb_index_.find(TombKey{path, dv_id});
    if (it == tomb_index_.end()) return;
    tombs_[it->second].live = false;
    tomb_index_.erase(it);
  }

  struct Tomb {
    RemoveFile rm;
    std::string dv_id;
    bool live;
  };
  // Views into a Tomb in tombs_ (stable addresses).
  struct TombKey {
    std::string_view path;
    std::string_view dv_id;
    bool operator==(const TombKey&) const = default;
  };
  struct TombKeyHash {
    size_t operator()(const TombKey& k) const {
      std::hash<std::string_view> h;
      return h(k.path) ^ (h(k.dv_id) * 31);
    }
  };

  Snapshot* snap_;
  const std::unordered_set<std::string_view>* touched_ = nullptr;
  std::vector<uint64_t> touched_bits_;  // QuickHash bits of touched_; empty: nothing touched
  std::optional<Protocol> protocol_;
  std::optional<Metadata> metadata_;
  std::deque<Slot> slots_;             // stable addresses: active_ keys view slot paths
  std::deque<std::string> base_keys_;  // stable copies of touched checkpoint paths
  std::vector<size_t> dead_base_;      // checkpoint files replaced or removed later
  std::unordered_map<std::string_view, Ref> active_;
  std::deque<Tomb> tombs_;  // removes applied through the maps, in log order
  std::unordered_map<TombKey, size_t, TombKeyHash> tomb_index_;  // live tombstones by key
};

const std::vector<AddFile>& Snapshot::files() const {
  std::call_once(materialized_once_, [this] { materialized_ = files_.Materialize(); });
  return materialized_;
}

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

namespace {

// Checkpoints up to this size are fetched whole, together with the commits after them, on
// remote storage: a snapshot reads nearly all of a checkpoint anyway, and this saves the round
// trips of its footer and then its column chunks.
constexpr int64_t kSpeculativeCheckpointBytes = int64_t{8} << 20;

// Room for the live files: the checkpoint's add count from `_last_checkpoint` (when it
// describes this checkpoint) plus the commits' adds, so the file vector never regrows (a
// regrowth moves every file and briefly holds both buffers). Only a hint, so it is bounded by
// the checkpoint's size: no add row takes fewer than 16 bytes.
size_t FilesHint(const LogSegment& seg, size_t commit_adds) {
  if (!seg.last_checkpoint || !seg.checkpoint_version || seg.last_checkpoint->version != *seg.checkpoint_version ||
      !seg.last_checkpoint->num_of_add_files) {
    return 0;
  }
  int64_t n = *seg.last_checkpoint->num_of_add_files;
  int64_t bytes = 0;
  for (const auto& f : seg.checkpoint_files) bytes += f.size;
  if (n <= 0 || n > bytes / 16) return 0;
  return static_cast<size_t>(n) + commit_adds;
}

// A log compaction file holds the reconciled actions of its range, so no two actions should
// share a (path, DV) key; some writers still leave an add and the remove that cancelled it
// (delta-kernel's compacted-log-files-table fixture). The remove is the later action there, so it
// wins: adds it cancels are dropped, and removes apply after the adds.
void OrderCompactionActions(std::vector<Action>* actions) {
  std::unordered_set<std::string> removed;
  for (const auto& a : *actions) {
    if (auto* rm = std::get_if<RemoveFile>(&a)) removed.insert(rm->path + '\n' + rm->DvUniqueId());
  }
  std::vector<Action> kept, removes;
  kept.reserve(actions->size());
  for (auto& a : *actions) {
    if (auto* add = std::get_if<AddFile>(&a); add && removed.count(add->path + '\n' + add->DvUniqueId())) continue;
    (std::holds_alternative<RemoveFile>(a) ? removes : kept).push_back(std::move(a));
  }
  for (auto& r : removes) kept.push_back(std::move(r));
  *actions = std::move(kept);
}

}  // namespace

Result<std::shared_ptr<const Snapshot>> Snapshot::Load(std::shared_ptr<io::FileSystem> fs,
                                                       const std::string& table_root,
                                                       const SnapshotOptions& options) {
  LogSegmentOptions seg_options;
  seg_options.version = options.version;
  seg_options.use_compactions = options.use_compactions;
  ASSIGN_OR_RETURN(LogSegment seg, BuildLogSegment(*fs, table_root, seg_options));
  const std::optional<int64_t> checkpoint = seg.checkpoint_version;
  const int64_t target = seg.version;
  const bool compacted = !seg.compactions.empty();
  bool damaged = false;
  auto snap = LoadSegmentImpl(fs, std::move(seg), options, &damaged);
  if (!snap.ok() && !damaged && compacted) {
    // A compaction file that does not read: the commits it stands for are still there.
    SnapshotOptions plain = options;
    plain.use_compactions = false;
    auto retry = Load(fs, table_root, plain);
    return retry.ok() ? retry : snap;
  }
  if (snap.ok() || !damaged || !checkpoint || !options.checkpoint_fallback) return snap;
  // A damaged checkpoint: rebuild from an older checkpoint or the JSON log when they still reach
  // the version (never a partial snapshot); otherwise the checkpoint's error stands.
  seg_options.version = target;
  seg_options.max_checkpoint_version = *checkpoint - 1;
  auto older = BuildLogSegment(*fs, table_root, seg_options);
  if (!older.ok() || older->version != target) return snap.status();
  older->skipped_checkpoint = snap.status().message();
  auto retry = LoadSegmentImpl(std::move(fs), std::move(*older), options, nullptr);
  if (!retry.ok()) return snap.status();
  return retry;
}

Result<std::shared_ptr<const Snapshot>> Snapshot::LoadSegment(std::shared_ptr<io::FileSystem> fs,
                                                              LogSegment segment,
                                                              const SnapshotOptions& options) {
  return LoadSegmentImpl(std::move(fs), std::move(segment), options, nullptr);
}

Result<std::shared_ptr<const Snapshot>> Snapshot::LoadSegmentImpl(std::shared_ptr<io::FileSystem> fs,
                                                                  LogSegment segment,
                                                                  const SnapshotOptions& options,
                                                                  bool* checkpoint_damaged) {
  std::shared_ptr<Snapshot> snap(new Snapshot());
  snap->fs_ = fs;
  snap->segment_ = std::move(segment);
  const LogSegment& seg = snap->segment_;
  LogReplay replay(snap.get());

  // Remote: the checkpoint's files travel with the commits (one round trip for both) when they
  // are small enough to fetch whole.
  if (fs->IsRemote(seg.log_dir)) {
    std::vector<io::SpeculativeRead> reads;
    int64_t bytes = 0;
    for (const auto& cp : seg.checkpoint_files) {
      bytes += cp.size;
      reads.push_back({io::SpeculativeRead::Kind::kReadAll, cp.path, {}, 0});
    }
    if (!reads.empty() && bytes <= kSpeculativeCheckpointBytes) fs->Speculate(reads);
  }

  // Commits after the checkpoint, read and parsed in parallel before the checkpoint so that
  // checkpoint files they never touch can bypass the hash maps.
  CommitReadOptions read_options;
  read_options.threads = options.threads;
  read_options.dom_only = options.dom_json_parser;
  read_options.keep_commit_info_of = seg.version;

  // Log compaction files stand in for the runs of commits they cover.
  std::vector<LogFile> to_read;
  std::vector<bool> is_compaction;
  {
    size_t c = 0;
    for (const LogFile& f : seg.commits) {
      if (c < seg.compactions.size() && f.version >= seg.compactions[c].version &&
          f.version <= seg.compactions[c].end_version) {
        if (f.version == seg.compactions[c].end_version) {
          to_read.push_back(seg.compactions[c++]);
          is_compaction.push_back(true);
        }
        continue;
      }
      to_read.push_back(f);
      is_compaction.push_back(false);
    }
  }
  // Progress in bytes of log files: the commits read, the checkpoint, the commits replayed.
  int64_t commit_bytes = 0, checkpoint_bytes = 0;
  for (const LogFile& f : to_read) commit_bytes += f.size;
  for (const LogFile& f : seg.checkpoint_files) checkpoint_bytes += f.size;
  const int64_t planned = std::max<int64_t>(1, 2 * commit_bytes + checkpoint_bytes);
  if (options.progress) {
    read_options.on_read = [&options, planned](int64_t bytes) { options.progress(bytes, planned); };
  }
  std::vector<ParsedCommit> commits = ReadCommits(*fs, to_read, read_options);
  bool commits_ok = true;
  std::unordered_set<std::string_view> touched;
  size_t adds = 0, removes = 0;
  for (const auto& c : commits) {
    if (!c.status.ok()) {
      commits_ok = false;
      break;
    }
    for (const auto& a : c.actions) {
      adds += a.index() == 2;
      removes += a.index() == 3;
    }
  }
  replay.Reserve(adds, removes);
  if (commits_ok && !seg.checkpoint_files.empty()) {
    touched.reserve(adds + removes);
    for (const auto& c : commits) {
      for (const auto& a : c.actions) {
        if (auto* add = std::get_if<AddFile>(&a)) touched.insert(add->path);
        if (auto* rm = std::get_if<RemoveFile>(&a)) touched.insert(rm->path);
      }
    }
  }
  replay.SetTouchedPaths(commits_ok ? &touched : nullptr);
  snap->files_.Reserve(FilesHint(seg, adds));

  // Checkpoint (all parts), following V2 sidecars into _delta_log/_sidecars/.
  {
    const FileListSink file_sink = [&](FileList&& files) { return replay.ApplyCheckpointFiles(std::move(files)); };
    Status st = LoadCheckpoint(*fs, seg, options.readers, options.threads,
                               [&](Action&& a) { return replay.ApplyCheckpointAction(std::move(a)); }, file_sink);
    if (!st.ok()) {
      if (checkpoint_damaged) *checkpoint_damaged = IsCheckpointDamage(st);
      return st;
    }
  }
  replay.SetTouchedPaths(nullptr);
  touched.clear();
  int64_t done = commit_bytes + checkpoint_bytes;
  if (options.progress) options.progress(done, planned);

  // Commits in order.
  snap->commit_timestamps_.reserve(commits.size());
  for (size_t i = 0; i < commits.size(); ++i) {
    ParsedCommit& c = commits[i];
    RETURN_NOT_OK(c.status);
    if (is_compaction[i]) OrderCompactionActions(&c.actions);
    for (auto& a : c.actions) RETURN_NOT_OK(replay.Apply(std::move(a)));
    c.actions = {};
    done += to_read[i].size;
    if (options.progress && (i % 64 == 63 || i + 1 == commits.size())) options.progress(done, planned);
    if (is_compaction[i]) continue;  // no commitInfo, and no single commit's timestamp
    if (c.commit_info) snap->latest_commit_info_ = std::move(*c.commit_info);
    snap->commit_timestamps_.push_back({c.version, c.in_commit_timestamp.value_or(to_read[i].mtime_ms)});
  }
  if (options.progress) options.progress(planned, planned);

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
