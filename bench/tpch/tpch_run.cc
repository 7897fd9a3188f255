// bench_tpch_run: runs TPC-H query files in shoal and compares answers (bench/tpch/run.sh).
//
//   bench_tpch_run run --warehouse DIR [--threads N] [--repeat R] [--timeout-s S] [--out DIR] q01.sql ...
//       opens the warehouse once; per query file: one untimed warm-up run, then R timed runs
//       (all of the file's statements); prints "<query> median_ms=<x> min_ms=<y>",
//       "<query> error=<ErrorName>: <message>" or "<query> timeout=<S>" (a run past S seconds
//       is interrupted); --out writes <DIR>/<query>.shoal.txt (answer.h)
//   bench_tpch_run compare QUERY.sql SHOAL.txt DUCKDB.txt
//       prints "ok" (exit 0) or "MISMATCH <how>" (exit 1)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shoal/database.h"
#include "tpch/answer.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string QueryName(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sql") == 0) name.resize(name.size() - 4);
  return name;
}

int Run(int argc, char** argv) {
  std::string warehouse, out;
  int threads = 2, repeat = 3;
  double timeout_s = 0;
  std::vector<std::string> files, settings;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--warehouse" && has_value) warehouse = argv[++i];
    else if (a == "--threads" && has_value) threads = std::atoi(argv[++i]);
    else if (a == "--repeat" && has_value) repeat = std::atoi(argv[++i]);
    else if (a == "--out" && has_value) out = argv[++i];
    else if (a == "--timeout-s" && has_value) timeout_s = std::atof(argv[++i]);
    else if (a == "--set" && has_value) settings.push_back(argv[++i]);
    else files.push_back(a);
  }
  if (warehouse.empty() || files.empty()) {
    std::fprintf(stderr, "usage: %s run --warehouse DIR [--threads N] [--repeat R] [--out DIR] [--set KEY=VALUE]... q.sql ...\n", argv[0]);
    return 2;
  }
  shoal::DatabaseOptions options;
  options.threads = threads;
  auto db = shoal::Database::Open(warehouse, options);
  if (!db.ok()) {
    std::fprintf(stderr, "%s\n", db.status().ToString().c_str());
    return 1;
  }
  auto con = (*db)->Connect();
  for (const std::string& s : settings) {  // e.g. shoal.coded_strings=off, to compare with a feature off
    const size_t eq = s.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "--set %s: expected KEY=VALUE\n", s.c_str());
      return 2;
    }
    auto r = con->Query("SET " + s.substr(0, eq) + " = '" + s.substr(eq + 1) + "'");
    if (!r.ok()) {
      std::fprintf(stderr, "--set %s: %s\n", s.c_str(), r.status().ToString().c_str());
      return 1;
    }
  }
  for (const std::string& f : files) {
    const std::string sql = ReadFile(f), name = QueryName(f);
    bool timed_out = false;
    auto answer = shoal::tpch::RunQueryText(*con, sql, timeout_s, &timed_out);
    std::vector<double> ms;
    for (int r = 0; answer.ok() && r < repeat; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      answer = shoal::tpch::RunQueryText(*con, sql, timeout_s, &timed_out);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    if (timed_out) {
      std::printf("%s timeout=%g\n", name.c_str(), timeout_s);
      std::fflush(stdout);
      continue;
    }
    if (!answer.ok()) {
      std::string msg = answer.status().ToString();
      std::replace(msg.begin(), msg.end(), '\n', ' ');
      std::printf("%s error=%s\n", name.c_str(), msg.c_str());
      std::fflush(stdout);
      continue;
    }
    if (!out.empty()) std::ofstream(out + "/" + name + ".shoal.txt") << shoal::tpch::FormatAnswer(*answer);
    std::sort(ms.begin(), ms.end());
    std::printf("%s median_ms=%.3f min_ms=%.3f\n", name.c_str(), ms.empty() ? 0.0 : ms[ms.size() / 2],
                ms.empty() ? 0.0 : ms[0]);
    std::fflush(stdout);
  }
  return 0;
}

int Compare(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s compare QUERY.sql SHOAL.txt DUCKDB.txt\n", argv[0]);
    return 2;
  }
  auto got = shoal::tpch::ParseAnswer(ReadFile(argv[3]));
  auto want = shoal::tpch::ParseAnswer(ReadFile(argv[4]));
  if (!got.ok() || !want.ok()) {
    std::printf("MISMATCH unreadable answer: %s\n", (!got.ok() ? got : want).status().ToString().c_str());
    return 1;
  }
  std::string why;
  if (!shoal::tpch::SameAnswer(*got, *want, ReadFile(argv[2]), &why)) {
    std::printf("MISMATCH %s\n", why.c_str());
    return 1;
  }
  std::printf("ok\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "run")) return Run(argc, argv);
  if (argc >= 2 && !std::strcmp(argv[1], "compare")) return Compare(argc, argv);
  std::fprintf(stderr, "usage: %s run|compare ...\n", argv[0]);
  return 2;
}
