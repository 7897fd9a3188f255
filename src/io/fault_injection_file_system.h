// FaultInjectionFileSystem: wraps a FileSystem, numbers every operation, fails the operations a
// FaultPlan selects (EIO, ENOSPC, torn append, dropped fsync) and simulates power loss by
// reverting files to their durable state. FaultSweep reruns a workload with a fault at every
// operation in turn. The crash model is documented in doc/fault_injection.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "io/file_system.h"

namespace shoal::io {

class FaultWritableFile;
class FaultRandomAccessFile;

// Every kind of operation the wrapper counts.
enum class OpKind : unsigned char {
  kOpenRead,
  kOpenWrite,
  kRead,
  kAppend,
  kSync,
  kClose,
  kPutIfAbsent,
  kWriteAtomic,
  kRename,
  kDelete,
  kDeleteRecursive,
  kList,
  kStat,
  kExists,
  kMkdir,
  kSyncDir,
};
inline constexpr int kNumOpKinds = 16;
const char* OpKindName(OpKind kind);

enum class FaultKind : unsigned char {
  kEIO,          // the operation fails with "Input/output error"
  kENOSPC,       // the operation fails with "No space left on device"
  kTornWrite,    // Append writes only a prefix of its data, then fails; other kinds: as kEIO
  kDroppedSync,  // Sync/SyncDir returns OK without making anything durable; others: no fault
};
const char* FaultKindName(FaultKind kind);
// True when `fault` changes the behaviour of an operation of kind `op`.
bool FaultApplies(FaultKind fault, OpKind op);

// Selects operations and says how they fail. Fields left at their "any" value do not filter;
// a rule matches an operation when every set field matches.
struct FaultRule {
  int64_t seq = 0;                  // global operation number (1-based); 0 = any
  std::optional<OpKind> kind;       // operation kind; empty = any
  int64_t nth = 0;                  // n-th operation of `kind` (1-based; needs kind); 0 = any
  std::string path_glob;            // fnmatch pattern ('*' also matches '/'); "" = any
  FaultKind fault = FaultKind::kEIO;
  // kBefore: the operation is not performed. kAfter: it is performed (and takes durable
  // effect as usual), then the error is returned — the "did my commit land?" ambiguity.
  enum class When : unsigned char { kBefore, kAfter } when = When::kBefore;
  int64_t torn_bytes = -1;          // kTornWrite: bytes that reach the file; -1 = seeded random
  int64_t max_fires = 1;            // how many matching operations fail; -1 = unlimited
};

struct FaultPlan {
  std::vector<FaultRule> rules;  // default: none
  // Every operation numbered above this fails with IOError("simulated crash"): the process
  // is dead from here on. -1 = never.
  int64_t crash_after = -1;
  uint64_t seed = 1;  // for torn lengths and torn tails
};

struct CrashOptions {
  // A file's name is durable only after SyncDir of its directory (or PutIfAbsent/WriteAtomic
  // returned OK); otherwise a new file vanishes and a rename/delete is undone. Default: true.
  bool lose_unsynced_dir_entries = true;
  // Instead of losing all unsynced appended bytes, keep a seeded-random prefix of them (the
  // torn tail a log reader must handle). Default: false.
  bool torn_unsynced_tails = false;
};

// One counted operation (recorded only when record_ops is on).
struct OpRecord {
  int64_t seq = 0;
  OpKind kind = OpKind::kOpenRead;
  std::string path;
};

// Thread-safety: thread-safe; every mutating operation runs under one mutex. SimulateCrash may
// run concurrently with other calls, but handles opened before it fail afterwards. Handles must
// not outlive the wrapper.
class FaultInjectionFileSystem final : public FileSystem {
 public:
  // Treats everything already in `base` as durable.
  explicit FaultInjectionFileSystem(std::shared_ptr<FileSystem> base);
  ~FaultInjectionFileSystem() override;

  // Replaces the plan and resets the per-rule fire counts (not the operation counters).
  void SetPlan(FaultPlan plan);
  void ClearPlan() { SetPlan(FaultPlan{}); }
  // Records every operation into ops() from now on (costs a string per operation).
  void set_record_ops(bool on);
  std::vector<OpRecord> ops() const;

  int64_t OpCount() const;             // operations so far (the last sequence number)
  int64_t OpCount(OpKind kind) const;  // operations of one kind so far
  int64_t FaultsInjected() const;      // operations a rule made fail (or drop)

  // Power loss: closes every open handle, reverts every file to its durable state (see
  // CrashOptions and doc/fault_injection.md), clears the crash point so the file system is
  // usable again, and treats the resulting state as durable. Counters continue.
  Status SimulateCrash(const CrashOptions& options = {});

