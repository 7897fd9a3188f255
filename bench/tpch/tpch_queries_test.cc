// The 22 TPC-H queries (bench/tpch/queries, as the specification prints them) over generated
// data at a small scale factor: shoal's answer must be DuckDB's on the same Parquet files.
// Queries shoal cannot run yet are listed in kKnownGaps with the named error they fail with;
// the test fails if one of them starts passing (remove it from the list) or fails otherwise.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "shoal/database.h"
#include "support/testdata.h"
#include "tpch/answer.h"
#include "tpch/dbgen.h"

namespace shoal::tpch {
namespace {

constexpr double kSf = 0.01;
// A query still running after this long is interrupted (InterruptException).
constexpr double kQueryBudgetSeconds = 60;

// Queries shoal does not run yet, and the error each fails with today (issue 23).
const std::map<std::string, std::string> kKnownGaps = {
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TpchQueries, AnswersMatchDuckDbExceptTheKnownGaps) {
  const std::string duck = testing::DuckDbCommand();
  if (duck.empty()) {
    const char* ci = std::getenv("CI");
    if (ci && std::string(ci) == "true") FAIL() << "DuckDB not installed (build/duckdb), required in CI";
    GTEST_SKIP() << "DuckDB not installed (build/duckdb; scripts/install-deps.sh): no oracle for the TPC-H answers";
  }
  // "node <dir>/duckq.mjs" -> <dir>, where tools/duckdb/tpch.mjs finds @duckdb/node-api.
  const std::string duck_dir = duck.substr(5, duck.rfind('/') - 5);
  const std::string queries = testing::SourceDir() + "/bench/tpch/queries";

  testing::TempDir dir;
  DbgenOptions o;
  o.scale_factor = kSf;
  o.out_dir = dir.Join("data");
  auto generated = GenerateTpch(o);
  ASSERT_TRUE(generated.ok()) << generated.status().ToString();

  DatabaseOptions options;
  options.threads = 2;
  auto db = Database::Open(dir.Join("warehouse"), options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto con = (*db)->Connect();
  for (const auto& t : TableNames()) {
    auto r = con->Query("CREATE TABLE " + t + " AS SELECT * FROM read_parquet('" + o.out_dir + "/" + t + "/*.parquet')");
    ASSERT_TRUE(r.ok()) << t << ": " << r.status().ToString();
  }

  std::vector<std::string> files;
  for (int q = 1; q <= 22; ++q) files.push_back(queries + "/q" + (q < 10 ? "0" : "") + std::to_string(q) + ".sql");
  std::filesystem::create_directories(dir.Join("duckdb"));
  std::string cmd = "node " + testing::SourceDir() + "/tools/duckdb/tpch.mjs --duckdb-dir " + duck_dir +
                    " --threads 2 --data " + o.out_dir + " --out " + dir.Join("duckdb");
  for (const auto& f : files) cmd += " " + f;
  std::string duck_log;
  ASSERT_EQ(testing::RunCommand(cmd, &duck_log), 0) << cmd << "\n" << duck_log;

  int passed = 0;
  for (const auto& f : files) {
    const std::string name = std::filesystem::path(f).stem().string();
    SCOPED_TRACE(name);
    const std::string sql = ReadFile(f);
    auto want = ParseAnswer(ReadFile(dir.Join("duckdb") + "/" + name + ".duckdb.txt"));
    ASSERT_TRUE(want.ok()) << "DuckDB did not answer " << name << ": " << duck_log;
    const auto t0 = std::chrono::steady_clock::now();
    bool timed_out = false;
    Result<Answer> got = RunQueryText(*con, sql, kQueryBudgetSeconds, &timed_out);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto gap = kKnownGaps.find(name);
    std::string why;
    const bool same = got.ok() && SameAnswer(*got, *want, sql, &why);
    if (gap != kKnownGaps.end()) {
      if (got.ok()) {
        ADD_FAILURE() << name << " is in kKnownGaps but now runs (" << (same ? "matching DuckDB" : "MISMATCH: " + why)
                      << "): remove it from kKnownGaps in " << __FILE__;
      } else if (got.status().ErrorName() != gap->second) {
        ADD_FAILURE() << name << " is a known gap expected to fail with " << gap->second << ", but failed with "
                      << got.status().ToString();
      } else {
        std::printf("%s known gap: %s\n", name.c_str(), got.status().ToString().substr(0, 160).c_str());
      }
      continue;
    }
    if (!got.ok()) {
      ADD_FAILURE() << name << (timed_out ? " timed out: " : " failed: ") << got.status().ToString();
      continue;
    }
    if (!same) {
      ADD_FAILURE() << name << " MISMATCH against DuckDB: " << why;
      continue;
    }
    ++passed;
    std::printf("%s ok (%zu rows, %.0f ms)\n", name.c_str(), got->rows.size(), ms);
  }
  std::printf("%d of 22 queries match DuckDB at SF %g; known gaps: %zu\n", passed, kSf, kKnownGaps.size());
}

}  // namespace
}  // namespace shoal::tpch
