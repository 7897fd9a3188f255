#include "expr/expr.h"

#include <gtest/gtest.h>

#include <unordered_set>

#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

TEST(Expr, ToStringForExplain) {
  auto x = ColumnRef(0, Int32(), "x");
  auto s = ColumnRef(1, String(), "s");
  EXPECT_EQ(F("+", {x, I(1)})->ToString(), "(x + 1)");
  EXPECT_EQ(F("+", {x, L(1)})->ToString(), "(CAST(x AS BIGINT) + 1::BIGINT)");
  EXPECT_EQ((*Cast(x, String(), true))->ToString(), "TRY_CAST(x AS STRING)");
  EXPECT_EQ((*And({F(">", {x, I(1)}), IsNull(s, true)}))->ToString(), "((x > 1) AND (s IS NOT NULL))");
  EXPECT_EQ((*In(x, {I(1), I(2)}, true))->ToString(), "(x NOT IN (1, 2))");
  EXPECT_EQ((*Like(s, S("a%"), nullptr, true))->ToString(), "(s ILIKE 'a%')");
  EXPECT_EQ((*Case({{F("=", {x, I(0)}), S("zero")}}, S("other")))->ToString(),
            "CASE WHEN (x = 0) THEN 'zero' ELSE 'other' END");
  EXPECT_EQ((*Coalesce({x, I(0)}))->ToString(), "COALESCE(x, 0)");
  EXPECT_EQ(ColumnRef(3, Int32(), "")->ToString(), "#3");
}

TEST(Expr, StructuralEqualityAndHash) {
  auto x = ColumnRef(0, Int32(), "x");
  auto a = F("+", {x, I(1)});
  auto b = F("+", {ColumnRef(0, Int32(), "x"), I(1)});
  auto c = F("+", {x, I(2)});
  auto d = F("-", {x, I(1)});
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_EQ(a->Hash(), b->Hash());
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_FALSE(a->Equals(*d));
  EXPECT_FALSE(I(1)->Equals(*L(1)));
  EXPECT_TRUE(Null(Int32())->Equals(*Null(Int32())));
  // Column refs compare by index; the display name does not matter.
  EXPECT_TRUE(ColumnRef(0, Int32(), "x")->Equals(*ColumnRef(0, Int32(), "alias")));
  EXPECT_EQ(ColumnRef(0, Int32(), "x")->Hash(), ColumnRef(0, Int32(), "alias")->Hash());
  EXPECT_FALSE(ColumnRef(0, Int32(), "x")->Equals(*ColumnRef(1, Int32(), "x")));
  std::unordered_set<ExprPtr, ExprPtrHash, ExprPtrEqual> set{a, b, c, d};
  EXPECT_EQ(set.size(), 3u);
}

TEST(Expr, CollectAndRemapColumns) {
  auto e = F("+", {ColumnRef(4, Int32(), "x"), F("*", {ColumnRef(2, Int32(), "y"), ColumnRef(4, Int32(), "x")})});
  EXPECT_EQ(CollectColumns(*e), (std::vector<int>{2, 4}));
  auto r = RemapColumns(e, {-1, -1, 0, -1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(CollectColumns(**r), (std::vector<int>{0, 1}));
  EXPECT_EQ((*r)->ToString(), e->ToString());
  EXPECT_FALSE(RemapColumns(e, {0, 1, 2}).ok());
  EXPECT_FALSE(RemapColumns(e, {0, 1, -1, 3, 4}).ok());
}

TEST(Expr, FoldEvaluatesConstantSubtrees) {
  auto x = ColumnRef(0, Int32(), "x");
  auto e = F("+", {x, F("*", {I(2), I(3)})});
  auto folded = Fold(e);
  EXPECT_EQ(folded->ToString(), "(x + 6)");
  EXPECT_EQ(Fold(F("+", {I(1), I(2)}))->ToString(), "3");
  // AND/OR simplification.
  auto p = F(">", {x, I(0)});
  EXPECT_EQ(Fold(*And({p, B(true)}))->ToString(), "(x > 0)");
  EXPECT_EQ(Fold(*And({p, B(false)}))->ToString(), "FALSE");
  EXPECT_EQ(Fold(*Or({p, F("=", {I(1), I(1)})}))->ToString(), "TRUE");
  // A failing constant stays unfolded: the error happens only if rows reach it.
  auto bad = Case({{F(">", {x, I(0)}), F("+", {I(2147483647), I(1)})}}, I(0));
  ASSERT_TRUE(bad.ok());
  auto fb = Fold(*bad);
  EXPECT_NE(fb->ToString().find("2147483647"), std::string::npos);
  // Literal casts fold at bind time.
  auto c = Cast(S("2024-01-01"), Date());
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE((*c)->IsLiteral());
  // A failing literal cast is kept as a cast node.
  auto c2 = Cast(S("abc"), Int32());
  ASSERT_TRUE(c2.ok());
  EXPECT_EQ((*c2)->kind, ExprKind::kCast);
}

TEST(Expr, BuildersCoerceAndReportErrors) {
  auto x = ColumnRef(0, Int32(), "x");
  EXPECT_FALSE(And({x}).ok());  // INT is not BOOLEAN
  EXPECT_FALSE(Cast(Lit(Value::Date(0)), Boolean()).ok());
  EXPECT_FALSE(Case({{B(true), I(1)}}, Lit(Value::Date(0))).ok());
  EXPECT_EQ((*In(x, {L(1), Dec("2.5")}))->args[0]->type->ToString(), "DECIMAL(20,1)");
  EXPECT_EQ((*Coalesce({Null(), x}))->type->ToString(), "INT");
  EXPECT_FALSE(Call("if", {B(true)}).ok());
}

TEST(Expr, TryCastAndCastOnColumns) {
  auto batch = MakeBatch({String()}, {{Value::String("12"), Value::String("x"), Value::Null(String())}});
  auto s = ColumnRef(0, String(), "s");
  EvalContext ctx(0);
  auto t = Evaluate(**Cast(s, Int32(), true), batch, ctx);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(Value::FromVector(**t, 0).ToString(), "12");
  EXPECT_TRUE((*t)->IsNull(1));
  EXPECT_TRUE((*t)->IsNull(2));
  auto c = Evaluate(**Cast(s, Int32()), batch, ctx);
  EXPECT_EQ(c.status().ToString(), "ConversionException: Could not convert string 'x' to INT");
  // The failing row is skipped when a CASE guard excludes it.
  auto guarded = Case({{F("<>", {s, S("x")}), *Cast(s, Int32())}}, nullptr);
  ASSERT_TRUE(guarded.ok());
  EXPECT_TRUE(Evaluate(**guarded, batch, ctx).ok());
}

TEST(Expr, ExtractAndConstantEvaluation) {
  EXPECT_EQ(EvalText(Call("extract", {S("year"), Lit(Value::Date(0))})), "1970");
  EvalContext ctx(0);
  auto v = EvaluateConstant(*F("+", {I(1), I(2)}), ctx);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->ToString(), "3");
}

}  // namespace
}  // namespace shoal::expr
