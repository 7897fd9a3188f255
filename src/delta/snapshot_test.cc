#include "delta/snapshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <random>

#include "support/testdata.h"

namespace shoal::delta {
namespace {

std::string V(int64_t v) { return CommitFileName(v); }

class Table {
 public:
  Table() : fs_(io::LocalFileSystem()) { EXPECT_TRUE(fs_->CreateDirs(LogDirOf(dir_.path())).ok()); }
  void Commit(int64_t v, const std::vector<Action>& actions) {
    ASSERT_TRUE(fs_->PutIfAbsent(io::JoinPath(LogDirOf(dir_.path()), V(v)), SerializeCommit(actions)).ok());
  }
  void PutLog(const std::string& name, const std::string& text) {
    ASSERT_TRUE(fs_->WriteAtomic(io::JoinPath(LogDirOf(dir_.path()), name), text).ok());
  }
  Result<std::shared_ptr<const Snapshot>> Load(std::optional<int64_t> v = std::nullopt) {
    SnapshotOptions o;
    o.version = v;
    return Snapshot::Load(fs_, dir_.path(), o);
  }
  const std::string& root() const { return dir_.path(); }

 private:
  testing::TempDir dir_;
  std::shared_ptr<io::FileSystem> fs_;
};

Protocol P() {
  Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = std::vector<std::string>{"deletionVectors"};
  p.writer_features = std::vector<std::string>{"deletionVectors", "domainMetadata"};
  return p;
}
Metadata M(const std::string& id = "t") {
  Metadata m;
  m.id = id;
  m.schema_string = R"({"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}}]})";
  return m;
}
AddFile Add(const std::string& path, std::optional<std::string> dv = std::nullopt) {
  AddFile a;
  a.path = path;
  a.size = 10;
  a.modification_time = 1;
  if (dv) {
    DeletionVectorDescriptor d;
    d.storage_type = 'u';
    d.path_or_inline_dv = *dv;
    d.offset = 1;
    d.size_in_bytes = 30;
    d.cardinality = 1;
    a.deletion_vector = d;
  }
  return a;
}
RemoveFile Remove(const std::string& path, std::optional<std::string> dv = std::nullopt, int64_t ts = 5) {
  RemoveFile r;
  r.path = path;
  r.deletion_timestamp = ts;
  if (dv) r.deletion_vector = Add(path, dv).deletion_vector;
  return r;
}

std::vector<std::string> Paths(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& f : s.files()) out.push_back(f.path + (f.deletion_vector ? "#" + f.DvUniqueId() : ""));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(LogReplay, RemoveCancelsAddWithSameDvAndLatestWins) {
  Table t;
  t.Commit(0, {P(), M(), Add("a"), Add("b"), Add("c")});
  t.Commit(1, {Remove("a"), Add("a", "dv1aaaaaaaaaaaaaaaaa")});  // DELETE via DV
  t.Commit(2, {Remove("a", "dv1aaaaaaaaaaaaaaaaa"), Add("a", "dv2aaaaaaaaaaaaaaaaa")});
  t.Commit(3, {Remove("b", "wrongdvaaaaaaaaaaaaa")});  // different DV id: b stays
  t.Commit(4, {Remove("c", std::nullopt, 77)});
  auto s = t.Load();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->version(), 4);
  EXPECT_EQ(Paths(**s), (std::vector<std::string>{"a#udv2aaaaaaaaaaaaaaaaa@1", "b"}));
  bool found_c = false;
  for (const auto& r : (*s)->tombstones()) {
    if (r.path == "c") {
      found_c = true;
      EXPECT_EQ(r.deletion_timestamp, 77);
    }
  }
  EXPECT_TRUE(found_c);
  auto s1 = t.Load(1);
  ASSERT_TRUE(s1.ok());
  EXPECT_EQ(Paths(**s1), (std::vector<std::string>{"a#udv1aaaaaaaaaaaaaaaaa@1", "b", "c"}));
}

TEST(LogReplay, ReAddAfterRemoveRestoresFileAndClearsTombstone) {
  Table t;
  t.Commit(0, {P(), M(), Add("a")});
  t.Commit(1, {Remove("a")});
  t.Commit(2, {Add("a")});
  auto s = t.Load();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Paths(**s), std::vector<std::string>{"a"});
  EXPECT_TRUE((*s)->tombstones().empty());
}

