// TuneAllocator (include/shoal/allocator.h): after it, a scan-sized block comes from the heap,
// not from its own mmap, so freeing and allocating it again faults no new pages.
#include "shoal/allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHOAL_SANITIZED_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SHOAL_SANITIZED_MALLOC 1
#endif
#endif

namespace shoal {
namespace {

TEST(TuneAllocator, IsIdempotent) { EXPECT_EQ(TuneAllocator(), TuneAllocator()); }

#if defined(__GLIBC__) && !defined(SHOAL_SANITIZED_MALLOC)
TEST(TuneAllocator, ScanSizedBlocksComeFromTheHeapNotFromMmap) {
  const char* env = std::getenv("SHOAL_TUNE_ALLOCATOR");
  if (env != nullptr && std::strcmp(env, "0") == 0) GTEST_SKIP() << "SHOAL_TUNE_ALLOCATOR=0 is set";
  ASSERT_TRUE(TuneAllocator());
  // 4 MiB: above glibc's default mmap threshold (128 KiB), below the tuned one (32 MiB).
  constexpr size_t kBlock = size_t{4} << 20;
  const size_t mapped_before = mallinfo2().hblkhd;
  void* p = std::malloc(kBlock);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, kBlock);
  EXPECT_EQ(mallinfo2().hblkhd, mapped_before) << "the block was mmapped";
  std::free(p);
  // Freed, the block stays in the heap (below the 128 MiB trim threshold) for the next batch.
  const size_t heap_free = mallinfo2().fordblks;
  EXPECT_GE(heap_free, kBlock);
}
#endif

}  // namespace
}  // namespace shoal
