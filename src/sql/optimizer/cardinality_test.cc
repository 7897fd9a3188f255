// Cardinality estimates from source statistics (range() knows its min, max and distinct count).
#include "sql/optimizer/cardinality.h"

#include <gtest/gtest.h>

namespace shoal::sql {
namespace {

using columnar::Value;
using expr::ExprPtr;

LogicalPtr Range(int64_t n) {
  TableFunctionArgs args;
  args.positional.push_back(Value::Int64(n));
  auto source = TableFunctionRegistry::Get().Find("range")->bind(args);
  EXPECT_TRUE(source.ok());
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGet);
  op->source = *source;
  op->projected = {0};
  op->columns = (*source)->schema().fields;
  return op;
}
ExprPtr Col(int i) { return expr::ColumnRef(i, columnar::Int64(), std::string("c").append(std::to_string(i))); }
ExprPtr Lit(int64_t v) { return expr::Literal(Value::Int64(v)); }
ExprPtr Cmp(const char* op, ExprPtr a, ExprPtr b) { return *expr::Call(op, {a, b}); }

double Rows(LogicalPtr op) {
  CardinalityEstimator est;
  return est.Estimate(op.get()).rows;
}

LogicalPtr Filtered(int64_t n, ExprPtr pred) {
  auto op = Range(n);
  op->filters.push_back(std::move(pred));
  return op;
}

TEST(Cardinality, EqualityIsOneOverDistinct) {
  EXPECT_NEAR(Rows(Filtered(1000, Cmp("=", Col(0), Lit(5)))), 1, 1e-9);
  // Outside [min, max]: nothing (at least one row is always estimated).
  EXPECT_NEAR(Rows(Filtered(1000, Cmp("=", Col(0), Lit(5000)))), 1, 1e-9);
  EXPECT_NEAR(Rows(Filtered(1000, Cmp("<>", Col(0), Lit(5)))), 999, 1e-9);
}

// x = x is x IS NOT NULL (TPC-H Q2's decorrelated subquery got `ps_partkey = ps_partkey` from
// join ordering and was estimated at 1/NDV of partsupp: 4 rows of 800,000, which put the
// 800,000-row side on the build side of the next join).
TEST(Cardinality, AColumnEqualToItselfKeepsItsNonNullRows) {
  EXPECT_NEAR(Rows(Filtered(1000, Cmp("=", Col(0), Col(0)))), 1000, 1e-9);
  EXPECT_NEAR(Rows(Filtered(1000, Cmp("<>", Col(0), Col(0)))), 1, 1e-9);
}

TEST(Cardinality, RangesInterpolateAndCombinePerColumn) {
  EXPECT_NEAR(Rows(Filtered(1001, Cmp("<", Col(0), Lit(250)))), 250.25, 0.5);
  EXPECT_NEAR(Rows(Filtered(1001, Cmp(">=", Lit(250), Col(0)))), 250.25, 0.5);
  auto both = *expr::And({Cmp(">=", Col(0), Lit(100)), Cmp("<", Col(0), Lit(300))});
  EXPECT_NEAR(Rows(Filtered(1001, both)), 200, 1);
}

TEST(Cardinality, DateColumnAgainstATimestampBound) {
  PlanEstimate in;
  in.rows = 1000;
  ColumnEstimate d;
  d.min = Value::Date(0);
  d.max = Value::Date(100);
  in.columns.push_back(d);
  auto date_col = expr::ColumnRef(0, columnar::Date(), "d");
  // d < TIMESTAMP at day 25 (date + interval folds to a timestamp): a quarter of the range.
  auto pred = Cmp("<", date_col, expr::Literal(Value::Timestamp(int64_t{25} * 86400 * 1000000)));
  CardinalityEstimator est;
  EXPECT_NEAR(est.Selectivity(*pred, in), 0.25, 1e-9);
}

TEST(Cardinality, InListsOrsAndDefaults) {
  EXPECT_NEAR(Rows(Filtered(1000, *expr::In(Col(0), {Lit(1), Lit(2), Lit(3)}))), 3, 1e-9);
  auto either = *expr::Or({Cmp("=", Col(0), Lit(1)), Cmp("=", Col(0), Lit(2))});
  EXPECT_NEAR(Rows(Filtered(1000, either)), 2, 0.01);
  EXPECT_NEAR(Rows(Filtered(1000, expr::IsNull(Col(0)))), 1, 1e-9);  // no NULLs: clamped to 1 row
}

TEST(Cardinality, EquiJoinDividesByTheLargerDistinctCount) {
  auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  join->children.push_back(Range(1000));
  join->children.push_back(Range(100));
  join->columns = join->children[0]->columns;
  join->columns.push_back(join->children[1]->columns[0]);
  join->left_keys = {Col(0)};
  join->right_keys = {Col(0)};
  EXPECT_NEAR(Rows(std::move(join)), 100, 1e-9);
}

TEST(Cardinality, AggregatesByGroupDistinctCount) {
  auto agg = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  agg->children.push_back(Filtered(1000, Cmp("<", Col(0), Lit(500))));
  agg->groups = {Col(0)};
  agg->columns = agg->children[0]->columns;
  EXPECT_NEAR(Rows(std::move(agg)), 500, 1);
  auto all = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  all->children.push_back(Range(1000));
  EXPECT_EQ(Rows(std::move(all)), 1);
}

}  // namespace
}  // namespace shoal::sql
