// LocalSort benchmark: writes a lineitem-like table (ints, decimals as int64, dates, a
// low-cardinality and a high-cardinality string) three ways — unsorted, sorted by
// (l_shipmode, l_shipdate), z-ordered by the same columns — and prints, against the unsorted
// baseline of the same run: write time (median of N), total file size, and how many row groups
// a point filter must read (their [min, max] contains the value) for l_shipdate = d and for
// l_shipmode = m AND l_shipdate = d, averaged over probe values; then each column's compressed
// bytes per layout, so one sees which columns sorting shrinks (the sort columns, and any column
// correlated with them) and which it cannot (columns independent of the sort key).
//
//   bench_local_sort_bench [rows=10000000] [reps=3] [dir=/tmp/shoal_local_sort_bench]
//                          [layouts=unsorted,sorted,zorder; also sorted_write]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "delta/table_path.h"
#include "parquet/file_reader.h"
#include "table/data_file_writer.h"
#include "table/table_creator.h"

using namespace shoal;
namespace c = shoal::columnar;

namespace {

const char* kModes[] = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};

c::Schema LineitemSchema() {
  c::Schema s;
  s.fields = {{"l_orderkey", c::Int64(), false},     {"l_partkey", c::Int64(), false},
              {"l_quantity", c::Decimal(12, 2), false}, {"l_extendedprice", c::Decimal(12, 2), false},
              {"l_discount", c::Decimal(12, 2), false}, {"l_shipdate", c::Date(), false},
              {"l_shipmode", c::String(), false},     {"l_comment", c::String(), false}};
  return s;
}

// Rows [start, start+n) of the generated table (deterministic per row range).
c::RecordBatch Generate(int64_t start, int64_t n, const c::SchemaPtr& schema) {
  std::mt19937_64 rng(static_cast<uint64_t>(start) * 0x9E3779B97F4A7C15ull + 1);
  std::vector<c::VectorPtr> cols;
  for (const auto& f : schema->fields) cols.push_back(c::Vector::Make(f.type, n));
  static const char* kWords[] = {"carefully", "final", "deposits", "sleep", "quickly", "ironic", "packages",
                                 "boost",     "furious", "requests", "blithely", "regular", "accounts", "haggle"};
  std::string comment;
  for (int64_t i = 0; i < n; ++i) {
    int64_t row = start + i;
    cols[0]->Append<int64_t>(row / 4 * 32 + static_cast<int64_t>(rng() % 8));
    cols[1]->Append<int64_t>(static_cast<int64_t>(rng() % 2000000));
    int64_t qty = 1 + static_cast<int64_t>(rng() % 50);
    cols[2]->Append<int64_t>(qty * 100);
    cols[3]->Append<int64_t>(qty * (90000 + static_cast<int64_t>(rng() % 11000000)) / 100);
    cols[4]->Append<int64_t>(static_cast<int64_t>(rng() % 11));
    cols[5]->Append<int32_t>(8035 + static_cast<int32_t>(rng() % 2526));  // 1992-01-02 .. 1998-12-01
    cols[6]->AppendString(kModes[rng() % 7]);
    comment.clear();
    int words = 2 + static_cast<int>(rng() % 5);
    for (int w = 0; w < words; ++w) {
      if (w) comment.push_back(' ');
      comment += kWords[rng() % 14];
    }
    cols[7]->AppendString(comment);
  }
  return c::RecordBatch(schema, std::move(cols), n);
}

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of the process (every thread) and of the calling thread: the write's CPU is the
// process's minus the generator's, the figure to compare on a loaded machine.
double ClockMs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
double CpuMs() { return ClockMs(CLOCK_PROCESS_CPUTIME_ID); }
double ThreadCpuMs() { return ClockMs(CLOCK_THREAD_CPUTIME_ID); }

struct Result1 {
  double ms = 0;
  double cpu_ms = 0;
  double e2e_ms = 0;  // generating the rows and writing them (a sorted write works beside the producer)
  int64_t bytes = 0;
  int64_t row_groups = 0;
  double rg_date = 0;       // row groups that can match l_shipdate = d (mean over probes)
  double rg_mode_date = 0;  // ... l_shipmode = m AND l_shipdate = d
  int64_t peak = 0;
  int runs = 0;
  std::vector<int64_t> column_bytes;  // compressed bytes per leaf column, all files
};

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

