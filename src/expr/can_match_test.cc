#include "expr/can_match.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

class MapStats : public ColumnStatsProvider {
 public:
  std::map<int, ColumnStats> stats;
  const ColumnStats* Stats(int column) const override {
    auto it = stats.find(column);
    return it == stats.end() ? nullptr : &it->second;
  }
};

ColumnStats IntStats(int64_t lo, int64_t hi, int64_t nulls, int64_t rows) {
  ColumnStats s;
  s.min = Value::Int32(static_cast<int32_t>(lo));
  s.max = Value::Int32(static_cast<int32_t>(hi));
  s.null_count = nulls;
  s.row_count = rows;
  return s;
}

TEST(CanMatch, ComparisonsAgainstRange) {
  MapStats p;
  p.stats[0] = IntStats(10, 20, 0, 100);
  auto x = ColumnRef(0, Int32(), "x");
  EXPECT_EQ(CanMatch(*F("=", {x, I(5)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {x, I(15)}), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(*F("<", {x, I(10)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("<=", {x, I(10)}), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(*F(">", {x, I(20)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F(">=", {x, I(10)}), p), TriState::kTrue);
  EXPECT_EQ(CanMatch(*F(">", {I(10), x}), p), TriState::kFalse);  // 10 > x, flipped
  EXPECT_EQ(CanMatch(*F("<>", {x, I(5)}), p), TriState::kTrue);
  EXPECT_EQ(CanMatch(*F("=", {x, L(15)}), p), TriState::kMaybe);  // under a widening cast
  EXPECT_EQ(CanMatch(*F("=", {x, L(50)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {x, Dec("10.5")}), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(*F("=", {x, Dec("25.5")}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {x, Null(Int32())}), p), TriState::kFalse);
  // Unknown column statistics never prune.
  auto y = ColumnRef(1, Int32(), "y");
  EXPECT_EQ(CanMatch(*F("=", {y, I(5)}), p), TriState::kMaybe);
  // BETWEEN as AND; NOT; OR.
  EXPECT_EQ(CanMatch(**And({F(">=", {x, I(21)}), F("<=", {x, I(30)})}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Not(F("<", {x, I(30)})), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Or({F("=", {x, I(1)}), F("=", {x, I(2)})}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Or({F("=", {x, I(1)}), F("=", {y, I(2)})}), p), TriState::kMaybe);
}

TEST(CanMatch, NullsAndIsNull) {
  MapStats p;
  p.stats[0] = IntStats(10, 20, 5, 100);
  p.stats[1] = IntStats(0, 0, 100, 100);  // all NULL (bounds meaningless)
  p.stats[1].min.reset();
  p.stats[1].max.reset();
  auto x = ColumnRef(0, Int32(), "x");
  auto z = ColumnRef(1, Int32(), "z");
  EXPECT_EQ(CanMatch(*IsNull(x), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(*IsNull(z), p), TriState::kTrue);
  EXPECT_EQ(CanMatch(*IsNull(z, true), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {z, I(1)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Not(F("=", {z, I(1)})), p), TriState::kFalse);  // NOT NULL is NULL
  EXPECT_EQ(CanMatch(*F(">=", {x, I(10)}), p), TriState::kMaybe);       // NULL rows are not TRUE
  p.stats[0].null_count = 0;
  EXPECT_EQ(CanMatch(*IsNull(x), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**IsDistinctFrom(x, I(5)), p), TriState::kTrue);
  EXPECT_EQ(CanMatch(**IsDistinctFrom(x, I(5), true), p), TriState::kFalse);
}

TEST(CanMatch, InListsAndLikePrefix) {
  MapStats p;
  p.stats[0] = IntStats(10, 20, 0, 100);
  auto x = ColumnRef(0, Int32(), "x");
  EXPECT_EQ(CanMatch(**In(x, {I(1), I(2), I(30)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**In(x, {I(1), I(12)}), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(**In(x, {I(1), Null(Int32())}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**In(x, {I(1), I(2)}, true), p), TriState::kTrue);
  ColumnStats s;
  s.min = Value::String("apple");
  s.max = Value::String("banana");
  s.null_count = 0;
  p.stats[1] = s;
  auto str = ColumnRef(1, String(), "s");
  EXPECT_EQ(CanMatch(**Like(str, S("b%"), nullptr), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(**Like(str, S("bz%"), nullptr), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Like(str, S("app%"), nullptr), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(**Like(str, S("ap%"), nullptr), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(**Like(str, S("aa%"), nullptr), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Like(str, S("c_x"), nullptr), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(**Like(str, S("%x"), nullptr), p), TriState::kMaybe);
  EXPECT_EQ(CanMatch(**Like(str, S("bz%"), nullptr, false, true), p), TriState::kTrue);
  EXPECT_EQ(CanMatch(**Like(str, S("BZ%"), nullptr, true), p), TriState::kMaybe);  // ILIKE never prunes
}

TEST(CanMatch, FloatingColumnsAssumeNaN) {
  MapStats p;
  ColumnStats s;
  s.min = Value::Double(1.0);
  s.max = Value::Double(2.0);
  s.null_count = 0;
  p.stats[0] = s;
  auto d = ColumnRef(0, Float64(), "d");
  EXPECT_EQ(CanMatch(*F(">", {d, D(5)}), p), TriState::kMaybe);  // NaN > 5
  EXPECT_EQ(CanMatch(*F("<", {d, D(0)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {d, D(NAN)}), p), TriState::kMaybe);
  p.stats[0].may_have_nan = false;
  EXPECT_EQ(CanMatch(*F(">", {d, D(5)}), p), TriState::kFalse);
  EXPECT_EQ(CanMatch(*F("=", {d, D(NAN)}), p), TriState::kFalse);
}

// Randomized: for random ranges and predicates, enumerate every row the statistics allow and
// evaluate the predicate on it; CanMatch must never say kFalse when some row is TRUE, nor
// kTrue when some row is not TRUE.
TEST(CanMatch, RandomizedNeverPrunesAMatch) {
  std::mt19937 rng(2024);
  auto x = ColumnRef(0, Int32(), "x");
  auto y = ColumnRef(1, Float64(), "y");
  const char* ops[] = {"=", "<>", "<", "<=", ">", ">="};
  std::function<ExprPtr(int)> gen = [&](int depth) -> ExprPtr {
    int r = rng() % (depth > 2 ? 6 : 10);
    switch (r) {
      case 0:
      case 1: return F(ops[rng() % 6], {x, I(static_cast<int32_t>(rng() % 12) - 1)});
      case 2: return F(ops[rng() % 6], {I(static_cast<int32_t>(rng() % 12) - 1), x});
      case 3: return F(ops[rng() % 6], {y, rng() % 5 == 0 ? D(NAN) : D(static_cast<double>(rng() % 12) - 1.5)});
      case 4: return IsNull(rng() % 2 ? x : y, rng() % 2);
      case 5: return *In(x, {I(static_cast<int32_t>(rng() % 12)), rng() % 4 == 0 ? Null(Int32()) : I(rng() % 12)},
                         rng() % 2);
      case 6: return *And({gen(depth + 1), gen(depth + 1)});
      case 7: return *Or({gen(depth + 1), gen(depth + 1)});
      case 8: return *IsDistinctFrom(x, rng() % 3 == 0 ? Null(Int32()) : I(rng() % 12), rng() % 2);
      default: return *Not(gen(depth + 1));
    }
  };
  EvalContext ctx(0);
  int pruned = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    int lo = static_cast<int>(rng() % 10), hi = lo + static_cast<int>(rng() % 4);
    int mode = rng() % 3;  // 0: no nulls, 1: some nulls, 2: all null
    double dlo = static_cast<double>(rng() % 10) - 0.5, dhi = dlo + static_cast<double>(rng() % 3);
    bool nan = rng() % 2;
    MapStats p;
    p.stats[0] = IntStats(lo, hi, mode == 0 ? 0 : (mode == 1 ? 3 : 10), 10);
    ColumnStats ys;
    ys.min = Value::Double(dlo);
    ys.max = Value::Double(dhi);
    ys.null_count = 0;
    ys.may_have_nan = nan;
    p.stats[1] = ys;
    std::vector<Value> xs, yvals;
    if (mode != 2) {
      for (int v = lo; v <= hi; ++v) xs.push_back(Value::Int32(v));
    }
    if (mode != 0) xs.push_back(Value::Null(Int32()));
    for (double v = dlo; v <= dhi; v += 0.5) yvals.push_back(Value::Double(v));
    if (nan) yvals.push_back(Value::Double(NAN));
    std::vector<Value> ca, cb;
    for (const auto& a : xs) {
      for (const auto& b : yvals) {
        ca.push_back(a);
        cb.push_back(b);
      }
    }
    auto batch = MakeBatch({Int32(), Float64()}, {ca, cb});
    ExprPtr pred = gen(0);
    auto v = Evaluate(*pred, batch, ctx);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    bool any_true = false, all_true = true;
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      bool t = (*v)->IsValid(i) && (*v)->Get<uint8_t>(i);
      any_true |= t;
      all_true &= t;
    }
    TriState r = CanMatch(*pred, p);
    if (r == TriState::kFalse) {
      ++pruned;
      EXPECT_FALSE(any_true) << pred->ToString() << " x in [" << lo << "," << hi << "] mode " << mode;
    }
    if (r == TriState::kTrue) {
      EXPECT_TRUE(all_true) << pred->ToString() << " x in [" << lo << "," << hi << "] mode " << mode;
    }
  }
  EXPECT_GT(pruned, 300);  // the analysis is useful, not just safe
}

}  // namespace
}  // namespace shoal::expr
