#include "io/fault_injection_file_system.h"

#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace shoal::io {

namespace {

Status StaleHandle(OpKind kind, const std::string& path) {
  return Status::IOError(std::string(OpKindName(kind)) + " '" + path +
                         "': handle invalidated by a simulated crash");
}

bool IsWriteLike(OpKind op) {
  switch (op) {
    case OpKind::kOpenWrite:
    case OpKind::kAppend:
    case OpKind::kSync:
    case OpKind::kClose:
    case OpKind::kPutIfAbsent:
    case OpKind::kWriteAtomic:
    case OpKind::kRename:
    case OpKind::kMkdir:
    case OpKind::kSyncDir:
      return true;
    default:
      return false;
  }
}

}  // namespace

const char* OpKindName(OpKind kind) {
  static const char* const kNames[kNumOpKinds] = {
      "open-read", "open-write", "read",  "append", "sync",   "close", "put-if-absent", "write-atomic",
      "rename",    "delete",     "delete-recursive", "list", "stat", "exists", "mkdir", "sync-dir"};
  return kNames[static_cast<int>(kind)];
}

const char* FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kEIO: return "EIO";
    case FaultKind::kENOSPC: return "ENOSPC";
    case FaultKind::kTornWrite: return "torn-write";
    case FaultKind::kDroppedSync: return "dropped-sync";
  }
  return "?";
}

bool FaultApplies(FaultKind fault, OpKind op) {
  switch (fault) {
    case FaultKind::kEIO: return true;
    case FaultKind::kENOSPC: return IsWriteLike(op);
    case FaultKind::kTornWrite: return op == OpKind::kAppend;
    case FaultKind::kDroppedSync: return op == OpKind::kSync || op == OpKind::kSyncDir;
  }
  return false;
}

// ---- handles --------------------------------------------------------------------------------

// Forwards reads to the base handle after counting them; fails once a crash invalidated it.
// Thread-safe.
class FaultRandomAccessFile final : public RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultInjectionFileSystem* fs, std::unique_ptr<RandomAccessFile> base,
                        uint64_t generation)
      : RandomAccessFile(base->path()), fs_(fs), base_(std::move(base)), generation_(generation) {}
  int64_t Size() const override { return base_->Size(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    FaultInjectionFileSystem::Decision d;
    {
      std::lock_guard<std::mutex> l(fs_->mu_);
      d = fs_->BeginLocked(OpKind::kRead, path_);
      if (generation_ != fs_->generation_) return StaleHandle(OpKind::kRead, path_);
    }
    bool after = d.rule && d.rule->when == FaultRule::When::kAfter;
    if (!d.error.ok() && !after) return d.error;
    Status st = base_->ReadAt(offset, length, out);
    return st.ok() ? d.error : st;
  }

 private:
  FaultInjectionFileSystem* fs_;
  std::unique_ptr<RandomAccessFile> base_;
  uint64_t generation_;
};

// Mirrors appended bytes into the file's Inode so a crash can restore the synced part.
// Not thread-safe (as WritableFile); its operations lock the file system's mutex.
class FaultWritableFile final : public WritableFile {
 public:
  FaultWritableFile(FaultInjectionFileSystem* fs, std::string path,
                    std::unique_ptr<WritableFile> base, FaultInjectionFileSystem::InodePtr inode,
                    uint64_t generation)
      : fs_(fs), path_(std::move(path)), base_(std::move(base)), inode_(std::move(inode)),
        generation_(generation) {}

  ~FaultWritableFile() override {
    std::lock_guard<std::mutex> l(fs_->mu_);
    fs_->open_.erase(this);
    if (base_) (void)base_->Close();
    base_.reset();
  }

  Status Append(const void* data, size_t length) override {
    std::lock_guard<std::mutex> l(fs_->mu_);
    auto d = fs_->BeginLocked(OpKind::kAppend, path_);
    if (generation_ != fs_->generation_ || !base_) return StaleHandle(OpKind::kAppend, path_);
    if (!d.error.ok() && !d.rule) return d.error;  // crashed
    if (closed_) return Status::IOError("append '" + path_ + "': file is closed");
    if (d.rule && d.rule->when == FaultRule::When::kBefore) {
      if (d.rule->fault == FaultKind::kTornWrite && length > 0) {
        size_t n = d.rule->torn_bytes >= 0
                       ? std::min(static_cast<size_t>(d.rule->torn_bytes), length)
                       : static_cast<size_t>(fs_->rng_() % length);
        RETURN_NOT_OK(AppendLocked(data, n));
      }
      return d.error;
    }
    RETURN_NOT_OK(AppendLocked(data, length));
    return d.error;
  }

