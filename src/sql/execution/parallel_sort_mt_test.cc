// ParallelSortIndices against the serial stable SortIndices on generated keys (NULLs, many
// ties, strings, DESC), with 1 to 5 threads.
#include "sql/execution/parallel_sort.h"

#include <gtest/gtest.h>

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
    for (int64_t n : {int64_t{1000}, int64_t{200000}}) {
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
      }
    }
  }
}

}  // namespace
}  // namespace shoal::sql
