// Dictionary-coded string columns (columnar/vector.h) evaluate exactly as their decoded values:
// the once-per-entry path, its fallback and its cache, checked against the flat batch.
#include <gtest/gtest.h>

#include <random>

#include "expr/evaluate.h"
#include "expr/expr_test_support.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT
using namespace shoal::expr::testing;  // NOLINT

struct Batches {
  RecordBatch coded, flat;
};

// Column 0: coded strings over `dict` (codes limited to `allowed` entries, some NULL);
// column 1: BIGINT; column 2: the same strings again, coded.
Batches MakeBatches(const VectorPtr& dict, const std::vector<int32_t>& allowed, int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  auto schema = std::make_shared<Schema>();
  schema->fields = {{"s", String(), true}, {"i", Int64(), true}, {"t", String(), true}};
  auto coded = Vector::MakeCoded(dict, n);
  auto coded2 = Vector::MakeCoded(dict, n);
  auto flat = Vector::Make(String());
  auto flat2 = Vector::Make(String());
  auto ints = Vector::Make(Int64());
  uint8_t* valid = coded->MutableValidity();
  for (int64_t r = 0; r < n; ++r) {
    const bool null = rng() % 6 == 0;
    const int32_t code = null ? 0 : allowed[rng() % allowed.size()];
    coded->mutable_codes()[r] = code;
    valid[r] = null ? 0 : 1;
    if (null) flat->AppendNull();
    else flat->AppendString(dict->GetString(code));
    const int32_t code2 = allowed[rng() % allowed.size()];
    coded2->mutable_codes()[r] = code2;
    flat2->AppendString(dict->GetString(code2));
    ints->Append<int64_t>(static_cast<int64_t>(rng() % 7) - 3);
  }
  Batches b;
  b.coded = RecordBatch(schema, {coded, ints, coded2}, n);
  b.flat = RecordBatch(schema, {flat, ints, flat2}, n);
  return b;
}

std::vector<ExprPtr> Expressions() {
  ExprPtr s = ColumnRef(0, String(), "s");
  ExprPtr t = ColumnRef(2, String(), "t");
  ExprPtr i = ColumnRef(1, Int64(), "i");
  std::vector<ExprPtr> out;
  auto add = [&](Result<ExprPtr> e) {
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    out.push_back(*e);
  };
  add(F("=", {s, S("MAIL")}));
  add(In(s, {S("AIR"), S("MAIL"), S("")}));
  add(In(s, {S("AIR"), S("MAIL")}, true));
  add(Like(s, S("%A%"), nullptr));
  add(IsNull(s));
  add(IsNull(s, true));
  add(Not(F("<>", {s, S("AIR")})));
  add(F("substring", {s, L(1), L(2)}));
  add(F("upper", {s}));
  add(Coalesce({s, S("none")}));
  add(F(">", {F("length", {s}), L(2)}));
  add(Case({{F("=", {s, S("AIR")}), L(1)}}, L(2)));
  add(Cast(s, Int64(), true));
  add(F("=", {s, t}));
  add(F("||", {s, Cast(i, String()).ValueOrDie()}));
  add(And({F("<>", {s, S("SHIP")}), F(">", {i, L(0)})}));
  add(Or({F("=", {s, S("SHIP")}), IsNull(s)}));
  out.push_back(s);
  return out;
}

void ExpectSame(const Vector& a, const Vector& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (int64_t r = 0; r < a.size(); ++r) {
    ASSERT_EQ(Value::FromVector(a, r).ToString(), Value::FromVector(b, r).ToString()) << what << " row " << r;
  }
}

