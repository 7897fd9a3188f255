#include <gtest/gtest.h>

#include <random>

#include "columnar/decimal.h"

#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

TEST(Arithmetic, IntegerResultTypesAndOverflow) {
  EXPECT_EQ(EvalText(Call("+", {I(1), I(2)})), "3");
  EXPECT_EQ((*Call("+", {I(1), L(2)}))->type->ToString(), "BIGINT");
  EXPECT_EQ(EvalText(Call("+", {I(2147483647), I(1)})),
            "ERROR: OutOfRangeException: Overflow in addition of INT32 (2147483647 + 1)");
  EXPECT_EQ(EvalText(Call("-", {L(INT64_MIN), L(1)})),
            "ERROR: OutOfRangeException: Overflow in subtraction of INT64 (-9223372036854775808 - 1)");
  EXPECT_EQ(EvalText(Call("*", {L(INT64_MAX), L(2)})),
            "ERROR: OutOfRangeException: Overflow in multiplication of INT64 (9223372036854775807 * 2)");
  EXPECT_EQ(EvalText(Call("+", {L(INT64_MAX), L(INT64_MIN)})), "-1");
  EXPECT_EQ(EvalText(Call("negate", {L(INT64_MIN)})).substr(0, 6), "ERROR:");
  EXPECT_EQ(EvalText(Call("-", {I(5)})), "-5");
}

