#include "delta/log_segment.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <sys/stat.h>
#include <utime.h>

#include "io/memory_file_system.h"
#include "support/testdata.h"

namespace shoal::delta {
namespace {

std::string V(int64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%020lld", static_cast<long long>(v));
  return buf;
}

class LogDir {
 public:
  LogDir() : fs_(io::LocalFileSystem()) { EXPECT_TRUE(fs_->CreateDirs(dir_.Join("_delta_log")).ok()); }
  void Put(const std::string& name, const std::string& text = "{}\n") {
    ASSERT_TRUE(fs_->WriteAtomic(dir_.Join("_delta_log/" + name), text).ok());
  }
  void SetMtime(const std::string& name, int64_t ms) {
    struct utimbuf t;
    t.actime = t.modtime = ms / 1000;
    ASSERT_EQ(utime(dir_.Join("_delta_log/" + name).c_str(), &t), 0);
  }
  const std::string& root() const { return dir_.path(); }
  io::FileSystem& fs() { return *fs_; }

 private:
  testing::TempDir dir_;
  std::shared_ptr<io::FileSystem> fs_;
};

TEST(LogSegment, ClassifiesFileNames) {
  auto c = ClassifyLogFileName("00000000000000000012.json");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, LogFileKind::kCommit);
  EXPECT_EQ(c->version, 12);
  EXPECT_EQ(ClassifyLogFileName("00000000000000000010.checkpoint.parquet")->kind,
            LogFileKind::kClassicCheckpoint);
  auto mp = ClassifyLogFileName("00000000000000000001.checkpoint.0000000002.0000000003.parquet");
  ASSERT_TRUE(mp);
  EXPECT_EQ(mp->kind, LogFileKind::kMultiPartCheckpoint);
  EXPECT_EQ(mp->part, 2);
  EXPECT_EQ(mp->num_parts, 3);
  EXPECT_EQ(ClassifyLogFileName("00000000000000000006.checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json")->kind,
            LogFileKind::kV2Checkpoint);
  EXPECT_EQ(ClassifyLogFileName("00000000000000000006.crc")->kind, LogFileKind::kCrc);
  auto comp = ClassifyLogFileName("00000000000000000006.00000000000000000010.compacted.json");
  ASSERT_TRUE(comp);
  EXPECT_EQ(comp->end_version, 10);
  for (const char* bad : {"_last_checkpoint", "0000000000000000001.json", "00000000000000000001.jsonx",
                          "0000000000000000000a.json", "00000000000000000001.checkpoint.0000000003.0000000002.parquet",
                          "00000000000000000001.checkpoint.notauuid.json", "99999999999999999999.json"}) {
    EXPECT_FALSE(ClassifyLogFileName(bad)) << bad;
  }
}

TEST(LogSegment, MissingOrEmptyLogIsANamedError) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  auto r = BuildLogSegment(*fs, dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a Delta table: " + dir.path() + " has no _delta_log"),
            std::string::npos) << r.status().message();
  ASSERT_TRUE(fs->CreateDirs(dir.Join("_delta_log")).ok());
  r = BuildLogSegment(*fs, dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no commits"), std::string::npos);
}

TEST(LogSegment, UsesLatestCompleteCheckpointAndFollowingCommits) {
  LogDir d;
  for (int v = 0; v <= 7; ++v) d.Put(V(v) + ".json");
  d.Put(V(2) + ".checkpoint.parquet");
  d.Put(V(5) + ".checkpoint.0000000001.0000000002.parquet");  // part 2 missing: incomplete
  d.Put(V(4) + ".checkpoint.0000000001.0000000002.parquet");
  d.Put(V(4) + ".checkpoint.0000000002.0000000002.parquet");
  d.Put(std::string(".").append(V(8)).append(".json.123.tmp"));
  d.Put(V(9) + ".json.tmp");
  d.Put("_last_checkpoint", "{garbage");
  auto seg = BuildLogSegment(d.fs(), d.root());
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(seg->version, 7);
  EXPECT_EQ(seg->checkpoint_version, 4);
  ASSERT_EQ(seg->checkpoint_files.size(), 2u);
  EXPECT_EQ(seg->checkpoint_files[1].part, 2);
  ASSERT_EQ(seg->commits.size(), 3u);
  EXPECT_EQ(seg->commits.front().version, 5);
  EXPECT_FALSE(seg->last_checkpoint);
  // Time travel before the checkpoint.
  auto s3 = BuildLogSegment(d.fs(), d.root(), 3);
  ASSERT_TRUE(s3.ok());
  EXPECT_EQ(s3->checkpoint_version, 2);
  EXPECT_EQ(s3->commits.size(), 1u);
  auto s1 = BuildLogSegment(d.fs(), d.root(), 1);
  ASSERT_TRUE(s1.ok());
  EXPECT_FALSE(s1->checkpoint_version);
  EXPECT_EQ(s1->commits.size(), 2u);
  auto s4 = BuildLogSegment(d.fs(), d.root(), 4);
  ASSERT_TRUE(s4.ok());
  EXPECT_TRUE(s4->commits.empty());
  ASSERT_TRUE(s4->last_commit);
  EXPECT_EQ(s4->last_commit->version, 4);
  EXPECT_EQ(BuildLogSegment(d.fs(), d.root(), 8).status().code(), StatusCode::kInvalidArgument);
}

TEST(LogSegment, PrefersJsonV2CheckpointAtTheSameVersion) {
  LogDir d;
  for (int v = 0; v <= 3; ++v) d.Put(V(v) + ".json");
  d.Put(V(3) + ".checkpoint.parquet");
  d.Put(V(3) + ".checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json");
  auto seg = BuildLogSegment(d.fs(), d.root());
  ASSERT_TRUE(seg.ok());
  ASSERT_EQ(seg->checkpoint_files.size(), 1u);
  EXPECT_EQ(seg->checkpoint_files[0].kind, LogFileKind::kV2Checkpoint);
}

TEST(LogSegment, GapInCommitsIsCorruption) {
  LogDir d;
  d.Put(V(0) + ".json");
  d.Put(V(1) + ".json");
  d.Put(V(3) + ".json");
  auto seg = BuildLogSegment(d.fs(), d.root());
  ASSERT_FALSE(seg.ok());
  EXPECT_TRUE(seg.status().IsCorruption());
  EXPECT_NE(seg.status().message().find("versions not contiguous: missing version 2"), std::string::npos);
  EXPECT_TRUE(BuildLogSegment(d.fs(), d.root(), 1).ok());
}

// A listing that raced with committers: it shows version 3 but missed version 2, which exists.
class ListingMissesOneFile : public io::MemoryFileSystem {
 public:
  explicit ListingMissesOneFile(std::string hidden) : hidden_(std::move(hidden)) {}
  Result<std::vector<io::FileInfo>> List(const std::string& dir) override {
    ASSIGN_OR_RETURN(auto all, io::MemoryFileSystem::List(dir));
    std::erase_if(all, [&](const io::FileInfo& f) { return f.name == hidden_; });
    return all;
  }

