#include "io/file_system.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>

#include "io/memory_file_system.h"
#include "support/testdata.h"

namespace shoal::io {
namespace {

// Runs the same contract checks against every FileSystem implementation.
class FileSystemContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "local") {
      fs_ = LocalFileSystem();
      root_ = tmp_.path();
    } else {
      fs_ = std::make_shared<MemoryFileSystem>();
      root_ = "/mem";
      ASSERT_TRUE(fs_->CreateDirs(root_).ok());
    }
  }
  shoal::testing::TempDir tmp_;
  std::shared_ptr<FileSystem> fs_;
  std::string root_;
};

TEST_P(FileSystemContract, PutIfAbsentCreatesOnceAndReportsExisting) {
  std::string p = JoinPath(root_, "00000000000000000001.json");
  ASSERT_TRUE(fs_->PutIfAbsent(p, "first").ok());
  Status again = fs_->PutIfAbsent(p, "second");
  EXPECT_TRUE(IsAlreadyExists(again)) << again.ToString();
  EXPECT_EQ(*fs_->ReadAll(p), "first");
}

TEST_P(FileSystemContract, PutIfAbsentHasExactlyOneWinnerAcrossThreads) {
  std::string p = JoinPath(root_, "race.json");
  std::atomic<int> winners{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      if (fs_->PutIfAbsent(p, "writer" + std::to_string(t)).ok()) ++winners;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(winners.load(), 1);
  auto listing = fs_->List(root_);
  ASSERT_TRUE(listing.ok());
  EXPECT_EQ(listing->size(), 1u) << "temp files must not be left behind";
}

TEST_P(FileSystemContract, CreateDirsIsIdempotentAndRefusesAFileInThePath) {
  std::string deep = JoinPath(root_, "x/y/z");
  ASSERT_TRUE(fs_->CreateDirs(deep).ok());
  ASSERT_TRUE(fs_->CreateDirs(deep).ok()) << "creating existing directories is a no-op";
  ASSERT_TRUE(fs_->CreateDirs(JoinPath(root_, "x/y/w")).ok());
  auto l = fs_->List(JoinPath(root_, "x/y"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->size(), 2u);
  ASSERT_TRUE(fs_->PutIfAbsent(JoinPath(root_, "x/file"), "data").ok());
  Status st = fs_->CreateDirs(JoinPath(root_, "x/file/sub"));
  EXPECT_FALSE(st.ok()) << "a file in the path cannot become a directory";
  EXPECT_EQ(*fs_->ReadAll(JoinPath(root_, "x/file")), "data") << "and stays untouched";
}

TEST_P(FileSystemContract, WriteReadListDeleteRename) {
  ASSERT_TRUE(fs_->CreateDirs(JoinPath(root_, "a/b")).ok());
  auto w = fs_->OpenForWrite(JoinPath(root_, "a/b/f.bin"));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Append("hello world").ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto r = fs_->OpenForRead(JoinPath(root_, "a/b/f.bin"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->Size(), 11);
  uint8_t buf[5];
  ASSERT_TRUE((*r)->ReadAt(6, 5, buf).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 5), "world");
  EXPECT_TRUE((*r)->ReadAt(8, 5, buf).IsCorruption());
  auto l = fs_->List(JoinPath(root_, "a"));
  ASSERT_TRUE(l.ok());
  ASSERT_EQ(l->size(), 1u);
  EXPECT_TRUE((*l)[0].is_dir);
  ASSERT_TRUE(fs_->Rename(JoinPath(root_, "a/b/f.bin"), JoinPath(root_, "a/g.bin")).ok());
  EXPECT_FALSE(*fs_->Exists(JoinPath(root_, "a/b/f.bin")));
  EXPECT_TRUE(*fs_->Exists(JoinPath(root_, "a/g.bin")));
  ASSERT_TRUE(fs_->DeleteRecursive(JoinPath(root_, "a")).ok());
  EXPECT_FALSE(*fs_->Exists(JoinPath(root_, "a/g.bin")));
}

TEST_P(FileSystemContract, ListFromReturnsTheNamesAtOrAfterTheStartWithTheirSizes) {
  for (const char* name : {"00000000000000000009.json", "00000000000000000010.checkpoint.parquet",
                           "00000000000000000010.json", "00000000000000000011.json", "_last_checkpoint"}) {
    ASSERT_TRUE(fs_->PutIfAbsent(JoinPath(root_, name), name).ok());
  }
  ASSERT_TRUE(fs_->CreateDirs(JoinPath(root_, "_sidecars")).ok());
  auto l = fs_->ListFrom(root_, "00000000000000000010");
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  std::map<std::string, FileInfo> got;
  for (auto& e : *l) got[e.name] = e;
  std::vector<std::string> names;
  for (auto& [n, e] : got) names.push_back(n);
  EXPECT_EQ(names, (std::vector<std::string>{"00000000000000000010.checkpoint.parquet", "00000000000000000010.json",
                                             "00000000000000000011.json", "_last_checkpoint", "_sidecars"}));
  EXPECT_EQ(got["00000000000000000011.json"].size, 25);
  EXPECT_FALSE(got["00000000000000000011.json"].is_dir);
  EXPECT_TRUE(got["_sidecars"].is_dir);
  auto all = fs_->ListFrom(root_, "");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 6u) << "an empty start lists everything, as List";
  auto none = fs_->ListFrom(root_, "~");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_TRUE(fs_->ListFrom(JoinPath(root_, "missing"), "0").status().IsIOError());
}

TEST_P(FileSystemContract, MissingFileIsIOError) {
  auto r = fs_->OpenForRead(JoinPath(root_, "nope"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_NE(r.status().message().find("nope"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(All, FileSystemContract, ::testing::Values("local", "memory"));

TEST(Paths, JoinDirBase) {
  EXPECT_EQ(JoinPath("a/", "/b"), "a/b");
  EXPECT_EQ(DirName("/x/y/z.json"), "/x/y");
  EXPECT_EQ(BaseName("/x/y/z.json"), "z.json");
  EXPECT_EQ(DirName("z"), "");
}

}  // namespace
}  // namespace shoal::io
