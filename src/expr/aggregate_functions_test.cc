#include "expr/aggregate_functions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "columnar/decimal.h"
#include "columnar/value.h"
#include "expr/cast.h"

namespace shoal::expr {
namespace {

using namespace columnar;  // NOLINT

struct Input {
  std::vector<uint32_t> groups;
  VectorPtr values;
};

// Runs `name` over (groups, values) split into two partial aggregations combined at the end
// (exercises Update and Combine), returning one Value per group.
std::vector<Value> RunSplit(const std::string& name, bool distinct, const Input& in, int64_t num_groups,
                            std::vector<VectorPtr> extra = {}) {
  std::vector<TypePtr> types;
  if (in.values) types.push_back(in.values->type());
  for (auto& e : extra) types.push_back(e->type());
  auto b = ResolveAggregate(name, types, distinct);
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  if (!b.ok()) return {};
  int64_t n = static_cast<int64_t>(in.groups.size());
  int64_t half = n / 2;
  std::vector<VectorPtr> args;
  if (in.values) args.push_back(*CastVector(in.values, b->arg_types[0]));
  for (size_t i = 0; i < extra.size(); ++i) args.push_back(*CastVector(extra[i], b->arg_types[i + 1]));
  auto part = [&](int64_t from, int64_t to) {
    auto agg = b->Create();
    agg->Resize(num_groups);
    std::vector<VectorPtr> sliced;
    std::vector<const Vector*> ptrs;
    for (auto& a : args) {
      sliced.push_back(a->Slice(from, to - from));
      ptrs.push_back(sliced.back().get());
    }
    Status st = agg->Update(in.groups.data() + from, ptrs, to - from);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return agg;
  };
  auto a1 = part(0, half);
  auto a2 = part(half, n);
  std::vector<uint32_t> identity(num_groups);
  for (int64_t g = 0; g < num_groups; ++g) identity[g] = static_cast<uint32_t>(g);
  Status st = a1->Combine(*a2, identity.data());
  EXPECT_TRUE(st.ok()) << st.ToString();
  auto out = a1->Finalize();
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  std::vector<Value> vals;
  EXPECT_TRUE((*out)->type()->Equals(*b->result_type));
  for (int64_t g = 0; g < num_groups; ++g) vals.push_back(Value::FromVector(**out, g));
  return vals;
}

TEST(Aggregates, RandomIntegersMatchBruteForce) {
  std::mt19937 rng(42);
  const int64_t kGroups = 7;  // group 6 gets no rows; group 5 only NULLs
  Input in;
  in.values = Vector::Make(Int32());
  std::vector<std::vector<std::optional<int32_t>>> per_group(kGroups);
  for (int i = 0; i < 2000; ++i) {
    uint32_t g = rng() % 6;
    std::optional<int32_t> v;
    if (g != 5 && rng() % 6 != 0) v = static_cast<int32_t>(rng() % 200) - 100;
    in.groups.push_back(g);
    if (v) in.values->Append<int32_t>(*v);
    else in.values->AppendNull();
    per_group[g].push_back(v);
  }
  auto count = RunSplit("count", false, in, kGroups);
  auto count_star = RunSplit("count", false, Input{in.groups, nullptr}, kGroups);
  auto count_distinct = RunSplit("COUNT", true, in, kGroups);
  auto sum = RunSplit("sum", false, in, kGroups);
  auto sum_distinct = RunSplit("sum", true, in, kGroups);
  auto avg = RunSplit("avg", false, in, kGroups);
  auto mn = RunSplit("min", false, in, kGroups);
  auto mx = RunSplit("max", false, in, kGroups);
  auto vs = RunSplit("var_samp", false, in, kGroups);
  auto sp = RunSplit("stddev_pop", false, in, kGroups);
  auto first = RunSplit("any_value", false, in, kGroups);
  auto list = RunSplit("collect_list", false, in, kGroups);
  for (int64_t g = 0; g < kGroups; ++g) {
    int64_t c = 0, s = 0;
    std::set<int32_t> distinct;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (auto v : per_group[g]) {
      if (!v) continue;
      ++c;
      s += *v;
      distinct.insert(*v);
      lo = std::min(lo, *v);
      hi = std::max(hi, *v);
    }
    EXPECT_EQ(count[g].GetInt(), c);
    EXPECT_EQ(count_star[g].GetInt(), static_cast<int64_t>(per_group[g].size()));
    EXPECT_EQ(count_distinct[g].GetInt(), static_cast<int64_t>(distinct.size()));
    if (c == 0) {
      for (auto* r : {&sum, &sum_distinct, &avg, &mn, &mx, &vs, &sp, &first, &list}) EXPECT_TRUE((*r)[g].is_null()) << g;
      continue;
    }
    EXPECT_EQ(sum[g].GetInt(), s);
    int64_t sd = 0;
    for (int32_t v : distinct) sd += v;
    EXPECT_EQ(sum_distinct[g].GetInt(), sd);
    double mean = static_cast<double>(s) / c;
    EXPECT_NEAR(avg[g].GetDouble(), mean, 1e-9);
    EXPECT_EQ(mn[g].GetInt(), lo);
    EXPECT_EQ(mx[g].GetInt(), hi);
    double m2 = 0;
    for (auto v : per_group[g]) {
      if (v) m2 += (*v - mean) * (*v - mean);
    }
    if (c >= 2) {
      EXPECT_NEAR(vs[g].GetDouble(), m2 / (c - 1), 1e-6);
    }
    EXPECT_NEAR(sp[g].GetDouble(), std::sqrt(m2 / c), 1e-6);
    EXPECT_TRUE(distinct.count(static_cast<int32_t>(first[g].GetInt())));
    EXPECT_EQ(static_cast<int64_t>(list[g].GetChildren().size()), c);
  }
}

TEST(Aggregates, SumOverflowAndDecimalExactness) {
  Input in;
  in.values = Vector::Make(Int64());
  in.values->Append<int64_t>(INT64_MAX);
  in.values->Append<int64_t>(1);
  in.groups = {0, 0};
  auto b = ResolveAggregate("sum", {Int64()});
  ASSERT_TRUE(b.ok());
  auto agg = b->Create();
  agg->Resize(1);
  EXPECT_EQ(agg->Update(in.groups.data(), {in.values.get()}, 2).code(), StatusCode::kOutOfRange);

  Input d;
  d.values = Vector::Make(Decimal(3, 1));
  for (int i = 0; i < 10; ++i) d.values->Append<int64_t>(1);  // 0.1 ten times
  d.values->Append<int64_t>(2);
  d.groups.assign(11, 0);
  auto sum = RunSplit("sum", false, d, 1);
  EXPECT_EQ(sum[0].type()->ToString(), "DECIMAL(13,1)");  // Spark: DECIMAL(p + 10, s)
  EXPECT_EQ(sum[0].ToString(), "1.2");
  auto avg = RunSplit("avg", false, d, 1);
  EXPECT_EQ(avg[0].type()->ToString(), "DECIMAL(7,5)");
  EXPECT_EQ(avg[0].ToString(), "0.10909");  // 1.2 / 11 = 0.109090.. rounded half away
}

// The bound is the result's precision, not 38 digits: unscaled values no DECIMAL(3,1) column
// holds stand in for the 10^10 rows a real overflow would need.
TEST(Aggregates, DecimalSumPastItsResultPrecisionIsAnOverflow) {
  Input d;
  d.values = Vector::Make(Decimal(3, 1));
  d.values->Append<int64_t>(6'000'000'000'000);
  d.values->Append<int64_t>(3'999'999'999'999);
  d.groups = {0, 0};
  auto b = ResolveAggregate("sum", {Decimal(3, 1)});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->result_type->ToString(), "DECIMAL(13,1)");
  auto fits = b->Create();
  fits->Resize(1);
  ASSERT_TRUE(fits->Update(d.groups.data(), {d.values.get()}, 2).ok());
  auto out = fits->Finalize();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  d.values->Append<int64_t>(1);
  d.groups.push_back(0);
  auto over = b->Create();
  over->Resize(1);
  ASSERT_TRUE(over->Update(d.groups.data(), {d.values.get()}, 3).ok());
  auto st = over->Finalize().status();
  EXPECT_EQ(st.code(), StatusCode::kOutOfRange) << st.ToString();
  EXPECT_NE(st.message().find("DECIMAL(13,1)"), std::string::npos) << st.ToString();
}

TEST(Aggregates, StringsBooleansAndLists) {
  Input s;
  s.values = Vector::Make(String());
  for (const char* x : {"pear", "apple", "fig"}) s.values->AppendString(x);
  s.values->AppendNull();
  s.groups = {0, 0, 0, 1};
  auto mn = RunSplit("min", false, s, 2);
  auto mx = RunSplit("max", false, s, 2);
  EXPECT_EQ(mn[0].ToString(), "apple");
  EXPECT_EQ(mx[0].ToString(), "pear");
  EXPECT_TRUE(mn[1].is_null());
  auto sep = Vector::Make(String());
  for (int i = 0; i < 4; ++i) sep->AppendString("|");
  auto agg = RunSplit("string_agg", false, s, 2, {sep});
  EXPECT_EQ(agg[0].ToString(), "pear|apple|fig");
  auto listagg = RunSplit("listagg", false, Input{{0, 0, 0, 0}, s.values->Slice(0, 4)}, 1);
  EXPECT_EQ(listagg[0].ToString(), "pear,apple,fig");

  Input bl;
  bl.values = Vector::Make(Boolean());
  for (int v : {1, 1, 0, 1}) bl.values->Append<uint8_t>(v);
  bl.values->AppendNull();
  bl.groups = {0, 0, 1, 1, 2};
  auto band = RunSplit("bool_and", false, bl, 3);
  auto bor = RunSplit("bool_or", false, bl, 3);
  EXPECT_EQ(band[0].ToString(), "true");
  EXPECT_EQ(band[1].ToString(), "false");
  EXPECT_EQ(bor[1].ToString(), "true");
  EXPECT_TRUE(band[2].is_null());

  Input lists;
  TypePtr lt = List(Int32());
  lists.values = Vector::Make(lt);
  Value::Nested(lt, {Value::Int32(2)}).AppendTo(lists.values.get());
  Value::Nested(lt, {Value::Int32(1), Value::Int32(5)}).AppendTo(lists.values.get());
  lists.groups = {0, 0};
  EXPECT_EQ(RunSplit("max", false, lists, 1)[0].ToString(), "[2]");
  EXPECT_EQ(RunSplit("min", false, lists, 1)[0].ToString(), "[1, 5]");
}

TEST(Aggregates, DoubleMinMaxTreatsNaNAsGreatest) {
  Input in;
  in.values = Vector::Make(Float64());
  for (double d : {1.0, static_cast<double>(NAN), -3.0}) in.values->Append<double>(d);
  in.groups = {0, 0, 0};
  EXPECT_TRUE(std::isnan(RunSplit("max", false, in, 1)[0].GetDouble()));
  EXPECT_EQ(RunSplit("min", false, in, 1)[0].GetDouble(), -3.0);
  auto cd = RunSplit("count", true, in, 1);
  EXPECT_EQ(cd[0].GetInt(), 3);
}

TEST(Aggregates, ResolutionErrors) {
  EXPECT_FALSE(ResolveAggregate("median_of_medians", {Int32()}).ok());
  EXPECT_FALSE(ResolveAggregate("sum", {String()}).ok());
  EXPECT_FALSE(ResolveAggregate("bool_and", {Int32()}).ok());
  EXPECT_FALSE(ResolveAggregate("sum", {}).ok());
  EXPECT_TRUE(IsAggregateFunction("ARRAY_AGG"));
  EXPECT_FALSE(IsAggregateFunction("lower"));
  EXPECT_EQ(ResolveAggregate("count", {})->name, "count_star");
  EXPECT_EQ(ResolveAggregate("sum", {Int8()})->result_type->ToString(), "BIGINT");
  EXPECT_EQ(ResolveAggregate("sum", {Float32()})->result_type->ToString(), "DOUBLE");
  EXPECT_EQ(ResolveAggregate("avg", {Int64()})->result_type->ToString(), "DOUBLE");
  EXPECT_EQ(ResolveAggregate("collect_list", {Date()})->result_type->ToString(), "ARRAY<DATE>");
}

TEST(Aggregates, EmptyInputGivesZeroCountAndNullOthers) {
  for (const char* name : {"sum", "avg", "min", "max", "stddev", "string_agg", "array_agg"}) {
    auto b = ResolveAggregate(name, {name == std::string("string_agg") ? String() : Int32()});
    ASSERT_TRUE(b.ok()) << name;
    auto agg = b->Create();
    agg->Resize(2);
    auto out = agg->Finalize();
    ASSERT_TRUE(out.ok());
    EXPECT_EQ((*out)->size(), 2);
    EXPECT_TRUE((*out)->IsNull(0) && (*out)->IsNull(1)) << name;
  }
  auto c = ResolveAggregate("count", {Int32()})->Create();
  c->Resize(1);
  EXPECT_EQ(Value::FromVector(**c->Finalize(), 0).GetInt(), 0);
}

}  // namespace
}  // namespace shoal::expr
