// V2 checkpoints with sidecars, multi-part classic checkpoints and log compaction files: every
// version reloads to the state the JSON log alone gives; the written files carry the protocol's
// fields; DuckDB reads the Parquet files; damaged checkpoints are named errors or fall back.
#include <gtest/gtest.h>

#include "delta/checkpoint_loader.h"
#include "support/testdata.h"
#include "table/checkpoint_test_log.h"
#include "table/log_compaction.h"
#include "table/spark_hash.h"

namespace shoal::table {
namespace {

using testlog::BuildRandomLog;
using testlog::JsonLogState;
using testlog::Readers;
using testlog::StateText;

std::vector<io::FileInfo> ListDir(io::FileSystem& fs, const std::string& dir) {
  auto l = fs.List(dir);
  return l.ok() ? *l : std::vector<io::FileInfo>{};
}

std::vector<std::string> NamesWith(io::FileSystem& fs, const std::string& dir, const std::string& part) {
  std::vector<std::string> out;
  for (const auto& f : ListDir(fs, dir)) {
    if (f.name.find(part) != std::string::npos && f.name[0] != '.') out.push_back(f.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every version: the normal load (newest checkpoint at or before it, then commits) equals the
// JSON-only replay.
void ExpectEveryVersionMatchesTheJsonLog(std::shared_ptr<io::FileSystem> fs, const std::string& root, int64_t last) {
  for (int64_t v = 0; v <= last; ++v) {
    auto o = Readers();
    o.version = v;
    o.checkpoint_fallback = false;
    auto snap = delta::Snapshot::Load(fs, root, o);
    ASSERT_TRUE(snap.ok()) << "version " << v << ": " << snap.status().ToString();
    EXPECT_EQ(StateText(**snap), JsonLogState(fs, root, v)) << "version " << v;
  }
}

TEST(CheckpointV2, EveryVersionReloadsAsTheJsonLogSays) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  const std::string root = dir.Join("t");
  BuildRandomLog(fs, root, /*v2=*/true, 30, 3, /*part_size=*/4, 7);
  const std::string log = root + "/_delta_log";
  EXPECT_EQ(NamesWith(*fs, log, ".checkpoint.parquet").size(), 0u);  // no classic checkpoint
  EXPECT_EQ(NamesWith(*fs, log, ".checkpoint.").size(), 10u);       // UUID-named, one per 3 commits
  EXPECT_GT(NamesWith(*fs, log + "/_sidecars", ".parquet").size(), 10u);
  auto latest = delta::Snapshot::Load(fs, root, Readers());
  ASSERT_TRUE(latest.ok());
  ASSERT_EQ(latest->get()->segment().checkpoint_files.size(), 1u);
  EXPECT_EQ(latest->get()->segment().checkpoint_files[0].kind, delta::LogFileKind::kV2Checkpoint);
  ExpectEveryVersionMatchesTheJsonLog(fs, root, 30);
}

TEST(CheckpointV2, MatchesTheSameTableWithClassicCheckpoints) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  BuildRandomLog(fs, dir.Join("v2"), true, 20, 2, 3, 11);
  BuildRandomLog(fs, dir.Join("v1"), false, 20, 2, 1000, 11);
  for (int64_t v = 0; v <= 20; ++v) {
    auto o = Readers();
    o.version = v;
    auto a = delta::Snapshot::Load(fs, dir.Join("v2"), o);
    auto b = delta::Snapshot::Load(fs, dir.Join("v1"), o);
    ASSERT_TRUE(a.ok() && b.ok()) << v;
    // The tables differ only in their protocol's v2Checkpoint feature and policy property.
    auto body = [](const std::string& s) { return s.substr(s.find('\n', s.find('\n') + 1)); };
    EXPECT_EQ(body(StateText(**a)), body(StateText(**b))) << "version " << v;
  }
}

TEST(CheckpointV2, FilesCarryTheProtocolsFields) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  const std::string root = dir.Join("t");
  BuildRandomLog(fs, root, true, 9, 9, 5, 3);
  const std::string log = root + "/_delta_log";
  auto tops = NamesWith(*fs, log, ".checkpoint.");
  ASSERT_EQ(tops.size(), 1u);
  ASSERT_TRUE(delta::ClassifyLogFileName(tops[0]).has_value());
  EXPECT_EQ(delta::ClassifyLogFileName(tops[0])->kind, delta::LogFileKind::kV2Checkpoint);
  auto text = fs->ReadAll(log + "/" + tops[0]);
  ASSERT_TRUE(text.ok());
  std::vector<delta::Json> lines;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) lines.push_back(delta::Json::parse(line));
  // PROTOCOL.md "V2 Spec": exactly one checkpointMetadata (version required); all non-file
  // actions here; file actions only in sidecars (path, sizeInBytes, modificationTime required).
  int metadata = 0, protocol = 0, meta = 0;
  int64_t sidecar_bytes = 0;
  std::vector<std::string> sidecars;
  for (const auto& j : lines) {
    ASSERT_EQ(j.size(), 1u);
    const std::string kind = j.begin().key();
    EXPECT_TRUE(kind != "add" && kind != "remove") << kind;
    if (kind == "checkpointMetadata") {
      ++metadata;
      EXPECT_EQ(j[kind]["version"], 9);
    }
    protocol += kind == "protocol";
    meta += kind == "metaData";
    if (kind == "sidecar") {
      const auto& s = j[kind];
      ASSERT_TRUE(s.contains("path") && s.contains("sizeInBytes") && s.contains("modificationTime")) << s.dump();
      std::string name = s["path"];
      EXPECT_EQ(name.find('/'), std::string::npos);
      auto info = fs->Stat(log + "/_sidecars/" + name);
      ASSERT_TRUE(info.ok()) << name;
      EXPECT_EQ(info->size, s["sizeInBytes"].get<int64_t>());
      EXPECT_GT(s["modificationTime"].get<int64_t>(), 0);
      sidecar_bytes += info->size;
      sidecars.push_back(log + "/_sidecars/" + name);
    }
  }
  EXPECT_EQ(metadata, 1);
  EXPECT_EQ(protocol, 1);
  EXPECT_EQ(meta, 1);
  EXPECT_GE(sidecars.size(), 2u);

