#include "io/fault_injection_file_system.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "io/memory_file_system.h"
#include "support/testdata.h"

namespace shoal::io {
namespace {

std::string Read(FileSystem& fs, const std::string& path) {
  auto r = fs.ReadAll(path);
  return r.ok() ? *r : "<absent: " + r.status().message() + ">";
}

bool Present(FileSystem& fs, const std::string& path) {
  auto r = fs.Exists(path);
  return r.ok() && *r;
}

// Creates `path`, appends each chunk, syncs after the chunks listed in `sync_after`, closes.
Status WriteChunks(FileSystem& fs, const std::string& path, const std::vector<std::string>& chunks,
                   bool sync_each) {
  ASSIGN_OR_RETURN(auto f, fs.OpenForWrite(path));
  for (const auto& c : chunks) {
    RETURN_NOT_OK(f->Append(c));
    if (sync_each) RETURN_NOT_OK(f->Sync());
  }
  return f->Close();
}

class FaultFs : public ::testing::Test {
 protected:
  void SetUp() override {
    mem_ = std::make_shared<MemoryFileSystem>();
    ASSERT_TRUE(mem_->CreateDirs("/t").ok());
    fs_ = std::make_unique<FaultInjectionFileSystem>(mem_);
  }
  std::shared_ptr<MemoryFileSystem> mem_;
  std::unique_ptr<FaultInjectionFileSystem> fs_;
};

TEST_F(FaultFs, CountsEveryOperationGloballyAndPerKind) {
  fs_->set_record_ops(true);
  ASSERT_TRUE(WriteChunks(*fs_, "/t/a", {"x", "y"}, /*sync_each=*/true).ok());
  ASSERT_TRUE(fs_->PutIfAbsent("/t/b", "b").ok());
  ASSERT_EQ(Read(*fs_, "/t/a"), "xy");  // open-read + read
  ASSERT_TRUE(fs_->SyncDir("/t").ok());
  EXPECT_EQ(fs_->OpCount(OpKind::kOpenWrite), 1);
  EXPECT_EQ(fs_->OpCount(OpKind::kAppend), 2);
  EXPECT_EQ(fs_->OpCount(OpKind::kSync), 2);
  EXPECT_EQ(fs_->OpCount(OpKind::kClose), 1);
  EXPECT_EQ(fs_->OpCount(OpKind::kPutIfAbsent), 1);
  EXPECT_EQ(fs_->OpCount(OpKind::kOpenRead), 1);
  EXPECT_EQ(fs_->OpCount(OpKind::kRead), 1);
  EXPECT_EQ(fs_->OpCount(OpKind::kSyncDir), 1);
  EXPECT_EQ(fs_->OpCount(), 10);
  auto ops = fs_->ops();
  ASSERT_EQ(ops.size(), 10u);
  for (size_t i = 0; i < ops.size(); ++i) EXPECT_EQ(ops[i].seq, static_cast<int64_t>(i + 1));
  EXPECT_EQ(ops[0].kind, OpKind::kOpenWrite);
  EXPECT_EQ(ops[0].path, "/t/a");
  EXPECT_EQ(ops[6].kind, OpKind::kPutIfAbsent);
}

TEST_F(FaultFs, EioOnNthAppendFailsThatAppendOnly) {
  FaultPlan plan;
  FaultRule rule;
  rule.kind = OpKind::kAppend;
  rule.nth = 2;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  ASSERT_TRUE(fs_->OpenForWrite("/t/a").ok());  // 1st handle closes on destruction
  auto f = fs_->OpenForWrite("/t/b");
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->Append("one").ok());
  Status st = (*f)->Append("two");
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find("Input/output error"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("/t/b"), std::string::npos) << st.message();
  EXPECT_TRUE((*f)->Append("three").ok());  // fires once
  ASSERT_TRUE((*f)->Close().ok());
  EXPECT_EQ(Read(*fs_, "/t/b"), "onethree");
  EXPECT_EQ(fs_->FaultsInjected(), 1);
}

TEST_F(FaultFs, EnospcByPathPatternLeavesNoCommitFile) {
  FaultPlan plan;
  FaultRule rule;
  rule.path_glob = "*/_delta_log/*.json";
  rule.fault = FaultKind::kENOSPC;
  rule.max_fires = -1;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  ASSERT_TRUE(fs_->PutIfAbsent("/t/part-0.parquet", "data").ok());
  Status st = fs_->PutIfAbsent("/t/_delta_log/00000000000000000000.json", "{}");
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find("No space left on device"), std::string::npos) << st.message();
  EXPECT_FALSE(Present(*mem_, "/t/_delta_log/00000000000000000000.json"));
  EXPECT_TRUE(fs_->WriteAtomic("/t/_delta_log/00000000000000000001.json", "{}").IsIOError());
  EXPECT_EQ(fs_->FaultsInjected(), 2);
}