TEST(LogReplay, ProtocolMetadataTxnAndDomainsAreLatest) {
  Table t;
  Txn t1{"app", 1, 10}, t2{"app", 2, 20}, t3{"other", 9, std::nullopt};
  DomainMetadata d1{"delta.rowTracking", "{\"x\":1}", false}, d2{"user.d", "c", false},
      d3{"user.d", "", true};
  t.Commit(0, {P(), M("first"), t1, d1, d2});
  Protocol p2 = P();
  p2.writer_features->push_back("rowTracking");
  t.Commit(1, {M("second"), p2, t2, t3, d3});
  auto s = t.Load();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->metadata().id, "second");
  EXPECT_EQ((*s)->protocol(), p2);
  EXPECT_EQ((*s)->AppTransactionVersion("app"), 2);
  EXPECT_EQ((*s)->AppTransactionVersion("other"), 9);
  EXPECT_FALSE((*s)->AppTransactionVersion("nope"));
  ASSERT_EQ((*s)->domain_metadata().size(), 1u);
  EXPECT_EQ((*s)->domain_metadata().begin()->first, "delta.rowTracking");
  auto schema = (*s)->Schema();
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->children[0].name, "a");
}

TEST(LogReplay, MissingProtocolOrMetadataIsCorruption) {
  Table t;
  t.Commit(0, {M(), Add("a")});
  auto s = t.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorruption());
  EXPECT_NE(s.status().message().find("no protocol"), std::string::npos);
  Table u;
  u.Commit(0, {P(), Add("a")});
  s = u.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("no metadata"), std::string::npos);
}

TEST(LogReplay, UnreadableProtocolIsNotSupported) {
  Table t;
  Protocol p = P();
  p.reader_features->push_back("someFutureFeature");
  t.Commit(0, {p, M()});
  auto s = t.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsNotSupported());
  EXPECT_NE(s.status().message().find("'someFutureFeature'"), std::string::npos);
}

TEST(LogReplay, JsonV2CheckpointWithJsonSidecar) {
  Table t;
  t.Commit(0, {P(), M(), Add("old")});
  t.Commit(1, {Add("x")});
  t.Commit(2, {Add("y")});
  // Checkpoint at 1 says: protocol, metadata, files {a, b} (from a sidecar) - commit 0/1 are
  // deliberately different, so the result proves the checkpoint was used.
  ASSERT_TRUE(io::LocalFileSystem()->CreateDirs(LogDirOf(t.root()) + "/_sidecars").ok());
  const std::string sidecar = SerializeCommit({Add("a"), Add("b")});
  t.PutLog("_sidecars/s1.json", sidecar);
  Sidecar sc;
  sc.path = "s1.json";
  sc.size_in_bytes = static_cast<int64_t>(sidecar.size());
  sc.modification_time = 1;
  CheckpointMetadata cm;
  cm.version = 1;
  t.PutLog(std::string(V(1)).substr(0, 20) + ".checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json",
           SerializeCommit({cm, sc, P(), M()}));
  auto s = t.Load();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Paths(**s), (std::vector<std::string>{"a", "b", "y"}));
  EXPECT_EQ((*s)->commit_timestamps().size(), 1u);
}

TEST(LogReplay, ParquetCheckpointWithoutReaderIsNotSupported) {
  Table t;
  t.Commit(0, {P(), M(), Add("a")});
  t.Commit(1, {Add("b")});
  t.PutLog(std::string(V(1)).substr(0, 20) + ".checkpoint.parquet", "PAR1");
  auto s = t.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsNotSupported());
  EXPECT_NE(s.status().message().find("no Parquet checkpoint reader"), std::string::npos);
  EXPECT_NE(s.status().message().find("checkpoint.parquet"), std::string::npos);
  EXPECT_TRUE(t.Load(0).ok());
}