  Status Sync() override {
    std::lock_guard<std::mutex> l(fs_->mu_);
    auto d = fs_->BeginLocked(OpKind::kSync, path_);
    if (generation_ != fs_->generation_ || !base_) return StaleHandle(OpKind::kSync, path_);
    if (d.rule && d.rule->fault == FaultKind::kDroppedSync) return Status::OK();
    if (!d.error.ok() && (!d.rule || d.rule->when == FaultRule::When::kBefore)) return d.error;
    RETURN_NOT_OK(base_->Sync());
    inode_->synced = inode_->content;
    inode_->ever_synced = true;
    return d.error;
  }

  Status Close() override {
    std::lock_guard<std::mutex> l(fs_->mu_);
    auto d = fs_->BeginLocked(OpKind::kClose, path_);
    if (generation_ != fs_->generation_ || !base_) return StaleHandle(OpKind::kClose, path_);
    if (!d.error.ok() && (!d.rule || d.rule->when == FaultRule::When::kBefore)) return d.error;
    closed_ = true;
    RETURN_NOT_OK(base_->Close());
    return d.error;
  }

  int64_t Tell() const override { return pos_; }

 private:
  friend class FaultInjectionFileSystem;

  Status AppendLocked(const void* data, size_t n) {
    RETURN_NOT_OK(base_->Append(data, n));
    inode_->content.append(static_cast<const char*>(data), n);
    pos_ += static_cast<int64_t>(n);
    return Status::OK();
  }

  FaultInjectionFileSystem* fs_;
  std::string path_;
  std::unique_ptr<WritableFile> base_;  // reset by SimulateCrash
  FaultInjectionFileSystem::InodePtr inode_;
  uint64_t generation_;
  int64_t pos_ = 0;
  bool closed_ = false;
};

// ---- FaultInjectionFileSystem -----------------------------------------------------------

FaultInjectionFileSystem::FaultInjectionFileSystem(std::shared_ptr<FileSystem> base)
    : base_(std::move(base)), rng_(1) {}

FaultInjectionFileSystem::~FaultInjectionFileSystem() = default;

void FaultInjectionFileSystem::SetPlan(FaultPlan plan) {
  std::lock_guard<std::mutex> l(mu_);
  plan_ = std::move(plan);
  fires_.assign(plan_.rules.size(), 0);
  rng_.seed(plan_.seed);
}

void FaultInjectionFileSystem::set_record_ops(bool on) {
  std::lock_guard<std::mutex> l(mu_);
  record_ops_ = on;
}

std::vector<OpRecord> FaultInjectionFileSystem::ops() const {
  std::lock_guard<std::mutex> l(mu_);
  return ops_;
}

int64_t FaultInjectionFileSystem::OpCount() const {
  std::lock_guard<std::mutex> l(mu_);
  return seq_;
}

int64_t FaultInjectionFileSystem::OpCount(OpKind kind) const {
  std::lock_guard<std::mutex> l(mu_);
  return counts_[static_cast<int>(kind)];
}

int64_t FaultInjectionFileSystem::FaultsInjected() const {
  std::lock_guard<std::mutex> l(mu_);
  return faults_injected_;
}