TEST_F(FaultFs, RuleBySequenceNumberFailsExactlyThatOperation) {
  FaultPlan plan;
  FaultRule rule;
  rule.seq = 3;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  EXPECT_TRUE(fs_->CreateDirs("/t/x").ok());      // 1
  EXPECT_TRUE(fs_->Exists("/t/x").ok());          // 2
  EXPECT_FALSE(fs_->Stat("/t/x").ok());           // 3
  EXPECT_TRUE(fs_->List("/t").ok());              // 4
}

TEST_F(FaultFs, FaultAfterPutIfAbsentReportsErrorButFileIsDurable) {
  FaultPlan plan;
  FaultRule rule;
  rule.kind = OpKind::kPutIfAbsent;
  rule.when = FaultRule::When::kAfter;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  EXPECT_TRUE(fs_->PutIfAbsent("/t/c", "commit").IsIOError());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/c"), "commit");
}

TEST_F(FaultFs, TornWriteWritesTheGivenPrefixThenFails) {
  FaultPlan plan;
  FaultRule rule;
  rule.kind = OpKind::kAppend;
  rule.nth = 2;
  rule.fault = FaultKind::kTornWrite;
  rule.torn_bytes = 3;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  Status st = WriteChunks(*fs_, "/t/log", {"first|", "second|", "third|"}, false);
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find("torn write"), std::string::npos) << st.message();
  // The handle closed on destruction: the file holds the first chunk and the torn prefix.
  EXPECT_EQ(Read(*fs_, "/t/log"), "first|sec");
}

TEST_F(FaultFs, RandomTornLengthIsAStrictPrefixAndDeterministicPerSeed) {
  auto torn_length = [](uint64_t seed) {
    auto mem = std::make_shared<MemoryFileSystem>();
    FaultInjectionFileSystem fs(mem);
    FaultPlan plan;
    plan.seed = seed;
    FaultRule rule;
    rule.fault = FaultKind::kTornWrite;
    plan.rules.push_back(rule);
    fs.SetPlan(plan);
    std::string data(1000, 'z');
    EXPECT_FALSE(WriteChunks(fs, "/f", {data}, false).ok());
    return Read(*mem, "/f").size();
  };
  std::set<size_t> lengths;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    size_t n = torn_length(seed);
    EXPECT_LT(n, 1000u);
    EXPECT_EQ(n, torn_length(seed));
    lengths.insert(n);
  }
  EXPECT_GT(lengths.size(), 1u);
}

TEST_F(FaultFs, DroppedSyncReturnsOkButCrashLosesTheData) {
  FaultPlan plan;
  FaultRule rule;
  rule.kind = OpKind::kSync;
  rule.nth = 2;
  rule.fault = FaultKind::kDroppedSync;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  ASSERT_TRUE(WriteChunks(*fs_, "/t/f", {"kept", "+dropped"}, /*sync_each=*/true).ok());
  ASSERT_TRUE(fs_->SyncDir("/t").ok());
  EXPECT_EQ(Read(*fs_, "/t/f"), "kept+dropped");
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/f"), "kept");
}