Status RunOnce(const std::string& root, const std::map<std::string, std::string>& props, int64_t rows,
               Result1* out) {
  auto fs = io::LocalFileSystem();
  (void)fs->DeleteRecursive(root);
  auto schema = std::make_shared<c::Schema>(LineitemSchema());
  ASSIGN_OR_RETURN(auto created, table::CreateTable(fs, root, "lineitem", *schema, {}, props));
  delta::Metadata meta;
  for (const auto& a : created) {
    if (auto* m = std::get_if<delta::Metadata>(&a)) meta = *m;
  }
  ASSIGN_OR_RETURN(auto writer, table::DataFileWriter::Make(fs, root, meta));
  double ms = 0, gen_cpu = 0;
  const double e2e_start = NowMs(), cpu_start = CpuMs();
  const int64_t batch = 100000;
  for (int64_t pos = 0; pos < rows; pos += batch) {
    const double g0 = ThreadCpuMs();
    c::RecordBatch b = Generate(pos, std::min(batch, rows - pos), schema);
    gen_cpu += ThreadCpuMs() - g0;
    double t0 = NowMs();
    RETURN_NOT_OK(writer->Write(b));
    ms += NowMs() - t0;
  }
  double t0 = NowMs();
  ASSIGN_OR_RETURN(auto adds, writer->Finish());
  ms += NowMs() - t0;
  out->e2e_ms = NowMs() - e2e_start;
  out->ms = ms;
  // Every thread's CPU but the generator's: a sorted write's worker sorts while rows are
  // generated, outside the writer's calls.
  out->cpu_ms = CpuMs() - cpu_start - gen_cpu;
  out->peak = writer->local_sort_peak_memory_bytes();
  out->runs = writer->local_sort_runs_spilled();
  out->bytes = 0;
  for (const auto& a : adds) out->bytes += a.size;
  // Row groups a point filter can match, from the footers' statistics.
  std::vector<int32_t> dates;
  for (int k = 0; k < 16; ++k) dates.push_back(8035 + k * 157);
  int64_t rg = 0, hit_date = 0, hit_both = 0;
  for (const auto& a : adds) {
    ASSIGN_OR_RETURN(std::string path, delta::ResolveTablePath(root, a.path));
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      ++rg;
      const auto& cols = reader->metadata().row_groups[g].columns;
      out->column_bytes.resize(std::max(out->column_bytes.size(), cols.size()));
      for (size_t c = 0; c < cols.size(); ++c) {
        if (cols[c].meta_data) out->column_bytes[c] += cols[c].meta_data->total_compressed_size;
      }
      const parquet::Statistics* ds = reader->column_statistics(g, 5);
      const parquet::Statistics* ms_ = reader->column_statistics(g, 6);
      if (!ds || !ds->min_value || !ds->max_value || !ms_ || !ms_->min_value || !ms_->max_value) {
        hit_date += static_cast<int64_t>(dates.size());
        hit_both += static_cast<int64_t>(dates.size());
        continue;
      }
      int32_t lo, hi;
      std::memcpy(&lo, ds->min_value->data(), 4);
      std::memcpy(&hi, ds->max_value->data(), 4);
      for (size_t k = 0; k < dates.size(); ++k) {
        bool d = lo <= dates[k] && dates[k] <= hi;
        std::string mode = kModes[k % 7];
        bool m = *ms_->min_value <= mode && mode <= *ms_->max_value;
        hit_date += d;
        hit_both += d && m;
      }
    }
  }
  out->row_groups = rg;
  out->rg_date = static_cast<double>(hit_date) / static_cast<double>(dates.size());
  out->rg_mode_date = static_cast<double>(hit_both) / static_cast<double>(dates.size());
  (void)fs->DeleteRecursive(root);
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  int64_t rows = argc > 1 ? std::atoll(argv[1]) : 10000000;
  int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string dir = argc > 3 ? argv[3] : "/tmp/shoal_local_sort_bench";
  std::string layouts = argc > 4 ? argv[4] : "unsorted,sorted,zorder";
  struct Config {
    const char* key;
    const char* name;
    std::map<std::string, std::string> props;
  };
  std::vector<Config> all = {
      {"unsorted", "unsorted", {}},
      {"sorted", "sorted(l_shipmode,l_shipdate)", {{"shoal.localSort.columns", "l_shipmode,l_shipdate"}}},
      {"sorted_write",
       "sorted, scope=write",
       {{"shoal.localSort.columns", "l_shipmode,l_shipdate"}, {"shoal.localSort.scope", "write"}}},
      {"zorder",
       "zorder(l_shipmode,l_shipdate)",
       {{"shoal.localSort.columns", "l_shipmode,l_shipdate"}, {"shoal.localSort.mode", "zorder"}}},
  };
  std::vector<Config> configs;
  const std::string wanted = "," + layouts + ",";
  for (const auto& c : all) {
    std::string key = ",";
    key += c.key;
    key += ',';
    if (wanted.find(key) != std::string::npos) configs.push_back(c);
  }
  if (configs.empty()) {
    std::fprintf(stderr, "no layout selected by '%s' (unsorted, sorted, zorder)\n", layouts.c_str());
    return 2;
  }
  std::vector<Result1> median(configs.size());
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    std::vector<Result1> runs;
    for (int r = 0; r < reps; ++r) {
      Result1 res;
      Status st = RunOnce(dir + "/t", configs[ci].props, rows, &res);
      if (!st.ok()) return Fail(st);
      runs.push_back(res);
    }
    std::sort(runs.begin(), runs.end(), [](const Result1& a, const Result1& b) { return a.cpu_ms < b.cpu_ms; });
    median[ci] = runs[runs.size() / 2];
  }
  const Result1& base = median[0];
  std::printf(
      "rows=%lld reps=%d (the run with the median CPU time; overhead: the write's CPU time on "
      "every thread, wall_over: wall time inside the "
      "writer's calls, e2e_over: wall time of generating and writing the rows, all against the "
      "first layout; a "
      "sorted write sorts each batch on a second thread as it arrives and gathers there too)\n",
      static_cast<long long>(rows), reps);
  std::printf("%-32s %10s %8s %9s %9s %8s %9s %12s %9s %6s %14s %16s %10s %5s\n", "config", "wall_ms", "cpu_ms",
              "overhead", "wall_over", "e2e_ms", "e2e_over", "bytes", "size", "rgs", "rgs(date=d)", "rgs(mode&date)",
              "peak_MiB", "runs");
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    const Result1& r = median[ci];
    std::printf(
        "%-32s %10.0f %8.0f %+8.1f%% %+8.1f%% %8.0f %+8.1f%% %12lld %+8.1f%% %6lld %14.1f %16.1f "
        "%10.1f %5d\n",
        configs[ci].name, r.ms, r.cpu_ms, 100.0 * (r.cpu_ms / base.cpu_ms - 1), 100.0 * (r.ms / base.ms - 1), r.e2e_ms,
        100.0 * (r.e2e_ms / base.e2e_ms - 1), static_cast<long long>(r.bytes),
        100.0 * (static_cast<double>(r.bytes) / static_cast<double>(base.bytes) - 1),
        static_cast<long long>(r.row_groups), r.rg_date, r.rg_mode_date, static_cast<double>(r.peak) / (1 << 20),
        r.runs);
  }
  // Compressed bytes per column, and the change against the first layout.
  auto schema = LineitemSchema();
  std::printf("\n%-18s", "column");
  for (const auto& c : configs) std::printf(" %14s %8s", c.key, "change");
  std::printf("\n");
  for (size_t col = 0; col < schema.fields.size(); ++col) {
    std::printf("%-18s", schema.fields[col].name.c_str());
    for (size_t ci = 0; ci < configs.size(); ++ci) {
      int64_t b = col < median[ci].column_bytes.size() ? median[ci].column_bytes[col] : 0;
      int64_t b0 = col < base.column_bytes.size() ? base.column_bytes[col] : 0;
      std::printf(" %14lld %+7.1f%%", static_cast<long long>(b),
                  b0 > 0 ? 100.0 * (static_cast<double>(b) / static_cast<double>(b0) - 1) : 0.0);
    }
    std::printf("\n");
  }
  return 0;
}
