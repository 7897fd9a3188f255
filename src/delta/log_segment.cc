#include "delta/log_segment.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include "delta/actions.h"

namespace shoal::delta {

namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Parses a fixed-width decimal field; false on overflow or non-digits.
bool ParseFixed(std::string_view s, size_t width, int64_t* out) {
  if (s.size() != width || !AllDigits(s)) return false;
  int64_t v = 0;
  for (char c : s) {
    if (v > (INT64_MAX - (c - '0')) / 10) return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool LooksLikeUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string LogDirOf(std::string_view table_root) { return io::JoinPath(table_root, "_delta_log"); }

namespace {

// "%020d": the zero-padded version every log file name starts with.
std::string VersionPrefix(int64_t version) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%020lld", static_cast<long long>(version));
  return buf;
}

}  // namespace

std::string CommitFileName(int64_t version) { return VersionPrefix(version) + ".json"; }

std::optional<LogFile> ClassifyLogFileName(std::string_view name) {
  if (name.size() < 21 || name[20] != '.') return std::nullopt;
  LogFile f;
  f.name = std::string(name);
  if (!ParseFixed(name.substr(0, 20), 20, &f.version)) return std::nullopt;
  std::string_view rest = name.substr(21);
  if (rest == "json") {
    f.kind = LogFileKind::kCommit;
    return f;
  }
  if (rest == "crc") {
    f.kind = LogFileKind::kCrc;
    return f;
  }
  if (rest == "checkpoint.parquet") {
    f.kind = LogFileKind::kClassicCheckpoint;
    return f;
  }
  if (rest.size() == 20 + 1 + 14 && EndsWith(rest, ".compacted.json")) {
    if (!ParseFixed(rest.substr(0, 20), 20, &f.end_version) || f.end_version < f.version) {
      return std::nullopt;
    }
    f.kind = LogFileKind::kCompacted;
    return f;
  }
  if (rest.rfind("checkpoint.", 0) == 0) {
    std::string_view cp = rest.substr(11);
    // multi-part: %010d.%010d.parquet
    if (cp.size() == 10 + 1 + 10 + 8 && cp[10] == '.' && EndsWith(cp, ".parquet")) {
      int64_t part = 0, parts = 0;
      if (ParseFixed(cp.substr(0, 10), 10, &part) && ParseFixed(cp.substr(11, 10), 10, &parts) &&
          parts >= 1 && part >= 1 && part <= parts && parts <= INT32_MAX) {
        f.kind = LogFileKind::kMultiPartCheckpoint;
        f.part = static_cast<int32_t>(part);
        f.num_parts = static_cast<int32_t>(parts);
        return f;
      }
      return std::nullopt;
    }
    std::string_view uuid;
    if (EndsWith(cp, ".json")) {
      uuid = cp.substr(0, cp.size() - 5);
    } else if (EndsWith(cp, ".parquet")) {
      uuid = cp.substr(0, cp.size() - 8);
    } else {
      return std::nullopt;
    }
    if (!LooksLikeUuid(uuid)) return std::nullopt;
    f.kind = LogFileKind::kV2Checkpoint;
    return f;
  }
  return std::nullopt;
}

Result<LastCheckpointInfo> ParseLastCheckpoint(std::string_view text) {
  ASSIGN_OR_RETURN(Json j, ParseJson(text, "_last_checkpoint"));
  if (!j.is_object()) return Status::Corruption("_last_checkpoint: not a JSON object");
  JsonFields f(j, "_last_checkpoint");
  LastCheckpointInfo info;
  RETURN_NOT_OK(f.RequiredInt64("version", &info.version));
  if (info.version < 0) return Status::Corruption("_last_checkpoint: negative version");
  RETURN_NOT_OK(f.OptionalInt64("size", &info.size));
  RETURN_NOT_OK(f.OptionalInt64("parts", &info.parts));
  RETURN_NOT_OK(f.OptionalInt64("sizeInBytes", &info.size_in_bytes));
  RETURN_NOT_OK(f.OptionalInt64("numOfAddFiles", &info.num_of_add_files));
  if (const Json* s = f.Find("checkpointSchema")) info.checkpoint_schema = *s;
  RETURN_NOT_OK(f.OptionalString("checksum", &info.checksum));
  if (const Json* v2 = f.Find("v2Checkpoint")) {
    if (!v2->is_object()) return Status::Corruption("_last_checkpoint: v2Checkpoint is not an object");
    JsonFields g(*v2, "_last_checkpoint.v2Checkpoint");
    V2CheckpointInfo c;
    RETURN_NOT_OK(g.RequiredString("path", &c.path));
    std::optional<int64_t> size, mtime;
    RETURN_NOT_OK(g.OptionalInt64("sizeInBytes", &size));
    RETURN_NOT_OK(g.OptionalInt64("modificationTime", &mtime));
    c.size_in_bytes = size.value_or(-1);
    c.modification_time = mtime.value_or(0);
    if (const Json* actions = g.Find("nonFileActions"); actions && actions->is_array()) {
      std::vector<std::string> lines;
      for (const Json& a : *actions) {
        if (!a.is_object()) return Status::Corruption("_last_checkpoint: v2Checkpoint.nonFileActions holds a non-object");
        lines.push_back(JsonText(a));
      }
      c.non_file_actions = std::move(lines);
    }
    if (const Json* files = g.Find("sidecarFiles"); files && files->is_array()) {
      std::vector<Sidecar> parsed;
      for (const Json& sc : *files) {
        Json line = Json::object();
        line["sidecar"] = sc;
        ASSIGN_OR_RETURN(auto action, ParseActionLine(JsonText(line)));
        if (!action || !std::holds_alternative<Sidecar>(*action)) {
          return Status::Corruption("_last_checkpoint: bad v2Checkpoint.sidecarFiles entry");
        }
        parsed.push_back(std::move(std::get<Sidecar>(*action)));
      }
      c.sidecar_files = std::move(parsed);
    }
    info.v2_checkpoint = std::move(c);
  }
  return info;
}

namespace {

// Classifies listed entries into log files, sorted by (version, kind, name).
std::vector<LogFile> ClassifyListing(const std::string& log_dir, std::vector<io::FileInfo> entries) {
  std::vector<LogFile> out;
  out.reserve(entries.size());
  for (auto& e : entries) {
    if (e.is_dir || e.name.empty() || e.name[0] == '.' || EndsWith(e.name, ".tmp")) continue;
    auto f = ClassifyLogFileName(e.name);
    if (!f) continue;
    f->path = io::JoinPath(log_dir, e.name);
    f->size = e.size;
    f->mtime_ms = e.mtime_ms;
    out.push_back(std::move(*f));
  }
  std::sort(out.begin(), out.end(), [](const LogFile& a, const LogFile& b) {
    if (a.version != b.version) return a.version < b.version;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.name < b.name;
  });
  return out;
}

}  // namespace

Result<std::vector<LogFile>> ListLogFiles(io::FileSystem& fs, const std::string& table_root) {
  std::string log_dir = LogDirOf(table_root);
  ASSIGN_OR_RETURN(bool exists, fs.Exists(log_dir));
  if (!exists) {
    return Status::InvalidArgument("not a Delta table: " + table_root + " has no _delta_log");
  }
  ASSIGN_OR_RETURN(auto entries, fs.List(log_dir));
  return ClassifyListing(log_dir, std::move(entries));
}

namespace {

// Preference among complete checkpoints of one version: JSON V2 first (readable without a
// Parquet reader), then Parquet V2, classic, multi-part.
int CheckpointRank(const std::vector<LogFile>& files) {
  const LogFile& f = files.front();
  if (f.kind == LogFileKind::kV2Checkpoint) return f.IsJson() ? 0 : 1;
  if (f.kind == LogFileKind::kClassicCheckpoint) return 2;
  return 3;
}

// A listing taken while other processes commit may miss a commit file yet show a later one
// (POSIX gives readdir no snapshot semantics, and ext4 does this). Commits are created in
// version order and never removed above a checkpoint, so a version missing below one that was
// listed is looked up by name before the log is called non-contiguous.
Status FillListingGaps(io::FileSystem& fs, const std::string& log_dir, int64_t first, int64_t target,
                       std::map<int64_t, LogFile>* commits) {
  for (int64_t v = first; v < target; ++v) {
    if (commits->count(v)) continue;
    std::string name = CommitFileName(v);
    auto info = fs.Stat(io::JoinPath(log_dir, name));
    if (!info.ok()) continue;  // truly missing: the contiguity check reports it
    std::optional<LogFile> f = ClassifyLogFileName(name);
    if (!f) continue;
    f->path = io::JoinPath(log_dir, name);
    f->size = info->size;
    f->mtime_ms = info->mtime_ms;
    commits->emplace(v, std::move(*f));
  }
  return Status::OK();
}

// Greedy cover of commits [first, target) by compaction files: at each version, the one
// reaching furthest; the target's own commit stays (its commitInfo is the snapshot's).
std::vector<LogFile> ChooseCompactions(std::vector<LogFile> all, int64_t first, int64_t target) {
  std::sort(all.begin(), all.end(), [](const LogFile& a, const LogFile& b) {
    return a.version != b.version ? a.version < b.version : a.end_version > b.end_version;
  });
  std::vector<LogFile> out;
  int64_t at = first;
  for (auto& f : all) {
    if (f.version < at || f.end_version >= target) continue;
    out.push_back(std::move(f));
    at = out.back().end_version + 1;
  }
  return out;
}

std::optional<LastCheckpointInfo> ReadLastCheckpoint(io::FileSystem& fs, const std::string& log_dir) {
  auto text = fs.ReadAll(io::JoinPath(log_dir, "_last_checkpoint"));
  if (!text.ok()) return std::nullopt;
  auto info = ParseLastCheckpoint(*text);
  if (!info.ok()) return std::nullopt;  // corrupt: ignored, the listing decides
  return std::move(*info);
}

// The segment for `version` from sorted log files. A `partial` listing holds only the names from
// some version on: it is used when it holds a complete checkpoint at or before the target (then
// every file the segment needs, and the latest version, are in it); otherwise the result is
// nullopt and the caller lists everything.
Result<std::optional<LogSegment>> SegmentFromFiles(io::FileSystem& fs, LogSegment seg, std::vector<LogFile> files,
                                                   const LogSegmentOptions& options, bool partial) {
  const std::optional<int64_t>& version = options.version;
  const std::string& table_root = seg.table_root;
  std::map<int64_t, LogFile> commits;
  // version -> candidate complete checkpoints (each a list of files)
  std::map<int64_t, std::vector<std::vector<LogFile>>> checkpoints;
  std::map<std::pair<int64_t, int32_t>, std::vector<LogFile>> multipart;
  std::vector<LogFile> compactions;
  const int64_t max_cp = options.max_checkpoint_version.value_or(INT64_MAX);
  for (auto& f : files) {
    if (f.IsCheckpoint() && f.version > max_cp) continue;
    switch (f.kind) {
      case LogFileKind::kCommit:
        commits.emplace(f.version, std::move(f));
        break;
      case LogFileKind::kClassicCheckpoint:
      case LogFileKind::kV2Checkpoint:
        checkpoints[f.version].push_back({std::move(f)});
        break;
      case LogFileKind::kMultiPartCheckpoint:
        multipart[{f.version, f.num_parts}].push_back(std::move(f));
        break;
      case LogFileKind::kCompacted:
        if (options.use_compactions && f.end_version > f.version) compactions.push_back(std::move(f));
        break;
      default:
        break;
    }
  }
  for (auto& [key, parts] : multipart) {
    std::sort(parts.begin(), parts.end(),
              [](const LogFile& a, const LogFile& b) { return a.part < b.part; });
    bool complete = static_cast<int32_t>(parts.size()) == key.second;
    for (size_t i = 0; complete && i < parts.size(); ++i) complete = parts[i].part == static_cast<int32_t>(i + 1);
    if (complete) checkpoints[key.first].push_back(parts);
  }
  if (partial && (checkpoints.empty() || checkpoints.begin()->first > version.value_or(INT64_MAX))) {
    return std::optional<LogSegment>();
  }
  if (commits.empty() && checkpoints.empty()) {
    return Status::InvalidArgument("not a Delta table: " + seg.log_dir +
                                   " contains no commits or checkpoints");
  }
  int64_t latest = -1;
  if (!commits.empty()) latest = commits.rbegin()->first;
  if (!checkpoints.empty()) latest = std::max(latest, checkpoints.rbegin()->first);
  int64_t target = version.value_or(latest);
  if (target < 0) return Status::InvalidArgument("invalid table version " + std::to_string(target));
  if (target > latest) {
    return Status::InvalidArgument("version " + std::to_string(target) + " of table " + table_root +
                                   " does not exist (latest version is " + std::to_string(latest) +
                                   ")");
  }
  seg.version = target;
  auto cp = checkpoints.upper_bound(target);
  if (cp != checkpoints.begin()) {
    --cp;
    auto& candidates = cp->second;
    auto best = std::min_element(candidates.begin(), candidates.end(),
                                 [](const auto& a, const auto& b) { return CheckpointRank(a) < CheckpointRank(b); });
    seg.checkpoint_version = cp->first;
    seg.checkpoint_files = *best;
  }
  int64_t first = seg.checkpoint_version ? *seg.checkpoint_version + 1 : 0;
  {
    auto listed = std::distance(commits.lower_bound(first), commits.upper_bound(target));
    if (listed < target - first + 1) RETURN_NOT_OK(FillListingGaps(fs, seg.log_dir, first, target, &commits));
  }
  if (auto it = commits.find(target); it != commits.end()) seg.last_commit = it->second;
  if (!seg.checkpoint_version && commits.find(0) == commits.end()) {
    int64_t earliest = commits.empty() ? -1 : commits.begin()->first;
    return Status::InvalidArgument("version " + std::to_string(target) + " of table " + table_root +
                                   " cannot be reconstructed: commit 0 was cleaned up and no "
                                   "checkpoint at or before it exists (earliest commit is " +
                                   std::to_string(earliest) + ")");
  }
  for (auto it = commits.lower_bound(first); it != commits.end() && it->first <= target; ++it) {
    int64_t expected = first + static_cast<int64_t>(seg.commits.size());
    if (it->first != expected) {
      return Status::Corruption("table " + table_root + ": versions not contiguous: missing version " +
                                std::to_string(expected));
    }
    seg.commits.push_back(std::move(it->second));
  }
  int64_t have = first + static_cast<int64_t>(seg.commits.size()) - 1;
  if (have < target) {
    return Status::Corruption("table " + table_root + ": versions not contiguous: missing version " +
                              std::to_string(have + 1));
  }
  seg.compactions = ChooseCompactions(std::move(compactions), first, target);
  return std::optional<LogSegment>(std::move(seg));
}

}  // namespace

std::vector<io::SpeculativeRead> SnapshotSpeculation(const std::string& table_root) {
  const std::string log_dir = LogDirOf(table_root);
  return {{io::SpeculativeRead::Kind::kReadAll, io::JoinPath(log_dir, "_last_checkpoint"), {}, 0},
          {io::SpeculativeRead::Kind::kListFromLimited, log_dir, {}, kSpeculativeLogEntries}};
}

Result<LogSegment> BuildLogSegment(io::FileSystem& fs, const std::string& table_root,
                                   std::optional<int64_t> version) {
  LogSegmentOptions options;
  options.version = version;
  return BuildLogSegment(fs, table_root, options);
}

Result<LogSegment> BuildLogSegment(io::FileSystem& fs, const std::string& table_root,
                                   const LogSegmentOptions& options) {
  const std::optional<int64_t>& version = options.version;
  LogSegment seg;
  seg.table_root = table_root;
  seg.log_dir = LogDirOf(table_root);
  const bool remote = fs.IsRemote(seg.log_dir);
  if (remote) fs.Speculate(SnapshotSpeculation(table_root));
  seg.last_checkpoint = ReadLastCheckpoint(fs, seg.log_dir);
  // Remote: a log whose names fit the speculative first page is known whole in the round trip
  // that read `_last_checkpoint` (no listing from the checkpoint after it).
  if (remote) {
    auto first = fs.ListFromLimited(seg.log_dir, {}, kSpeculativeLogEntries);
    if (first.ok() && first->complete && !first->entries.empty()) {
      auto files = ClassifyListing(seg.log_dir, std::move(first->entries));
      if (!files.empty()) {
        ASSIGN_OR_RETURN(auto whole, SegmentFromFiles(fs, std::move(seg), std::move(files), options, /*partial=*/false));
        return std::move(*whole);
      }
    }
  }
  // `_last_checkpoint` only says where to start listing: the listing of the names from its
  // version on decides, as the full listing would (a newer checkpoint is found there too). When
  // that listing holds no complete checkpoint (a stale or corrupt pointer, a checkpoint since
  // removed, or a target version before it), everything is listed.
  if (seg.last_checkpoint && (!version || *version >= seg.last_checkpoint->version) &&
      seg.last_checkpoint->version <= options.max_checkpoint_version.value_or(INT64_MAX)) {
    auto listed = fs.ListFrom(seg.log_dir, VersionPrefix(seg.last_checkpoint->version));
    if (listed.ok()) {
      ASSIGN_OR_RETURN(auto partial, SegmentFromFiles(fs, seg, ClassifyListing(seg.log_dir, std::move(*listed)),
                                                      options, /*partial=*/true));
      if (partial) return std::move(*partial);
    }
  }
  ASSIGN_OR_RETURN(auto files, ListLogFiles(fs, table_root));
  ASSIGN_OR_RETURN(auto full, SegmentFromFiles(fs, std::move(seg), std::move(files), options, /*partial=*/false));
  return std::move(*full);
}

Result<int64_t> ReadInCommitTimestamp(io::FileSystem& fs, const LogFile& commit) {
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(commit.path));
  std::optional<int64_t> ict;
  Status st = ForEachActionInText(text, commit.path, [&](Action&& a) {
    if (!ict) {
      if (auto* ci = std::get_if<CommitInfo>(&a)) ict = ci->InCommitTimestamp();
    }
    return Status::OK();
  });
  RETURN_NOT_OK(st);
  if (!ict) {
    return Status::Corruption(commit.path + ": in-commit timestamps are enabled but the commit "
                              "has no commitInfo.inCommitTimestamp");
  }
  return *ict;
}

namespace {

Result<std::vector<LogFile>> ListCommits(io::FileSystem& fs, const std::string& table_root) {
  ASSIGN_OR_RETURN(auto files, ListLogFiles(fs, table_root));
  std::vector<LogFile> commits;
  for (auto& f : files) {
    if (f.kind == LogFileKind::kCommit) commits.push_back(std::move(f));
  }
  if (commits.empty()) {
    return Status::InvalidArgument("table " + table_root + " has no commit files");
  }
  return commits;
}

// Monotonized mtimes for commits[0..end).
std::vector<int64_t> MonotonicMtimes(const std::vector<LogFile>& commits, size_t end) {
  std::vector<int64_t> ts(end);
  for (size_t i = 0; i < end; ++i) {
    ts[i] = commits[i].mtime_ms;
    if (i > 0 && ts[i] <= ts[i - 1]) ts[i] = ts[i - 1] + 1;
  }
  return ts;
}

size_t IctStart(const std::vector<LogFile>& commits, const InCommitTimestampConfig& ict) {
  if (!ict.enabled) return commits.size();
  auto it = std::lower_bound(commits.begin(), commits.end(), ict.enablement_version,
                             [](const LogFile& f, int64_t v) { return f.version < v; });
  return static_cast<size_t>(it - commits.begin());
}

}  // namespace

Result<std::vector<CommitTimestamp>> ListCommitTimestamps(io::FileSystem& fs,
                                                          const std::string& table_root,
                                                          const InCommitTimestampConfig& ict) {
  ASSIGN_OR_RETURN(auto commits, ListCommits(fs, table_root));
  size_t ict_start = IctStart(commits, ict);
  auto mt = MonotonicMtimes(commits, ict_start);
  std::vector<CommitTimestamp> out;
  out.reserve(commits.size());
  for (size_t i = 0; i < commits.size(); ++i) {
    int64_t ts;
    if (i < ict_start) {
      ts = mt[i];
    } else {
      ASSIGN_OR_RETURN(ts, ReadInCommitTimestamp(fs, commits[i]));
    }
    out.push_back({commits[i].version, ts});
  }
  return out;
}

Result<int64_t> FindVersionAtTimestamp(io::FileSystem& fs, const std::string& table_root,
                                       int64_t timestamp_ms, const InCommitTimestampConfig& ict) {
  ASSIGN_OR_RETURN(auto commits, ListCommits(fs, table_root));
  size_t ict_start = IctStart(commits, ict);
  if (ict_start < commits.size()) {
    ASSIGN_OR_RETURN(int64_t first_ict, ReadInCommitTimestamp(fs, commits[ict_start]));
    if (timestamp_ms >= first_ict) {
      // In-commit timestamps increase with the version: binary search over [ict_start, n).
      size_t lo = ict_start, hi = commits.size() - 1;  // invariant: ts(lo) <= timestamp_ms
      while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        ASSIGN_OR_RETURN(int64_t t, ReadInCommitTimestamp(fs, commits[mid]));
        if (t <= timestamp_ms) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return commits[lo].version;
    }
  }
  auto mt = MonotonicMtimes(commits, ict_start);
  if (mt.empty() || timestamp_ms < mt[0]) {
    return Status::InvalidArgument("timestamp " + std::to_string(timestamp_ms) +
                                   " is before the earliest available commit (version " +
                                   std::to_string(commits[0].version) + ") of table " + table_root);
  }
  size_t idx = static_cast<size_t>(std::upper_bound(mt.begin(), mt.end(), timestamp_ms) - mt.begin()) - 1;
  return commits[idx].version;
}

}  // namespace shoal::delta
