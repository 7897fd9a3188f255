#include "parquet/page_buffer_cache.h"

#include <gtest/gtest.h>

#include <thread>

namespace shoal::parquet {
namespace {

TEST(PageBufferCache, FitReusesTheSmallestCachedBufferThatIsLargeEnough) {
  PageBufferCache::Clear();
  columnar::Buffer small(1000), large(100000);
  const uint8_t* large_data = large.data();
  const uint8_t* small_data = small.data();
  PageBufferCache::Give(&large);
  PageBufferCache::Give(&small);
  EXPECT_EQ(large.capacity(), 0u);
  EXPECT_EQ(PageBufferCache::CachedBuffers(), 2u);

  columnar::Buffer b;
  PageBufferCache::Fit(&b, 500);
  EXPECT_EQ(b.data(), small_data);  // best fit, not the large one
  EXPECT_EQ(b.size(), 0u);
  PageBufferCache::Fit(&b, 50000);  // too small now: swapped for the large one
  EXPECT_EQ(b.data(), large_data);
  EXPECT_EQ(PageBufferCache::CachedBuffers(), 1u);  // the small one went back
  PageBufferCache::Fit(&b, 200000);                 // nothing fits: left to grow itself
  EXPECT_EQ(b.data(), large_data);
  PageBufferCache::Clear();
  EXPECT_EQ(PageBufferCache::CachedBytes(), 0u);
}

TEST(PageBufferCache, StaysWithinItsBounds) {
  PageBufferCache::Clear();
  // Larger than the whole cache: freed.
  columnar::Buffer huge(PageBufferCache::kMaxBytes + 1);
  PageBufferCache::Give(&huge);
  EXPECT_EQ(PageBufferCache::CachedBuffers(), 0u);
  // Many small buffers: at most kMaxBuffers kept.
  for (size_t i = 0; i < 2 * PageBufferCache::kMaxBuffers; ++i) {
    columnar::Buffer b(64 + i * 64);
    PageBufferCache::Give(&b);
  }
  EXPECT_EQ(PageBufferCache::CachedBuffers(), PageBufferCache::kMaxBuffers);
  // Big buffers: the byte bound holds, and larger buffers displace smaller ones.
  for (int i = 0; i < 8; ++i) {
    columnar::Buffer b(PageBufferCache::kMaxBytes / 3);
    PageBufferCache::Give(&b);
    EXPECT_LE(PageBufferCache::CachedBytes(), PageBufferCache::kMaxBytes);
    EXPECT_LE(PageBufferCache::CachedBuffers(), PageBufferCache::kMaxBuffers);
  }
  columnar::Buffer b;
  PageBufferCache::Fit(&b, PageBufferCache::kMaxBytes / 3);
  EXPECT_GE(b.capacity(), PageBufferCache::kMaxBytes / 3);
  PageBufferCache::Clear();
}

TEST(PageBufferCache, EachThreadHasItsOwnCache) {
  PageBufferCache::Clear();
  columnar::Buffer b(4096);
  PageBufferCache::Give(&b);
  size_t other = 99;
  std::thread t([&] {
    other = PageBufferCache::CachedBuffers();
    columnar::Buffer c(4096);
    PageBufferCache::Give(&c);  // freed with the thread's cache at exit
  });
  t.join();
  EXPECT_EQ(other, 0u);
  EXPECT_EQ(PageBufferCache::CachedBuffers(), 1u);
  PageBufferCache::Clear();
}

}  // namespace
}  // namespace shoal::parquet
