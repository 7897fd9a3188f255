// JoinHashTable and ConcatColumnsParallel on generated inputs, built by many threads, against
// brute-force references: every probe row's matches (as ascending build rows) equal a scan of
// all build rows; NULL keys never match; skewed and duplicate keys, empty builds, integer,
// string and composite keys, partitioned (large) and unpartitioned (small) builds.
#include "sql/execution/join_hash_table.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "columnar/value.h"
#include "sql/execution/parallel_concat.h"
#include "sql/execution/thread_pool.h"

namespace shoal::sql {
namespace {

using columnar::Vector;
using columnar::VectorPtr;

// One key row: an optional integer and an optional string (unused parts stay empty).
struct KeyRow {
  std::optional<int64_t> i;
  std::optional<std::string> s;
};

enum class Layout { kInt, kString, kComposite, kInt32 };

std::vector<columnar::TypePtr> Types(Layout l) {
  switch (l) {
    case Layout::kInt: return {columnar::Int64()};
    case Layout::kInt32: return {columnar::Int32()};
    case Layout::kString: return {columnar::String()};
    case Layout::kComposite: return {columnar::Int64(), columnar::String()};
  }
  return {};
}

KeyRow RandomKey(std::mt19937_64& rng, Layout l, int64_t domain, bool skew) {
  KeyRow k;
  auto value = [&] {
    // Skew: half the rows share key 7.
    if (skew && rng() % 2 == 0) return int64_t{7};
    return static_cast<int64_t>(rng() % domain) - domain / 3;
  };
  if (l != Layout::kString && rng() % 11 != 0) k.i = value();
  if ((l == Layout::kString || l == Layout::kComposite) && rng() % 13 != 0) {
    k.s = "key-" + std::to_string(value() % 1000) + (rng() % 3 == 0 ? std::string(20, 'x') : "");
  }
  return k;
}

std::vector<VectorPtr> MakeKeys(const std::vector<KeyRow>& rows, Layout l) {
  std::vector<VectorPtr> cols;
  for (const auto& t : Types(l)) cols.push_back(Vector::Make(t));
  for (const auto& r : rows) {
    size_t c = 0;
    if (l != Layout::kString) {
      if (!r.i) {
        cols[c]->AppendNull();
      } else if (l == Layout::kInt32) {
        cols[c]->Append<int32_t>(static_cast<int32_t>(*r.i));
      } else {
        cols[c]->Append<int64_t>(*r.i);
      }
      ++c;
    }
    if (l == Layout::kString || l == Layout::kComposite) {
      if (r.s) {
        cols[c]->AppendString(*r.s);
      } else {
        cols[c]->AppendNull();
      }
    }
  }
  return cols;
}

bool Equal(const KeyRow& a, const KeyRow& b, Layout l) {
  bool has_i = l != Layout::kString, has_s = l == Layout::kString || l == Layout::kComposite;
  if (has_i && (!a.i || !b.i || *a.i != *b.i)) return false;
  if (has_s && (!a.s || !b.s || *a.s != *b.s)) return false;
  return true;
}

struct Case {
  Layout layout;
  int64_t build_rows;
  int64_t domain;
  bool skew;
  int threads;
};

void RunCase(const Case& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  ThreadPool pool(c.threads);
  ExecContext ctx;
  ctx.threads = c.threads;
  ctx.pool = &pool;
  // Build side in chunks of varying size (some empty).
  std::vector<KeyRow> build;
  std::vector<std::vector<VectorPtr>> chunks;
  while (static_cast<int64_t>(build.size()) < c.build_rows) {
    int64_t n = std::min<int64_t>(c.build_rows - build.size(), rng() % 3000);
    std::vector<KeyRow> rows;
    for (int64_t i = 0; i < n; ++i) rows.push_back(RandomKey(rng, c.layout, c.domain, c.skew));
    chunks.push_back(MakeKeys(rows, c.layout));
    build.insert(build.end(), rows.begin(), rows.end());
  }
  JoinHashTable table(Types(c.layout), Types(c.layout));
  ASSERT_EQ(table.int_keys(), c.layout == Layout::kInt || c.layout == Layout::kInt32);
  ASSERT_TRUE(table.Build(ctx, chunks).ok());
  // Probe with 2000 random keys: brute force over a key -> rows index of the build side.
  std::vector<KeyRow> probe;
  for (int i = 0; i < 2000; ++i) probe.push_back(RandomKey(rng, c.layout, c.domain, c.skew));
  auto pk = MakeKeys(probe, c.layout);
  std::vector<const Vector*> ptrs;
  for (const auto& v : pk) ptrs.push_back(v.get());
  JoinHashTable::ProbeKeys keys;
  table.HashProbe(ptrs, static_cast<int64_t>(probe.size()), &keys);
  int64_t total = 0;
  for (size_t i = 0; i < probe.size(); ++i) {
    std::vector<int64_t> got;
    table.Matches(keys, static_cast<int64_t>(i), [&](int64_t r) { got.push_back(r); });
    std::vector<int64_t> want;
    // Sampling keeps the brute force affordable on the large cases.
    if (i % (c.build_rows > 100000 ? 100 : c.build_rows > 10000 ? 20 : 1) != 0) {
      total += static_cast<int64_t>(got.size());
      continue;
    }
    for (size_t r = 0; r < build.size(); ++r) {
      if (Equal(probe[i], build[r], c.layout)) want.push_back(static_cast<int64_t>(r));
    }
    ASSERT_EQ(got, want) << "probe row " << i;
    total += static_cast<int64_t>(got.size());
  }
  if (c.build_rows > 0) {
    EXPECT_GT(total, 0);
  }
}

TEST(JoinHashTable, MatchesEqualABruteForceScan) {
  uint64_t seed = 1;
  for (Layout l : {Layout::kInt, Layout::kInt32, Layout::kString, Layout::kComposite}) {
    for (int threads : {1, 4}) {
      for (bool skew : {false, true}) {
        SCOPED_TRACE("layout " + std::to_string(static_cast<int>(l)) + " threads " + std::to_string(threads) +
                     " skew " + std::to_string(skew));
        RunCase({l, 0, 10, skew, threads}, seed++);          // empty build
        RunCase({l, 500, 40, skew, threads}, seed++);        // one partition, many duplicates
        RunCase({l, 60000, 5000, skew, threads}, seed++);    // several partitions
      }
    }
  }
}

TEST(JoinHashTable, LargeBuildUsesAllRadixPartitions) {
  RunCase({Layout::kInt, 400000, 1 << 30, false, 4}, 99);
  RunCase({Layout::kComposite, 200000, 100000, true, 3}, 100);
}

TEST(ConcatColumnsParallel, EqualsSerialConcat) {
  std::mt19937_64 rng(3);
  ThreadPool pool(4);
  ExecContext ctx;
  ctx.threads = 4;
  ctx.pool = &pool;
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::TypePtr> types = {columnar::Int64(), columnar::String(), columnar::Int32(),
                                          columnar::List(columnar::Int64())};
  std::vector<columnar::BatchPtr> batches;
  for (int b = 0; b < 200; ++b) {
    int64_t n = rng() % 1500;
    std::vector<VectorPtr> cols;
    for (const auto& t : types) cols.push_back(Vector::Make(t));
    const bool nulls = b % 3 == 0;
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && rng() % 5 == 0) {
        for (auto& c : cols) c->AppendNull();
        continue;
      }
      cols[0]->Append<int64_t>(static_cast<int64_t>(rng()));
      cols[1]->AppendString(std::string(rng() % 12, static_cast<char>('a' + rng() % 26)));
      cols[2]->Append<int32_t>(static_cast<int32_t>(rng()));
      cols[3]->child(0)->Append<int64_t>(static_cast<int64_t>(i));
      cols[3]->AppendListEnd();
    }
    batches.push_back(std::make_shared<columnar::RecordBatch>(schema, cols, n));
  }
  auto got = ConcatColumnsParallel(ctx, batches, types.size());
  ASSERT_TRUE(got.ok());
  for (size_t c = 0; c < types.size(); ++c) {
    std::vector<VectorPtr> parts;
    for (const auto& b : batches) parts.push_back(b->columns[c]);
    auto want = columnar::Concat(parts);
    const Vector& g = *(*got)[c];
    ASSERT_EQ(g.size(), want->size()) << c;
    for (int64_t i = 0; i < want->size(); ++i) {
      ASSERT_EQ(g.IsValid(i), want->IsValid(i)) << c << " row " << i;
      ASSERT_EQ(columnar::Value::FromVector(g, i).ToSqlLiteral(), columnar::Value::FromVector(*want, i).ToSqlLiteral())
          << c << " row " << i;
    }
  }
}

}  // namespace
}  // namespace shoal::sql