TEST(LogReplay, RecordsCommitTimestampsPreferringInCommitTimestamp) {
  Table t;
  CommitInfo ci;
  ci.json = Json::parse(R"({"timestamp":5,"inCommitTimestamp":123456})");
  t.Commit(0, {ci, P(), M()});
  auto s = t.Load();
  ASSERT_TRUE(s.ok());
  ASSERT_EQ((*s)->commit_timestamps().size(), 1u);
  EXPECT_EQ((*s)->timestamp_ms(), 123456);
  ASSERT_TRUE((*s)->latest_commit_info());
  EXPECT_EQ((*s)->latest_commit_info()->Timestamp(), 5);
}

std::vector<std::string> TombstoneKeys(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& r : s.tombstones()) out.push_back(r.path + "#" + r.DvUniqueId());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> OrderedPaths(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& f : s.files()) out.push_back(f.path + "#" + f.DvUniqueId());
  return out;
}

// Oracle: a checkpoint plus a tail that removes, re-adds (with new DVs) and removes-with-another-
// DV checkpoint files replays to the same files and tombstones as the full JSON log; the
// parallel, sequential and DOM paths agree exactly (same file order).
TEST(LogReplay, CheckpointWithTouchingTailMatchesFullJsonReplay) {
  Table full, cp;
  std::mt19937 rng(5);
  std::vector<std::pair<std::string, std::optional<std::string>>> live;
  int next = 0;
  const int kCommits = 300, kCheckpoint = 150;
  for (int v = 0; v < kCommits; ++v) {
    std::vector<Action> actions;
    if (v == 0) {
      actions.push_back(P());
      actions.push_back(M());
    }
    for (int i = 0; i < 3; ++i) {
      live.emplace_back(std::string("f").append(std::to_string(next++)), std::nullopt);
      actions.emplace_back(Add(live.back().first));
    }
    if (v > 0) {
      size_t i = rng() % live.size();
      auto& [path, dv] = live[i];
      switch (rng() % 3) {
        case 0:  // delete the file
          actions.push_back(Remove(path, dv, v));
          live.erase(live.begin() + static_cast<long>(i));
          break;
        case 1: {  // new DV: remove the old version, add the new one
          actions.push_back(Remove(path, dv, v));
          dv = "dv" + std::to_string(v);
          actions.push_back(Add(path, dv));
          break;
        }
        default:  // a remove naming another DV cancels nothing
          actions.push_back(Remove(path, std::string("other") + std::to_string(v), v));
          break;
      }
    }
    full.Commit(v, actions);
    cp.Commit(v, actions);
  }
  auto at = full.Load(kCheckpoint);
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  CheckpointMetadata cm;
  cm.version = kCheckpoint;
  std::vector<Action> state = {cm, P(), M()};
  for (const auto& f : (*at)->files()) state.push_back(f);
  for (const auto& r : (*at)->tombstones()) state.push_back(r);
  cp.PutLog(std::string(V(kCheckpoint)).substr(0, 20) + ".checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json",
            SerializeCommit(state));

  auto a = full.Load();
  auto b = cp.Load();
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*b)->segment().checkpoint_version, kCheckpoint);
  EXPECT_EQ(Paths(**a), Paths(**b));
  EXPECT_EQ(TombstoneKeys(**a), TombstoneKeys(**b));
  EXPECT_EQ((*a)->files().size(), live.size());

  for (Table* t : {&full, &cp}) {
    SnapshotOptions seq;
    seq.threads = 1;
    SnapshotOptions dom;
    dom.dom_json_parser = true;
    SnapshotOptions par;
    par.threads = 4;
    auto s1 = Snapshot::Load(io::LocalFileSystem(), t->root(), seq);
    auto s2 = Snapshot::Load(io::LocalFileSystem(), t->root(), dom);
    auto s3 = Snapshot::Load(io::LocalFileSystem(), t->root(), par);
    ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok());
    EXPECT_EQ(OrderedPaths(**s1), OrderedPaths(**s2));
    EXPECT_EQ(OrderedPaths(**s1), OrderedPaths(**s3));
    EXPECT_EQ(TombstoneKeys(**s1), TombstoneKeys(**s3));
    EXPECT_EQ((*s1)->commit_timestamps().size(), (*s3)->commit_timestamps().size());
  }
}