TEST_F(FaultFs, DroppedSyncDirLosesTheNewName) {
  FaultPlan plan;
  FaultRule rule;
  rule.fault = FaultKind::kDroppedSync;  // applies to the first sync-like operation only
  rule.kind = OpKind::kSyncDir;
  plan.rules.push_back(rule);
  fs_->SetPlan(plan);
  ASSERT_TRUE(WriteChunks(*fs_, "/t/f", {"data"}, true).ok());
  ASSERT_TRUE(fs_->SyncDir("/t").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_FALSE(Present(*fs_, "/t/f"));
}

TEST_F(FaultFs, CrashKeepsExactlyTheSyncedBytes) {
  auto f = fs_->OpenForWrite("/t/log");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("synced;").ok());
  ASSERT_TRUE((*f)->Sync().ok());
  ASSERT_TRUE(fs_->SyncDir("/t").ok());
  ASSERT_TRUE((*f)->Append("lost;").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/log"), "synced;");
  // The handle died with the "process".
  EXPECT_TRUE((*f)->Append("more").IsIOError());
  EXPECT_TRUE((*f)->Close().IsIOError());
  f->reset();
  EXPECT_EQ(Read(*fs_, "/t/log"), "synced;");
}

TEST_F(FaultFs, CrashRemovesFilesCreatedAndNeverSynced) {
  ASSERT_TRUE(WriteChunks(*fs_, "/t/new", {"abc"}, false).ok());
  ASSERT_TRUE(fs_->SyncDir("/t").ok());  // the name is durable, the bytes are not
  ASSERT_TRUE(WriteChunks(*fs_, "/t/gone", {"abc"}, false).ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/new"), "");
  EXPECT_FALSE(Present(*fs_, "/t/gone"));
}

TEST_F(FaultFs, StrictModelLosesSyncedFileWithoutDirectorySync) {
  ASSERT_TRUE(WriteChunks(*fs_, "/t/f", {"abc"}, true).ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_FALSE(Present(*fs_, "/t/f"));

  ASSERT_TRUE(WriteChunks(*fs_, "/t/g", {"abc"}, true).ok());
  ASSERT_TRUE(WriteChunks(*fs_, "/t/h", {"abc"}, false).ok());
  CrashOptions lenient;
  lenient.lose_unsynced_dir_entries = false;
  ASSERT_TRUE(fs_->SimulateCrash(lenient).ok());
  EXPECT_EQ(Read(*fs_, "/t/g"), "abc");
  EXPECT_FALSE(Present(*fs_, "/t/h"));  // never synced: gone even in the lenient model
}

TEST_F(FaultFs, PutIfAbsentSyncsItsDirectoryAsLocalFileSystemDoes) {
  ASSERT_TRUE(mem_->CreateDirs("/u").ok());
  ASSERT_TRUE(WriteChunks(*fs_, "/t/data", {"abc"}, true).ok());
  ASSERT_TRUE(WriteChunks(*fs_, "/u/other", {"abc"}, true).ok());
  ASSERT_TRUE(fs_->PutIfAbsent("/t/commit", "c").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/commit"), "c");
  EXPECT_EQ(Read(*fs_, "/t/data"), "abc");  // same directory: its name was fsynced too
  EXPECT_FALSE(Present(*fs_, "/u/other"));  // another directory: still lost
}

TEST_F(FaultFs, CrashUndoesRenameAndDeleteWithoutDirectorySync) {
  mem_->SetContents("/t/old", "O");
  mem_->SetContents("/t/doomed", "D");
  ASSERT_TRUE(fs_->Rename("/t/old", "/t/new").ok());
  ASSERT_TRUE(fs_->Delete("/t/doomed").ok());
  EXPECT_FALSE(Present(*fs_, "/t/old"));
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/old"), "O");
  EXPECT_FALSE(Present(*fs_, "/t/new"));
  EXPECT_EQ(Read(*fs_, "/t/doomed"), "D");

  ASSERT_TRUE(fs_->Rename("/t/old", "/t/new").ok());
  ASSERT_TRUE(fs_->Delete("/t/doomed").ok());
  ASSERT_TRUE(fs_->SyncDir("/t").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_FALSE(Present(*fs_, "/t/old"));
  EXPECT_EQ(Read(*fs_, "/t/new"), "O");
  EXPECT_FALSE(Present(*fs_, "/t/doomed"));
}

TEST_F(FaultFs, CrashRestoresTreeAfterUnsyncedDeleteRecursive) {
  mem_->SetContents("/t/d/a", "A");
  mem_->SetContents("/t/d/e/b", "B");
  ASSERT_TRUE(fs_->DeleteRecursive("/t/d").ok());
  EXPECT_FALSE(Present(*fs_, "/t/d/e/b"));
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/d/a"), "A");
  EXPECT_EQ(Read(*fs_, "/t/d/e/b"), "B");
}

TEST_F(FaultFs, CrashUndoesUnsyncedTruncation) {
  mem_->SetContents("/t/f", "original");
  ASSERT_TRUE(WriteChunks(*fs_, "/t/f", {"new"}, false).ok());
  EXPECT_EQ(Read(*fs_, "/t/f"), "new");
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/f"), "original");
  // The same inode synced: the new content is durable without a directory sync.
  ASSERT_TRUE(WriteChunks(*fs_, "/t/f", {"new"}, true).ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/f"), "new");
}

TEST_F(FaultFs, UntouchedFilesSurviveCrash) {
  mem_->SetContents("/t/keep", "K");
  ASSERT_TRUE(fs_->PutIfAbsent("/t/p", "P").ok());
  ASSERT_TRUE(fs_->WriteAtomic("/t/w", "W").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/keep"), "K");
  EXPECT_EQ(Read(*fs_, "/t/p"), "P");
  EXPECT_EQ(Read(*fs_, "/t/w"), "W");
}

TEST_F(FaultFs, TornTailsKeepSyncedBytesPlusAPrefixOfTheRest) {
  CrashOptions torn;
  torn.torn_unsynced_tails = true;
  std::set<size_t> sizes;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    FaultPlan plan;
    plan.seed = seed;
    fs_->SetPlan(plan);
    std::string path = "/t/log" + std::to_string(seed);
    auto f = fs_->OpenForWrite(path);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Append("head|").ok());
    ASSERT_TRUE((*f)->Sync().ok());
    ASSERT_TRUE(fs_->SyncDir("/t").ok());
    ASSERT_TRUE((*f)->Append("0123456789abcdefghij").ok());
    ASSERT_TRUE(fs_->SimulateCrash(torn).ok());
    std::string got = Read(*fs_, path);
    std::string full = "head|0123456789abcdefghij";
    ASSERT_GE(got.size(), 5u);
    EXPECT_EQ(got, full.substr(0, got.size()));
    sizes.insert(got.size());
  }
  EXPECT_GT(sizes.size(), 1u);
}

TEST_F(FaultFs, OperationsAfterCrashPointFailUntilSimulateCrash) {
  FaultPlan plan;
  plan.crash_after = 2;
  fs_->SetPlan(plan);
  EXPECT_TRUE(fs_->PutIfAbsent("/t/a", "a").ok());
  EXPECT_TRUE(fs_->PutIfAbsent("/t/b", "b").ok());
  Status st = fs_->PutIfAbsent("/t/c", "c");
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find("simulated crash"), std::string::npos);
  EXPECT_FALSE(fs_->Exists("/t/a").ok());
  ASSERT_TRUE(fs_->SimulateCrash().ok());
  EXPECT_EQ(Read(*fs_, "/t/b"), "b");
  EXPECT_FALSE(Present(*fs_, "/t/c"));
}

TEST(FaultFsLocal, CrashRevertsLocalFilesToSyncedContent) {
  shoal::testing::TempDir tmp;
  FaultInjectionFileSystem fs(LocalFileSystem());
  std::string path = tmp.Join("log");
  auto f = fs.OpenForWrite(path);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("durable").ok());
  ASSERT_TRUE((*f)->Sync().ok());
  ASSERT_TRUE(fs.SyncDir(tmp.path()).ok());
  ASSERT_TRUE((*f)->Append("-volatile").ok());
  ASSERT_TRUE(WriteChunks(fs, tmp.Join("fresh"), {"x"}, true).ok());
  ASSERT_TRUE(fs.SimulateCrash().ok());
  EXPECT_EQ(Read(*LocalFileSystem(), path), "durable");
  EXPECT_FALSE(Present(*LocalFileSystem(), tmp.Join("fresh")));
}

// ---- sweeps -----------------------------------------------------------------------------

Result<std::shared_ptr<FileSystem>> FreshMemory() {
  auto mem = std::make_shared<MemoryFileSystem>();
  RETURN_NOT_OK(mem->CreateDirs("/tbl/_delta_log"));
  return std::shared_ptr<FileSystem>(mem);
}

const std::string kCommit = "/tbl/_delta_log/00000000000000000001.json";
const std::string kCommitBody = std::string(300, 'c') + "\n";

// Stages a data file durably, then commits with PutIfAbsent.
Status CommitWorkload(FileSystem& fs) {
  RETURN_NOT_OK(WriteChunks(fs, "/tbl/part-0.parquet", {"PAR1", "rows", "PAR1"}, true));
  RETURN_NOT_OK(fs.SyncDir("/tbl"));
  return fs.PutIfAbsent(kCommit, kCommitBody);
}

TEST(FaultSweep, PutIfAbsentNeverLeavesAPartialCommit) {
  SweepOptions options;
  options.faults = {FaultKind::kEIO, FaultKind::kENOSPC, FaultKind::kTornWrite,
                    FaultKind::kDroppedSync};
  int64_t committed = 0;
  auto verify = [&](FileSystem& fs, const SweepRun& run) -> Status {
    auto got = fs.ReadAll(kCommit);
    if (got.ok() && *got != kCommitBody) return Status::Corruption("partial commit file");
    if (run.workload_status.ok()) {
      if (!got.ok()) return Status::Corruption("acknowledged commit is missing");
      ++committed;
      // An acknowledged commit's data file must have survived too.
      auto data = fs.ReadAll("/tbl/part-0.parquet");
      if (run.crashed && (!data.ok() || *data != "PAR1rowsPAR1") &&
          !(run.fault == FaultKind::kDroppedSync)) {
        return Status::Corruption("committed data file lost");
      }
    }
    return Status::OK();
  };
  auto report = RunFaultSweep(FreshMemory, CommitWorkload, verify, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->ops, 10);  // open, 3x(append, sync), close, sync-dir, put-if-absent
  EXPECT_GT(report->runs, 2 * report->ops);
  EXPECT_GT(committed, 0);
}

TEST(FaultSweep, PutIfAbsentOnLocalFileSystemIsAbsentOrComplete) {
  shoal::testing::TempDir tmp;
  const std::string root = tmp.Join("tbl");
  const std::string commit = root + "/_delta_log/00000000000000000000.json";
  auto factory = [&]() -> Result<std::shared_ptr<FileSystem>> {
    auto local = LocalFileSystem();
    RETURN_NOT_OK(local->DeleteRecursive(root));
    RETURN_NOT_OK(local->CreateDirs(root + "/_delta_log"));
    return local;
  };
  auto workload = [&](FileSystem& fs) -> Status {
    RETURN_NOT_OK(WriteChunks(fs, root + "/part-0.parquet", {"PAR1", "PAR1"}, true));
    RETURN_NOT_OK(fs.SyncDir(root));
    return fs.PutIfAbsent(commit, kCommitBody);
  };
  auto verify = [&](FileSystem& fs, const SweepRun& run) -> Status {
    auto got = fs.ReadAll(commit);
    if (got.ok() && *got != kCommitBody) return Status::Corruption("partial commit file");
    if (run.workload_status.ok() && !got.ok()) return Status::Corruption("commit missing");
    if (got.ok() && run.crashed && Read(fs, root + "/part-0.parquet") != "PAR1PAR1" &&
        run.fault != FaultKind::kDroppedSync) {
      return Status::Corruption("committed data file lost");
    }
    return Status::OK();
  };
  SweepOptions options;
  options.faults = {FaultKind::kEIO, FaultKind::kTornWrite, FaultKind::kDroppedSync};
  auto report = RunFaultSweep(factory, workload, verify, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->ops, 8);  // open, 2x(append, sync), close, sync-dir, put-if-absent
}

TEST(FaultSweep, WriteAtomicLeavesOldOrNewContent) {
  auto factory = []() -> Result<std::shared_ptr<FileSystem>> {
    auto mem = std::make_shared<MemoryFileSystem>();
    mem->SetContents("/tbl/_last_checkpoint", "old");
    return std::shared_ptr<FileSystem>(mem);
  };
  auto workload = [](FileSystem& fs) -> Status {
    RETURN_NOT_OK(fs.WriteAtomic("/tbl/_last_checkpoint", "new-1"));
    return fs.WriteAtomic("/tbl/_last_checkpoint", "new-2");
  };
  auto verify = [](FileSystem& fs, const SweepRun& run) -> Status {
    ASSIGN_OR_RETURN(auto got, fs.ReadAll("/tbl/_last_checkpoint"));
    if (got != "old" && got != "new-1" && got != "new-2") {
      return Status::Corruption("unexpected content '" + got + "'");
    }
    if (run.workload_status.ok() && got != "new-2") return Status::Corruption("lost update");
    return Status::OK();
  };
  SweepOptions options;
  options.faults = {FaultKind::kEIO, FaultKind::kENOSPC};
  auto report = RunFaultSweep(factory, workload, verify, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->ops, 2);
}

TEST(FaultSweep, CatchesInPlaceOverwriteThatIsNotCrashSafe) {
  auto factory = []() -> Result<std::shared_ptr<FileSystem>> {
    auto mem = std::make_shared<MemoryFileSystem>();
    mem->SetContents("/tbl/state", "old-state");
    return std::shared_ptr<FileSystem>(mem);
  };
  // Buggy: truncates and rewrites in place.
  auto workload = [](FileSystem& fs) -> Status {
    return WriteChunks(fs, "/tbl/state", {"new-", "state"}, true);
  };
  auto verify = [](FileSystem& fs, const SweepRun&) -> Status {
    auto got = fs.ReadAll("/tbl/state");
    if (!got.ok() || (*got != "old-state" && *got != "new-state")) {
      return Status::Corruption("torn state file");
    }
    return Status::OK();
  };
  auto report = RunFaultSweep(factory, workload, verify);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("fault sweep:"), std::string::npos)
      << report.status().message();
  EXPECT_NE(report.status().message().find("torn state file"), std::string::npos);
}

TEST(FaultSweep, StrictCrashModelFlagsCommitWithoutDataDirectorySync) {
  auto workload = [](FileSystem& fs) -> Status {
    RETURN_NOT_OK(WriteChunks(fs, "/tbl/part-0.parquet", {"PAR1"}, true));
    return fs.PutIfAbsent(kCommit, kCommitBody);  // missing SyncDir("/tbl")
  };
  auto verify = [](FileSystem& fs, const SweepRun& run) -> Status {
    if (Present(fs, kCommit) && !Present(fs, "/tbl/part-0.parquet")) {
      return Status::Corruption("commit references a lost data file");
    }
    return Status::OK();
  };
  SweepOptions options;
  options.faults = {};
  auto report = RunFaultSweep(FreshMemory, workload, verify, options);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("crash after operation"), std::string::npos)
      << report.status().message();
}

TEST(FaultSweep, SweepsSeveralHundredOperationsInSeconds) {
  // An append-only log: each record is appended and synced, and the file's name is made
  // durable first. After any fault or crash the log must be a whole number of records.
  constexpr int kRecords = 100;
  auto workload = [](FileSystem& fs) -> Status {
    ASSIGN_OR_RETURN(auto f, fs.OpenForWrite("/tbl/log"));
    RETURN_NOT_OK(fs.SyncDir("/tbl"));
    for (int i = 0; i < kRecords; ++i) {
      RETURN_NOT_OK(f->Append("rec" + std::to_string(i % 10) + ";"));
      RETURN_NOT_OK(f->Sync());
    }
    return f->Close();
  };
  auto verify = [](FileSystem& fs, const SweepRun& run) -> Status {
    auto got = fs.ReadAll("/tbl/log");
    if (!got.ok()) return Status::OK();  // the name may be lost if the sync-dir failed
    if (!run.crashed) return Status::OK();  // a live torn append leaves a partial record
    std::string expect;
    for (int i = 0; expect.size() < got->size(); ++i) expect += "rec" + std::to_string(i % 10) + ";";
    if (expect != *got) return Status::Corruption("log is not a whole number of records");
    if (run.workload_status.ok() && expect.size() != 5u * kRecords) {
      return Status::Corruption("acknowledged records lost");
    }
    return Status::OK();
  };
  SweepOptions options;
  options.faults = {FaultKind::kEIO};
  auto start = std::chrono::steady_clock::now();
  auto report = RunFaultSweep(FreshMemory, workload, verify, options);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->ops, 3 + 2 * kRecords);
  EXPECT_EQ(report->runs, 1 + report->ops + (report->ops + 1));
  EXPECT_LT(secs, 10.0 * testing::TimingScale());
}

