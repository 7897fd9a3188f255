// Prewhere on vs off on 10M-row, 8-column Parquet files (ZSTD, dictionary where the writer
// keeps it, default pages of 20,000 rows):
//   BM_Scan: `k < t` keeping 0.1%, 1%, 10% and 90% of the rows, k uniformly random (survivors
//     scattered: no page is free of them at >= 0.1%);
//   BM_ScanClustered: the same filter on a second file whose k follows the row order with a
//     random jitter of 2% of its range (as after a LocalSort on a correlated column), so the
//     survivors sit in a few pages;
//   BM_ScanPoint: `k = c` on the random file (a point filter on a high-cardinality column,
//     about 2 rows).
// Each benchmark reports rows_out, bytes_read, pages_read and pages_skipped of the scan;
// compare the prewhere:1 and prewhere:0 medians of the same run.
//
//   prewhere_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Set SHOAL_PREWHERE_BENCH_ROWS to change the row count (default 10,000,000).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "parquet/file_writer.h"
#include "scan/file_set_scan.h"

namespace shoal::scan {
namespace {

int64_t Rows() {
  const char* env = std::getenv("SHOAL_PREWHERE_BENCH_ROWS");
  return env ? std::atoll(env) : 10'000'000;
}

constexpr int64_t kKeyRange = 1'000'000;

enum class Layout { kRandom, kClustered };

struct Fixture {
  std::string dir;
  std::string path;
  std::shared_ptr<TableSchema> table;
};

Fixture* MakeFixture(Layout layout) {
  auto* fx = new Fixture();
  fx->dir =
      (std::filesystem::temp_directory_path() / ("shoal_prewhere_bench_" + std::to_string(Rows())))
          .string();
  std::filesystem::create_directories(fx->dir);
  fx->path = fx->dir + (layout == Layout::kRandom ? "/data.parquet" : "/clustered.parquet");
  columnar::Schema schema;
  schema.fields = {{"k", columnar::Int64(), true},    {"v1", columnar::Int64(), true},
                   {"v2", columnar::Int32(), true},   {"v3", columnar::Float64(), true},
                   {"v4", columnar::Float64(), true}, {"s1", columnar::String(), true},
                   {"s2", columnar::String(), true},  {"v5", columnar::Int64(), true}};
  fx->table = std::make_shared<TableSchema>();
  for (const auto& fld : schema.fields) {
    fx->table->schema.fields.push_back(fld);
    fx->table->columns.push_back(ColumnForType(fld.name, fld.type, true));
  }
  if (std::filesystem::exists(fx->path)) return fx;
  auto w = parquet::ParquetWriter::Open(io::LocalFileSystem(), fx->path + ".tmp", schema,
                                        parquet::WriterProperties::Defaults());
  if (!w.ok()) std::abort();
  std::mt19937_64 rng(1);
  const int64_t rows = Rows(), chunk = 1 << 16;
  auto sp = std::make_shared<columnar::Schema>(schema);
  for (int64_t at = 0; at < rows; at += chunk) {
    int64_t n = std::min(chunk, rows - at);
    std::vector<columnar::VectorPtr> cols;
    for (const auto& fld : schema.fields) cols.push_back(columnar::Vector::Make(fld.type, n));
    for (int64_t i = 0; i < n; ++i) {
      int64_t key = static_cast<int64_t>(rng() % kKeyRange);
      if (layout == Layout::kClustered) {
        constexpr int64_t kJitter = kKeyRange / 50;
        key = (at + i) * kKeyRange / rows + static_cast<int64_t>(rng() % kJitter) - kJitter / 2;
      }
      cols[0]->Append<int64_t>(key);
      cols[1]->Append<int64_t>(static_cast<int64_t>(rng()));
      cols[2]->Append<int32_t>(static_cast<int32_t>(rng() % 100000));
      cols[3]->Append<double>(static_cast<double>(rng() % 1000000) / 7.0);
      cols[4]->Append<double>(static_cast<double>(at + i) * 0.5);
      cols[5]->AppendString("category_" + std::to_string(rng() % 50));
      cols[6]->AppendString("user-" + std::to_string(rng() % 10000000) + "@example.com");
      cols[7]->Append<int64_t>(at + i);
    }
    if (!(*w)->WriteBatch(columnar::RecordBatch(sp, cols, n)).ok()) std::abort();
  }
  if (!(*w)->Close().ok()) std::abort();
  std::filesystem::rename(fx->path + ".tmp", fx->path);
  return fx;
}

Fixture& GetFixture(Layout layout) {
  static Fixture* random = MakeFixture(Layout::kRandom);
  if (layout == Layout::kRandom) return *random;
  static Fixture* clustered = MakeFixture(Layout::kClustered);
  return *clustered;
}

// Scans every column of `fx` with `filter`, Prewhere on (auto) or off.
void RunScan(benchmark::State& state, const Fixture& fx, const expr::ExprPtr& filter, bool on) {
  ScanMetrics last;
  int64_t rows_out = 0;
  for (auto _ : state) {
    FileSetScanSpec spec;
    spec.fs = io::LocalFileSystem();
    spec.table = fx.table;
    spec.columns = {0, 1, 2, 3, 4, 5, 6, 7};
    spec.filters = {filter};
    spec.prewhere = on ? FileSetScanSpec::Prewhere::kAuto : FileSetScanSpec::Prewhere::kOff;
    spec.prune.page_index = false;  // measure the read path, not the page index
    FileTask task;
    task.path = fx.path;
    task.id = 0;
    FileSetScan scan(spec, {task});
    auto local = scan.MakeLocal();
    rows_out = 0;
    while (true) {
      columnar::BatchPtr b;
      uint64_t order;
      auto r = scan.Next(local.get(), &b, &order);
      if (!r.ok()) {
        state.SkipWithError(r.status().ToString().c_str());
        return;
      }
      if (!*r) break;
      rows_out += b->num_rows;
      benchmark::DoNotOptimize(b);
    }
    last = scan.metrics();
  }
  state.counters["rows_out"] = static_cast<double>(rows_out);
  state.counters["bytes_read"] = static_cast<double>(last.bytes_read);
  state.counters["pages_read"] = static_cast<double>(last.pages_read);
  state.counters["pages_skipped"] = static_cast<double>(last.pages_skipped_prewhere);
  state.counters["prewhere_filtered"] = static_cast<double>(last.rows_prewhere_filtered);
}

expr::ExprPtr KeyFilter(const char* op, int64_t value) {
  expr::ExprPtr k = expr::ColumnRef(0, columnar::Int64(), "k");
  auto filter = expr::Call(op, {k, expr::Literal(columnar::Value::Int64(value))});
  if (!filter.ok()) std::abort();
  return *filter;
}

// range(0): kept rows in units of 0.1%; range(1): 1 = Prewhere on (auto), 0 = off.
void BM_Scan(benchmark::State& state) {
  RunScan(state, GetFixture(Layout::kRandom), KeyFilter("<", kKeyRange * state.range(0) / 1000),
          state.range(1) != 0);
}

void BM_ScanClustered(benchmark::State& state) {
  RunScan(state, GetFixture(Layout::kClustered), KeyFilter("<", kKeyRange * state.range(0) / 1000),
          state.range(1) != 0);
}

// range(0): 1 = Prewhere on (auto), 0 = off.
void BM_ScanPoint(benchmark::State& state) {
  RunScan(state, GetFixture(Layout::kRandom), KeyFilter("=", 4242), state.range(0) != 0);
}

BENCHMARK(BM_Scan)
    ->ArgsProduct({{1, 10, 100, 900}, {0, 1}})
    ->ArgNames({"keep_permille", "prewhere"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(BM_ScanClustered)
    ->ArgsProduct({{1, 10}, {0, 1}})
    ->ArgNames({"keep_permille", "prewhere"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(BM_ScanPoint)
    ->ArgNames({"prewhere"})
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace shoal::scan