// Errors keep their order: the first broken commit (in version order) is reported, also when
// commits are parsed on several threads.
TEST(LogReplay, FirstBrokenCommitIsReportedWithParallelParsing) {
  Table t;
  t.Commit(0, {P(), M()});
  for (int v = 1; v < 200; ++v) t.Commit(v, {Add(std::string("f").append(std::to_string(v)))});
  t.PutLog(V(200), R"({"add":{"path":"x","partitionValues":{},"size":"big","modificationTime":1,"dataChange":true}})");
  t.PutLog(V(201), "{not json\n");
  for (int threads : {1, 4}) {
    SnapshotOptions o;
    o.threads = threads;
    auto s = Snapshot::Load(io::LocalFileSystem(), t.root(), o);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), StatusCode::kCorruption);
    EXPECT_NE(s.status().message().find(V(200) + ": line 1: add: field 'size' is not an integer"),
              std::string::npos)
        << s.status().ToString();
  }
}

// Benchmark-like: 10,000 commits with 100,000 adds and removes. Bounded loosely so it only
// catches pathological (quadratic) replay.
TEST(LogReplay, LoadsTenThousandCommitsQuickly) {
  Table t;
  auto fs = io::LocalFileSystem();
  std::string log = LogDirOf(t.root());
  int64_t expected_live = 0;
  for (int v = 0; v < 10000; ++v) {
    std::vector<Action> actions;
    if (v == 0) {
      actions.push_back(P());
      actions.push_back(M());
    }
    for (int i = 0; i < 8; ++i) {  // 8 adds per commit = 80,000 adds
      AddFile a = Add("part-" + std::to_string(v) + "-" + std::to_string(i) + ".parquet");
      a.stats = R"({"numRecords":100,"minValues":{"a":1},"maxValues":{"a":9},"nullCount":{"a":0}})";
      actions.emplace_back(std::move(a));
    }
    if (v > 0) {  // 2 removes of the previous commit's files = ~20,000 removes
      for (int i = 0; i < 2; ++i) actions.push_back(Remove("part-" + std::to_string(v - 1) + "-" + std::to_string(i) + ".parquet"));
    }
    expected_live += 8 - (v > 0 ? 2 : 0);
    auto f = fs->OpenForWrite(io::JoinPath(log, V(v)));  // no fsync: setup speed only
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Append(SerializeCommit(actions)).ok());
    ASSERT_TRUE((*f)->Close().ok());
  }
  auto start = std::chrono::steady_clock::now();
  auto s = t.Load();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->version(), 9999);
  EXPECT_EQ(static_cast<int64_t>((*s)->files().size()), expected_live);
  EXPECT_EQ((*s)->tombstones().size(), 9999u * 2);
  std::printf("loaded 10000 commits / %zu files in %.3f s\n", (*s)->files().size(), secs);
  EXPECT_LT(secs, 60.0 * testing::TimingScale());
}

// SnapshotOptions::progress: bytes of the log, the commits counted when read and again when
// replayed; from several reader threads, each call within planned, the last planned of planned.
TEST(LogReplay, LoadReportsProgressInLogBytes) {
  Table t;
  t.Commit(0, {P(), M()});
  for (int64_t v = 1; v < 150; ++v) t.Commit(v, {Add(std::string("f").append(std::to_string(v)))});
  int64_t bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(LogDirOf(t.root()))) {
    bytes += static_cast<int64_t>(e.file_size());
  }
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> calls;
  SnapshotOptions o;
  o.threads = 4;
  o.progress = [&](int64_t done, int64_t planned) {
    std::lock_guard<std::mutex> lock(mu);
    calls.emplace_back(done, planned);
  };
  auto snap = Snapshot::Load(io::LocalFileSystem(), t.root(), o);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  ASSERT_GE(calls.size(), 150u);  // one per commit read, at least
  EXPECT_EQ(calls.back(), std::make_pair(2 * bytes, 2 * bytes));
  int64_t read_max = 0;
  for (const auto& [done, planned] : calls) {
    EXPECT_EQ(planned, 2 * bytes);
    EXPECT_GE(done, 0);
    EXPECT_LE(done, planned);
    read_max = std::max(read_max, done);
  }
  EXPECT_EQ(read_max, 2 * bytes);
}

}  // namespace
}  // namespace shoal::delta