  auto snap = delta::Snapshot::Load(fs, root, Readers());
  ASSERT_TRUE(snap.ok());
  // Sidecars hold only add and remove rows, with the fields the checkpoint schema requires.
  int64_t adds = 0, removes = 0;
  auto reader = delta::DefaultCheckpointReaders().parquet;
  for (const auto& path : sidecars) {
    ASSERT_TRUE(reader
                    ->Read(*fs, path,
                           [&](delta::Action&& a) {
                             if (auto* add = std::get_if<delta::AddFile>(&a)) {
                               ++adds;
                               EXPECT_FALSE(add->path.empty());
                               EXPECT_GT(add->size, 0);
                               EXPECT_FALSE(add->data_change);
                             } else if (auto* rm = std::get_if<delta::RemoveFile>(&a)) {
                               ++removes;
                               EXPECT_TRUE(rm->deletion_timestamp.has_value());
                             } else {
                               ADD_FAILURE() << "a sidecar holds a non-file action";
                             }
                             return Status::OK();
                           })
                    .ok());
  }
  EXPECT_EQ(adds, static_cast<int64_t>((*snap)->num_files()));
  EXPECT_EQ(removes, static_cast<int64_t>((*snap)->tombstones().size()));

  // _last_checkpoint: version, size, sizeInBytes, numOfAddFiles, and v2Checkpoint as Spark writes it.
  auto last = delta::Json::parse(*fs->ReadAll(log + "/_last_checkpoint"));
  EXPECT_EQ(last["version"], 9);
  EXPECT_EQ(last["size"].get<int64_t>(), static_cast<int64_t>(lines.size()) + adds + removes);
  EXPECT_EQ(last["numOfAddFiles"].get<int64_t>(), adds);
  EXPECT_EQ(last["sizeInBytes"].get<int64_t>(), sidecar_bytes + static_cast<int64_t>(text->size()));
  const auto& v2 = last["v2Checkpoint"];
  EXPECT_EQ(v2["path"], tops[0]);
  EXPECT_EQ(v2["sizeInBytes"].get<int64_t>(), static_cast<int64_t>(text->size()));
  EXPECT_EQ(v2["sidecarFiles"].size(), sidecars.size());
  EXPECT_EQ(v2["nonFileActions"].size(), lines.size() - sidecars.size());
  EXPECT_FALSE(last.contains("parts"));
}

TEST(CheckpointV2, DuckDbReadsTheSidecarsAndParts) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  for (bool v2 : {true, false}) {
    const std::string root = dir.Join(v2 ? "v2" : "v1");
    BuildRandomLog(fs, root, v2, 8, 8, 4, 5);
    auto snap = delta::Snapshot::Load(fs, root, Readers());
    ASSERT_TRUE(snap.ok());
    std::string glob = v2 ? root + "/_delta_log/_sidecars/*.parquet" : root + "/_delta_log/*.checkpoint.*.parquet";
    std::string sql = "SELECT count(add) AS adds, count(remove) AS removes, count(*) - count(add) - count(remove) AS other "
                      "FROM read_parquet('" + glob + "')";
    std::string out;
    ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
    auto j = delta::Json::parse(out.substr(0, out.find('\n')));
    EXPECT_EQ(j["adds"].get<int64_t>(), static_cast<int64_t>((*snap)->num_files())) << v2;
    EXPECT_EQ(j["removes"].get<int64_t>(), static_cast<int64_t>((*snap)->tombstones().size())) << v2;
    // V2: non-file actions live in the JSON top-level file; classic: in the parts.
    EXPECT_EQ(j["other"].get<int64_t>(), v2 ? 0 : 2 + static_cast<int64_t>((*snap)->app_transactions().size() +
                                                                          (*snap)->domain_metadata().size()));
  }
}

