// Overhead of DatabaseOptions::progress on a large scan (issue 31): builds a table of N rows
// (id BIGINT, a BIGINT, b DOUBLE) in F files, then runs a full-scan aggregate R times with no
// progress callback and R times with one (alternating, same process), and prints the median
// wall and CPU seconds of each and the ratio callback / none. The callback only counts calls.
//
//   bench_progress_bench [dir] [rows] [files] [runs]   (default /tmp/shoal_progress_bench 20000000 16 5)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cpu_seconds.h"
#include "shoal/database.h"

using namespace shoal;

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void Check(const Status& st, const std::string& what) {
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", what.c_str(), st.ToString().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/shoal_progress_bench";
  const int64_t rows = argc > 2 ? std::atoll(argv[2]) : 20000000;
  const int files = argc > 3 ? std::atoi(argv[3]) : 16;
  const int runs = argc > 4 ? std::atoi(argv[4]) : 5;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    auto db = Database::Open(dir, DatabaseOptions());
    Check(db.status(), "open");
    auto con = (*db)->Connect();
    const int64_t per = rows / files;
    for (int f = 0; f < files; ++f) {
      std::string range = "range(" + std::to_string(f * per) + ", " + std::to_string((f + 1) * per) + ")";
      std::string select = "SELECT id, id * 7 % 1000 AS a, CAST(id AS DOUBLE) / 3 AS b FROM " + range + " AS r(id)";
      Check(con->Query(f == 0 ? "CREATE TABLE t AS " + select : "INSERT INTO t " + select).status(), "load");
    }
  }
  const std::string query = "SELECT sum(a), count(*) FROM t WHERE b > 10";
  std::atomic<int64_t> calls{0};
  std::vector<double> wall[2], cpu[2];
  for (int r = 0; r < runs; ++r) {
    for (int with = 0; with < 2; ++with) {
      DatabaseOptions o;
      if (with) o.progress = [&calls](double, const std::string&) { calls.fetch_add(1); };
      auto db = Database::Open(dir, o);
      Check(db.status(), "open");
      auto con = (*db)->Connect();
      Check(con->Query(query).status(), "warm-up");
      double c0 = CpuSeconds();
      auto t0 = std::chrono::steady_clock::now();
      Check(con->Query(query).status(), "query");
      wall[with].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      cpu[with].push_back(CpuSeconds() - c0);
    }
  }
  std::printf("rows=%lld files=%d runs=%d\n", static_cast<long long>(rows), files, runs);
  std::printf("no callback:   wall %.3f s  cpu %.3f s (median)\n", Median(wall[0]), Median(cpu[0]));
  std::printf("with callback: wall %.3f s  cpu %.3f s (median), %lld calls in all\n", Median(wall[1]), Median(cpu[1]),
              static_cast<long long>(calls.load()));
  std::printf("ratio callback/none: wall %.3f  cpu %.3f\n", Median(wall[1]) / Median(wall[0]),
              Median(cpu[1]) / Median(cpu[0]));
  std::filesystem::remove_all(dir);
  return 0;
}
