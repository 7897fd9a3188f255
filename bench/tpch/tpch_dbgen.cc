// bench_tpch_dbgen: writes the TPC-H tables as Parquet (bench/tpch/dbgen.h, doc/tpch.md).
//
//   bench_tpch_dbgen --sf 1 --out build/tpch/sf1 [--tables lineitem,orders] [--rows-per-file N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tpch/dbgen.h"

int main(int argc, char** argv) {
  shoal::tpch::DbgenOptions o;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v) {
      std::fprintf(stderr, "usage: %s --sf SF --out DIR [--tables t1,t2] [--rows-per-file N]\n", argv[0]);
      return 2;
    }
    if (!std::strcmp(a, "--sf")) o.scale_factor = std::atof(v);
    else if (!std::strcmp(a, "--out")) o.out_dir = v;
    else if (!std::strcmp(a, "--rows-per-file")) o.max_rows_per_file = std::atoll(v);
    else if (!std::strcmp(a, "--tables")) {
      std::string s = v;
      for (size_t from = 0; from <= s.size();) {
        size_t to = s.find(',', from);
        if (to == std::string::npos) to = s.size();
        if (to > from) o.tables.push_back(s.substr(from, to - from));
        from = to + 1;
      }
    } else {
      std::fprintf(stderr, "unknown option %s\n", a);
      return 2;
    }
    ++i;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto rows = shoal::tpch::GenerateTpch(o);
  if (!rows.ok()) {
    std::fprintf(stderr, "%s\n", rows.status().ToString().c_str());
    return 1;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& [table, n] : *rows) std::printf("%-9s %12lld rows\n", table.c_str(), static_cast<long long>(n));
  std::printf("generated SF %g into %s in %.1f s\n", o.scale_factor, o.out_dir.c_str(), s);
  return 0;
}