void CheckAll(const Batches& b, EvalContext& ctx) {
  EvalContext flat_ctx(0);
  for (const ExprPtr& e : Expressions()) {
    const std::string what = e->ToString();
    auto want = Evaluate(*e, b.flat, flat_ctx);
    ASSERT_TRUE(want.ok()) << what;
    for (int pass = 0; pass < 2; ++pass) {  // the second pass hits the cache
      auto got = Evaluate(*e, b.coded, ctx);
      ASSERT_TRUE(got.ok()) << what;
      EXPECT_FALSE((*got)->IsDictionary()) << what;
      ExpectSame(**got, **want, what);
      auto maybe = EvaluateMaybeCoded(*e, b.coded, ctx);
      ASSERT_TRUE(maybe.ok()) << what;
      ExpectSame(*Decode(*maybe), **want, what + " (maybe coded)");
    }
    if (e->type->id() != TypeId::kBoolean) continue;
    std::vector<uint32_t> want_sel, got_sel;
    ASSERT_TRUE(EvaluateFilter(*e, b.flat, flat_ctx, &want_sel).ok());
    ASSERT_TRUE(EvaluateFilter(*e, b.coded, ctx, &got_sel).ok());
    EXPECT_EQ(got_sel, want_sel) << what;
    std::vector<uint32_t> rows;
    for (uint32_t r = 1; r < b.flat.num_rows; r += 3) rows.push_back(r);
    ASSERT_TRUE(EvaluateFilterOn(*e, b.flat, rows, flat_ctx, &want_sel).ok());
    ASSERT_TRUE(EvaluateFilterOn(*e, b.coded, rows, ctx, &got_sel).ok());
    EXPECT_EQ(got_sel, want_sel) << what << " on rows";
  }
}

VectorPtr Dictionary(const std::vector<std::string>& words) {
  auto d = Vector::Make(String());
  for (const auto& w : words) d->AppendString(w);
  return d;
}

TEST(EvaluateCoded, MatchesTheDecodedValues) {
  EvalContext ctx(0);
  auto dict = Dictionary({"AIR", "MAIL", "", "SHIP", "12", "-7", "a longer entry of the dictionary"});
  CheckAll(MakeBatches(dict, {0, 1, 2, 3, 4, 5, 6}, 500, 1), ctx);
  // Another chunk's dictionary through the same context, then the first again.
  auto dict2 = Dictionary({"SHIP", "RAIL", "AIR"});
  CheckAll(MakeBatches(dict2, {0, 1, 2}, 300, 2), ctx);
  CheckAll(MakeBatches(dict, {1, 3}, 200, 3), ctx);
}

TEST(EvaluateCoded, AnEntryNoRowHoldsMayFailOnlyOnTheDictionary) {
  // CAST(s AS BIGINT) fails on "AIR", which the rows never hold: the values path answers.
  auto dict = Dictionary({"AIR", "12", "-7"});
  Batches b = MakeBatches(dict, {1, 2}, 100, 4);
  auto e = Cast(ColumnRef(0, String(), "s"), Int64());
  ASSERT_TRUE(e.ok());
  EvalContext ctx(0), flat_ctx(0);
  auto want = Evaluate(**e, b.flat, flat_ctx);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  auto got = Evaluate(**e, b.coded, ctx);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectSame(**got, **want, "cast");
  // A row that holds it fails as the flat batch does.
  Batches bad = MakeBatches(dict, {0, 1}, 100, 5);
  EXPECT_FALSE(Evaluate(**e, bad.coded, ctx).ok());
  EXPECT_FALSE(Evaluate(**e, bad.flat, flat_ctx).ok());
}

TEST(EvaluateCoded, StringResultsStayCodedOnlyWhenAsked) {
  auto dict = Dictionary({"AIR", "MAIL"});
  Batches b = MakeBatches(dict, {0, 1}, 64, 6);
  ExprPtr up = F("upper", {ColumnRef(0, String(), "s")});
  EvalContext ctx(0);
  auto coded = EvaluateMaybeCoded(*up, b.coded, ctx);
  ASSERT_TRUE(coded.ok());
  EXPECT_TRUE((*coded)->IsDictionary());
  auto again = EvaluateMaybeCoded(*up, b.coded, ctx);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->dictionary(), (*coded)->dictionary()) << "one dictionary per chunk, from the cache";
  auto column = EvaluateMaybeCoded(*ColumnRef(0, String(), "s"), b.coded, ctx);
  ASSERT_TRUE(column.ok());
  EXPECT_EQ(*column, b.coded.columns[0]);
  auto flat = Evaluate(*up, b.coded, ctx);
  ASSERT_TRUE(flat.ok());
  EXPECT_FALSE((*flat)->IsDictionary());
}

}  // namespace
}  // namespace shoal::expr
