// Driver for bench/parquet_vs_duckdb.sh: times shoal reading a whole Parquet file and writing
// rows back out, printing "median_ms=<x> min_ms=<y>" to stderr like duckq.mjs --repeat.
//
//   bench_parquet_rw read <file> [runs]            decode every column of every row group
//   bench_parquet_rw write <in> <out> [runs]       read <in> (untimed), time writing it to <out>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

using namespace shoal;

namespace {

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Report(std::vector<double> t, const char* what, int64_t rows) {
  std::sort(t.begin(), t.end());
  std::fprintf(stderr, "median_ms=%.3f min_ms=%.3f\n", t[t.size() / 2], t[0]);
  std::printf("%s rows=%lld median_ms=%.3f\n", what, static_cast<long long>(rows), t[t.size() / 2]);
}

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s read <file> [runs] | write <in> <out> [runs]\n", argv[0]);
    return 2;
  }
  auto fs = io::LocalFileSystem();
  std::string mode = argv[1];
  if (mode == "read") {
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    std::vector<double> times;
    int64_t rows = 0;
    for (int r = 0; r < runs; ++r) {
      double t0 = NowMs();
      auto reader = parquet::ParquetReader::Open(fs, argv[2]);
      if (!reader.ok()) return Fail(reader.status());
      auto batches = (*reader)->ReadAll();
      if (!batches.ok()) return Fail(batches.status());
      times.push_back(NowMs() - t0);
      rows = 0;
      for (const auto& b : *batches) rows += b->num_rows;
    }
    Report(times, "shoal_read", rows);
    return 0;
  }
  if (mode == "write" && argc >= 4) {
    int runs = argc > 4 ? std::atoi(argv[4]) : 3;
    auto reader = parquet::ParquetReader::Open(fs, argv[2]);
    if (!reader.ok()) return Fail(reader.status());
    auto batches = (*reader)->ReadAll();
    if (!batches.ok()) return Fail(batches.status());
    int64_t rows = 0;
    for (const auto& b : *batches) rows += b->num_rows;
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
      double t0 = NowMs();
      auto w = parquet::ParquetWriter::Open(fs, argv[3], *(*reader)->schema());
      if (!w.ok()) return Fail(w.status());
      for (const auto& b : *batches) {
        Status st = (*w)->WriteBatch(*b);
        if (!st.ok()) return Fail(st);
      }
      auto meta = (*w)->Close();
      if (!meta.ok()) return Fail(meta.status());
      times.push_back(NowMs() - t0);
    }
    Report(times, "shoal_write", rows);
    return 0;
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
