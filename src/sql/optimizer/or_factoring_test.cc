// OR factoring and the predicates an OR implies per input.
#include "sql/optimizer/or_factoring.h"

#include <gtest/gtest.h>

namespace shoal::sql {
namespace {

using expr::ExprPtr;

ExprPtr Col(int i) { return expr::ColumnRef(i, columnar::Int64(), std::string("c").append(std::to_string(i))); }
ExprPtr Eq(ExprPtr a, int64_t v) { return *expr::Call("=", {a, expr::Literal(columnar::Value::Int64(v))}); }
ExprPtr And(std::vector<ExprPtr> v) { return *expr::And(std::move(v)); }
ExprPtr Or(std::vector<ExprPtr> v) { return *expr::Or(std::move(v)); }

TEST(OrFactoring, FactorsConjunctsCommonToEveryBranch) {
  ExprPtr key = *expr::Call("=", {Col(0), Col(1)});
  ExprPtr e = Or({And({key, Eq(Col(2), 1)}), And({Eq(Col(2), 2), key}), And({key, Eq(Col(3), 3)})});
  auto f = FactorOr(e);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->ToString(), And({key, Or({Eq(Col(2), 1), Eq(Col(2), 2), Eq(Col(3), 3)})})->ToString());
}

TEST(OrFactoring, BranchThatIsOnlyTheCommonPartDropsTheOr) {
  ExprPtr a = Eq(Col(0), 1);
  auto f = FactorOr(Or({a, And({a, Eq(Col(1), 2)})}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->ToString(), a->ToString());
}

TEST(OrFactoring, WithoutCommonConjunctsTheOrStays) {
  ExprPtr e = Or({Eq(Col(0), 1), Eq(Col(1), 2)});
  auto f = FactorOr(e);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->ToString(), e->ToString());
}

TEST(OrFactoring, ImpliedPredicatePerInput) {
  // (c0 = 1 AND c2 = 5) OR (c0 = 2 AND c3 = 6): columns 0-1 are one input, 2-3 another.
  ExprPtr e = Or({And({Eq(Col(0), 1), Eq(Col(2), 5)}), And({Eq(Col(0), 2), Eq(Col(3), 6)})});
  auto left = ImpliedByOr(e, [](const expr::Expr& c) {
    for (int x : expr::CollectColumns(c)) {
      if (x > 1) return false;
    }
    return true;
  });
  ASSERT_TRUE(left.ok());
  ASSERT_TRUE(left->has_value());
  EXPECT_EQ((**left)->ToString(), Or({Eq(Col(0), 1), Eq(Col(0), 2)})->ToString());
  // A branch without a conjunct on the input: nothing is implied.
  auto none = ImpliedByOr(Or({Eq(Col(0), 1), Eq(Col(2), 2)}), [](const expr::Expr& c) {
    return expr::CollectColumns(c) == std::vector<int>{0};
  });
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace shoal::sql
