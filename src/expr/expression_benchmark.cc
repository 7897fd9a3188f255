// The expression kernels' speed in values per second on one core (issue 29's goal: >= 1,000 M/s
// for fixed-width comparisons and arithmetic, >= 300 M/s for DECIMAL(38,x)), against a memory
// baseline measured in the same run:
//   BM_MemoryRead: summing 8-byte values from memory (the fastest any kernel reading a column
//     can go; its values/s is the ceiling for 8-byte types, about twice that for 4-byte ones);
//   BM_Filter/<type>:       EvaluateFilter(c < literal), half of the rows selected (the scan's
//     filter and Prewhere path: selected row indices out);
//   BM_Compare/<type>:      Evaluate(c < literal) into a BOOLEAN vector;
//   BM_CompareColumns/<type>: Evaluate(c < d), two columns;
//   BM_Add/<type>, BM_Multiply/<type>: Evaluate(c + d), Evaluate(c * d);
//   BM_Between/<type>:      EvaluateFilter(c BETWEEN lo AND hi), about 20% selected.
// Types: INT, BIGINT, DOUBLE, DECIMAL(15,2), DECIMAL(38,10), DATE, STRING short (8 bytes) and
// long (40 bytes, a common 32-byte prefix). Columns have no NULLs (the common case in a scan),
// batches are the engine's 2048 rows, 2^22 rows per iteration (32 MB per 8-byte column, larger
// than the caches), values/s is items_per_second.
//
//   expression_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "expr/evaluate.h"
#include "expr/expr.h"

