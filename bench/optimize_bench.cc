// OPTIMIZE throughput: builds a Delta table of N small files (default 100 x 100k rows of
// id BIGINT, a BIGINT, b DOUBLE, s STRING), then times, median of R runs each:
//   scan      reading every live row once (the baseline the others are compared against)
//   optimize  bin-packing into delta.targetFileSize files (read + write, staged, not committed)
//   zorder    OPTIMIZE ZORDER BY (a, b)
// Outputs of each run are deleted again, so every run starts from the same small files.
//
//   bench_optimize_bench [dir] [files] [rows_per_file] [runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "delta/table_path.h"
#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "table/data_file_writer.h"
#include "table/live_rows_reader.h"
#include "table/optimize.h"
#include "table/table_creator.h"
#include "txn/transaction.h"

using namespace shoal;

namespace {

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

Status BuildTable(const std::shared_ptr<io::FileSystem>& fs, const std::string& root, int files, int64_t rows) {
  columnar::Schema schema;
  schema.fields = {{"id", columnar::Int64(), true},
                   {"a", columnar::Int64(), true},
                   {"b", columnar::Float64(), true},
                   {"s", columnar::String(), true}};
  RETURN_NOT_OK(table::CreateTable(fs, root, "bench", schema, {}, {}).status());
  std::mt19937_64 rng(1);
  for (int f = 0; f < files; ++f) {
    ASSIGN_OR_RETURN(auto snap, delta::Snapshot::Load(fs, root));
    table::DataFileWriterOptions o;
    o.target_file_size = int64_t{1} << 40;
    ASSIGN_OR_RETURN(auto writer, table::DataFileWriter::Make(fs, root, snap->metadata(), o));
    auto bs = std::make_shared<columnar::Schema>(schema);
    std::vector<columnar::VectorPtr> cols;
    for (const auto& field : schema.fields) cols.push_back(columnar::Vector::Make(field.type, rows));
    for (int64_t i = 0; i < rows; ++i) {
      cols[0]->Append<int64_t>(f * rows + i);
      cols[1]->Append<int64_t>(static_cast<int64_t>(rng() % 1000000));
      cols[2]->Append<double>(static_cast<double>(rng() % 1000000) / 7.0);
      cols[3]->AppendString(std::string("v").append(std::to_string(rng() % 10000)));
    }
    RETURN_NOT_OK(writer->Write(columnar::RecordBatch(bs, cols, rows)));
    ASSIGN_OR_RETURN(auto adds, writer->Finish());
    ASSIGN_OR_RETURN(auto t, txn::Transaction::Begin(fs, root, snap));
    for (auto& a : adds) t->AddFile(a);
    RETURN_NOT_OK(t->Commit().status());
  }
  return Status::OK();
}

struct Row {
  const char* name;
  double median_ms;
  int64_t rows;
  int64_t files_in;
  int64_t files_out;
};

Result<double> TimeScan(const std::shared_ptr<io::FileSystem>& fs, const scan::DeltaTable& table, int64_t* rows) {
  double t0 = NowMs();
  *rows = 0;
  RETURN_NOT_OK(table::ReadLiveRows(fs, table.snapshot()->table_root(), table.schema(), table.snapshot()->files(),
                                    [&](size_t, const columnar::RecordBatch& b) {
                                      *rows += b.num_rows;
                                      return Status::OK();
                                    }));
  return NowMs() - t0;
}

Result<double> TimeOptimize(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                            const scan::DeltaTable& table, const table::OptimizeOptions& o, Row* row) {
  ASSIGN_OR_RETURN(auto t, txn::Transaction::Begin(fs, root, table.snapshot()));
  double t0 = NowMs();
  ASSIGN_OR_RETURN(table::OptimizeResult r, table::OptimizeTable(table, t.get(), o));
  double ms = NowMs() - t0;
  row->rows = r.metrics.num_rows;
  row->files_in = r.metrics.num_files_removed;
  row->files_out = r.metrics.num_files_added;
  for (const auto& a : r.added) {
    ASSIGN_OR_RETURN(std::string full, delta::ResolveTablePath(root, a.path));
    (void)fs->Delete(full);
  }
  return ms;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : "/tmp/shoal_optimize_bench";
  int files = argc > 2 ? std::atoi(argv[2]) : 100;
  int64_t rows = argc > 3 ? std::atoll(argv[3]) : 100000;
  int runs = argc > 4 ? std::atoi(argv[4]) : 3;
  auto fs = io::LocalFileSystem();
  std::string root = dir + "/table";
  (void)fs->DeleteRecursive(dir);
  double t0 = NowMs();
  Status st = BuildTable(fs, root, files, rows);
  if (!st.ok()) return Fail(st);
  std::fprintf(stderr, "built %d files x %lld rows in %.0f ms\n", files, static_cast<long long>(rows), NowMs() - t0);
  auto table = scan::DeltaTable::Open(fs, root);
  if (!table.ok()) return Fail(table.status());
  int64_t bytes = 0;
  for (const auto& f : (*table)->snapshot()->files()) bytes += f.size;

  std::vector<Row> report;
  {
    std::vector<double> t;
    int64_t n = 0;
    for (int r = 0; r < runs; ++r) {
      auto ms = TimeScan(fs, **table, &n);
      if (!ms.ok()) return Fail(ms.status());
      t.push_back(*ms);
    }
    report.push_back({"scan", Median(t), n, files, 0});
  }
  for (bool zorder : {false, true}) {
    table::OptimizeOptions o;
    if (zorder) o.zorder_by = {"a", "b"};
    Row row{zorder ? "zorder(a,b)" : "optimize", 0, 0, 0, 0};
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
      auto ms = TimeOptimize(fs, root, **table, o, &row);
      if (!ms.ok()) return Fail(ms.status());
      t.push_back(*ms);
    }
    row.median_ms = Median(t);
    report.push_back(row);
  }
  double mb = static_cast<double>(bytes) / (1 << 20);
  std::printf("input: %d files, %.1f MiB, %lld rows; median of %d runs\n", files, mb,
              static_cast<long long>(files * rows), runs);
  std::printf("%-12s %8s %8s %10s %12s %9s %9s\n", "operation", "files", "out", "ms", "Mrows/s", "MiB/s", "x scan");
  double scan_ms = report[0].median_ms;
  for (const Row& r : report) {
    std::printf("%-12s %8lld %8lld %10.1f %12.2f %9.1f %9.2f\n", r.name, static_cast<long long>(r.files_in),
                static_cast<long long>(r.files_out), r.median_ms, r.rows / r.median_ms / 1000.0,
                mb / (r.median_ms / 1000.0), r.median_ms / scan_ms);
  }
  (void)fs->DeleteRecursive(dir);
  return 0;
}