TEST(FaultSweep, MaxPointsSamplesADeterministicSubsetAndCountsPoints) {
  SweepOptions options;
  options.faults = {FaultKind::kEIO};
  options.max_points = 3;
  std::vector<int64_t> faulted, crashed;
  auto verify = [&](FileSystem&, const SweepRun& run) -> Status {
    if (run.fault && !run.crashed) faulted.push_back(run.k);
    if (!run.fault && run.crashed) crashed.push_back(run.k);
    return Status::OK();
  };
  auto report = RunFaultSweep(FreshMemory, CommitWorkload, verify, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->ops, 10);
  EXPECT_EQ(report->points, 6);
  EXPECT_EQ(report->runs, 1 + 6);
  ASSERT_EQ(faulted.size(), 3u);
  ASSERT_EQ(crashed.size(), 3u);
  EXPECT_TRUE(std::is_sorted(faulted.begin(), faulted.end()));
  EXPECT_EQ(std::set<int64_t>(faulted.begin(), faulted.end()).size(), 3u);
  // The same options pick the same points.
  std::vector<int64_t> first = faulted;
  faulted.clear();
  crashed.clear();
  ASSERT_TRUE(RunFaultSweep(FreshMemory, CommitWorkload, verify, options).ok());
  EXPECT_EQ(faulted, first);
}