TEST(Arithmetic, DivisionRules) {
  EXPECT_EQ(EvalText(Call("/", {I(7), I(2)})), "3.5");
  EXPECT_EQ((*Call("/", {I(7), I(2)}))->type->ToString(), "DOUBLE");
  // Division by zero is Spark's ANSI error; the try_ functions give NULL.
  const std::string kDivByZero = "ERROR: OutOfRangeException: [DIVIDE_BY_ZERO]";
  EXPECT_EQ(EvalText(Call("/", {I(7), I(0)})).substr(0, kDivByZero.size()), kDivByZero);
  EXPECT_EQ(EvalText(Call("/", {D(1), D(0)})).substr(0, kDivByZero.size()), kDivByZero);
  EXPECT_EQ(EvalText(Call("try_divide", {I(7), I(0)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_divide", {D(1), D(0)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_divide", {I(7), I(2)})), "3.5");
  EXPECT_EQ(EvalText(Call("try_mod", {I(7), I(0)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_add", {L(INT64_MAX), L(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_subtract", {L(INT64_MIN), L(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_multiply", {L(INT64_MAX), L(2)})), "NULL");
  EXPECT_EQ(EvalText(Call("try_multiply", {I(6), I(7)})), "42");
  EXPECT_EQ(EvalText(Call("//", {I(7), I(2)})), "3");
  EXPECT_EQ(EvalText(Call("div", {I(-7), I(2)})), "-3");
  EXPECT_EQ(EvalText(Call("//", {I(7), I(0)})).substr(0, kDivByZero.size()), kDivByZero);
  EXPECT_EQ(EvalText(Call("//", {L(INT64_MIN), L(-1)})).substr(0, 6), "ERROR:");
  EXPECT_EQ(EvalText(Call("%", {I(-7), I(3)})), "-1");
  EXPECT_EQ(EvalText(Call("%", {I(7), I(0)})).substr(0, kDivByZero.size()), kDivByZero);
  EXPECT_EQ(EvalText(Call("%", {L(INT64_MIN), L(-1)})), "0");
  EXPECT_EQ(EvalText(Call("mod", {D(7.5), D(2)})), "1.5");
}

TEST(Arithmetic, DecimalIsExact) {
  auto sum = Call("+", {Dec("0.1"), Dec("0.2")});
  EXPECT_EQ(EvalText(sum), "0.3");
  EXPECT_EQ((*sum)->type->ToString(), "DECIMAL(2,1)");
  EXPECT_EQ(EvalText(Call("=", {*sum, Dec("0.3")})), "true");
  auto mul = Call("*", {Dec("1.50"), Dec("2.5")});
  EXPECT_EQ((*mul)->type->ToString(), "DECIMAL(6,3)");
  EXPECT_EQ(EvalText(mul), "3.750");
  auto div = Call("/", {Dec("1.00"), Dec("3")});
  EXPECT_EQ((*div)->type->ToString(), "DECIMAL(7,6)");  // s = max(6, 2+1+1) = 6, p = 3-2+0+6
  EXPECT_EQ(EvalText(div), "0.333333");
  EXPECT_EQ(EvalText(Call("/", {Dec("2.00"), Dec("3")})), "0.666667");
  EXPECT_EQ(EvalText(Call("/", {Dec("-2.00"), Dec("3")})), "-0.666667");
  EXPECT_EQ(EvalText(Call("/", {Dec("1.0"), Dec("0.0")})).substr(0, 44), "ERROR: OutOfRangeException: [DIVIDE_BY_ZERO]");
  EXPECT_EQ(EvalText(Call("try_divide", {Dec("1.0"), Dec("0.0")})), "NULL");
  EXPECT_EQ(EvalText(Call("try_add", {Dec("99999999999999999999999999999999999999"), Dec("1")})), "NULL");
  EXPECT_EQ(EvalText(Call("-", {Dec("1.05"), I(2)})), "-0.95");
  EXPECT_EQ((*Call("-", {Dec("1.05"), I(2)}))->type->ToString(), "DECIMAL(13,2)");
  EXPECT_EQ(EvalText(Call("%", {Dec("7.5"), Dec("2")})), "1.5");
  EXPECT_EQ(EvalText(Call("+", {Dec("1.5"), D(1)})), "2.5");  // DECIMAL with DOUBLE is DOUBLE
}

TEST(Arithmetic, DecimalPrecisionCapAndOverflow) {
  // DECIMAL(38,0) + DECIMAL(38,0): precision 39 is capped at 38 -> overflow is an error.
  ExprPtr big = Lit(Value::Decimal(38, 0, Pow10(38) - 1));
  EXPECT_EQ((*Call("+", {big, big}))->type->ToString(), "DECIMAL(38,0)");
  EXPECT_EQ(EvalText(Call("+", {big, big})).substr(0, 40), "ERROR: OutOfRangeException: Overflow in ");
  // DECIMAL(38,10) * DECIMAL(38,10) keeps 6 digits of scale.
  ExprPtr a = Lit(Value::Decimal(38, 10, 15000000000));  // 1.5
  auto m = Call("*", {a, a});
  EXPECT_EQ((*m)->type->ToString(), "DECIMAL(38,6)");
  EXPECT_EQ(EvalText(m), "2.250000");
  // Wide (int128) storage round-trips and rounds half away from zero on scale reduction.
  ExprPtr b = Lit(Value::Decimal(38, 10, 1234567));  // 0.0001234567
  EXPECT_EQ(EvalText(Call("*", {b, Lit(Value::Decimal(38, 10, 10000000000))})), "0.000123");
}

TEST(Arithmetic, DecimalAddMatchesInt128OracleOnRandomValues) {
  std::mt19937_64 rng(9);
  for (int i = 0; i < 300; ++i) {
    int64_t x = static_cast<int64_t>(rng() % 2000000) - 1000000, y = static_cast<int64_t>(rng() % 2000000) - 1000000;
    auto e = Call("+", {Lit(Value::Decimal(9, 3, x)), Lit(Value::Decimal(9, 1, y))});
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(EvalText(e), FormatDecimal(int128_t{x} + int128_t{y} * 100, 3));
    auto m = Call("*", {Lit(Value::Decimal(9, 3, x)), Lit(Value::Decimal(9, 1, y))});
    EXPECT_EQ(EvalText(m), FormatDecimal(int128_t{x} * y, 4));
  }
}

// Result types that hold every result take the unchecked kernels; full-precision values,
// NULL rows and both widths against an int128 oracle.
TEST(Arithmetic, UncheckedDecimalKernelsMatchInt128Oracle) {
  std::mt19937_64 rng(5);
  struct Case {
    int p1, s1, p2, s2;
  };
  for (Case c : {Case{18, 2, 18, 2}, Case{15, 2, 16, 2}, Case{20, 2, 20, 4}, Case{9, 0, 9, 0}}) {
    std::vector<Value> a, b;
    std::vector<int128_t> xa, xb;
    auto rnd = [&](int p) {
      int128_t m = 1;
      for (int i = 0; i < p; ++i) m *= 10;
      int128_t v = static_cast<int128_t>(rng() % 1000 == 0 ? 0 : rng() >> 2) * static_cast<int128_t>(rng() >> 2);  // < 2^124
      v %= m;
      return rng() % 5 == 0 ? (v >= 0 ? m - 1 : -(m - 1)) : v;  // the extremes too
    };
    for (int i = 0; i < 400; ++i) {
      xa.push_back(rnd(c.p1));
      xb.push_back(rnd(c.p2));
      a.push_back(i % 9 == 0 ? Value::Null(Decimal(c.p1, c.s1)) : Value::Decimal(c.p1, c.s1, xa.back()));
      b.push_back(i % 13 == 0 ? Value::Null(Decimal(c.p2, c.s2)) : Value::Decimal(c.p2, c.s2, xb.back()));
    }
    auto batch = MakeBatch({Decimal(c.p1, c.s1), Decimal(c.p2, c.s2)}, {a, b});
    EvalContext ctx(0);
    for (const char* op : {"+", "-", "*"}) {
      if (op[0] == '*' && c.p1 + c.p2 > 38) continue;  // may overflow: the checked kernel's case
      auto e = Call(op, {ColumnRef(0, Decimal(c.p1, c.s1), "a"), ColumnRef(1, Decimal(c.p2, c.s2), "b")});
      ASSERT_TRUE(e.ok());
      const int s = (*e)->type->scale();
      auto v = Evaluate(**e, batch, ctx);
      ASSERT_TRUE(v.ok()) << op << " " << v.status().ToString();
      for (int i = 0; i < 400; ++i) {
        if (a[i].is_null() || b[i].is_null()) {
          EXPECT_TRUE((*v)->IsNull(i));
          continue;
        }
        int128_t expect;
        const int sm = std::max(c.s1, c.s2);
        int128_t fa = 1, fb = 1;
        for (int k = c.s1; k < sm; ++k) fa *= 10;
        for (int k = c.s2; k < sm; ++k) fb *= 10;
        if (op[0] == '+') expect = xa[i] * fa + xb[i] * fb;
        else if (op[0] == '-') expect = xa[i] * fa - xb[i] * fb;
        else expect = xa[i] * xb[i];
        if (op[0] == '*' && s != c.s1 + c.s2) continue;  // rescaled: the checked kernel's case
        int128_t got = (*e)->type->IsWideDecimal() ? (*v)->Get<int128_t>(i) : (*v)->Get<int64_t>(i);
        EXPECT_EQ(FormatDecimal(got, s), FormatDecimal(expect, s)) << op << " row " << i;
      }
    }
  }
}

TEST(Arithmetic, VectorizedIntegerAddMatchesScalarOracle) {
  std::mt19937 rng(1);
  std::vector<Value> a, b;
  for (int i = 0; i < 500; ++i) {
    a.push_back(i % 7 == 0 ? Value::Null(Int32()) : Value::Int32(static_cast<int32_t>(rng() % 100000)));
    b.push_back(i % 11 == 0 ? Value::Null(Int32()) : Value::Int32(static_cast<int32_t>(rng() % 100000)));
  }
  auto batch = MakeBatch({Int32(), Int32()}, {a, b});
  EvalContext ctx(0);
  auto v = Evaluate(*F("*", {ColumnRef(0, Int32(), "a"), ColumnRef(1, Int32(), "b")}), batch, ctx);
  ASSERT_FALSE(v.ok());  // 99999*99999 overflows INT32 somewhere
  auto w = Evaluate(*F("+", {ColumnRef(0, Int32(), "a"), ColumnRef(1, Int32(), "b")}), batch, ctx);
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 500; ++i) {
    if (a[i].is_null() || b[i].is_null()) {
      EXPECT_TRUE((*w)->IsNull(i));
    } else {
      EXPECT_EQ((*w)->Get<int32_t>(i), a[i].GetInt() + b[i].GetInt());
    }
  }
}

TEST(Arithmetic, DateAndIntervalArithmetic) {
  ExprPtr d = Lit(Value::Date(19782));  // 2024-02-29
  EXPECT_EQ(EvalText(Call("+", {d, I(1)})), "2024-03-01");
  EXPECT_EQ(EvalText(Call("+", {I(1), d})), "2024-03-01");
  EXPECT_EQ(EvalText(Call("-", {d, I(60)})), "2023-12-31");
  EXPECT_EQ(EvalText(Call("-", {d, Lit(Value::Date(19723))})), "59");
  auto year = IntervalLiteral("1", "YEAR");
  ASSERT_TRUE(year.ok());
  EXPECT_EQ(EvalText(Call("+", {d, *year})), "2025-02-28 00:00:00");
  ExprPtr ts = Lit(Value::Timestamp(0));
  EXPECT_EQ(EvalText(Call("+", {ts, *IntervalLiteral("3", "HOURS")})), "1970-01-01 03:00:00");
  EXPECT_EQ(EvalText(Call("-", {ts, *IntervalLiteral("1 day 2 hours", "")})), "1969-12-30 22:00:00");
  EXPECT_EQ(EvalText(Call("+", {Lit(Value::Timestamp(2592000000000LL)), *IntervalLiteral("1", "MONTH")})),
            "1970-02-28 00:00:00");  // Jan 31 + 1 month clamps to Feb 28
  EXPECT_EQ(EvalText(Call("+", {ts, *IntervalLiteral("1.5", "SECOND")})), "1970-01-01 00:00:01.5");
  EXPECT_FALSE(IntervalLiteral("1", "FORTNIGHT").ok());
  EXPECT_FALSE(IntervalLiteral("x", "DAY").ok());
}

TEST(Arithmetic, ResolutionErrorsListCandidates) {
  auto r = Call("+", {S("a"), Lit(Value::Boolean(true))});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kBinder);
  EXPECT_NE(r.status().message().find("No function matches '+(STRING, BOOLEAN)'. Candidates: "), std::string::npos)
      << r.status().message();
  auto u = Call("no_such_fn", {I(1)});
  EXPECT_EQ(u.status().code(), StatusCode::kBinder);
}

}  // namespace
}  // namespace shoal::expr
