// The commit loop on real files: racing writers through PutIfAbsent, commitInfo contents,
// the checkpoint hook and detection of an own commit whose acknowledgement was lost.
#include <atomic>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "support/testdata.h"
#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using testing_support::MakeAdd;
using testing_support::Rows;
using testing_support::TableSpec;
using testing_support::TestTable;

TEST(TxnConcurrency, RacingBlindAppendsAreAllCommittedOnceWithContiguousVersions) {
  shoal::testing::TempDir dir;
  TestTable table(io::LocalFileSystem(), dir.Join("t"), TableSpec{});
  table.Create({});
  constexpr int kThreads = 4;
  constexpr int kCommits = 8;
  std::vector<std::vector<int64_t>> versions(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        auto snap = delta::Snapshot::Load(table.fs(), table.root());
        if (!snap.ok()) {
          errors[t] = snap.status().ToString();
          return;
        }
        TransactionOptions o;
        o.max_backoff_ms = 2;
        auto txn = Transaction::Begin(table.fs(), table.root(), *snap, o);
        if (!txn.ok()) {
          errors[t] = txn.status().ToString();
          return;
        }
        (*txn)->AddFile(MakeAdd("t" + std::to_string(t) + "-" + std::to_string(i) + ".parquet",
                                std::nullopt, 0, 1));
        auto r = (*txn)->Commit();
        if (!r.ok()) {
          errors[t] = r.status().ToString();
          return;
        }
        versions[t].push_back(r->version);
      }
    });
  }
  for (auto& th : pool) th.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  std::set<int64_t> all;
  for (const auto& v : versions) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kCommits));  // no version acknowledged twice
  auto snap = table.Snap();
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->version(), kThreads * kCommits);
  EXPECT_EQ(*all.begin(), 1);
  EXPECT_EQ(*all.rbegin(), kThreads * kCommits);
  std::set<std::string> paths;
  for (const auto& f : snap->files()) EXPECT_TRUE(paths.insert(f.path).second) << f.path;
  EXPECT_EQ(paths.size(), static_cast<size_t>(kThreads * kCommits));
}

TEST(TxnConcurrency, RacingRowDeletesOfOneFileAllLandInTheDv) {
  shoal::testing::TempDir dir;
  TableSpec spec;
  spec.deletion_vectors = true;
  TestTable table(io::LocalFileSystem(), dir.Join("t"), spec);
  table.Create({MakeAdd("a.parquet", std::nullopt, 0, 999, 1000)});
  constexpr int kThreads = 4;
  constexpr int kCommits = 5;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        auto snap = delta::Snapshot::Load(table.fs(), table.root());
        if (!snap.ok()) {
          errors[t] = snap.status().ToString();
          return;
        }
        TransactionOptions o;
        o.max_backoff_ms = 2;
        auto txn = Transaction::Begin(table.fs(), table.root(), *snap, o);
        if (!txn.ok()) {
          errors[t] = txn.status().ToString();
          return;
        }
        delta::DeletionVector rows;
        // 60 rows per commit, disjoint between all (thread, commit) pairs: large enough for a DV file.
        for (uint64_t k = 0; k < 60; ++k) rows.Add((t * kCommits + i) + k * kThreads * kCommits);
        if (Status st = (*txn)->DeleteRows((*snap)->files()[0], rows); !st.ok()) {
          errors[t] = st.ToString();
          return;
        }
        auto r = (*txn)->Commit();
        if (!r.ok()) {
          errors[t] = r.status().ToString();
          return;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  auto snap = table.Snap();
  ASSERT_NE(snap, nullptr);
  ASSERT_EQ(snap->files().size(), 1u);
  ASSERT_TRUE(snap->files()[0].deletion_vector);
  auto dv = delta::DeletionVector::Load(*table.fs(), table.root(), *snap->files()[0].deletion_vector);
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  delta::DeletionVector expected;
  expected.AddRange(0, 60 * kThreads * kCommits);
  EXPECT_EQ(*dv, expected);
}

TEST(CommitLoop, CommitInfoRecordsOperationIsolationAndTxnId) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  TestTable table(fs, "/t", TableSpec{});
  table.Create({});
  TransactionOptions o;
  o.operation = "DELETE";
  o.operation_parameters["predicate"] = "[\"(id = 5)\"]";
  auto t = table.Begin(o);
  t->ReadWholeTable();
  t->AddFile(MakeAdd("x.parquet", std::nullopt, 0, 1));
  auto r = t->Commit();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto snap = table.Snap();
  const auto& ci = *snap->latest_commit_info();
  EXPECT_EQ(ci.Operation(), "DELETE");
  EXPECT_EQ(ci.OperationParameters().at("predicate"), "[\"(id = 5)\"]");
  EXPECT_EQ(ci.IsolationLevel(), "WriteSerializable");
  EXPECT_EQ(ci.IsBlindAppend(), false);
  EXPECT_EQ(ci.ReadVersion(), 0);
  EXPECT_EQ(ci.TxnId(), t->txn_id());
  EXPECT_EQ(t->txn_id().size(), 36u);
  EXPECT_EQ(t->txn_id()[14], '4');
  EXPECT_EQ(ci.json["engineInfo"], "shoal/0.1.0");
  EXPECT_FALSE(ci.InCommitTimestamp());  // not enabled
}