std::string FaultInjectionFileSystem::Normalize(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

FaultInjectionFileSystem::Decision FaultInjectionFileSystem::BeginLocked(OpKind kind,
                                                                         const std::string& path,
                                                                         const std::string& path2) {
  Decision d;
  d.seq = ++seq_;
  int64_t nth = ++counts_[static_cast<int>(kind)];
  if (record_ops_) ops_.push_back(OpRecord{d.seq, kind, path});
  if (plan_.crash_after >= 0 && d.seq > plan_.crash_after) {
    d.error = Status::IOError(std::string(OpKindName(kind)) + " '" + path +
                              "': simulated crash (operation " + std::to_string(d.seq) +
                              " is after the crash point " + std::to_string(plan_.crash_after) + ")");
    return d;
  }
  for (size_t i = 0; i < plan_.rules.size(); ++i) {
    const FaultRule& r = plan_.rules[i];
    if (r.max_fires >= 0 && fires_[i] >= r.max_fires) continue;
    if (r.seq != 0 && r.seq != d.seq) continue;
    if (r.kind && *r.kind != kind) continue;
    if (r.nth != 0 && (!r.kind || r.nth != nth)) continue;
    if (!r.path_glob.empty() && fnmatch(r.path_glob.c_str(), path.c_str(), 0) != 0 &&
        (path2.empty() || fnmatch(r.path_glob.c_str(), path2.c_str(), 0) != 0)) {
      continue;
    }
    if (!FaultApplies(r.fault, kind)) continue;
    ++fires_[i];
    ++faults_injected_;
    d.rule = r;
    if (r.fault != FaultKind::kDroppedSync) d.error = FaultStatus(r, kind, path, d.seq);
    break;
  }
  return d;
}

Status FaultInjectionFileSystem::FaultStatus(const FaultRule& rule, OpKind kind,
                                             const std::string& path, int64_t seq) const {
  int err = rule.fault == FaultKind::kENOSPC ? ENOSPC : EIO;
  std::string what = rule.fault == FaultKind::kTornWrite ? ", torn write" : "";
  return Status::IOError(std::string(OpKindName(kind)) + " '" + path + "': " + std::strerror(err) +
                         " (injected" + what + " at operation " + std::to_string(seq) + ")");
}

Status FaultInjectionFileSystem::TrackLocked(const std::string& path) {
  if (current_.count(path)) return Status::OK();
  InodePtr node;
  auto info = base_->Stat(path);
  if (info.ok() && !info->is_dir) {
    ASSIGN_OR_RETURN(std::string data, base_->ReadAll(path));
    node = std::make_shared<Inode>();
    node->content = data;
    node->synced = std::move(data);
    node->ever_synced = true;
  }
  current_[path] = node;
  durable_[path] = node;
  return Status::OK();
}

// Runs `body` unless the decision fails the operation before it; returns the decision's error
// after a kAfter fault.
#define SHOAL_FAULT_GUARD(d)                                                      \
  do {                                                                            \
    if (!(d).error.ok() && (!(d).rule || (d).rule->when == FaultRule::When::kBefore)) \
      return (d).error;                                                           \
  } while (false)

Result<std::unique_ptr<RandomAccessFile>> FaultInjectionFileSystem::OpenForRead(
    const std::string& path) {
  std::unique_ptr<RandomAccessFile> file;  // destroyed after the lock is released
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kOpenRead, path);
  SHOAL_FAULT_GUARD(d);
  ASSIGN_OR_RETURN(file, base_->OpenForRead(path));
  if (!d.error.ok()) return d.error;
  return std::unique_ptr<RandomAccessFile>(
      new FaultRandomAccessFile(this, std::move(file), generation_));
}

Result<std::unique_ptr<WritableFile>> FaultInjectionFileSystem::OpenForWrite(
    const std::string& path) {
  std::unique_ptr<WritableFile> file;  // destroyed after the lock is released
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kOpenWrite, path);
  SHOAL_FAULT_GUARD(d);
  std::string p = Normalize(path);
  RETURN_NOT_OK(TrackLocked(p));
  ASSIGN_OR_RETURN(auto base_file, base_->OpenForWrite(path));
  InodePtr& node = current_[p];
  if (node) {
    node->content.clear();  // O_TRUNC keeps the inode: the old bytes survive until a Sync
  } else {
    node = std::make_shared<Inode>();
  }
  auto* f = new FaultWritableFile(this, p, std::move(base_file), node, generation_);
  file.reset(f);
  open_.insert(f);
  if (!d.error.ok()) return d.error;
  return file;
}

