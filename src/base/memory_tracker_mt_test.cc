// MemoryTracker under many threads (base/memory_tracker.h): reservations from concurrent owners
// never let the total pass the limit, and everything comes back.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "base/memory_tracker.h"

namespace shoal {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(MemoryTrackerMt, ConcurrentOwnersStayUnderTheLimitAndReleaseEverything) {
  auto t = std::make_shared<MemoryTracker>(64 * kMiB);
  std::atomic<int64_t> failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 8; ++w) {
    threads.emplace_back([&, w] {
      MemoryReservation r(t, "worker " + std::to_string(w));
      for (int i = 0; i < 20000; ++i) {
        Status st = r.Grow(100 * 1024 + 17 * w);
        if (!st.ok()) {
          EXPECT_EQ(st.code(), StatusCode::kOutOfMemory);
          ++failures;
          r.Shrink(r.bytes() / 2);
        }
        EXPECT_LE(t->reserved(), t->limit());
        if (i % 7 == 0) r.Shrink(150 * 1024);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_GT(failures.load(), 0);
  EXPECT_EQ(t->reserved(), 0);
  EXPECT_LE(t->peak(), t->limit());
}

}  // namespace
}  // namespace shoal
