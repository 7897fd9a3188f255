// MemoryTracker and MemoryReservation (base/memory_tracker.h): chunked reservation, the limit,
// the OutOfMemory error and its message, merging, moving and release on destruction.
#include "base/memory_tracker.h"

#include <gtest/gtest.h>

namespace shoal {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(MemoryTracker, ReservesWithinTheLimitOnly) {
  MemoryTracker t(10 * kMiB);
  EXPECT_TRUE(t.TryReserve(6 * kMiB));
  EXPECT_FALSE(t.TryReserve(5 * kMiB));
  EXPECT_TRUE(t.TryReserve(4 * kMiB));
  EXPECT_EQ(t.reserved(), 10 * kMiB);
  t.Release(10 * kMiB);
  EXPECT_EQ(t.reserved(), 0);
  EXPECT_EQ(t.peak(), 10 * kMiB);
}

TEST(MemoryTracker, ChunksAreAMiBOrASixtyFourthOfASmallLimit) {
  EXPECT_EQ(MemoryTracker(4096 * kMiB).chunk(), kMiB);
  EXPECT_EQ(MemoryTracker(64 * kMiB).chunk(), kMiB);
  EXPECT_EQ(MemoryTracker(16 * kMiB).chunk(), 256 * 1024);
  EXPECT_EQ(MemoryTracker(kMiB).chunk(), 16 * 1024);
  EXPECT_EQ(MemoryTracker(1000).chunk(), 16 * 1024);
}

TEST(MemoryTracker, DefaultLimitIsMostOfPhysicalMemory) {
  const int64_t d = MemoryTracker::DefaultLimit();
  EXPECT_GT(d, 64 * kMiB);
  EXPECT_EQ(d % 8, 0);
}

TEST(MemoryReservation, TakesWholeChunksSoSmallGrowsStayLocal) {
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  MemoryReservation r(t, "Sort");
  ASSERT_TRUE(r.Grow(1000).ok());
  EXPECT_EQ(r.bytes(), 1000);
  EXPECT_EQ(t->reserved(), kMiB);
  // Growing within the chunk does not touch the tracker.
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(r.Grow(1000).ok());
  EXPECT_EQ(t->reserved(), kMiB);
  ASSERT_TRUE(r.Grow(kMiB).ok());
  EXPECT_EQ(t->reserved(), 2 * kMiB);
  EXPECT_EQ(r.bytes(), 101000 + kMiB);
}

TEST(MemoryReservation, ShrinkKeepsLessThanAChunkAndNothingWhenEmpty) {
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  MemoryReservation r(t, "Sort");
  ASSERT_TRUE(r.Grow(10 * kMiB).ok());
  r.Shrink(kMiB / 2);  // less than a chunk unused: kept
  EXPECT_EQ(t->reserved(), 10 * kMiB);
  r.Shrink(8 * kMiB);
  EXPECT_EQ(r.bytes(), 10 * kMiB - kMiB / 2 - 8 * kMiB);
  EXPECT_EQ(t->reserved(), 2 * kMiB);
  ASSERT_TRUE(r.Resize(kMiB + kMiB / 4).ok());
  EXPECT_EQ(t->reserved(), 2 * kMiB);
  r.Trim();
  EXPECT_EQ(t->reserved(), kMiB + kMiB / 4);
  ASSERT_TRUE(r.Resize(0).ok());
  EXPECT_EQ(t->reserved(), 0);
}

TEST(MemoryReservation, GrowPastTheLimitFailsNamingTheOwnerAndKeepsWhatItHad) {
  auto t = std::make_shared<MemoryTracker>(64 * kMiB);
  MemoryReservation other(t, "Window");
  ASSERT_TRUE(other.Grow(30 * kMiB).ok());
  MemoryReservation r(t, "HashJoin build side");
  ASSERT_TRUE(r.Grow(30 * kMiB).ok());
  Status st = r.Grow(8 * kMiB);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOutOfMemory);
  EXPECT_STREQ(st.ErrorName(), "OutOfMemoryException");
  EXPECT_EQ(st.message(),
            "HashJoin build side needs 8.0 MiB more (it holds 30.0 MiB); 60.0 MiB of memory_limit "
            "64.0 MiB in use "
            "(SET memory_limit to raise it)");
  EXPECT_EQ(r.bytes(), 30 * kMiB);
  EXPECT_EQ(t->reserved(), 60 * kMiB);
}