Status FaultInjectionFileSystem::PutIfAbsent(const std::string& path, std::string_view contents) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kPutIfAbsent, path);
  SHOAL_FAULT_GUARD(d);
  std::string p = Normalize(path);
  RETURN_NOT_OK(TrackLocked(p));
  RETURN_NOT_OK(base_->PutIfAbsent(path, contents));
  auto node = std::make_shared<Inode>();
  node->content = node->synced = std::string(contents);
  node->ever_synced = true;
  current_[p] = node;
  SyncDirLocked(DirName(p));  // as LocalFileSystem: the directory is fsynced on success
  return d.error;
}

Status FaultInjectionFileSystem::WriteAtomic(const std::string& path, std::string_view contents) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kWriteAtomic, path);
  SHOAL_FAULT_GUARD(d);
  std::string p = Normalize(path);
  RETURN_NOT_OK(TrackLocked(p));
  RETURN_NOT_OK(base_->WriteAtomic(path, contents));
  auto node = std::make_shared<Inode>();
  node->content = node->synced = std::string(contents);
  node->ever_synced = true;
  current_[p] = node;
  SyncDirLocked(DirName(p));  // as LocalFileSystem: the directory is fsynced on success
  return d.error;
}

Result<std::vector<FileInfo>> FaultInjectionFileSystem::List(const std::string& dir) { return ListFrom(dir, {}); }

Result<std::vector<FileInfo>> FaultInjectionFileSystem::ListFrom(const std::string& dir, std::string_view start_name) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kList, dir);
  SHOAL_FAULT_GUARD(d);
  ASSIGN_OR_RETURN(auto out, base_->ListFrom(dir, start_name));
  if (!d.error.ok()) return d.error;
  return out;
}

Result<FileInfo> FaultInjectionFileSystem::Stat(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kStat, path);
  SHOAL_FAULT_GUARD(d);
  ASSIGN_OR_RETURN(auto out, base_->Stat(path));
  if (!d.error.ok()) return d.error;
  return out;
}

Result<bool> FaultInjectionFileSystem::Exists(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kExists, path);
  SHOAL_FAULT_GUARD(d);
  ASSIGN_OR_RETURN(bool out, base_->Exists(path));
  if (!d.error.ok()) return d.error;
  return out;
}

Status FaultInjectionFileSystem::CreateDirs(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kMkdir, path);
  SHOAL_FAULT_GUARD(d);
  RETURN_NOT_OK(base_->CreateDirs(path));
  return d.error;
}

Status FaultInjectionFileSystem::Delete(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kDelete, path);
  SHOAL_FAULT_GUARD(d);
  std::string p = Normalize(path);
  auto info = base_->Stat(path);
  bool is_file = info.ok() && !info->is_dir;
  if (is_file) RETURN_NOT_OK(TrackLocked(p));
  RETURN_NOT_OK(base_->Delete(path));
  if (is_file) current_[p] = nullptr;
  return d.error;
}

Status FaultInjectionFileSystem::DeleteRecursive(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kDeleteRecursive, path);
  SHOAL_FAULT_GUARD(d);
  std::string root = Normalize(path);
  // Snapshot every file below `root` so a crash can bring back what was not durably deleted.
  std::vector<std::string> pending = {root};
  while (!pending.empty()) {
    std::string dir = std::move(pending.back());
    pending.pop_back();
    auto info = base_->Stat(dir);
    if (!info.ok()) continue;
    if (!info->is_dir) {
      RETURN_NOT_OK(TrackLocked(dir));
      continue;
    }
    auto entries = base_->List(dir);
    if (!entries.ok()) continue;
    for (const auto& e : *entries) pending.push_back(JoinPath(dir, e.name));
  }
  RETURN_NOT_OK(base_->DeleteRecursive(path));
  std::string prefix = root + "/";
  for (auto& [p, node] : current_) {
    if (p == root || p.compare(0, prefix.size(), prefix) == 0) node = nullptr;
  }
  return d.error;
}

Status FaultInjectionFileSystem::Rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kRename, from, to);
  SHOAL_FAULT_GUARD(d);
  std::string f = Normalize(from), t = Normalize(to);
  auto info = base_->Stat(from);
  bool is_file = info.ok() && !info->is_dir;
  if (is_file) {
    RETURN_NOT_OK(TrackLocked(f));
    RETURN_NOT_OK(TrackLocked(t));
  }
  RETURN_NOT_OK(base_->Rename(from, to));
  if (is_file && f != t) {
    current_[t] = current_[f];
    current_[f] = nullptr;
  }
  return d.error;
}

