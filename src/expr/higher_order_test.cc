#include "expr/higher_order.h"

#include <gtest/gtest.h>

#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using columnar::Int32;
using columnar::Int64;
using columnar::List;
using testing::F;
using testing::MakeBatch;
using testing::ToValues;

// transform(l, x -> x + c) over columns l (ARRAY<INT>) and c (BIGINT).
ExprPtr TransformPlusColumn() {
  TypePtr lt = List(Int32());
  ExprPtr x = LambdaVariable(0, Int32(), "x");
  ExprPtr body = F("+", {x, ColumnRef(1, Int64(), "c")});
  auto call = HigherOrderCall("transform", {ColumnRef(0, lt, "l")}, {Lambda(body, 0, {"x"})});
  EXPECT_TRUE(call.ok()) << call.status().ToString();
  return call.ok() ? *call : Literal(Value());
}

columnar::RecordBatch ListsAndNumbers() {
  TypePtr lt = List(Int32());
  return MakeBatch({lt, Int64()}, {{Value::Nested(lt, {Value::Int32(1), Value::Int32(2)}), Value::Null(lt),
                                    Value::Nested(lt, {}), Value::Nested(lt, {Value::Int32(7), Value::Null(Int32())})},
                                   {Value::Int64(10), Value::Int64(20), Value::Int64(30), Value::Int64(40)}});
}

TEST(HigherOrder, TransformReadsTheRowsOwnColumn) {
  auto batch = ListsAndNumbers();
  EvalContext ctx(0);
  auto v = Evaluate(*TransformPlusColumn(), batch, ctx);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  auto rows = ToValues(**v);
  EXPECT_EQ(rows[0].ToString(), "[11, 12]");
  EXPECT_TRUE(rows[1].is_null());
  EXPECT_EQ(rows[2].ToString(), "[]");
  EXPECT_EQ(rows[3].ToString(), "[47, NULL]");
  EXPECT_EQ(ctx.lambda_column0, -1);  // restored after the call
}

TEST(HigherOrder, PredicateOnSelectedRowsUsesThoseRows) {
  // exists(l, x -> x > c - 10) on rows 0 and 3 only (as after an earlier conjunct).
  TypePtr lt = List(Int32());
  ExprPtr x = LambdaVariable(0, Int32(), "x");
  ExprPtr body = F(">", {x, F("-", {ColumnRef(1, Int64(), "c"), Literal(Value::Int64(10))})});
  auto call = HigherOrderCall("exists", {ColumnRef(0, lt, "l")}, {Lambda(body, 0, {"x"})});
  ASSERT_TRUE(call.ok()) << call.status().ToString();
  auto batch = ListsAndNumbers();
  EvalContext ctx(0);
  std::vector<uint32_t> selected;
  // Row 0: 1 or 2 > 0: TRUE. Row 3: 7 > 30 is FALSE and NULL > 30 is NULL: NULL, not selected.
  auto n = EvaluateFilterOn(**call, batch, {0, 3}, ctx, &selected);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(selected, std::vector<uint32_t>{0});
}

TEST(HigherOrder, LambdaOutsideItsCallIsAnInternalErrorNotACrash) {
  EvalContext ctx(0);
  columnar::RecordBatch empty;
  empty.num_rows = 1;
  EXPECT_FALSE(Evaluate(*LambdaVariable(0, Int32(), "x"), empty, ctx).ok());
}

TEST(HigherOrder, ParameterTypesAndCounts) {
  TypePtr lt = List(Int32());
  auto types = LambdaParameterTypes("transform", {ColumnRef(0, lt, "l")}, 0, 2);
  ASSERT_TRUE(types.ok());
  EXPECT_EQ((*types)[1]->ToString(), "INT");
  EXPECT_FALSE(LambdaParameterTypes("transform", {ColumnRef(0, lt, "l")}, 0, 3).ok());
  EXPECT_FALSE(LambdaParameterTypes("transform", {Literal(Value::Int32(1))}, 0, 1).ok());
  EXPECT_FALSE(LambdaParameterTypes("map_filter", {ColumnRef(0, lt, "l")}, 0, 2).ok());
}

}  // namespace
}  // namespace shoal::expr
