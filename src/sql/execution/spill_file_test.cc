#include "sql/execution/spill_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "io/routing_file_system.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

using columnar::BatchPtr;

BatchPtr Ints(int64_t from, int64_t n) {
  auto v = columnar::Vector::Make(columnar::Int64());
  auto s = columnar::Vector::Make(columnar::String());
  for (int64_t i = 0; i < n; ++i) {
    v->Append<int64_t>(from + i);
    if (i % 3 == 0) {
      s->AppendNull();
    } else {
      s->AppendString(std::to_string(from + i));
    }
  }
  auto schema = std::make_shared<columnar::Schema>(
      columnar::Schema{{{"i", columnar::Int64()}, {"s", columnar::String()}}});
  return std::make_shared<columnar::RecordBatch>(schema, std::vector<columnar::VectorPtr>{v, s}, n);
}

bool FileExists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

// "shoal-spill-<pid><rest>", built without operator+ (GCC 12 -Wrestrict false positives).
std::string Named(const std::string& prefix, const std::string& pid, const std::string& rest) {
  std::string s = prefix;
  s.append(pid);
  s.append(rest);
  return s;
}

class SpillFileTest : public ::testing::Test {
 protected:
  std::string Dir() const { return dir_.Join("tmp"); }
  std::shared_ptr<SpillManager> NewManager() {
    return std::make_shared<SpillManager>(io::DefaultFileSystem(), Dir());
  }
  testing::TempDir dir_;
};

TEST_F(SpillFileTest, ReadsBackWhatWasWrittenInOrderAndDeletesTheFile) {
  auto m = NewManager();
  std::atomic<int64_t> spilled{0};
  std::string path;
  {
    // A small buffer: blocks straddle the read buffer's ends.
    auto f = m->Create(Ints(0, 1)->schema, 5000, &spilled).ValueOrDie();
    path = f->path();
    EXPECT_EQ(path.rfind(Named(Dir() + "/shoal-spill-", std::to_string(::getpid()), "-"), 0), 0u) << path;
    for (int b = 0; b < 50; ++b) ASSERT_TRUE(f->Append(*Ints(b * 1000, 1000)).ok());
    ASSERT_TRUE(f->FinishWriting().ok());
    EXPECT_EQ(f->rows(), 50000);
    EXPECT_EQ(spilled.load(), f->bytes());
    EXPECT_EQ(m->bytes_written(), f->bytes());
    EXPECT_TRUE(FileExists(path));
    int64_t next = 0;
    for (;;) {
      auto b = f->Next();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      if (!*b) break;
      for (int64_t r = 0; r < (*b)->num_rows; ++r) {
        ASSERT_EQ((*b)->columns[0]->Get<int64_t>(r), next);
        ASSERT_EQ((*b)->columns[1]->IsNull(r), next % 1000 % 3 == 0);
        ++next;
      }
    }
    EXPECT_EQ(next, 50000);
    EXPECT_EQ(m->files_open(), 1);
  }
  EXPECT_FALSE(FileExists(path));
  EXPECT_EQ(m->files_open(), 0);
  m.reset();
  EXPECT_FALSE(FileExists(Dir())) << "the directory the manager made goes with it";
}

TEST_F(SpillFileTest, SmallBatchesAreCollectedIntoBlocks) {
  auto m = NewManager();
  auto f = m->Create(Ints(0, 1)->schema, 1 << 20).ValueOrDie();
  f->set_min_block_rows(50);
  for (int b = 0; b < 100; ++b) ASSERT_TRUE(f->Append(*Ints(b * 7, 7)).ok());
  ASSERT_TRUE(f->FinishWriting().ok());
  int64_t next = 0, batches = 0;
  for (;;) {
    auto b = f->Next().ValueOrDie();
    if (!b) break;
    ++batches;
    EXPECT_TRUE(b->num_rows >= 50 || next + b->num_rows == 700) << b->num_rows;
    for (int64_t r = 0; r < b->num_rows; ++r) ASSERT_EQ(b->columns[0]->Get<int64_t>(r), next++);
  }
  EXPECT_EQ(next, 700);
  EXPECT_EQ(batches, 13);  // 12 blocks of 56 rows and the last 28
}

TEST_F(SpillFileTest, TruncatedOrCorruptFileIsIOError) {
  auto m = NewManager();
  for (int mode = 0; mode < 3; ++mode) {
    auto f = m->Create(Ints(0, 1)->schema, 1 << 20).ValueOrDie();
    for (int b = 0; b < 4; ++b) ASSERT_TRUE(f->Append(*Ints(b * 100, 100)).ok());
    ASSERT_TRUE(f->FinishWriting().ok());
    const int64_t size = f->bytes();
    if (mode == 0) {
      ASSERT_EQ(::truncate(f->path().c_str(), size - 10), 0);  // a torn write (disk full)
    } else {
      std::fstream io(f->path(), std::ios::in | std::ios::out | std::ios::binary);
      io.seekp(mode == 1 ? size / 2 : 0);  // a flipped payload byte; a broken header
      io.put('\x7f');
    }
    Status st;
    for (;;) {
      auto b = f->Next();
      if (!b.ok()) {
        st = b.status();
        break;
      }
      if (!*b) break;
    }
    EXPECT_TRUE(st.IsIOError()) << mode << ": " << st.ToString();
    EXPECT_NE(st.message().find(f->path()), std::string::npos) << st.ToString();
  }
}

TEST_F(SpillFileTest, DisabledDirectoryRefusesFiles) {
  auto m = NewManager();
  ASSERT_TRUE(m->SetDirectory("").ok());
  EXPECT_FALSE(m->enabled());
  EXPECT_EQ(m->Create(Ints(0, 1)->schema, 1 << 20).status().code(), StatusCode::kNotSupported);
  m->ResetDirectory();
  EXPECT_EQ(m->directory(), Dir());
  EXPECT_TRUE(m->Create(Ints(0, 1)->schema, 1 << 20).ok());
}

TEST_F(SpillFileTest, RemovesOnlyDeadProcessesSpillFiles) {
  // A pid that is surely gone: a child that exited and was reaped.
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);
  const std::string dead = std::to_string(child), self = std::to_string(::getpid());
  auto fs = io::DefaultFileSystem();
  ASSERT_TRUE(fs->CreateDirs(Dir()).ok());
  const std::string p = "shoal-spill-";
  const std::vector<std::string> removed = {Named(p, dead, "-0.bin"), Named(p, dead, "-17.bin")};
  const std::vector<std::string> kept = {Named(p, self, "-3.bin"),  // this process
                                         "shoal-spill-1-3.bin",     // init: alive
                                         Named(p, dead, "-x.bin"),  // not our name
                                         Named(p, dead, ".bin"),    Named("spill-", dead, "-1.bin"),
                                         Named(p, dead, "-1.bin.keep"), "notes.txt"};
  for (const auto& n : removed) Touch(Dir() + "/" + n);
  for (const auto& n : kept) Touch(Dir() + "/" + n);
  auto r = SpillManager::RemoveStaleFiles(*fs, Dir());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, 2);
  for (const auto& n : removed) EXPECT_FALSE(FileExists(Dir() + "/" + n)) << n;
  for (const auto& n : kept) EXPECT_TRUE(FileExists(Dir() + "/" + n)) << n;
  EXPECT_EQ(*SpillManager::RemoveStaleFiles(*fs, dir_.Join("missing")), 0);
}

}  // namespace
}  // namespace shoal::sql