namespace shoal::expr {
namespace {

using columnar::int128_t;
using columnar::TypePtr;
using columnar::Value;

constexpr int64_t kRows = int64_t{1} << 22;
constexpr int64_t kBatch = 2048;

enum Kind { kInt32, kInt64, kDouble, kDecimal15, kDecimal38, kDate, kShortString, kLongString, kKinds };

const char* KindName(int k) {
  static const char* names[] = {"int32",          "int64",     "double",      "decimal(15,2)",
                                "decimal(38,10)", "date",      "string8",     "string40"};
  return names[k];
}

TypePtr KindType(int k) {
  switch (k) {
    case kInt32: return columnar::Int32();
    case kInt64: return columnar::Int64();
    case kDouble: return columnar::Float64();
    case kDecimal15: return columnar::Decimal(15, 2);
    case kDecimal38: return columnar::Decimal(38, 10);
    case kDate: return columnar::Date();
    default: return columnar::String();
  }
}

// A string column's value for the random x (8 digits; 40 bytes with a shared 32-byte prefix).
std::string StringOf(int k, uint32_t x) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%08u", x % 100000000u);
  if (k == kShortString) return digits;
  return std::string(32, 'p') + digits;  // a shared prefix: comparisons must look past it
}

columnar::VectorPtr MakeColumn(int k, int64_t rows, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> dist(0, 999999);
  auto v = columnar::Vector::Make(KindType(k), rows);
  for (int64_t i = 0; i < rows; ++i) {
    const uint32_t x = dist(rng);
    switch (k) {
      case kInt32: v->Append<int32_t>(static_cast<int32_t>(x % 40000)); break;  // c * d fits
      case kInt64: v->Append<int64_t>(static_cast<int64_t>(x) * 1000); break;
      case kDouble: v->Append<double>(x * 0.25); break;
      case kDecimal15: v->Append<int64_t>(x); break;  // 0.00 .. 9999.99
      case kDecimal38: v->Append<int128_t>(static_cast<int128_t>(x) * 10000000000); break;
      case kDate: v->Append<int32_t>(static_cast<int32_t>(x % 20000)); break;
      default: v->AppendString(StringOf(k, x * 100)); break;
    }
  }
  return v;
}

// A literal of the column's type at about `fraction` of its value range.
Value LiteralAt(int k, double fraction) {
  const auto x = static_cast<uint32_t>(fraction * 1e6);
  switch (k) {
    case kInt32: return Value::Int32(static_cast<int32_t>(fraction * 40000));
    case kInt64: return Value::Int64(static_cast<int64_t>(x) * 1000);
    case kDouble: return Value::Double(x * 0.25);
    case kDecimal15: return Value::Decimal(15, 2, x);
    case kDecimal38: return Value::Decimal(38, 10, static_cast<int128_t>(x) * 10000000000);
    case kDate: return Value::Date(static_cast<int32_t>(fraction * 20000));
    default: return Value::String(StringOf(k, x * 100));
  }
}

// kRows rows of two columns (c, d) of kind k, in batches of kBatch rows.
struct Data {
  std::vector<columnar::RecordBatch> batches;
};

const Data& DataFor(int k) {
  static Data* cache[kKinds] = {};
  if (!cache[k]) {
    auto* d = new Data();
    auto c = MakeColumn(k, kRows, 7 + k);
    auto e = MakeColumn(k, kRows, 1000 + k);
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = {{"c", KindType(k), true}, {"d", KindType(k), true}};
    for (int64_t at = 0; at < kRows; at += kBatch) {
      columnar::RecordBatch b;
      b.schema = schema;
      b.num_rows = kBatch;
      b.columns = {c->Slice(at, kBatch), e->Slice(at, kBatch)};
      d->batches.push_back(std::move(b));
    }
    cache[k] = d;
  }
  return *cache[k];
}

ExprPtr Col(int k, int i) { return ColumnRef(i, KindType(k), i == 0 ? "c" : "d", true); }

ExprPtr Bind(Result<ExprPtr> e, benchmark::State& state) {
  if (!e.ok()) state.SkipWithError(e.status().ToString().c_str());
  return e.ok() ? *e : nullptr;
}

void RunEvaluate(benchmark::State& state, const ExprPtr& e, int k) {
  if (!e) return;
  const Data& data = DataFor(k);
  EvalContext ctx(0);
  for (auto _ : state) {
    for (const auto& b : data.batches) {
      auto r = Evaluate(*e, b, ctx);
      if (!r.ok()) {
        state.SkipWithError(r.status().ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize(r->get());
    }
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

void RunFilter(benchmark::State& state, const ExprPtr& e, int k) {
  if (!e) return;
  const Data& data = DataFor(k);
  EvalContext ctx(0);
  std::vector<uint32_t> sel;
  int64_t kept = 0;
  for (auto _ : state) {
    kept = 0;
    for (const auto& b : data.batches) {
      auto r = EvaluateFilter(*e, b, ctx, &sel);
      if (!r.ok()) {
        state.SkipWithError(r.status().ToString().c_str());
        return;
      }
      kept += *r;
    }
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["selected"] = static_cast<double>(kept) / kRows;
}

void BM_MemoryRead(benchmark::State& state) {
  std::vector<int64_t> v(kRows);
  for (int64_t i = 0; i < kRows; ++i) v[i] = i * 7;
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < kRows; ++i) sum += v[i];
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_MemoryRead)->Unit(benchmark::kMillisecond);

void BM_Filter(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  RunFilter(state, Bind(Call("<", {Col(k, 0), Literal(LiteralAt(k, 0.5))}), state), k);
}

void BM_Compare(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  RunEvaluate(state, Bind(Call("<", {Col(k, 0), Literal(LiteralAt(k, 0.5))}), state), k);
}

void BM_CompareColumns(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  RunEvaluate(state, Bind(Call("<", {Col(k, 0), Col(k, 1)}), state), k);
}

void BM_Between(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  auto lo = Call(">=", {Col(k, 0), Literal(LiteralAt(k, 0.4))});
  auto hi = Call("<=", {Col(k, 0), Literal(LiteralAt(k, 0.6))});
  if (!lo.ok() || !hi.ok()) {
    state.SkipWithError("bind");
    return;
  }
  RunFilter(state, Bind(And({*lo, *hi}), state), k);
}

void BM_Add(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  RunEvaluate(state, Bind(Call("+", {Col(k, 0), Col(k, 1)}), state), k);
}

void BM_Multiply(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  state.SetLabel(KindName(k));
  RunEvaluate(state, Bind(Call("*", {Col(k, 0), Col(k, 1)}), state), k);
}

void AllKinds(benchmark::internal::Benchmark* b) {
  for (int k = 0; k < kKinds; ++k) b->Arg(k);
  b->Unit(benchmark::kMillisecond);
}
void NumericKinds(benchmark::internal::Benchmark* b) {
  for (int k = 0; k < kShortString; ++k) {
    if (k != kDate) b->Arg(k);
  }
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Filter)->Apply(AllKinds);
BENCHMARK(BM_Compare)->Apply(AllKinds);
BENCHMARK(BM_CompareColumns)->Apply(AllKinds);
BENCHMARK(BM_Between)->Apply(AllKinds);
BENCHMARK(BM_Add)->Apply(NumericKinds);
BENCHMARK(BM_Multiply)->Apply(NumericKinds);

}  // namespace
}  // namespace shoal::expr