Status FaultInjectionFileSystem::SyncDir(const std::string& dir) {
  std::lock_guard<std::mutex> l(mu_);
  auto d = BeginLocked(OpKind::kSyncDir, dir);
  if (d.rule && d.rule->fault == FaultKind::kDroppedSync) return Status::OK();
  SHOAL_FAULT_GUARD(d);
  RETURN_NOT_OK(base_->SyncDir(dir));
  SyncDirLocked(Normalize(dir));
  return d.error;
}

void FaultInjectionFileSystem::SyncDirLocked(const std::string& dir) {
  for (auto& [p, node] : current_) {
    if (DirName(p) == dir) durable_[p] = node;
  }
}

#undef SHOAL_FAULT_GUARD

Status FaultInjectionFileSystem::RestoreLocked(const std::string& path, const InodePtr& node,
                                               const CrashOptions& options) {
  if (!node) {
    auto info = base_->Stat(path);
    if (info.ok() && !info->is_dir) return base_->Delete(path);
    return Status::OK();
  }
  std::string data = node->synced;
  const std::string& now = node->content;
  if (options.torn_unsynced_tails && now.size() > data.size() &&
      now.compare(0, data.size(), data) == 0) {
    size_t extra = now.size() - data.size();
    data.append(now, data.size(), static_cast<size_t>(rng_() % (extra + 1)));
  }
  std::string dir = DirName(path);
  if (!dir.empty()) RETURN_NOT_OK(base_->CreateDirs(dir));
  return base_->WriteAtomic(path, data);
}

Status FaultInjectionFileSystem::SimulateCrash(const CrashOptions& options) {
  std::lock_guard<std::mutex> l(mu_);
  for (FaultWritableFile* f : open_) {
    if (f->base_) (void)f->base_->Close();
    f->base_.reset();
  }
  open_.clear();
  ++generation_;
  Status first;
  for (const auto& [p, node] : current_) {
    InodePtr survivor;
    if (options.lose_unsynced_dir_entries) {
      survivor = durable_[p];
    } else if (node && node->ever_synced) {
      survivor = node;
    }
    Status st = RestoreLocked(p, survivor, options);
    if (!st.ok() && first.ok()) first = st.WithContext("simulated crash: restoring '" + p + "'");
  }
  current_.clear();
  durable_.clear();
  plan_.crash_after = -1;
  return first;
}

}  // namespace shoal::io

// ---- FaultSweep -------------------------------------------------------------------------

namespace shoal::io {

std::string SweepRun::Describe() const {
  std::string s = fault ? std::string(FaultKindName(*fault)) + " at operation " + std::to_string(k)
                        : "crash after operation " + std::to_string(k);
  if (!op.empty()) s += " (" + op + ")";
  if (fault && crashed) s += ", then crash";
  if (!workload_status.ok()) s += "; workload returned " + workload_status.ToString();
  return s;
}

namespace {

struct SweepRunner {
  const FileSystemFactory& factory;
  const Workload& workload;
  const Verifier& verify;
  const SweepOptions& options;
  SweepReport report;

  Result<std::unique_ptr<FaultInjectionFileSystem>> Run(FaultPlan plan, SweepRun* run) {
    ASSIGN_OR_RETURN(auto base, factory());
    auto fs = std::make_unique<FaultInjectionFileSystem>(std::move(base));
    plan.seed = options.seed * 1000003 + static_cast<uint64_t>(run->k);
    fs->SetPlan(std::move(plan));
    run->workload_status = workload(*fs);
    ++report.runs;
    fs->ClearPlan();
    return fs;
  }

  Status Verify(FaultInjectionFileSystem& fs, const SweepRun& run) {
    ++report.verified;
    Status st = verify(fs, run);
    if (st.ok()) return Status::OK();
    st = st.WithContext("fault sweep: " + run.Describe());
    if (static_cast<int64_t>(report.failures.size()) + 1 >= options.max_failures) return st;
    report.failures.push_back(st.ToString());
    return Status::OK();
  }