TEST(MultiPartCheckpoint, PartsAreSparkHashClusteredAndReload) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  const std::string root = dir.Join("t");
  BuildRandomLog(fs, root, false, 12, 6, 3, 9);
  const std::string log = root + "/_delta_log";
  auto last = delta::Json::parse(*fs->ReadAll(log + "/_last_checkpoint"));
  const int parts = last["parts"].get<int>();
  EXPECT_GT(parts, 1);
  const std::string pattern = "00000000000000000012.checkpoint.";
  auto names = NamesWith(*fs, log, pattern);
  ASSERT_EQ(static_cast<int>(names.size()), parts);
  auto reader = delta::DefaultCheckpointReaders().parquet;
  int64_t rows = 0;
  for (int i = 0; i < parts; ++i) {
    auto f = delta::ClassifyLogFileName(names[i]);
    ASSERT_TRUE(f && f->kind == delta::LogFileKind::kMultiPartCheckpoint);
    ASSERT_TRUE(reader
                    ->Read(*fs, log + "/" + names[i],
                           [&](delta::Action&& a) {
                             ++rows;
                             std::string path, dv;
                             if (auto* add = std::get_if<delta::AddFile>(&a)) path = add->path, dv = add->DvUniqueId();
                             else if (auto* rm = std::get_if<delta::RemoveFile>(&a)) path = rm->path, dv = rm->DvUniqueId();
                             int32_t h = SparkHashBytes(path, kSparkHashSeed);
                             if (!path.empty() && !dv.empty()) h = SparkHashBytes(dv, h);
                             if (path.empty()) h = kSparkHashSeed;  // non-file actions: a null key
                             EXPECT_EQ(SparkPartition(h, parts), f->part - 1) << path;
                             return Status::OK();
                           })
                    .ok());
  }
  EXPECT_EQ(rows, last["size"].get<int64_t>());
  ExpectEveryVersionMatchesTheJsonLog(fs, root, 12);
}

// --- bad input -------------------------------------------------------------------------------

struct DamagedTable {
  testing::TempDir dir;
  std::shared_ptr<io::FileSystem> fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  std::string log = root + "/_delta_log";
  DamagedTable() { BuildRandomLog(fs, root, true, 10, 5, 4, 21); }
  std::string Top(int v) {
    char p[48];
    std::snprintf(p, sizeof(p), "%020d.checkpoint.", v);
    return log + "/" + NamesWith(*fs, log, p).at(0);
  }
  std::string FirstSidecar(int v) {
    auto lines = *fs->ReadAll(Top(v));
    auto at = lines.find("{\"sidecar\"");
    auto j = delta::Json::parse(lines.substr(at, lines.find('\n', at) - at));
    return log + "/_sidecars/" + j["sidecar"]["path"].get<std::string>();
  }
  // Removes commits 0..4 so that version 10 needs a checkpoint (5 or 10).
  void DropEarlyCommits() {
    for (int v = 0; v <= 4; ++v) ASSERT_TRUE(fs->Delete(CommitFilePath(root, v)).ok());
  }
  Result<std::shared_ptr<const delta::Snapshot>> Load(bool fallback = true) {
    auto o = Readers();
    o.checkpoint_fallback = fallback;
    return delta::Snapshot::Load(fs, root, o);
  }
};