 private:
  std::string hidden_;
};

TEST(LogSegment, CommitMissedByARacingListingIsFoundByName) {
  ListingMissesOneFile fs(V(2) + ".json");
  ASSERT_TRUE(fs.CreateDirs("/t/_delta_log").ok());
  for (int v = 0; v <= 3; ++v) ASSERT_TRUE(fs.PutIfAbsent("/t/_delta_log/" + V(v) + ".json", "{}\n").ok());
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(seg->version, 3);
  ASSERT_EQ(seg->commits.size(), 4u);
  EXPECT_EQ(seg->commits[2].name, V(2) + ".json");
  EXPECT_EQ(seg->commits[2].path, "/t/_delta_log/" + V(2) + ".json");
}

// Records where each listing of the log started ("" for a full listing).
class RecordingListings : public io::MemoryFileSystem {
 public:
  Result<std::vector<io::FileInfo>> List(const std::string& dir) override {
    starts.push_back("");
    return io::MemoryFileSystem::List(dir);
  }
  Result<std::vector<io::FileInfo>> ListFrom(const std::string& dir, std::string_view start) override {
    starts.push_back(std::string(start));
    ASSIGN_OR_RETURN(auto all, io::MemoryFileSystem::List(dir));
    std::erase_if(all, [&](const io::FileInfo& f) { return f.name < start; });
    return all;
  }
  void Put(const std::string& name, const std::string& text = "{}\n") {
    ASSERT_TRUE(CreateDirs("/t/_delta_log").ok());
    ASSERT_TRUE(PutIfAbsent("/t/_delta_log/" + name, text).ok());
  }
  void LastCheckpoint(int64_t v) {
    ASSERT_TRUE(WriteAtomic("/t/_delta_log/_last_checkpoint", "{\"version\":" + std::to_string(v) + ",\"size\":1}").ok());
  }
  std::vector<std::string> starts;
};

TEST(LogSegment, ListsOnlyTheNamesFromTheLastCheckpointOn) {
  RecordingListings fs;
  for (int v = 0; v <= 12; ++v) fs.Put(V(v) + ".json");
  fs.Put(V(10) + ".checkpoint.parquet");
  fs.LastCheckpoint(10);
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(fs.starts, std::vector<std::string>{V(10)}) << "one listing, starting at the checkpoint";
  EXPECT_EQ(seg->version, 12);
  EXPECT_EQ(seg->checkpoint_version, 10);
  ASSERT_EQ(seg->commits.size(), 2u);
  EXPECT_EQ(seg->commits[0].version, 11);
  ASSERT_TRUE(seg->last_commit);
  EXPECT_EQ(seg->last_commit->version, 12);
  ASSERT_TRUE(seg->last_checkpoint);
  EXPECT_EQ(seg->last_checkpoint->version, 10);

  fs.starts.clear();
  auto at10 = BuildLogSegment(fs, "/t", 10);
  ASSERT_TRUE(at10.ok());
  EXPECT_EQ(fs.starts, std::vector<std::string>{V(10)});
  EXPECT_TRUE(at10->commits.empty());
  ASSERT_TRUE(at10->last_commit) << "the commit of the checkpoint's own version is in the partial listing";
  EXPECT_EQ(at10->last_commit->version, 10);

  fs.starts.clear();
  auto at5 = BuildLogSegment(fs, "/t", 5);
  ASSERT_TRUE(at5.ok());
  EXPECT_EQ(fs.starts, std::vector<std::string>{""}) << "a version before the checkpoint lists everything";
  EXPECT_FALSE(at5->checkpoint_version);
  EXPECT_EQ(at5->commits.size(), 6u);

  EXPECT_EQ(BuildLogSegment(fs, "/t", 13).status().code(), StatusCode::kInvalidArgument)
      << "a version after the latest is still refused";
}

// Object storage as BuildLogSegment sees it: remote, listings in pages of `page` names, and the
// reads it speculates recorded.
class RemoteListings : public RecordingListings {
 public:
  bool IsRemote(const std::string&) const override { return true; }
  Result<io::ListPrefix> ListFromLimited(const std::string& dir, std::string_view start, size_t max) override {
    limited_starts.push_back(std::string(start));
    io::ListPrefix out;
    ASSIGN_OR_RETURN(out.entries, io::MemoryFileSystem::List(dir));  // not the recording ListFrom
    std::erase_if(out.entries, [&](const io::FileInfo& f) { return f.name < start; });
    std::sort(out.entries.begin(), out.entries.end(), [](const io::FileInfo& a, const io::FileInfo& b) { return a.name < b.name; });
    if (max > 0 && out.entries.size() > max) {
      out.entries.resize(max);
      out.complete = false;
    }
    return out;
  }
  void Speculate(const std::vector<io::SpeculativeRead>& reads) override {
    for (const auto& r : reads) speculated.push_back(r.path);
  }
  std::vector<std::string> limited_starts;
  std::vector<std::string> speculated;
};

TEST(LogSegment, RemoteLogThatFitsTheFirstPageNeedsNoListingFromTheCheckpoint) {
  RemoteListings fs;
  for (int v = 0; v <= 12; ++v) fs.Put(V(v) + ".json");
  fs.Put(V(10) + ".checkpoint.parquet");
  fs.LastCheckpoint(10);
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(fs.speculated, (std::vector<std::string>{"/t/_delta_log/_last_checkpoint", "/t/_delta_log"}));
  EXPECT_EQ(fs.limited_starts, std::vector<std::string>{""});
  EXPECT_TRUE(fs.starts.empty()) << "the first page held the whole log";
  EXPECT_EQ(seg->version, 12);
  EXPECT_EQ(seg->checkpoint_version, 10);
  ASSERT_EQ(seg->commits.size(), 2u);
  EXPECT_EQ(seg->commits[0].version, 11);
  ASSERT_TRUE(seg->last_checkpoint);
  auto at5 = BuildLogSegment(fs, "/t", 5);
  ASSERT_TRUE(at5.ok());
  EXPECT_FALSE(at5->checkpoint_version);
  EXPECT_EQ(at5->commits.size(), 6u);
  EXPECT_EQ(BuildLogSegment(fs, "/t", 13).status().code(), StatusCode::kInvalidArgument);
}

TEST(LogSegment, RemoteLogLongerThanTheFirstPageListsFromTheCheckpoint) {
  RemoteListings fs;
  const int last = static_cast<int>(kSpeculativeLogEntries) + 5;
  for (int v = 0; v <= last; ++v) fs.Put(V(v) + ".json");
  fs.Put(V(last - 2) + ".checkpoint.parquet");
  fs.LastCheckpoint(last - 2);
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(fs.starts, std::vector<std::string>{V(last - 2)});
  EXPECT_EQ(seg->version, last);
  EXPECT_EQ(seg->checkpoint_version, last - 2);
  EXPECT_EQ(seg->commits.size(), 2u);
}

TEST(LogSegment, RemoteMissingLogIsTheSameNamedError) {
  RemoteListings fs;
  auto seg = BuildLogSegment(fs, "/nowhere");
  EXPECT_EQ(seg.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(seg.status().message().find("not a Delta table"), std::string::npos) << seg.status().ToString();
}

TEST(LogSegment, AStaleLastCheckpointStillFindsTheNewerCheckpoint) {
  RecordingListings fs;
  for (int v = 0; v <= 12; ++v) fs.Put(V(v) + ".json");
  fs.Put(V(5) + ".checkpoint.parquet");
  fs.Put(V(10) + ".checkpoint.parquet");
  fs.LastCheckpoint(5);  // a writer died between the checkpoint and _last_checkpoint
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(fs.starts, std::vector<std::string>{V(5)});
  EXPECT_EQ(seg->checkpoint_version, 10);
  EXPECT_EQ(seg->commits.size(), 2u);
}

TEST(LogSegment, ALastCheckpointWithoutItsCheckpointFallsBackToTheFullListing) {
  for (int pointer : {11, 20}) {
    RecordingListings fs;
    for (int v = 0; v <= 12; ++v) fs.Put(V(v) + ".json");
    fs.Put(V(10) + ".checkpoint.parquet");
    fs.LastCheckpoint(pointer);  // removed, or never completed
    auto seg = BuildLogSegment(fs, "/t");
    ASSERT_TRUE(seg.ok()) << seg.status().ToString();
    EXPECT_EQ(fs.starts, (std::vector<std::string>{V(pointer), ""})) << pointer;
    EXPECT_EQ(seg->version, 12);
    EXPECT_EQ(seg->checkpoint_version, 10);
    EXPECT_EQ(seg->commits.size(), 2u);
  }
  RecordingListings fs;
  for (int v = 0; v <= 12; ++v) fs.Put(V(v) + ".json");
  fs.Put(V(10) + ".checkpoint.0000000001.0000000002.parquet");  // incomplete
  fs.Put(V(4) + ".checkpoint.parquet");
  fs.LastCheckpoint(10);
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  EXPECT_EQ(fs.starts, (std::vector<std::string>{V(10), ""}));
  EXPECT_EQ(seg->checkpoint_version, 4);
  EXPECT_EQ(seg->commits.size(), 8u);
}

TEST(LogSegment, AGapAfterTheCheckpointIsCorruptionWithAPartialListingToo) {
  RecordingListings fs;
  for (int v : {9, 10, 11, 13}) fs.Put(V(v) + ".json");
  fs.Put(V(10) + ".checkpoint.parquet");
  fs.LastCheckpoint(10);
  auto seg = BuildLogSegment(fs, "/t");
  ASSERT_FALSE(seg.ok());
  EXPECT_NE(seg.status().message().find("versions not contiguous: missing version 12"), std::string::npos)
      << seg.status().ToString();
  EXPECT_TRUE(BuildLogSegment(fs, "/t", 11).ok());
}

TEST(LogSegment, CleanedUpVersionsAreNotReachable) {
  LogDir d;
  for (int v = 3; v <= 6; ++v) d.Put(V(v) + ".json");
  d.Put(V(4) + ".checkpoint.parquet");
  EXPECT_TRUE(BuildLogSegment(d.fs(), d.root(), 5).ok());
  EXPECT_TRUE(BuildLogSegment(d.fs(), d.root(), 4).ok());
  auto r = BuildLogSegment(d.fs(), d.root(), 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("cannot be reconstructed"), std::string::npos);
}

TEST(LogSegment, ParsesLastCheckpoint) {
  auto r = ParseLastCheckpoint(R"({"version":10,"size":12,"parts":2,"sizeInBytes":30499,"numOfAddFiles":10,"checkpointSchema":{"type":"struct","fields":[]},"checksum":"abc"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->version, 10);
  EXPECT_EQ(r->parts, 2);
  EXPECT_EQ(r->checksum, "abc");
  EXPECT_FALSE(ParseLastCheckpoint(R"({"size":1})").ok());
  EXPECT_FALSE(ParseLastCheckpoint("").ok());
}

// Spark's v2Checkpoint object (golden/v2-checkpoint-json's _last_checkpoint, shortened).
TEST(LogSegment, ParsesLastCheckpointV2Info) {
  auto r = ParseLastCheckpoint(
      R"({"version":2,"size":9,"sizeInBytes":19554,"numOfAddFiles":4,"v2Checkpoint":{"path":"00000000000000000002.checkpoint.6374b053-df23-479b-b2cf-c9c550132b49.json","sizeInBytes":891,"modificationTime":1714496115810,"nonFileActions":[{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["v2Checkpoint"],"writerFeatures":["v2Checkpoint"]}},{"checkpointMetadata":{"version":2}}],"sidecarFiles":[{"path":"a.parquet","sizeInBytes":9367,"modificationTime":1714496115780}]},"checksum":"d09f95a326aab562c60d415a32ddd216"})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->v2_checkpoint.has_value());
  EXPECT_EQ(r->v2_checkpoint->path, "00000000000000000002.checkpoint.6374b053-df23-479b-b2cf-c9c550132b49.json");
  EXPECT_EQ(r->v2_checkpoint->size_in_bytes, 891);
  ASSERT_TRUE(r->v2_checkpoint->non_file_actions.has_value());
  EXPECT_EQ(r->v2_checkpoint->non_file_actions->size(), 2u);
  ASSERT_TRUE(r->v2_checkpoint->sidecar_files.has_value());
  ASSERT_EQ(r->v2_checkpoint->sidecar_files->size(), 1u);
  EXPECT_EQ(r->v2_checkpoint->sidecar_files->at(0).path, "a.parquet");
  EXPECT_EQ(r->v2_checkpoint->sidecar_files->at(0).size_in_bytes, 9367);
  // Malformed: a _last_checkpoint that fails to parse is only ignored by the loader.
  EXPECT_FALSE(ParseLastCheckpoint(R"({"version":2,"v2Checkpoint":3})").ok());
  EXPECT_FALSE(ParseLastCheckpoint(R"({"version":2,"v2Checkpoint":{"sizeInBytes":3}})").ok());
  EXPECT_FALSE(ParseLastCheckpoint(R"({"version":2,"v2Checkpoint":{"path":"p","sidecarFiles":[{"path":1}]}})").ok());
  EXPECT_FALSE(ParseLastCheckpoint(R"({"version":2,"v2Checkpoint":{"path":"p","nonFileActions":[7]}})").ok());
}

// Log compaction files: the greedy cover uses the longest one from each point, only inside the
// commits after the checkpoint and ending before the version read.
TEST(LogSegment, ChoosesCompactionsInsideTheReplayedRange) {
  LogDir d;
  for (int v = 0; v <= 9; ++v) d.Put(V(v) + ".json");
  d.Put(V(1) + "." + V(3) + ".compacted.json");
  d.Put(V(1) + "." + V(5) + ".compacted.json");
  d.Put(V(4) + "." + V(7) + ".compacted.json");  // overlaps the one chosen before it
  d.Put(V(6) + "." + V(9) + ".compacted.json");  // reaches the version read
  d.Put(V(6) + "." + V(8) + ".compacted.json");
  auto seg = BuildLogSegment(d.fs(), d.root());
  ASSERT_TRUE(seg.ok()) << seg.status().ToString();
  ASSERT_EQ(seg->compactions.size(), 2u);
  EXPECT_EQ(seg->compactions[0].version, 1);
  EXPECT_EQ(seg->compactions[0].end_version, 5);
  EXPECT_EQ(seg->compactions[1].version, 6);
  EXPECT_EQ(seg->compactions[1].end_version, 8);
  EXPECT_EQ(seg->commits.size(), 10u);  // the commits stay listed
  auto at5 = BuildLogSegment(d.fs(), d.root(), 5);
  ASSERT_TRUE(at5.ok());
  ASSERT_EQ(at5->compactions.size(), 1u);
  EXPECT_EQ(at5->compactions[0].end_version, 3);
}

TEST(LogSegment, TimestampsAreMonotonizedMtimes) {
  LogDir d;
  for (int v = 0; v <= 3; ++v) d.Put(V(v) + ".json");
  d.SetMtime(V(0) + ".json", 10000);
  d.SetMtime(V(1) + ".json", 20000);
  d.SetMtime(V(2) + ".json", 15000);  // clock skew: adjusted to 20001
  d.SetMtime(V(3) + ".json", 30000);
  auto ts = ListCommitTimestamps(d.fs(), d.root());
  ASSERT_TRUE(ts.ok());
  ASSERT_EQ(ts->size(), 4u);
  EXPECT_EQ((*ts)[2].timestamp_ms, 20001);
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 10000), 0);
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 19999), 0);
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 20000), 1);
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 20001), 2);
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 99999), 3);
  EXPECT_EQ(FindVersionAtTimestamp(d.fs(), d.root(), 9999).status().code(), StatusCode::kInvalidArgument);
}

TEST(LogSegment, InCommitTimestampsWinAfterEnablement) {
  LogDir d;
  d.Put(V(0) + ".json", "{\"commitInfo\":{\"timestamp\":1}}\n");
  for (int v = 1; v <= 5; ++v) {
    d.Put(V(v) + ".json", "{\"commitInfo\":{\"inCommitTimestamp\":" + std::to_string(1000000 + v * 100) + "}}\n");
  }
  d.SetMtime(V(0) + ".json", 500000);
  InCommitTimestampConfig ict{true, 1};
  auto ts = ListCommitTimestamps(d.fs(), d.root(), ict);
  ASSERT_TRUE(ts.ok()) << ts.status().ToString();
  EXPECT_EQ((*ts)[0].timestamp_ms, 500000);
  EXPECT_EQ((*ts)[3].timestamp_ms, 1000300);
  for (int v = 1; v <= 5; ++v) {
    EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 1000000 + v * 100 + 50, ict), v);
  }
  EXPECT_EQ(*FindVersionAtTimestamp(d.fs(), d.root(), 600000, ict), 0);
}

}  // namespace
}  // namespace shoal::delta
