// WindowEvaluator against brute force: aggregates over random ROWS frames (segment tree vs
// one aggregation per frame), ranking and peers, and RANGE offsets with NULL keys.
#include "sql/execution/window_evaluator.h"

#include <gtest/gtest.h>

#include <random>

#include "columnar/value.h"

namespace shoal::sql {
namespace {

using columnar::Vector;
using columnar::VectorPtr;

VectorPtr Ints(const std::vector<std::optional<int64_t>>& v) {
  auto out = Vector::Make(columnar::Int64());
  for (const auto& x : v) {
    if (x) {
      out->Append<int64_t>(*x);
    } else {
      out->AppendNull();
    }
  }
  return out;
}

std::string Text(const Vector& v, int64_t i) { return columnar::Value::FromVector(v, i).ToString(); }

// One aggregation of rows [a, b) of `args`: the reference for a frame.
std::string BruteForce(const expr::AggregateBinding& b, const std::vector<const Vector*>& args, int64_t a, int64_t e) {
  auto agg = b.Create();
  agg->Resize(1);
  std::vector<VectorPtr> slices;
  std::vector<const Vector*> ptrs;
  for (const Vector* v : args) {
    slices.push_back(v->Slice(a, e - a));
    ptrs.push_back(slices.back().get());
  }
  std::vector<uint32_t> ids(e - a, 0);
  EXPECT_TRUE(agg->Update(ids.data(), ptrs, e - a).ok());
  auto out = agg->Finalize();
  EXPECT_TRUE(out.ok());
  return Text(**out, 0);
}

TEST(WindowEvaluator, SegmentTreeMatchesBruteForceOnRandomRowsFrames) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 20; ++round) {
    const int64_t n = std::uniform_int_distribution<int64_t>(1, 300)(rng);
    std::vector<std::optional<int64_t>> part(n), vals(n);
    int64_t p = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (rng() % 37 == 0) ++p;  // partitions are runs (the input is sorted)
      part[i] = p;
      if (rng() % 6) vals[i] = static_cast<int64_t>(rng() % 100) - 50;
    }
    VectorPtr pv = Ints(part), vv = Ints(vals);
    WindowEvaluator eval({pv.get()}, {}, {}, nullptr, n);
    for (const char* fn : {"sum", "min", "max", "count", "avg", "string_agg"}) {
      WindowCall call;
      call.function = WindowFunction::kAggregate;
      std::vector<columnar::TypePtr> types = {columnar::Int64()};
      VectorPtr arg = vv;
      if (std::string(fn) == "string_agg") {
        auto s = Vector::Make(columnar::String());
        for (int64_t i = 0; i < n; ++i) {
          if (vals[i]) {
            s->AppendString(std::to_string(*vals[i]));
          } else {
            s->AppendNull();
          }
        }
        arg = s;
        types = {columnar::String()};
      }
      auto binding = expr::ResolveAggregate(fn, types);
      ASSERT_TRUE(binding.ok()) << fn;
      call.binding = *binding;
      call.type = binding->result_type;
      call.frame.rows = true;
      call.frame.start = FrameBoundType::kPreceding;
      call.frame.start_offset = static_cast<double>(rng() % 40);
      call.frame.end = rng() % 2 ? FrameBoundType::kFollowing : FrameBoundType::kCurrentRow;
      call.frame.end_offset = static_cast<double>(rng() % 40);
      auto got = eval.Evaluate(call, {arg.get()});
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      for (int64_t i = 0; i < n; ++i) {
        int64_t ps = i, pe = i;
        while (ps > 0 && part[ps - 1] == part[i]) --ps;
        while (pe < n && part[pe] == part[i]) ++pe;
        int64_t a = std::max<int64_t>(ps, i - static_cast<int64_t>(call.frame.start_offset));
        int64_t e = call.frame.end == FrameBoundType::kCurrentRow
                        ? i + 1
                        : std::min<int64_t>(pe, i + static_cast<int64_t>(call.frame.end_offset) + 1);
        if (e < a) e = a;
        ASSERT_EQ(Text(**got, i), BruteForce(call.binding, {arg.get()}, a, e))
            << fn << " round " << round << " row " << i << " frame [" << a << ", " << e << ")";
      }
    }
  }
}

TEST(WindowEvaluator, RanksPeersAndRangeOffsetsWithNullKeys) {
  // One partition, ORDER BY k ASC NULLS FIRST: NULL, NULL, 1, 2, 2, 5.
  VectorPtr part = Ints({0, 0, 0, 0, 0, 0});
  VectorPtr key = Ints({std::nullopt, std::nullopt, 1, 2, 2, 5});
  auto dkey = Vector::Make(columnar::Float64());
  for (int64_t i = 0; i < key->size(); ++i) {
    if (key->IsNull(i)) {
      dkey->AppendNull();
    } else {
      dkey->Append<double>(static_cast<double>(key->Get<int64_t>(i)));
    }
  }
  WindowEvaluator eval({part.get()}, {key.get()}, {{false, true}}, dkey.get(), 6);
  auto text = [](const Vector& v) {
    std::string s;
    for (int64_t i = 0; i < v.size(); ++i) {
      if (i) s += ' ';
      s += Text(v, i);
    }
    return s;
  };
  WindowCall rank;
  rank.function = WindowFunction::kRank;
  EXPECT_EQ(text(**eval.Evaluate(rank, {})), "1 1 3 4 4 6");
  rank.function = WindowFunction::kDenseRank;
  EXPECT_EQ(text(**eval.Evaluate(rank, {})), "1 1 2 3 3 4");
  WindowCall count;
  count.function = WindowFunction::kAggregate;
  count.binding = *expr::ResolveAggregate("count", {});
  count.type = columnar::Int64();
  count.frame.rows = false;
  count.frame.start = FrameBoundType::kPreceding;
  count.frame.start_offset = 1;
  count.frame.end = FrameBoundType::kFollowing;
  count.frame.end_offset = 0;
  // NULL keys frame their NULL peers; 1 sees {1}, 2 sees {1, 2, 2}, 5 sees {5}.
  EXPECT_EQ(text(**eval.Evaluate(count, {})), "2 2 1 3 3 1");
}

}  // namespace
}  // namespace shoal::sql