TEST(CommitLoop, InCommitTimestampsIncreaseEvenWhenTheClockDoesNot) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  TestTable table(fs, "/t", TableSpec().Config("delta.enableInCommitTimestamps", "true"));
  table.Create({});
  std::vector<int64_t> ict;
  for (int i = 0; i < 3; ++i) {
    TransactionOptions o;
    o.clock_ms = [] { return int64_t{1000}; };
    auto t = table.Begin(o);
    t->AddFile(MakeAdd("x" + std::to_string(i) + ".parquet", std::nullopt, 0, 1));
    ASSERT_TRUE(t->Commit().ok());
    auto ts = table.Snap()->latest_commit_info()->InCommitTimestamp();
    ASSERT_TRUE(ts);
    ict.push_back(*ts);
  }
  EXPECT_GE(ict[0], 1000);
  EXPECT_EQ(ict[1], ict[0] + 1);
  EXPECT_EQ(ict[2], ict[1] + 1);
}

TEST(CommitLoop, CommitIsSingleUse) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  TestTable table(fs, "/t", TableSpec{});
  table.Create({});
  auto t = table.Begin();
  t->AddFile(MakeAdd("x.parquet", std::nullopt, 0, 1));
  ASSERT_TRUE(t->Commit().ok());
  auto again = t->Commit();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kTransaction);
}

TEST(CommitLoop, CheckpointHookRunsAtInterval) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  TestTable table(fs, "/t", TableSpec().Config("delta.checkpointInterval", "2"));
  table.Create({});
  std::vector<int64_t> calls;
  for (int i = 0; i < 4; ++i) {
    TransactionOptions o;
    o.checkpoint_hook = [&](int64_t v) {
      calls.push_back(v);
      return Status::OK();
    };
    auto t = table.Begin(o);
    t->AddFile(MakeAdd("x" + std::to_string(i) + ".parquet", std::nullopt, 0, 1));
    ASSERT_TRUE(t->Commit().ok());
  }
  EXPECT_EQ(calls, (std::vector<int64_t>{2, 4}));
}

// Forwards to a MemoryFileSystem; when armed, the next PutIfAbsent lands but reports an I/O
// error (a lost acknowledgement).
class LostAckFileSystem final : public io::FileSystem {
 public:
  Result<std::unique_ptr<io::RandomAccessFile>> OpenForRead(const std::string& p) override {
    return mem_.OpenForRead(p);
  }
  Result<std::unique_ptr<io::WritableFile>> OpenForWrite(const std::string& p) override {
    return mem_.OpenForWrite(p);
  }
  Status PutIfAbsent(const std::string& path, std::string_view contents) override {
    Status st = mem_.PutIfAbsent(path, contents);
    if (st.ok() && armed_) {
      armed_ = false;
      return Status::IOError("connection reset while committing " + path);
    }
    return st;
  }
  Status WriteAtomic(const std::string& p, std::string_view c) override { return mem_.WriteAtomic(p, c); }
  Result<std::vector<io::FileInfo>> List(const std::string& d) override { return mem_.List(d); }
  Result<io::FileInfo> Stat(const std::string& p) override { return mem_.Stat(p); }
  Result<bool> Exists(const std::string& p) override { return mem_.Exists(p); }
  Status CreateDirs(const std::string& p) override { return mem_.CreateDirs(p); }
  Status Delete(const std::string& p) override { return mem_.Delete(p); }
  Status DeleteRecursive(const std::string& p) override { return mem_.DeleteRecursive(p); }
  Status Rename(const std::string& a, const std::string& b) override { return mem_.Rename(a, b); }
  Status SyncDir(const std::string& d) override { return mem_.SyncDir(d); }

  bool armed_ = false;

 private:
  io::MemoryFileSystem mem_;
};

TEST(CommitLoop, OwnCommitWithLostAcknowledgementIsRecognizedByTxnId) {
  auto fs = std::make_shared<LostAckFileSystem>();
  TestTable table(fs, "/t", TableSpec{});
  table.Create({});
  fs->armed_ = true;
  auto t = table.Begin();
  t->AddFile(MakeAdd("x.parquet", std::nullopt, 0, 1));
  auto r = t->Commit();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->version, 1);
  EXPECT_FALSE(fs->armed_);
  auto snap = table.Snap();
  EXPECT_EQ(snap->version(), 1);
  EXPECT_EQ(snap->files().size(), 1u);
}

TEST(CommitLoop, ConflictsAlsoDetectedOnLocalFileSystem) {
  shoal::testing::TempDir dir;
  TestTable table(io::LocalFileSystem(), dir.Join("t"), TableSpec().DeletionVectors());
  table.Create({MakeAdd("a.parquet", std::nullopt, 0, 99)});
  auto a = table.Snap()->files()[0];
  auto loser = table.Begin();
  ASSERT_TRUE(loser->DeleteRows(a, Rows({1})).ok());
  auto winner = table.Begin();
  ASSERT_TRUE(winner->DeleteRows(a, Rows({1, 2})).ok());
  ASSERT_TRUE(winner->Commit().ok());
  auto r = loser->Commit();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().conflict(), ConflictKind::kConcurrentDeleteDelete);
}

}  // namespace
}  // namespace shoal::txn
