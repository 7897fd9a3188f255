// ParallelSortIndices and SerialSortIndices against the serial stable SortIndices on generated
// keys (NULLs, many ties, strings, DESC), with 1 to 5 threads; both stop on an interrupt.
#include "sql/execution/parallel_sort.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>

#include "sql/execution/thread_pool.h"

namespace shoal::sql {
namespace {

using columnar::Vector;

TEST(ParallelSortIndices, EqualsTheSerialStableSort) {
  std::mt19937_64 rng(11);
  for (int threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    ExecContext ctx;
    ctx.threads = threads;
    ctx.pool = &pool;
    for (int64_t n : {int64_t{1000}, int64_t{200000}, int64_t{3 * 65536 + 7}}) {
      auto a = Vector::Make(columnar::Int64());
      auto s = Vector::Make(columnar::String());
      for (int64_t i = 0; i < n; ++i) {
        if (rng() % 9 == 0) {
          a->AppendNull();
        } else {
          a->Append<int64_t>(static_cast<int64_t>(rng() % 50));
        }
        s->AppendString(std::string(1 + rng() % 3, static_cast<char>('a' + rng() % 4)));
      }
      std::vector<const Vector*> keys = {a.get(), s.get()};
      for (bool desc : {false, true}) {
        std::vector<SortSpec> specs = {{desc, !desc}, {!desc, desc}};
        auto want = SortIndices(keys, specs, n);
        auto got = ParallelSortIndices(ctx, keys, specs, n);
        ASSERT_TRUE(got.ok());
        ASSERT_EQ(*got, want) << threads << " threads, " << n << " rows, desc " << desc;
        auto serial = SerialSortIndices(ctx, keys, specs, n);
        ASSERT_TRUE(serial.ok());
        ASSERT_EQ(*serial, want) << "serial, " << n << " rows, desc " << desc;
      }
    }
  }
}

TEST(ParallelSortIndices, StopsOnAnInterrupt) {
  const int64_t n = 500000;
  auto a = Vector::Make(columnar::Int64());
  for (int64_t i = 0; i < n; ++i) a->Append<int64_t>((i * 7919) % 100003);
  std::vector<const Vector*> keys = {a.get()};
  std::vector<SortSpec> specs = {{false, true}};
  std::atomic<bool> interrupted{true};
  for (int threads : {1, 2}) {
    ThreadPool pool(threads - 1);
    ExecContext ctx;
    ctx.threads = threads;
    ctx.pool = &pool;
    ctx.interrupted = &interrupted;
    auto parallel = ParallelSortIndices(ctx, keys, specs, n);
    EXPECT_EQ(parallel.status().code(), StatusCode::kInterrupted) << threads;
    auto serial = SerialSortIndices(ctx, keys, specs, n);
    EXPECT_EQ(serial.status().code(), StatusCode::kInterrupted) << threads;
  }
}

}  // namespace
}  // namespace shoal::sql
