// Timing runs of the brief's performance sanity queries; disabled by default (run with
// --gtest_also_run_disabled_tests on an optimized build).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal {
namespace {

double TimeQuery(Connection& con, const std::string& sql, std::string* first) {
  auto start = std::chrono::steady_clock::now();
  auto r = con.Query(sql);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (r.ok() && r->num_rows() > 0) *first = r->GetText(0, 0);
  return ms;
}

TEST(Performance, DISABLED_SanityQueries) {
  testing::TempDir dir;
  const char* queries[] = {
      "SELECT sum(i) FROM range(100000000) AS r(i) WHERE i % 3 = 0",
      "SELECT i % 1000 AS g, count(*), sum(i) FROM range(10000000) AS r(i) GROUP BY g",
      "SELECT count(*) FROM range(10000000) AS a(i) JOIN range(1000000) AS b(j) ON i = j",
      "SELECT i FROM range(10000000) AS r(i) ORDER BY i % 1000, i DESC LIMIT 10",
      "SELECT count(*) FROM (SELECT i FROM range(5000000) AS r(i) ORDER BY i % 1000, i DESC) AS s",
  };
  for (int threads : {1, 2}) {
    DatabaseOptions o;
    o.threads = threads;
    auto db = Database::Open(dir.path(), o).ValueOrDie();
    auto con = db->Connect();
    for (const char* q : queries) {
      std::string first;
      double best = 1e30;
      for (int rep = 0; rep < 3; ++rep) best = std::min(best, TimeQuery(*con, q, &first));
      std::printf("threads=%d  %8.1f ms  %s  -> %s\n", threads, best, q, first.c_str());
    }
  }
}

}  // namespace
}  // namespace shoal
