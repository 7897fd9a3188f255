#include "expr/evaluate.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>

#include "expr/expr_test_support.h"
#include "expr/like.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

// Three-valued booleans: 0 false, 1 true, 2 NULL.
Value TV(int v) { return v == 2 ? Value::Null(Boolean()) : Value::Boolean(v == 1); }
int FromValue(const Value& v) { return v.is_null() ? 2 : (v.GetBool() ? 1 : 0); }

TEST(Evaluate, ThreeValuedLogicTruthTables) {
  // Every pair of {F, T, NULL} in two columns, so the vectorized (non-constant) path runs.
  std::vector<Value> a, b;
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      a.push_back(TV(x));
      b.push_back(TV(y));
    }
  }
  auto batch = MakeBatch({Boolean(), Boolean()}, {a, b});
  auto ca = ColumnRef(0, Boolean(), "a"), cb = ColumnRef(1, Boolean(), "b");
  EvalContext ctx(0);
  auto and_v = Evaluate(**And({ca, cb}), batch, ctx);
  auto or_v = Evaluate(**Or({ca, cb}), batch, ctx);
  auto not_v = Evaluate(**Not(ca), batch, ctx);
  ASSERT_TRUE(and_v.ok() && or_v.ok() && not_v.ok());
  const int kAnd[3][3] = {{0, 0, 0}, {0, 1, 2}, {0, 2, 2}};
  const int kOr[3][3] = {{0, 1, 2}, {1, 1, 1}, {2, 1, 2}};
  const int kNot[3] = {1, 0, 2};
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      int row = x * 3 + y;
      EXPECT_EQ(FromValue(Value::FromVector(**and_v, row)), kAnd[x][y]) << x << " AND " << y;
      EXPECT_EQ(FromValue(Value::FromVector(**or_v, row)), kOr[x][y]) << x << " OR " << y;
      // The same on constants (folded path).
      EXPECT_EQ(EvalText(And({Lit(TV(x)), Lit(TV(y))})), TV(kAnd[x][y]).ToString());
      EXPECT_EQ(EvalText(Or({Lit(TV(x)), Lit(TV(y))})), TV(kOr[x][y]).ToString());
    }
    EXPECT_EQ(FromValue(Value::FromVector(**not_v, x * 3)), kNot[x]);
  }
  std::vector<uint32_t> sel;
  ASSERT_TRUE(EvaluateFilter(**And({ca, cb}), batch, ctx, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{4}));
  ASSERT_TRUE(EvaluateFilter(**Or({ca, cb}), batch, ctx, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{1, 3, 4, 5, 7}));
}

