#include "expr/in_list_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "expr/evaluate.h"
#include "expr/expr.h"
#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

TEST(KeySet, MatchesAStdSetOnRandomKeysIncludingTheEmptyMarker) {
  std::mt19937_64 rng(3);
  KeySet keys;
  std::set<uint64_t> reference;
  for (int i = 0; i < 100000; ++i) {
    uint64_t k = rng() % 3 == 0 ? rng() % 1000 : rng();
    if (i == 500) k = 0x9e3779b97f4a7c15ULL;  // the value that marks free slots
    keys.Insert(k);
    reference.insert(k);
  }
  EXPECT_EQ(keys.size(), reference.size());
  for (uint64_t k : reference) ASSERT_TRUE(keys.Contains(k));
  int false_hits = 0;
  for (int i = 0; i < 100000; ++i) {
    uint64_t k = rng();
    false_hits += keys.Contains(k) != (reference.count(k) > 0);
  }
  EXPECT_EQ(false_hits, 0);
  EXPECT_FALSE(KeySet().Contains(0));
}

// x IN <set>: TRUE for members, FALSE for others, NULL for a NULL needle.
TEST(KeySet, InSetExpressionEvaluatesPerRow) {
  auto set = std::make_shared<InListSet>();
  for (int64_t k : {3, -7, 1000000}) set->keys.Insert(InKey(k));
  auto e = InSet(ColumnRef(0, Int64(), "x"), set, "<3 join keys>");
  EXPECT_EQ(e->ToString(), "(x IN <3 join keys>)");
  auto batch = MakeBatch({Int64()}, {{Value::Int64(3), Value::Int64(4), Value::Null(Int64()), Value::Int64(-7),
                                      Value::Int64(1000000)}});
  EvalContext ctx(0);
  auto v = Evaluate(*e, batch, ctx);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ((*v)->Get<uint8_t>(0), 1);
  EXPECT_EQ((*v)->Get<uint8_t>(1), 0);
  EXPECT_TRUE((*v)->IsNull(2));
  EXPECT_EQ((*v)->Get<uint8_t>(3), 1);
  EXPECT_EQ((*v)->Get<uint8_t>(4), 1);
  std::vector<uint32_t> sel;
  auto n = EvaluateFilter(*e, batch, ctx, &sel);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 3);
}

}  // namespace
}  // namespace shoal::expr
