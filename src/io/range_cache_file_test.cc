#include "io/range_cache_file.h"

#include <gtest/gtest.h>

#include <atomic>

#include "io/memory_file_system.h"

namespace shoal::io {
namespace {

// Counts the reads that reach the file below the cache.
class CountingFile final : public RandomAccessFile {
 public:
  explicit CountingFile(std::unique_ptr<RandomAccessFile> f) : RandomAccessFile(f->path()), f_(std::move(f)) {}
  int64_t Size() const override { return f_->Size(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    ++reads;
    return f_->ReadAt(offset, length, out);
  }
  mutable std::atomic<int> reads{0};

 private:
  std::unique_ptr<RandomAccessFile> f_;
};

TEST(CoalesceRanges, MergesOverlapsAndSmallGapsOnly) {
  auto out = CoalesceRanges({{100, 10}, {0, 10}, {105, 20}, {500, 0}, {1000, 5}}, 50);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].offset, 0);
  EXPECT_EQ(out[0].length, 10);  // gap 90 >= 50: apart
  EXPECT_EQ(out[1].offset, 100);
  EXPECT_EQ(out[1].length, 25);  // overlap merged; the empty range dropped
  EXPECT_EQ(out[2].offset, 1000);  // 875 bytes after the previous end: apart
  out = CoalesceRanges({{0, 10}, {1000, 5}}, 50);
  EXPECT_EQ(out.size(), 2u);
  out = CoalesceRanges({{0, 10}, {40, 5}}, 50);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].length, 45);
}

TEST(RangeCacheFile, PrefetchedRangesAreServedFromMemoryInOneReadEach) {
  MemoryFileSystem fs;
  std::string data(3 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 31 + 7);
  ASSERT_TRUE(fs.WriteAtomic("/f", data).ok());
  auto opened = fs.OpenForRead("/f");
  ASSERT_TRUE(opened.ok());
  auto counting = std::make_unique<CountingFile>(std::move(*opened));
  CountingFile* below = counting.get();
  RangeCacheFile file(std::move(counting));
  // Two ranges 100 KiB apart merge into one read; one 2 MiB further is a read of its own.
  ASSERT_TRUE(file.Prefetch({{1000, 100}, {1000 + (100 << 10), 50}, {(2 << 20) + 500, 10}}).ok());
  EXPECT_EQ(below->reads.load(), 2);
  std::string got(100, '\0');
  ASSERT_TRUE(file.ReadAt(1050, 100, reinterpret_cast<uint8_t*>(got.data())).ok());  // inside the gap: kept too
  EXPECT_EQ(got, data.substr(1050, 100));
  ASSERT_TRUE(file.ReadAt((2 << 20) + 500, 10, reinterpret_cast<uint8_t*>(got.data())).ok());
  EXPECT_EQ(got.substr(0, 10), data.substr((2 << 20) + 500, 10));
  EXPECT_EQ(below->reads.load(), 2);
  // Prefetching what is kept reads nothing; a read outside goes below, right.
  ASSERT_TRUE(file.Prefetch({{1010, 20}}).ok());
  EXPECT_EQ(below->reads.load(), 2);
  std::string wide(200, '\0');
  ASSERT_TRUE(file.ReadAt(900, 200, reinterpret_cast<uint8_t*>(wide.data())).ok());
  EXPECT_EQ(wide, data.substr(900, 200));
  EXPECT_EQ(below->reads.load(), 3);
  // Past the end is the same Corruption as the file's.
  EXPECT_FALSE(file.ReadAt(static_cast<int64_t>(data.size()) - 5, 10, reinterpret_cast<uint8_t*>(got.data())).ok());
}

}  // namespace
}  // namespace shoal::io
