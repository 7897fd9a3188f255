#include "io/read_speculation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace shoal::io {
namespace {

SpeculativeRead ReadOf(const std::string& path) { return {SpeculativeRead::Kind::kReadAll, path, {}, 0}; }

SpeculativeAnswer TextAnswer(std::string text) {
  SpeculativeAnswer a;
  a.text = std::move(text);
  return a;
}

TEST(ReadSpeculation, TakeHandsTheAnswerOutOnce) {
  ReadSpeculation spec;
  spec.Start(ReadOf("a"), [] { return TextAnswer("alpha"); });
  auto a = spec.Take(ReadOf("a"));
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->status.ok());
  EXPECT_EQ(a->text, "alpha");
  EXPECT_FALSE(spec.Take(ReadOf("a")).has_value());  // taken: the next caller reads for itself
  EXPECT_FALSE(spec.Take(ReadOf("b")).has_value());  // never speculated
}

TEST(ReadSpeculation, KeysTellKindsPathsAndListingArgumentsApart) {
  ReadSpeculation spec;
  spec.Start({SpeculativeRead::Kind::kExists, "p", {}, 0}, [] { SpeculativeAnswer a; a.exists = true; return a; });
  spec.Start({SpeculativeRead::Kind::kListFromLimited, "p", "x", 10}, [] { return TextAnswer("list"); });
  EXPECT_FALSE(spec.Take(ReadOf("p")).has_value());
  EXPECT_FALSE(spec.Take({SpeculativeRead::Kind::kListFromLimited, "p", "x", 11}).has_value());
  EXPECT_FALSE(spec.Take({SpeculativeRead::Kind::kListFromLimited, "p", "y", 10}).has_value());
  auto l = spec.Take({SpeculativeRead::Kind::kListFromLimited, "p", "x", 10});
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->text, "list");
  auto e = spec.Take({SpeculativeRead::Kind::kExists, "p", {}, 0});
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->exists);
}

TEST(ReadSpeculation, TheSameReadInFlightIsNotSentTwice) {
  ReadSpeculation spec;
  std::atomic<int> fetches{0};
  auto slow = [&] {
    fetches.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return TextAnswer("x");
  };
  spec.Start(ReadOf("a"), slow);
  spec.Start(ReadOf("a"), slow);
  EXPECT_EQ(spec.size(), 1u);
  auto a = spec.Take(ReadOf("a"));  // waits for the read in flight
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->text, "x");
  EXPECT_EQ(fetches.load(), 1);
}

TEST(ReadSpeculation, ReadsStartTogether) {
  // Four reads of 100 ms each take about 100 ms, not 400: each runs on its own thread.
  ReadSpeculation spec;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i) {
    spec.Start(ReadOf(std::to_string(i)), [] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      return TextAnswer("done");
    });
  }
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(spec.Take(ReadOf(std::to_string(i))).has_value());
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 300);
}

TEST(ReadSpeculation, ClearForgetsAndErrorsTravel) {
  ReadSpeculation spec;
  spec.Start(ReadOf("a"), [] { return TextAnswer("old"); });
  spec.Clear();
  EXPECT_EQ(spec.size(), 0u);
  EXPECT_FALSE(spec.Take(ReadOf("a")).has_value());
  spec.Start(ReadOf("e"), [] {
    SpeculativeAnswer a;
    a.status = Status::IOError("S3 open 'e' failed");
    return a;
  });
  auto e = spec.Take(ReadOf("e"));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status.code(), StatusCode::kIOError);
}

TEST(ReadSpeculation, KeepsAtMostMaxEntries) {
  ReadSpeculation spec;
  for (size_t i = 0; i < ReadSpeculation::kMaxEntries + 10; ++i) {
    spec.Start(ReadOf(std::to_string(i)), [] { return TextAnswer("v"); });
  }
  EXPECT_EQ(spec.size(), ReadSpeculation::kMaxEntries);
  EXPECT_FALSE(spec.Take(ReadOf(std::to_string(ReadSpeculation::kMaxEntries))).has_value());
}

}  // namespace
}  // namespace shoal::io