TEST(CheckpointDamage, TruncatedTopLevelFileFallsBackToTheOlderCheckpoint) {
  DamagedTable t;
  const std::string want = JsonLogState(t.fs, t.root, 10);
  std::string text = *t.fs->ReadAll(t.Top(10));
  ASSERT_TRUE(t.fs->WriteAtomic(t.Top(10), text.substr(0, text.size() / 2)).ok());
  auto strict = t.Load(false);
  ASSERT_FALSE(strict.ok());
  EXPECT_TRUE(strict.status().IsCorruption()) << strict.status().ToString();
  EXPECT_NE(strict.status().message().find(t.Top(10)), std::string::npos) << strict.status().ToString();
  auto s = t.Load();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(StateText(**s), want);
  ASSERT_TRUE((*s)->segment().skipped_checkpoint.has_value());
  EXPECT_EQ((*s)->segment().checkpoint_version, 5);
}

TEST(CheckpointDamage, LineBoundaryTruncationIsCaughtByLastCheckpointsSize) {
  DamagedTable t;
  std::string text = *t.fs->ReadAll(t.Top(10));
  // Drop the last line (a sidecar): still valid JSON lines, so only the recorded size tells.
  std::string shorter = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  ASSERT_TRUE(t.fs->WriteAtomic(t.Top(10), shorter).ok());
  auto strict = t.Load(false);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("_last_checkpoint records"), std::string::npos) << strict.status().ToString();
  auto s = t.Load();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(StateText(**s), JsonLogState(t.fs, t.root, 10));
}

TEST(CheckpointDamage, MissingSidecarIsANamedErrorWithoutOlderState) {
  DamagedTable t;
  t.DropEarlyCommits();
  ASSERT_TRUE(t.fs->Delete(t.FirstSidecar(5)).ok());
  ASSERT_TRUE(t.fs->Delete(t.FirstSidecar(10)).ok());
  auto s = t.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorruption()) << s.status().ToString();
  EXPECT_NE(s.status().message().find("is missing"), std::string::npos) << s.status().ToString();
  EXPECT_NE(s.status().message().find("_sidecars/"), std::string::npos);
}

TEST(CheckpointDamage, MissingSidecarFallsBackWhenTheLogReaches) {
  DamagedTable t;
  const std::string want = JsonLogState(t.fs, t.root, 10);
  ASSERT_TRUE(t.fs->Delete(t.FirstSidecar(10)).ok());
  auto s = t.Load();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(StateText(**s), want);
  EXPECT_NE(s->get()->segment().skipped_checkpoint->find("is missing"), std::string::npos);
}

TEST(CheckpointDamage, TruncatedOrCorruptSidecarIsCorruption) {
  DamagedTable t;
  t.DropEarlyCommits();
  const std::string sc = t.FirstSidecar(10);
  std::string bytes = *t.fs->ReadAll(sc);
  ASSERT_TRUE(t.fs->WriteAtomic(sc, bytes.substr(0, bytes.size() - 10)).ok());
  auto s = t.Load(false);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorruption());
  EXPECT_NE(s.status().message().find("the checkpoint records"), std::string::npos) << s.status().ToString();
  // Same size, garbage bytes: the Parquet reader rejects it.
  ASSERT_TRUE(t.fs->WriteAtomic(sc, std::string(bytes.size(), 'x')).ok());
  s = t.Load(false);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorruption()) << s.status().ToString();
  EXPECT_NE(s.status().message().find(sc), std::string::npos) << s.status().ToString();
  // With the older checkpoint intact, the default load falls back to it.
  auto ok = t.Load();
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->get()->segment().checkpoint_version, 5);
}

