// Tests of the string, math, date/time and nested scalar functions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "columnar/datetime.h"
#include "expr/expr_test_support.h"
#include "expr/function_registry.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

std::string E(std::string_view fn, std::vector<ExprPtr> args) { return EvalText(Call(fn, std::move(args))); }

TEST(StringFunctions, ConcatFamily) {
  EXPECT_EQ(E("||", {S("a"), S("b")}), "ab");
  EXPECT_EQ(E("||", {S("a"), Null(String())}), "NULL");
  EXPECT_EQ(E("||", {S("a"), I(1)}), "a1");
  EXPECT_EQ(E("concat", {S("a"), Null(String()), S("c")}), "NULL");  // Spark: NULL if any is
  EXPECT_EQ(E("concat", {Null(String())}), "NULL");
  EXPECT_EQ(E("concat", {S("a"), I(1), S("c")}), "a1c");
  EXPECT_EQ(E("concat_ws", {S("-"), S("a"), Null(String()), S("c")}), "a-c");
  EXPECT_EQ(E("concat_ws", {Null(String()), S("a")}), "NULL");
}

TEST(StringFunctions, LengthsAndCase) {
  EXPECT_EQ(E("length", {S("h\xc3\xa9llo")}), "5");
  EXPECT_EQ(E("char_length", {S("")}), "0");
  EXPECT_EQ(E("octet_length", {S("h\xc3\xa9llo")}), "6");
  EXPECT_EQ(E("length", {Null(String())}), "NULL");
  EXPECT_EQ(E("lower", {S("HeLLo \xc3\x89")}), "hello \xc3\xa9");
  EXPECT_EQ(E("upper", {S("straße \xc3\xa9")}), "STRASSE \xc3\x89");  // Java: ß -> SS
}

TEST(StringFunctions, SubstringLeftRight) {
  EXPECT_EQ(E("substring", {S("hello"), I(2), I(3)}), "ell");
  EXPECT_EQ(E("substr", {S("hello"), I(2)}), "ello");
  EXPECT_EQ(E("substr", {S("hello"), I(-3)}), "llo");
  EXPECT_EQ(E("substr", {S("hello"), I(-3), I(2)}), "ll");
  EXPECT_EQ(E("substr", {S("hello"), I(0), I(2)}), "he");
  EXPECT_EQ(E("substr", {S("hello"), I(10)}), "");
  EXPECT_EQ(E("substr", {S("hello"), I(-10), I(3)}), "");
  EXPECT_EQ(E("substr", {S("hello"), I(2), I(-1)}), "");
  EXPECT_EQ(E("substr", {S("h\xc3\xa9llo"), I(2), I(2)}), "\xc3\xa9l");
  EXPECT_EQ(E("substr", {S("hello"), L(INT64_MIN), L(INT64_MAX)}), "hello");  // INT64_MAX: to the end
  EXPECT_EQ(E("substr", {S("hello"), L(INT64_MIN), L(INT64_MAX - 1)}), "hel");
  EXPECT_EQ(E("substr", {S("hello"), L(2), L(INT64_MAX)}), "ello");
  EXPECT_EQ(E("left", {S("h\xc3\xa9llo"), I(2)}), "h\xc3\xa9");
  EXPECT_EQ(E("left", {S("hello"), I(-1)}), "hell");
  EXPECT_EQ(E("right", {S("hello"), I(3)}), "llo");
  EXPECT_EQ(E("right", {S("hello"), I(99)}), "hello");
}

TEST(StringFunctions, SubstringMatchesCharacterOracle) {
  std::mt19937 rng(17);
  const std::vector<std::string> chars = {"a", "\xc3\xa9", "\xe2\x82\xac", "z"};
  for (int iter = 0; iter < 500; ++iter) {
    std::vector<std::string> cs;
    std::string s;
    int n = rng() % 6;
    for (int i = 0; i < n; ++i) {
      cs.push_back(chars[rng() % chars.size()]);
      s += cs.back();
    }
    int start = static_cast<int>(rng() % 15) - 7, len = static_cast<int>(rng() % 8) - 1;
    // Oracle (Spark): start > 0 -> start-1; 0 -> 0; < 0 -> n + start; window [from, from+len).
    int64_t from = start > 0 ? start - 1 : (start == 0 ? 0 : n + start);
    int64_t to = from + len;
    std::string expect;
    for (int64_t k = std::max<int64_t>(from, 0); k < std::min<int64_t>(to, n); ++k) expect += cs[k];
    EXPECT_EQ(E("substr", {S(s), I(start), I(len)}), expect) << s << " " << start << " " << len;
  }
}