  Status Crash(FaultInjectionFileSystem& fs, SweepRun* run) {
    run->crashed = true;
    Status st = fs.SimulateCrash(options.crash);
    if (!st.ok()) return st.WithContext("fault sweep: " + run->Describe());
    return Status::OK();
  }
};

// The points among `candidates` a sweep tries: all of them, or max_points evenly spaced ones
// starting at a seeded offset (`salt` varies it per fault kind).
std::vector<int64_t> SamplePoints(const std::vector<int64_t>& candidates, int64_t max_points,
                                  uint64_t seed, uint64_t salt) {
  const int64_t c = static_cast<int64_t>(candidates.size());
  if (max_points <= 0 || c <= max_points) return candidates;
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(max_points));
  const int64_t offset = static_cast<int64_t>((seed * 0x9E3779B97F4A7C15ull + salt * 7919) %
                                              static_cast<uint64_t>(c));
  for (int64_t i = 0; i < max_points; ++i) {
    out.push_back(candidates[static_cast<size_t>((offset + i * c / max_points) % c)]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

Result<SweepReport> RunFaultSweep(const FileSystemFactory& factory, const Workload& workload,
                                  const Verifier& verify, const SweepOptions& options) {
  SweepRunner r{factory, workload, verify, options, {}};

  // Counting run.
  std::vector<OpRecord> ops;
  {
    ASSIGN_OR_RETURN(auto base, factory());
    FaultInjectionFileSystem fs(std::move(base));
    fs.set_record_ops(true);
    SweepRun run;
    run.workload_status = workload(fs);
    ++r.report.runs;
    ops = fs.ops();
    run.k = static_cast<int64_t>(ops.size());
    if (run.k > options.max_ops) {
      return Status::InvalidArgument("fault sweep: workload ran " + std::to_string(run.k) +
                                     " operations, more than max_ops " +
                                     std::to_string(options.max_ops));
    }
    RETURN_NOT_OK(r.Verify(fs, run));
  }
  const int64_t n = static_cast<int64_t>(ops.size());
  r.report.ops = n;
  auto describe = [&](int64_t k) {
    if (k < 1 || k > n) return std::string();
    const OpRecord& o = ops[static_cast<size_t>(k - 1)];
    return std::string(OpKindName(o.kind)) + " '" + o.path + "'";
  };

  for (FaultKind fault : options.faults) {
    std::vector<int64_t> candidates;
    for (int64_t k = 1; k <= n; ++k) {
      if (FaultApplies(fault, ops[static_cast<size_t>(k - 1)].kind)) candidates.push_back(k);
    }
    for (int64_t k : SamplePoints(candidates, options.max_points, options.seed,
                                  static_cast<uint64_t>(fault) + 1)) {
      ++r.report.points;
      FaultPlan plan;
      FaultRule rule;
      rule.seq = k;
      rule.fault = fault;
      plan.rules.push_back(rule);
      SweepRun run;
      run.k = k;
      run.fault = fault;
      run.op = describe(k);
      ASSIGN_OR_RETURN(auto fs, r.Run(std::move(plan), &run));
      if (options.verify_before_crash) RETURN_NOT_OK(r.Verify(*fs, run));
      if (options.crash_after_fault) {
        RETURN_NOT_OK(r.Crash(*fs, &run));
        RETURN_NOT_OK(r.Verify(*fs, run));
      }
    }
  }

  if (options.crash_after_each_op) {
    std::vector<int64_t> candidates;
    for (int64_t k = 0; k <= n; ++k) candidates.push_back(k);
    for (int64_t k : SamplePoints(candidates, options.max_points, options.seed, 0)) {
      ++r.report.points;
      FaultPlan plan;
      plan.crash_after = k;
      SweepRun run;
      run.k = k;
      run.op = describe(k);
      ASSIGN_OR_RETURN(auto fs, r.Run(std::move(plan), &run));
      RETURN_NOT_OK(r.Crash(*fs, &run));
      RETURN_NOT_OK(r.Verify(*fs, run));
    }
  }
  return r.report;
}

}  // namespace shoal::io