  // The wrapped file system, bypassing counting, faults and crash tracking.
  FileSystem& base() { return *base_; }

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override;
  Status PutIfAbsent(const std::string& path, std::string_view contents) override;
  Status WriteAtomic(const std::string& path, std::string_view contents) override;
  Result<std::vector<FileInfo>> List(const std::string& dir) override;
  // A listing like List (same fault kind), forwarded to the base's ListFrom.
  Result<std::vector<FileInfo>> ListFrom(const std::string& dir, std::string_view start_name) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status Delete(const std::string& path) override;
  Status DeleteRecursive(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;

 private:
  friend class FaultWritableFile;
  friend class FaultRandomAccessFile;

  // The bytes behind one file (hard links and renames share it).
  struct Inode {
    std::string content;  // what the file holds now
    std::string synced;   // what survives a crash
    bool ever_synced = false;  // its name survives a lenient crash (CrashOptions)
  };
  using InodePtr = std::shared_ptr<Inode>;

  // What Begin() decided for one operation.
  struct Decision {
    std::optional<FaultRule> rule;  // the fault to inject, if any
    Status error;                   // the error to return (crash or fault), OK if none
    int64_t seq = 0;
  };

  static std::string Normalize(const std::string& path);
  Decision BeginLocked(OpKind kind, const std::string& path, const std::string& path2 = "");
  Status FaultStatus(const FaultRule& rule, OpKind kind, const std::string& path,
                     int64_t seq) const;
  // Starts tracking `path` (snapshotting its base content as durable) if not yet tracked.
  Status TrackLocked(const std::string& path);
  // Makes the current state of every tracked name in `dir` durable (a directory fsync).
  void SyncDirLocked(const std::string& dir);
  Status RestoreLocked(const std::string& path, const InodePtr& durable,
                       const CrashOptions& options);

  std::shared_ptr<FileSystem> base_;
  mutable std::mutex mu_;
  FaultPlan plan_;                              // GUARDED_BY(mu_)
  std::vector<int64_t> fires_;                  // GUARDED_BY(mu_) per rule
  std::mt19937_64 rng_;                         // GUARDED_BY(mu_)
  int64_t seq_ = 0;                             // GUARDED_BY(mu_)
  int64_t counts_[kNumOpKinds] = {};            // GUARDED_BY(mu_)
  int64_t faults_injected_ = 0;                 // GUARDED_BY(mu_)
  bool record_ops_ = false;                     // GUARDED_BY(mu_)
  std::vector<OpRecord> ops_;                   // GUARDED_BY(mu_)
  uint64_t generation_ = 0;                     // GUARDED_BY(mu_) bumped by SimulateCrash
  std::map<std::string, InodePtr> current_;     // GUARDED_BY(mu_) tracked names now
  std::map<std::string, InodePtr> durable_;     // GUARDED_BY(mu_) tracked names after a crash
  std::set<FaultWritableFile*> open_;     // GUARDED_BY(mu_) handles to close on a crash
};

// ---- FaultSweep -------------------------------------------------------------------------

// One run of a sweep, as the verifier sees it.
struct SweepRun {
  int64_t k = 0;                         // the faulted operation, or the last one before a crash
  std::optional<FaultKind> fault;        // empty for a pure crash-after-k run
  bool crashed = false;                  // SimulateCrash ran before verification
  Status workload_status;                // what the workload returned
  std::string op;                        // "append 'path'" for operation k of the counting run
  std::string Describe() const;
};

struct SweepOptions {
  // Faults injected at each operation k in 1..N (runs where the fault does not apply to
  // operation k are skipped). Default: EIO and a torn write.
  std::vector<FaultKind> faults = {FaultKind::kEIO, FaultKind::kTornWrite};
  bool verify_before_crash = true;   // verify the live state after a faulted run; default true
  bool crash_after_fault = true;     // also crash after each faulted run and verify; default true
  bool crash_after_each_op = true;   // run "crash after operation k" for k in 0..N; default true
  CrashOptions crash;                // the crash model; default: strict
  uint64_t seed = 1;                 // default 1
  int64_t max_ops = 100000;          // refuse workloads longer than this; default 100000
  // Points tried per fault kind, and crash points, at most: when more operations qualify, an
  // evenly spaced subset with a seeded offset (different per kind) is tried. 0 (default): all.
  int64_t max_points = 0;
  // Verifier failures recorded in SweepReport::failures before the sweep stops and returns the
  // last one; default 1 (stop at the first). Larger values let one run list several bugs.
  int64_t max_failures = 1;
};

struct SweepReport {
  int64_t ops = 0;        // N: operations in the fault-free counting run
  int64_t runs = 0;       // workload executions, the counting run included
  int64_t verified = 0;   // verifier calls
  int64_t points = 0;     // fault and crash points injected (runs after the counting run)
  std::vector<std::string> failures;  // verifier failures tolerated under max_failures > 1
};

// Makes a fresh base file system (with any setup already in it) for one run.
using FileSystemFactory = std::function<Result<std::shared_ptr<FileSystem>>()>;
// Runs the operations under test against `fs`; may fail (faults make it fail).
using Workload = std::function<Status(FileSystem& fs)>;
// Checks the state in `fs` after `run`; a non-OK Status fails the sweep.
using Verifier = std::function<Status(FileSystem& fs, const SweepRun& run)>;

// Runs `workload` once fault-free to count its operations N, then once per fault kind and
// operation k with that fault at k, and once per k with a crash after k, calling `verify`
// after each (see SweepOptions). Returns the first verifier failure, prefixed with the run.
// The verifier is called with the wrapper, faults cleared.
Result<SweepReport> RunFaultSweep(const FileSystemFactory& factory, const Workload& workload,
                                  const Verifier& verify, const SweepOptions& options = {});

}  // namespace shoal::io
