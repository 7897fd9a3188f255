// Which predicates reject the NULL-padded rows of an outer join.
#include "sql/optimizer/outer_join_simplification.h"

#include <gtest/gtest.h>

namespace shoal::sql {
namespace {

using expr::ExprPtr;

ExprPtr Col(int i) { return expr::ColumnRef(i, columnar::Int64(), std::string("c").append(std::to_string(i))); }
ExprPtr Lit(int64_t v) { return expr::Literal(columnar::Value::Int64(v)); }

TEST(OuterJoinSimplification, ComparisonsAndIsNotNullRejectNulls) {
  EXPECT_TRUE(RejectsNulls(**expr::Call(">", {Col(2), Lit(3)}), 2, 4));
  EXPECT_TRUE(RejectsNulls(*expr::IsNull(Col(3), /*negated=*/true), 2, 4));
  EXPECT_TRUE(RejectsNulls(**expr::And({*expr::Call("=", {Col(0), Lit(1)}), *expr::Call("<", {Col(2), Lit(1)})}), 2, 4));
  EXPECT_TRUE(RejectsNulls(**expr::Or({*expr::Call("=", {Col(2), Lit(1)}), *expr::Call("<", {Col(3), Lit(1)})}), 2, 4));
}

TEST(OuterJoinSimplification, IsNullCoalesceAndOtherSidesDoNot) {
  EXPECT_FALSE(RejectsNulls(*expr::IsNull(Col(2)), 2, 4));
  EXPECT_FALSE(RejectsNulls(**expr::Call(">", {Col(0), Lit(3)}), 2, 4));
  EXPECT_FALSE(RejectsNulls(**expr::Call(">", {*expr::Coalesce({Col(2), Lit(0)}), Lit(-1)}), 2, 4));
  EXPECT_FALSE(RejectsNulls(**expr::Or({*expr::Call("=", {Col(2), Lit(1)}), *expr::Call("<", {Col(0), Lit(1)})}), 2, 4));
}

}  // namespace
}  // namespace shoal::sql