TEST(Evaluate, AndDoesNotEvaluateExcludedRows) {
  // x > 0 AND INT64_MIN // x > 0 must not raise for x = -1 (overflow) or x = 0 (division by
  // zero).
  auto batch = MakeBatch({Int64()}, {{Value::Int64(-1), Value::Int64(2), Value::Int64(0), Value::Null(Int64())}});
  auto x = ColumnRef(0, Int64(), "x");
  auto guard = F(">", {x, L(0)});
  auto risky = F(">", {F("//", {L(INT64_MIN), x}), L(0)});
  EvalContext ctx(0);
  std::vector<uint32_t> sel;
  auto pred = And({guard, risky});
  ASSERT_TRUE(pred.ok());
  auto n = EvaluateFilter(**pred, batch, ctx, &sel);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  auto v = Evaluate(**pred, batch, ctx);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  // Without the guard the error surfaces.
  auto bad = Evaluate(*risky, batch, ctx);
  EXPECT_EQ(bad.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(bad.status().message(), "Overflow in integer division of INT64 (-9223372036854775808 // -1)");
}

TEST(Evaluate, CaseEvaluatesBranchesOnlyOnTheirRows) {
  auto batch = MakeBatch({Int32()}, {{Value::Int32(4), Value::Int32(0), Value::Null(Int32()), Value::Int32(-2)}});
  auto x = ColumnRef(0, Int32(), "x");
  // CASE WHEN x <> 0 THEN 100 // x END, plus a branch that would overflow on x = 0 rows.
  auto e = Case({{F("<>", {x, I(0)}), F("//", {I(100), x})},
                 {F("=", {x, I(0)}), I(7)}},
                F("*", {x, I(2147483647)}));
  ASSERT_TRUE(e.ok());
  EvalContext ctx(0);
  auto v = Evaluate(**e, batch, ctx);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(Value::FromVector(**v, 0).ToString(), "25");
  EXPECT_EQ(Value::FromVector(**v, 1).ToString(), "7");
  EXPECT_EQ(Value::FromVector(**v, 2).ToString(), "NULL");  // ELSE: NULL * ... = NULL
  EXPECT_EQ(Value::FromVector(**v, 3).ToString(), "-50");
  // No ELSE gives NULL; result type is the common type of the branches.
  auto e2 = Case({{F(">", {x, I(0)}), Dec("1.5")}}, I(2));
  ASSERT_TRUE(e2.ok());
  EXPECT_EQ((*e2)->type->ToString(), "DECIMAL(11,1)");
  auto v2 = Evaluate(**e2, batch, ctx);
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(Value::FromVector(**v2, 0).ToString(), "1.5");
  EXPECT_EQ(Value::FromVector(**v2, 1).ToString(), "2.0");
}

TEST(Evaluate, CoalesceIfNullIfAndIf) {
  EXPECT_EQ(EvalText(Call("coalesce", {Null(), Null(Int32()), I(3), I(4)})), "3");
  EXPECT_EQ(EvalText(Call("coalesce", {Null(), Null()})), "NULL");
  EXPECT_EQ(EvalText(Call("ifnull", {Null(Int64()), I(3)})), "3");
  EXPECT_EQ(EvalText(Call("nvl", {S("a"), S("b")})), "a");
  EXPECT_EQ(EvalText(Call("nullif", {I(1), I(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("nullif", {I(1), I(2)})), "1");
  EXPECT_EQ(EvalText(Call("if", {B(true), S("y"), S("n")})), "y");
  EXPECT_EQ(EvalText(Call("iff", {Null(), S("y"), S("n")})), "n");
  // Lazy: the second argument is not evaluated where the first is non-NULL.
  auto batch = MakeBatch({Int64()}, {{Value::Int64(-1), Value::Null(Int64())}});
  auto x = ColumnRef(0, Int64(), "x");
  auto e = Coalesce({x, F("//", {L(INT64_MIN), F("-", {L(0), L(1)})})});
  ASSERT_TRUE(e.ok());
  EvalContext ctx(0);
  auto v = Evaluate(**e, batch, ctx);
  EXPECT_FALSE(v.ok());  // row 1 needs the overflowing value
  auto batch2 = MakeBatch({Int64()}, {{Value::Int64(-1), Value::Int64(5)}});
  auto v2 = Evaluate(**e, batch2, ctx);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_EQ(Value::FromVector(**v2, 1).ToString(), "5");
}

TEST(Evaluate, InListSemantics) {
  EXPECT_EQ(EvalText(In(I(1), {I(1), I(2)})), "true");
  EXPECT_EQ(EvalText(In(I(3), {I(1), I(2)})), "false");
  EXPECT_EQ(EvalText(In(I(3), {I(1), Null()})), "NULL");
  EXPECT_EQ(EvalText(In(I(1), {I(1), Null()})), "true");
  EXPECT_EQ(EvalText(In(Null(Int32()), {I(1)})), "NULL");
  EXPECT_EQ(EvalText(In(I(3), {I(1), Null()}, true)), "NULL");
  EXPECT_EQ(EvalText(In(I(3), {I(1), I(2)}, true)), "true");
  EXPECT_EQ(EvalText(In(I(1), {L(5000000000LL), Dec("1.0")})), "true");
  auto batch = MakeBatch({String()}, {{Value::String("a"), Value::String("c"), Value::Null(String())}});
  auto e = In(ColumnRef(0, String(), "s"), {S("a"), S("b")});
  ASSERT_TRUE(e.ok());
  EvalContext ctx(0);
  std::vector<uint32_t> sel;
  ASSERT_TRUE(EvaluateFilter(**e, batch, ctx, &sel).ok());
  EXPECT_EQ(sel, std::vector<uint32_t>{0});
}

TEST(Evaluate, LongInListsUseHashingAndMatchPairwise) {
  std::mt19937 rng(8);
  std::vector<Value> xs, ds, ss;
  for (int i = 0; i < 300; ++i) {
    int r = static_cast<int>(rng() % 40);
    xs.push_back(r == 0 ? Value::Null(Int64()) : Value::Int64(r));
    ds.push_back(r == 0 ? Value::Double(NAN) : (r == 1 ? Value::Double(-0.0) : Value::Double(r)));
    ss.push_back(r == 0 ? Value::Null(String()) : Value::String(std::string("s").append(std::to_string(r))));
  }
  auto batch = MakeBatch({Int64(), Float64(), String()}, {xs, ds, ss});
  EvalContext ctx(0);
  for (int with_null = 0; with_null < 2; ++with_null) {
    for (int negated = 0; negated < 2; ++negated) {
      std::vector<ExprPtr> li, ld, ls;
      for (int k = 0; k < 12; ++k) {
        li.push_back(L(k * 3));
        ld.push_back(k == 0 ? D(NAN) : D(k == 1 ? 0.0 : k * 3));
        ls.push_back(S(std::string("s").append(std::to_string(k * 3))));
      }
      if (with_null) {
        li.push_back(Null(Int64()));
        ld.push_back(Null(Float64()));
        ls.push_back(Null(String()));
      }
      struct Case {
        ExprPtr col;
        std::vector<ExprPtr> list;
      } cases[] = {{ColumnRef(0, Int64(), "x"), li}, {ColumnRef(1, Float64(), "d"), ld}, {ColumnRef(2, String(), "s"), ls}};
      for (auto& c : cases) {
        auto hashed = Evaluate(**In(c.col, c.list, negated), batch, ctx);
        // Oracle: OR of equalities (and NOT), evaluated by the generic path.
        std::vector<ExprPtr> eqs;
        for (auto& item : c.list) eqs.push_back(F("=", {c.col, item}));
        ExprPtr any = *Or(eqs);
        auto oracle = Evaluate(negated ? **Not(any) : *any, batch, ctx);
        ASSERT_TRUE(hashed.ok() && oracle.ok());
        for (int i = 0; i < 300; ++i) {
          EXPECT_EQ(Value::FromVector(**hashed, i).ToString(), Value::FromVector(**oracle, i).ToString())
              << c.col->name << " row " << i << " null=" << with_null << " neg=" << negated;
        }
      }
    }
  }
}

TEST(Evaluate, IsNullAndIsDistinctFrom) {
  EXPECT_EQ(EvalText(IsNull(Null())), "true");
  EXPECT_EQ(EvalText(IsNull(I(1), true)), "true");
  EXPECT_EQ(EvalText(IsDistinctFrom(Null(), Null())), "false");
  EXPECT_EQ(EvalText(IsDistinctFrom(I(1), Null())), "true");
  EXPECT_EQ(EvalText(IsDistinctFrom(I(1), L(1))), "false");
  EXPECT_EQ(EvalText(IsDistinctFrom(I(1), I(2), true)), "false");
  EXPECT_EQ(EvalText(IsDistinctFrom(D(NAN), D(NAN))), "false");
}

TEST(Evaluate, ComparisonsIncludingNaNAndNested) {
  EXPECT_EQ(EvalText(Call("=", {D(NAN), D(NAN)})), "true");
  EXPECT_EQ(EvalText(Call(">", {D(NAN), D(INFINITY)})), "true");
  EXPECT_EQ(EvalText(Call("<", {D(1), D(NAN)})), "true");
  EXPECT_EQ(EvalText(Call("=", {I(1), Dec("1.00")})), "true");
  EXPECT_EQ(EvalText(Call("<", {S("abc"), S("abd")})), "true");
  EXPECT_EQ(EvalText(Call("<", {S("\xc3\xa9"), S("z")})), "false");  // bytewise: é > z
  EXPECT_EQ(EvalText(Call("=", {Null(), I(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("=", {Lit(Value::Date(0)), S("1970-01-01")})), "true");
  EXPECT_EQ(EvalText(Call(">", {Lit(Value::Timestamp(1)), Lit(Value::Date(0))})), "true");
  Value l1 = Value::Nested(List(Int32()), {Value::Int32(1), Value::Int32(2)});
  Value l2 = Value::Nested(List(Int32()), {Value::Int32(1), Value::Int32(3)});
  EXPECT_EQ(EvalText(Call("<", {Lit(l1), Lit(l2)})), "true");
  EXPECT_EQ(EvalText(Call("=", {Lit(l1), Lit(l1)})), "true");
  EXPECT_EQ(EvalText(Call("<>", {Lit(Value::Boolean(false)), B(true)})), "true");
}

TEST(Evaluate, ComparisonKernelsMatchScalarOracleOnRandomData) {
  std::mt19937 rng(3);
  std::vector<Value> a, b;
  for (int i = 0; i < 300; ++i) {
    auto pick = [&]() {
      int r = rng() % 12;
      if (r == 0) return Value::Null(Float64());
      if (r == 1) return Value::Double(NAN);
      return Value::Double(static_cast<double>(static_cast<int>(rng() % 7) - 3));
    };
    a.push_back(pick());
    b.push_back(pick());
  }
  auto batch = MakeBatch({Float64(), Float64()}, {a, b});
  auto ca = ColumnRef(0, Float64(), "a"), cb = ColumnRef(1, Float64(), "b");
  EvalContext ctx(0);
  const char* ops[] = {"=", "<>", "<", "<=", ">", ">="};
  for (const char* op : ops) {
    auto v = Evaluate(*F(op, {ca, cb}), batch, ctx);
    ASSERT_TRUE(v.ok());
    auto vc = Evaluate(*F(op, {ca, D(0)}), batch, ctx);  // vector-constant path
    ASSERT_TRUE(vc.ok());
    for (int i = 0; i < 300; ++i) {
      auto expect = [&](const Value& x, const Value& y) -> std::string {
        if (x.is_null() || y.is_null()) return "NULL";
        int c = x.Compare(y);
        bool r = std::string(op) == "=" ? c == 0 : std::string(op) == "<>" ? c != 0 : std::string(op) == "<" ? c < 0
               : std::string(op) == "<=" ? c <= 0 : std::string(op) == ">" ? c > 0 : c >= 0;
        return r ? "true" : "false";
      };
      EXPECT_EQ(Value::FromVector(**v, i).ToString(), expect(a[i], b[i])) << op << " row " << i;
      EXPECT_EQ(Value::FromVector(**vc, i).ToString(), expect(a[i], Value::Double(0))) << op << " row " << i;
    }
  }
}

TEST(Evaluate, LikeAgainstBruteForceMatcher) {
  // Reference: recursive matcher over characters of an ASCII alphabet.
  std::function<bool(std::string_view, std::string_view)> ref = [&](std::string_view t, std::string_view p) {
    if (p.empty()) return t.empty();
    if (p[0] == '%') return ref(t, p.substr(1)) || (!t.empty() && ref(t.substr(1), p));
    if (t.empty()) return false;
    if (p[0] == '_' || p[0] == t[0]) return ref(t.substr(1), p.substr(1));
    return false;
  };
  std::mt19937 rng(11);
  const char alphabet[] = "ab%_";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string p, t;
    int pl = rng() % 6, tl = rng() % 7;
    for (int i = 0; i < pl; ++i) p += alphabet[rng() % 4];
    for (int i = 0; i < tl; ++i) t += alphabet[rng() % 2];
    auto m = LikeMatcher::Compile(p, "", false);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->Matches(t), ref(t, p)) << "'" << t << "' LIKE '" << p << "'";
  }
}

TEST(Evaluate, LikeFeatures) {
  EXPECT_EQ(EvalText(Like(S("hello"), S("he%"), nullptr)), "true");
  EXPECT_EQ(EvalText(Like(S("hello"), S("%llo"), nullptr)), "true");
  EXPECT_EQ(EvalText(Like(S("hello"), S("%ell%"), nullptr)), "true");
  EXPECT_EQ(EvalText(Like(S("hello"), S("h_llo"), nullptr)), "true");
  EXPECT_EQ(EvalText(Like(S("h\xc3\xa9llo"), S("h_llo"), nullptr)), "true");  // _ is one UTF-8 char
  EXPECT_EQ(EvalText(Like(S("HeLLo"), S("hel%"), nullptr, true)), "true");
  EXPECT_EQ(EvalText(Like(S("HeLLo"), S("hel%"), nullptr)), "false");
  EXPECT_EQ(EvalText(Like(S("HeLLo"), S("hel%"), nullptr, false, true)), "true");
  EXPECT_EQ(EvalText(Like(S("50%"), S("50!%"), S("!"))), "true");
  EXPECT_EQ(EvalText(Like(S("500"), S("50!%"), S("!"))), "false");
  EXPECT_EQ(EvalText(Like(S("a_c"), S("a\\_c"), S("\\"))), "true");
  EXPECT_EQ(EvalText(Like(S("abc"), S("a\\_c"), S("\\"))), "false");
  EXPECT_EQ(EvalText(Like(Null(), S("a"), nullptr)), "NULL");
  EXPECT_EQ(EvalText(Like(S(""), S("%"), nullptr)), "true");
  EXPECT_EQ(EvalText(Like(S(""), S("_"), nullptr)), "false");
  EXPECT_NE(EvalText(Like(S("a"), S("a!"), S("!"))).find("ERROR"), std::string::npos);
  EXPECT_NE(EvalText(Like(S("a"), S("a"), S("ab"))).find("ERROR"), std::string::npos);
  auto m = LikeMatcher::Compile("abc%", "", false);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->is_prefix_pattern());
  EXPECT_EQ(m->literal_prefix(), "abc");
}

TEST(Evaluate, FieldAccessAndStructNulls) {
  TypePtr st = Struct({{"a", Int32()}, {"B", String()}});
  Value s1 = Value::Nested(st, {Value::Int32(1), Value::String("x")});
  auto batch = MakeBatch({st}, {{s1, Value::Null(st)}});
  auto e = FieldAccess(ColumnRef(0, st, "s"), "b");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->ToString(), "s.B");
  EvalContext ctx(0);
  auto v = Evaluate(**e, batch, ctx);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(Value::FromVector(**v, 0).ToString(), "x");
  EXPECT_TRUE((*v)->IsNull(1));
  EXPECT_FALSE(FieldAccess(ColumnRef(0, st, "s"), "zz").ok());
}

TEST(Evaluate, FilterOnSubsetAndConstantPredicates) {
  auto batch = MakeBatch({Int32()}, {{Value::Int32(1), Value::Int32(2), Value::Int32(3), Value::Int32(4)}});
  auto x = ColumnRef(0, Int32(), "x");
  EvalContext ctx(0);
  std::vector<uint32_t> sel;
  ASSERT_TRUE(EvaluateFilterOn(*F(">", {x, I(1)}), batch, {0, 2, 3}, ctx, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{2, 3}));
  ASSERT_TRUE(EvaluateFilter(*B(true), batch, ctx, &sel).ok());
  EXPECT_EQ(sel.size(), 4u);
  ASSERT_TRUE(EvaluateFilter(*Null(Boolean()), batch, ctx, &sel).ok());
  EXPECT_TRUE(sel.empty());
  auto or_pred = Or({F("=", {x, I(4)}), F("=", {x, I(1)}), F("=", {x, I(4)})});
  ASSERT_TRUE(EvaluateFilter(**or_pred, batch, ctx, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{0, 3}));
}

TEST(Evaluate, RandomPredicatesFilterEqualsEvaluate) {
  // Filter() (short-circuit selection path) must agree with Evaluate() (value path).
  std::mt19937 rng(5);
  std::vector<Value> a, b;
  for (int i = 0; i < 200; ++i) {
    a.push_back(rng() % 5 == 0 ? Value::Null(Int32()) : Value::Int32(static_cast<int32_t>(rng() % 10)));
    b.push_back(rng() % 5 == 0 ? Value::Null(Int32()) : Value::Int32(static_cast<int32_t>(rng() % 10)));
  }
  auto batch = MakeBatch({Int32(), Int32()}, {a, b});
  auto ca = ColumnRef(0, Int32(), "a"), cb = ColumnRef(1, Int32(), "b");
  std::function<ExprPtr(int)> gen = [&](int depth) -> ExprPtr {
    int r = rng() % (depth > 2 ? 3 : 6);
    const char* ops[] = {"=", "<", ">=", "<>"};
    switch (r) {
      case 0: return F(ops[rng() % 4], {ca, I(static_cast<int32_t>(rng() % 10))});
      case 1: return F(ops[rng() % 4], {ca, cb});
      case 2: return IsNull(rng() % 2 ? ca : cb, rng() % 2);
      case 3: return *And({gen(depth + 1), gen(depth + 1)});
      case 4: return *Or({gen(depth + 1), gen(depth + 1), gen(depth + 1)});
      default: return *Not(gen(depth + 1));
    }
  };
  EvalContext ctx(0);
  for (int iter = 0; iter < 200; ++iter) {
    ExprPtr p = gen(0);
    auto v = Evaluate(*p, batch, ctx);
    ASSERT_TRUE(v.ok());
    std::vector<uint32_t> expect, sel;
    for (int i = 0; i < 200; ++i) {
      if ((*v)->IsValid(i) && (*v)->Get<uint8_t>(i)) expect.push_back(i);
    }
    ASSERT_TRUE(EvaluateFilter(*p, batch, ctx, &sel).ok());
    EXPECT_EQ(sel, expect) << p->ToString();
  }
}

}  // namespace
}  // namespace shoal::expr