TEST(MemoryReservation, WhatFitsUnderTheLimitIsGrantedWithoutChunkRounding) {
  auto t = std::make_shared<MemoryTracker>(64 * kMiB + 500);
  MemoryReservation r(t, "Sort");
  ASSERT_TRUE(r.Grow(64 * kMiB).ok());
  ASSERT_TRUE(r.Grow(400).ok());
  EXPECT_EQ(t->reserved(), 64 * kMiB + 400);
  EXPECT_EQ(r.Grow(101).code(), StatusCode::kOutOfMemory);
  EXPECT_TRUE(r.Grow(100).ok());
  EXPECT_EQ(t->reserved(), t->limit());
}

TEST(MemoryReservation, ReleasesOnDestructionAndMoves) {
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  {
    MemoryReservation a(t, "HashAggregate");
    ASSERT_TRUE(a.Grow(3 * kMiB).ok());
    MemoryReservation b = std::move(a);
    EXPECT_EQ(a.bytes(), 0);  // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(b.bytes(), 3 * kMiB);
    EXPECT_EQ(t->reserved(), 3 * kMiB);
    MemoryReservation c(t, "Sort");
    ASSERT_TRUE(c.Grow(kMiB).ok());
    c = std::move(b);  // c's own bytes are released first
    EXPECT_EQ(t->reserved(), 3 * kMiB);
  }
  EXPECT_EQ(t->reserved(), 0);
}

TEST(MemoryReservation, MergeMovesBytesWithoutTouchingTheTracker) {
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  MemoryReservation global;  // no tracker yet: adopts the first merged one's
  MemoryReservation w1(t, "HashAggregate"), w2(t, "HashAggregate");
  ASSERT_TRUE(w1.Grow(100).ok());
  ASSERT_TRUE(w2.Grow(2 * kMiB).ok());
  const int64_t before = t->reserved();
  global.Merge(std::move(w1));
  global.Merge(std::move(w2));
  EXPECT_EQ(t->reserved(), before);
  EXPECT_EQ(global.bytes(), 2 * kMiB + 100);
  EXPECT_EQ(global.owner(), "HashAggregate");
  EXPECT_EQ(w1.bytes(), 0);
  w1.Release();
  global.Release();
  EXPECT_EQ(t->reserved(), 0);
}

TEST(MemoryReservation, MergingManySmallReservationsKeepsAtMostOneUnusedChunk) {
  // An operator that merges a worker's reservation per round (a spilled join's rounds feeding an
  // aggregate) must not collect a chunk of slack per merge.
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  MemoryReservation global(t, "Aggregate");
  for (int i = 0; i < 50; ++i) {
    MemoryReservation w(t, "Aggregate");
    ASSERT_TRUE(w.Grow(1000).ok());
    global.Merge(std::move(w));
  }
  EXPECT_EQ(global.bytes(), 50 * 1000);
  EXPECT_LT(global.reserved() - global.bytes(), t->chunk());
  EXPECT_EQ(t->reserved(), global.reserved());
  global.Release();
  EXPECT_EQ(t->reserved(), 0);
}

TEST(MemoryReservation, WithoutATrackerItOnlyCounts) {
  MemoryReservation r;
  ASSERT_TRUE(r.Grow(int64_t{1} << 50).ok());
  EXPECT_EQ(r.bytes(), int64_t{1} << 50);
  EXPECT_EQ(r.reserved(), 0);
}

TEST(MemoryReservation, ALoweredLimitFailsOnlyLaterGrows) {
  auto t = std::make_shared<MemoryTracker>(100 * kMiB);
  MemoryReservation r(t, "Sort");
  ASSERT_TRUE(r.Grow(50 * kMiB).ok());
  t->set_limit(10 * kMiB);
  EXPECT_EQ(t->reserved(), 50 * kMiB);
  EXPECT_EQ(r.Grow(2 * kMiB).code(), StatusCode::kOutOfMemory);
  r.Shrink(45 * kMiB);
  EXPECT_TRUE(r.Grow(2 * kMiB).ok());
}

}  // namespace
}  // namespace shoal