TEST(StringFunctions, RepeatReverseReplaceTrimPad) {
  EXPECT_EQ(E("repeat", {S("ab"), I(3)}), "ababab");
  EXPECT_EQ(E("repeat", {S("ab"), I(-1)}), "");
  EXPECT_EQ(E("repeat", {S("ab"), L(INT64_MAX)}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("reverse", {S("h\xc3\xa9llo")}), "oll\xc3\xa9h");
  EXPECT_EQ(E("replace", {S("banana"), S("an"), S("AN")}), "bANANa");
  EXPECT_EQ(E("replace", {S("abc"), S(""), S("x")}), "abc");
  EXPECT_EQ(E("trim", {S("  hi  ")}), "hi");
  EXPECT_EQ(E("ltrim", {S("  hi  ")}), "hi  ");
  EXPECT_EQ(E("rtrim", {S("  hi  ")}), "  hi");
  EXPECT_EQ(E("trim", {S("xxhixx"), S("x")}), "hi");
  EXPECT_EQ(E("lpad", {S("hi"), I(5), S("ab")}), "abahi");
  EXPECT_EQ(E("rpad", {S("hi"), I(5), S("ab")}), "hiaba");
  EXPECT_EQ(E("lpad", {S("hello"), I(2), S("x")}), "he");
  EXPECT_EQ(E("lpad", {S("h\xc3\xa9"), I(3), S("\xc3\xa9")}), "\xc3\xa9h\xc3\xa9");
  EXPECT_EQ(E("rpad", {S("hi"), I(4)}), "hi  ");
}

TEST(StringFunctions, SearchAndSplit) {
  EXPECT_EQ(E("starts_with", {S("hello"), S("he")}), "true");
  EXPECT_EQ(E("ends_with", {S("hello"), S("lo")}), "true");
  EXPECT_EQ(E("ends_with", {S("lo"), S("hello")}), "false");
  EXPECT_EQ(E("contains", {S("hello"), S("ell")}), "true");
  EXPECT_EQ(E("contains", {S("hello"), S("")}), "true");
  EXPECT_EQ(E("instr", {S("h\xc3\xa9llo"), S("l")}), "3");
  EXPECT_EQ(E("strpos", {S("hello"), S("z")}), "0");
  EXPECT_EQ(E("position", {S("l"), S("hello")}), "3");
  EXPECT_EQ(E("split", {S("a,b,,c"), S(",")}), "['a', 'b', '', 'c']");
  EXPECT_EQ(E("split", {S(""), S(",")}), "['']");
  EXPECT_EQ(E("split", {S("h\xc3\xa9"), S("")}), "['h', '\xc3\xa9']");
}

TEST(MathFunctions, RoundingFamily) {
  EXPECT_EQ(E("round", {D(2.5)}), "3.0");
  EXPECT_EQ(E("round", {D(-2.5)}), "-3.0");
  EXPECT_EQ(E("round", {D(1.2345), I(2)}), "1.23");
  EXPECT_EQ(E("round", {D(1234.5), I(-2)}), "1200.0");
  EXPECT_EQ(E("round", {Dec("2.345"), I(2)}), "2.35");
  EXPECT_EQ((*Call("round", {Dec("2.345"), I(2)}))->type->ToString(), "DECIMAL(4,2)");
  EXPECT_EQ(E("round", {Dec("-2.345"), I(2)}), "-2.35");
  EXPECT_EQ(E("round", {Dec("2.5")}), "3");
  EXPECT_EQ(E("round", {Dec("1250.5"), I(-2)}), "1300");
  EXPECT_EQ(E("round", {I(1250), I(-2)}), "1300");
  EXPECT_EQ(E("round", {I(-1250), I(-2)}), "-1300");
  EXPECT_EQ(E("round", {I(7), I(2)}), "7");
  EXPECT_EQ(E("floor", {D(-1.5)}), "-2.0");
  EXPECT_EQ(E("ceil", {D(-1.5)}), "-1.0");
  EXPECT_EQ(E("floor", {Dec("-1.5")}), "-2");
  EXPECT_EQ(E("ceil", {Dec("1.01")}), "2");
  EXPECT_EQ(E("ceiling", {I(3)}), "3");
}

TEST(MathFunctions, AbsSignAndTranscendental) {
  EXPECT_EQ(E("abs", {I(-3)}), "3");
  EXPECT_EQ(E("abs", {Dec("-1.50")}), "1.50");
  EXPECT_EQ(E("abs", {D(-0.5)}), "0.5");
  EXPECT_EQ(E("abs", {I(INT32_MIN)}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("sign", {I(-3)}), "-1");
  EXPECT_EQ(E("sign", {D(0)}), "0.0");
  EXPECT_EQ(E("sqrt", {I(16)}), "4.0");
  EXPECT_EQ(E("sqrt", {D(-1)}), "NaN");
  EXPECT_EQ(E("power", {I(2), I(10)}), "1024.0");
  EXPECT_EQ(E("pow", {D(2), D(-1)}), "0.5");
  EXPECT_EQ(E("exp", {I(0)}), "1.0");
  EXPECT_EQ(E("ln", {D(1)}), "0.0");
  EXPECT_EQ(E("ln", {D(0)}), "NULL");
  EXPECT_EQ(E("ln", {D(-1)}), "NULL");
  EXPECT_EQ(E("log10", {I(1000)}), "3.0");
  EXPECT_EQ(E("log2", {I(8)}), "3.0");
  EXPECT_EQ(E("log", {I(2), I(8)}), "3.0");
  EXPECT_EQ(E("greatest", {I(1), Null(Int32()), L(3)}), "3");
  EXPECT_EQ(E("least", {S("b"), S("a")}), "a");
  EXPECT_EQ(E("greatest", {D(1), D(NAN)}), "NaN");
  EXPECT_EQ(E("least", {Null(Int32()), Null(Int32())}), "NULL");
}

TEST(MathFunctions, HashIsStableAndDistinguishes) {
  std::string a = E("hash", {S("abc")}), b = E("hash", {S("abc")}), c = E("hash", {S("abd")});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(E("hash", {I(1), I(2)}), E("hash", {I(2), I(1)}));
  EXPECT_EQ(E("hash", {D(0.0)}), E("hash", {D(-0.0)}));
  EXPECT_NE(E("hash", {Null(Int32())}), "NULL");
}

TEST(DatetimeFunctions, FieldsOfDatesAndTimestamps) {
  ExprPtr d = Lit(Value::Date(19782));                                  // 2024-02-29, Thursday
  ExprPtr ts = Lit(Value::Timestamp(19782 * kMicrosPerDay + 45296789000LL));  // 12:34:56.789
  EXPECT_EQ(E("year", {d}), "2024");
  EXPECT_EQ(E("month", {d}), "2");
  EXPECT_EQ(E("day", {d}), "29");
  EXPECT_EQ(E("dayofweek", {d}), "5");  // Spark: Sunday = 1
  EXPECT_EQ(E("isodow", {d}), "4");
  EXPECT_EQ(E("dayofyear", {d}), "60");
  EXPECT_EQ(E("quarter", {d}), "1");
  EXPECT_EQ(E("week", {d}), "9");
  EXPECT_EQ(E("week", {Lit(Value::Date(19723))}), "1");   // 2024-01-01 (Monday)
  EXPECT_EQ(E("week", {Lit(Value::Date(19722))}), "52");  // 2023-12-31 (Sunday)
  EXPECT_EQ(E("hour", {ts}), "12");
  EXPECT_EQ(E("minute", {ts}), "34");
  EXPECT_EQ(E("second", {ts}), "56");
  EXPECT_EQ(E("date_part", {S("dow"), d}), "4");
  EXPECT_EQ(E("date_part", {S("millisecond"), ts}), "56789");
  EXPECT_EQ(E("date_part", {S("epoch"), Lit(Value::Timestamp(-1))}), "-1");
  EXPECT_EQ(E("date_part", {S("fortnight"), d}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("year", {Lit(Value::Timestamp(-1))}), "1969");
  EXPECT_EQ(E("year", {S("2020-05-06 01:02:03")}), "2020");
}

TEST(DatetimeFunctions, TruncArithmeticAndConstructors) {
  ExprPtr ts = Lit(Value::Timestamp(19782 * kMicrosPerDay + 45296789000LL));
  EXPECT_EQ(E("date_trunc", {S("month"), ts}), "2024-02-01 00:00:00");
  EXPECT_EQ(E("date_trunc", {S("quarter"), ts}), "2024-01-01 00:00:00");
  EXPECT_EQ(E("date_trunc", {S("week"), ts}), "2024-02-26 00:00:00");
  EXPECT_EQ(E("date_trunc", {S("hour"), ts}), "2024-02-29 12:00:00");
  EXPECT_EQ(E("date_trunc", {S("YEAR"), Lit(Value::Date(19782))}), "2024-01-01");
  EXPECT_EQ(E("date_trunc", {S("second"), Lit(Value::Timestamp(-1))}), "1969-12-31 23:59:59");
  EXPECT_EQ(E("date_add", {Lit(Value::Date(19782)), I(1)}), "2024-03-01");
  EXPECT_EQ(E("date_sub", {Lit(Value::Date(19782)), I(366)}), "2023-02-28");
  EXPECT_EQ(E("datediff", {Lit(Value::Date(19782)), Lit(Value::Date(19723))}), "59");
  EXPECT_EQ(E("datediff", {S("month"), Lit(Value::Date(19723)), Lit(Value::Date(19782))}), "1");
  EXPECT_EQ(E("date_diff", {S("hour"), Lit(Value::Timestamp(0)), Lit(Value::Timestamp(7200000001LL))}), "2");
  EXPECT_EQ(E("make_date", {I(2024), I(2), I(29)}), "2024-02-29");
  EXPECT_EQ(E("make_date", {I(2023), I(2), I(29)}).substr(0, 58),
            "ERROR: OutOfRangeException: [DATETIME_FIELD_OUT_OF_BOUNDS]");
  EXPECT_EQ(E("to_date", {S("2024-03-05")}), "2024-03-05");
  EXPECT_EQ(E("to_date", {S("garbage")}), "NULL");
  EXPECT_EQ(E("to_timestamp", {S("2024-03-05 01:02:03")}), "2024-03-05 01:02:03");
  EXPECT_EQ(E("to_timestamp", {D(1.5)}), "1970-01-01 00:00:01.5");
  EXPECT_EQ(E("epoch", {Lit(Value::Timestamp(1500000))}), "1.5");
  EXPECT_EQ(E("unix_timestamp", {Lit(Value::Timestamp(1500000))}), "1");
  // current_date / now come from the statement's context (EvalText uses timestamp 0).
  EXPECT_EQ(E("current_date", {}), "1970-01-01");
  EXPECT_EQ(E("now", {}), "1970-01-01 00:00:00");
  EvalContext ctx(86400LL * 1000000 * 2);
  auto folded = Fold(F("current_date", {}), &ctx);
  EXPECT_EQ(folded->ToString(), "DATE '1970-01-03'");
  EXPECT_EQ(Fold(F("current_date", {}))->kind, ExprKind::kFunction);  // not folded without a context
}

TEST(NestedFunctions, ListsMapsStructs) {
  EXPECT_EQ(E("array", {I(1), L(2), Null()}), "[1, 2, NULL]");
  EXPECT_EQ((*Call("list_value", {I(1), Dec("2.5")}))->type->ToString(), "ARRAY<DECIMAL(11,1)>");
  ExprPtr list = F("array", {I(10), I(20), I(30)});
  EXPECT_EQ(E("size", {list}), "3");
  EXPECT_EQ(E("cardinality", {Null(List(Int32()))}), "NULL");
  EXPECT_EQ(E("len", {list}), "3");
  EXPECT_EQ(E("element_at", {list, I(1)}), "10");
  EXPECT_EQ(E("element_at", {list, I(-1)}), "30");
  // Spark ANSI: element_at out of bounds or at 0 is an error (try_element_at: NULL); list[i]
  // counts from 0.
  EXPECT_EQ(E("element_at", {list, I(4)}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("element_at", {list, I(0)}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("try_element_at", {list, I(4)}), "NULL");
  EXPECT_EQ(E("try_element_at", {list, I(0)}), "NULL");
  EXPECT_EQ(EvalText(Subscript(list, I(2))), "30");
  EXPECT_EQ(EvalText(Subscript(list, I(3))).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("get", {list, I(3)}), "NULL");
  EXPECT_EQ(E("array_contains", {list, I(20)}), "true");
  EXPECT_EQ(E("array_contains", {list, I(21)}), "false");
  EXPECT_EQ(E("array_contains", {F("array", {I(1), Null()}), I(2)}), "NULL");
  EXPECT_EQ(E("array_contains", {list, Null(Int32())}), "NULL");
  ExprPtr m = F("map", {S("a"), I(1), S("b"), I(2)});
  EXPECT_EQ((m)->type->ToString(), "MAP<STRING, INT>");
  EXPECT_EQ(EvalText(Literal(Value())), "NULL");
  EXPECT_EQ(E("element_at", {m, S("b")}), "2");
  EXPECT_EQ(E("element_at", {m, S("z")}), "NULL");
  EXPECT_EQ(E("map_keys", {m}), "['a', 'b']");
  EXPECT_EQ(E("map_values", {m}), "[1, 2]");
  EXPECT_EQ(E("size", {m}), "2");
  EXPECT_EQ(E("map", {Null(String()), I(1)}).substr(0, 6), "ERROR:");
  EXPECT_EQ(E("struct", {I(1), S("x")}), "{'col1': 1, 'col2': 'x'}");
  EXPECT_EQ(E("named_struct", {S("a"), I(1), S("b"), S("x")}), "{'a': 1, 'b': 'x'}");
  auto sp = StructPack({"k", "v"}, {I(1), D(2)});
  ASSERT_TRUE(sp.ok());
  EXPECT_EQ((*sp)->type->ToString(), "STRUCT<k: INT, v: DOUBLE>");
  EXPECT_EQ(EvalText(FieldAccess(*sp, "V")), "2.0");
  EXPECT_FALSE(StructPack({"a", "A"}, {I(1), I(2)}).ok());
}

TEST(NestedFunctions, VectorizedElementAtOnColumns) {
  TypePtr lt = List(Int32());
  auto batch = MakeBatch({lt, Int64()},
                         {{Value::Nested(lt, {Value::Int32(1), Value::Int32(2)}), Value::Null(lt),
                           Value::Nested(lt, {}), Value::Nested(lt, {Value::Int32(7)})},
                          {Value::Int64(2), Value::Int64(1), Value::Int64(1), Value::Null(Int64())}});
  EvalContext ctx(0);
  // try_element_at: row 2 is out of bounds (element_at would raise there).
  auto v = Evaluate(*F("try_element_at", {ColumnRef(0, lt, "l"), ColumnRef(1, Int64(), "i")}), batch, ctx);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(ToValues(**v)[0].ToString(), "2");
  for (int i = 1; i < 4; ++i) EXPECT_TRUE((*v)->IsNull(i)) << i;
}

TEST(FunctionRegistry, EveryBriefFunctionIsRegistered) {
  for (const char* name :
       {"+", "-", "*", "/", "%", "//", "div", "=", "<>", "<", "<=", ">", ">=", "||", "concat", "concat_ws", "length",
        "char_length", "octet_length", "lower", "upper", "substring", "substr", "left", "right", "repeat", "reverse",
        "replace", "trim", "ltrim", "rtrim", "lpad", "rpad", "starts_with", "ends_with", "contains", "position",
        "instr", "strpos", "split", "abs", "sign", "round", "floor", "ceil", "sqrt", "power", "pow", "exp", "ln",
        "log10", "log2", "mod", "greatest", "least", "hash", "year", "month", "day", "dayofweek", "dayofyear",
        "quarter", "week", "hour", "minute", "second", "date_part", "date_trunc", "date_add", "date_sub",
        "datediff", "current_date", "current_timestamp", "now", "make_date", "to_date", "epoch", "unix_timestamp",
        "array", "list_value", "size", "cardinality", "len", "element_at", "array_contains", "struct", "struct_pack",
        "map", "map_keys", "map_values"}) {
    if (std::string(name) == "struct_pack") continue;  // built by StructPack()
    EXPECT_NE(FunctionRegistry::Get().Find(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace shoal::expr