TEST(FaultSweep, MaxFailuresRecordsFailuresAndGoesOn) {
  SweepOptions options;
  options.faults = {FaultKind::kEIO};
  options.crash_after_fault = false;
  options.crash_after_each_op = false;
  auto verify = [](FileSystem&, const SweepRun& run) -> Status {
    if (run.fault && run.k % 2 == 0) return Status::Corruption("even point");
    return Status::OK();
  };
  auto stop = RunFaultSweep(FreshMemory, CommitWorkload, verify, options);
  ASSERT_FALSE(stop.ok());
  EXPECT_NE(stop.status().message().find("even point"), std::string::npos);
  options.max_failures = 100;
  auto all = RunFaultSweep(FreshMemory, CommitWorkload, verify, options);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->failures.size(), 5u);  // k = 2, 4, 6, 8, 10
  EXPECT_EQ(all->points, 10);
}

TEST(FaultSweep, RejectsWorkloadLongerThanMaxOps) {
  SweepOptions options;
  options.max_ops = 3;
  auto report = RunFaultSweep(FreshMemory, CommitWorkload,
                              [](FileSystem&, const SweepRun&) { return Status::OK(); }, options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), StatusCode::kInvalidArgument);
}

// ---- concurrency ------------------------------------------------------------------------

TEST(FaultFsConcurrency, EightThreadsCountExactlyAndOnePutIfAbsentWins) {
  auto mem = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(mem->CreateDirs("/c").ok());
  FaultInjectionFileSystem fs(mem);
  FaultPlan plan;
  FaultRule rule;
  rule.kind = OpKind::kAppend;
  rule.fault = FaultKind::kEIO;
  rule.max_fires = 5;
  plan.rules.push_back(rule);
  fs.SetPlan(plan);
  constexpr int kThreads = 8, kFiles = 50;
  std::atomic<int> winners{0}, append_errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kFiles; ++i) {
        std::string path = "/c/t" + std::to_string(t) + "_" + std::to_string(i);
        auto f = fs.OpenForWrite(path);
        if (!f.ok()) continue;
        if (!(*f)->Append("abc").ok()) ++append_errors;
        (void)(*f)->Sync();
        (void)(*f)->Close();
        (void)fs.ReadAll(path);
        if (fs.PutIfAbsent("/c/race" + std::to_string(i), std::to_string(t)).ok()) ++winners;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(winners.load(), kFiles);
  EXPECT_EQ(append_errors.load(), 5);
  EXPECT_EQ(fs.FaultsInjected(), 5);
  const int64_t n = kThreads * kFiles;
  EXPECT_EQ(fs.OpCount(OpKind::kOpenWrite), n);
  EXPECT_EQ(fs.OpCount(OpKind::kAppend), n);
  EXPECT_EQ(fs.OpCount(OpKind::kPutIfAbsent), n);
  int64_t sum = 0;
  for (int k = 0; k < kNumOpKinds; ++k) sum += fs.OpCount(static_cast<OpKind>(k));
  EXPECT_EQ(sum, fs.OpCount());
  EXPECT_EQ(fs.OpCount(), 7 * n);  // open-write, append, sync, close, open-read, read, put
  ASSERT_TRUE(fs.SimulateCrash().ok());
  for (int i = 0; i < kFiles; ++i) EXPECT_TRUE(Present(fs, "/c/race" + std::to_string(i)));
}

}  // namespace
}  // namespace shoal::io