TEST(CheckpointDamage, LastCheckpointPointingNowhereIsIgnored) {
  DamagedTable t;
  const std::string want = JsonLogState(t.fs, t.root, 10);
  for (std::string bad : {R"({"version":999,"size":3})", R"({"version":7,"size":3,"parts":4})", "garbage",
                          R"({"version":10,"size":1,"v2Checkpoint":{"path":"00000000000000000010.checkpoint.nope.json"}})"}) {
    ASSERT_TRUE(t.fs->WriteAtomic(t.log + "/_last_checkpoint", bad).ok());
    auto s = t.Load(false);
    ASSERT_TRUE(s.ok()) << bad << ": " << s.status().ToString();
    EXPECT_EQ(StateText(**s), want) << bad;
    EXPECT_EQ(s->get()->segment().checkpoint_version, 10) << bad;
  }
}

// _last_checkpoint inlines the top-level file's actions and sidecar list, so a reader need not
// open that file: garbage of the right size there goes unread; without the pointer it is read.
TEST(CheckpointDamage, InlinedLastCheckpointSkipsTheTopLevelFile) {
  DamagedTable t;
  t.DropEarlyCommits();
  const std::string want = StateText(**t.Load(false));
  const std::string top = t.Top(10);
  ASSERT_TRUE(t.fs->WriteAtomic(top, std::string(t.fs->ReadAll(top)->size(), 'x')).ok());
  auto s = t.Load(false);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(StateText(**s), want);
  ASSERT_TRUE(t.fs->Delete(t.log + "/_last_checkpoint").ok());
  s = t.Load(false);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorruption()) << s.status().ToString();
  EXPECT_NE(s.status().message().find(top), std::string::npos);
}

TEST(CheckpointDamage, V2CheckpointWithoutCheckpointMetadataIsCorruption) {
  DamagedTable t;
  t.DropEarlyCommits();
  ASSERT_TRUE(t.fs->Delete(t.log + "/_last_checkpoint").ok());
  std::string text = *t.fs->ReadAll(t.Top(10));
  text.erase(0, text.find('\n') + 1);  // checkpointMetadata is the first line
  ASSERT_TRUE(t.fs->WriteAtomic(t.Top(10), text).ok());
  auto s = t.Load(false);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("exactly one checkpointMetadata"), std::string::npos) << s.status().ToString();
}

// --- log compaction --------------------------------------------------------------------------

TEST(LogCompaction, ReplacesItsCommitsAndEveryVersionStillMatches) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  const std::string root = dir.Join("t");
  BuildRandomLog(fs, root, false, 16, 0, 1000, 13);
  auto c1 = WriteLogCompaction(fs, root, 1, 9);
  ASSERT_TRUE(c1.ok()) << c1.status().ToString();
  auto c2 = WriteLogCompaction(fs, root, 10, 14);
  ASSERT_TRUE(c2.ok());
  // Reconciled: no two file actions share a (path, DV) key; no commitInfo.
  auto text = *fs->ReadAll(c1->path);
  std::set<std::string> keys;
  std::istringstream in(text);
  int64_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    auto a = delta::ParseActionLine(line);
    ASSERT_TRUE(a.ok() && a->has_value());
    EXPECT_FALSE(std::holds_alternative<delta::CommitInfo>(**a));
    std::string key;
    if (auto* add = std::get_if<delta::AddFile>(&**a)) key = add->path + " " + add->DvUniqueId();
    if (auto* rm = std::get_if<delta::RemoveFile>(&**a)) key = rm->path + " " + rm->DvUniqueId();
    if (!key.empty()) {
      EXPECT_TRUE(keys.insert(key).second) << key;
    }
  }
  EXPECT_EQ(n, c1->num_actions);
  auto seg = delta::BuildLogSegment(*fs, root);
  ASSERT_TRUE(seg.ok());
  ASSERT_EQ(seg->compactions.size(), 2u);
  EXPECT_EQ(seg->compactions[0].end_version, 9);
  ExpectEveryVersionMatchesTheJsonLog(fs, root, 16);
  // A damaged compaction file: the load falls back to the commits it stands for.
  ASSERT_TRUE(fs->WriteAtomic(c1->path, text.substr(0, text.size() / 2)).ok());
  auto damaged = delta::Snapshot::Load(fs, root, Readers());
  ASSERT_TRUE(damaged.ok()) << damaged.status().ToString();
  EXPECT_EQ(StateText(**damaged), JsonLogState(fs, root, 16));
  // Bad ranges.
  EXPECT_TRUE(WriteLogCompaction(fs, root, 3, 3).status().code() == StatusCode::kInvalidArgument);
  EXPECT_TRUE(WriteLogCompaction(fs, root, 3, 99).status().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal::table
