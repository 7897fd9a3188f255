// Randomized differential test of window functions, QUALIFY and grouping sets against DuckDB:
// small generated tables (NULLs, duplicates, ties) and generated queries (random partitions,
// orders, frames and functions; ROLLUP / CUBE / GROUPING SETS with grouping()), answers compared
// as multisets with doubles to 1e-9 relative. Orders that decide a row's value (row_number,
// ROWS frames, lag, first_value, ...) end with the unique id, so every answer is deterministic.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

class WindowRandomTest : public ::testing::Test {
 protected:
  std::mt19937_64 rng_;
  int64_t Uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Uniform(0, static_cast<int64_t>(v.size()) - 1))];
  }

  // Rows (id, g, h, v): id unique (a permutation modulo the prime 10007, n < 10007) in shuffled
  // order, g in 0..3, h in a..c, v in 0..9, each nullable.
  std::string RandomValues(int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
      auto num = [&](int hi) { return Chance(0.15) ? std::string("NULL") : std::to_string(Uniform(0, hi)); };
      std::string h = "NULL";
      if (!Chance(0.15)) {
        h = "'x'";
        h[1] = static_cast<char>('a' + Uniform(0, 2));
      }
      out += std::string(i ? ", " : "") + "(" + std::to_string(i * 7919 % 10007) + ", " + num(3) + ", " + h +
             ", " + num(9) + ")";
    }
    return out;
  }

  std::string Nulls() { return Chance(0.5) ? " NULLS FIRST" : " NULLS LAST"; }
  std::string Dir() { return Chance(0.5) ? " ASC" : " DESC"; }

  // A random OVER clause. `total`: the order must decide every row (ends with id).
  // `frame`: maybe add a random frame (RANGE offsets only over the single numeric key v).
  std::string Over(bool total, bool frame) {
    std::string partition = Pick<std::string>({"", "g", "h", "g, h", "v % 2"});
    std::string order;
    bool single_v = false;
    switch (Uniform(0, 3)) {
      case 0: break;
      case 1:
        order = "v" + Dir() + Nulls();
        single_v = true;
        break;
      case 2: order = "h" + Dir() + Nulls() + ", v" + Dir() + Nulls(); break;
      default: order = "g" + Dir() + Nulls(); break;
    }
    if (total) {
      order += std::string(order.empty() ? "" : ", ") + "id" + Dir();
      single_v = false;
    }
    std::string out = "OVER (";
    if (!partition.empty()) out += "PARTITION BY " + partition;
    if (!order.empty()) out += std::string(partition.empty() ? "" : " ") + "ORDER BY " + order;
    if (frame && Chance(0.7)) {
      // Bound kinds in SQL's order; a frame may not start at a later kind than it ends.
      int start_kind = static_cast<int>(Uniform(0, 3));
      int end_kind = static_cast<int>(Uniform(std::max(1, start_kind), 4));
      auto bound = [&](bool start) {
        switch (start ? start_kind : end_kind) {
          case 0: return std::string("UNBOUNDED PRECEDING");
          case 1: return std::to_string(Uniform(0, 3)) + " PRECEDING";
          case 2: return std::string("CURRENT ROW");
          case 3: return std::to_string(Uniform(0, 3)) + " FOLLOWING";
          default: return std::string("UNBOUNDED FOLLOWING");
        }
      };
      if (total) {
        out += " ROWS BETWEEN " + bound(true) + " AND " + bound(false);
      } else if (single_v) {
        out += " RANGE BETWEEN " + bound(true) + " AND " + bound(false);
      } else {
        // Ties decide ROWS frames, so a partial order gets RANGE frames of whole peer groups.
        out += Pick<std::string>({" RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                                  " RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                                  " RANGE BETWEEN CURRENT ROW AND CURRENT ROW",
                                  " RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"});
      }
    }
    return out + ")";
  }

  std::string WindowExpr() {
    switch (Uniform(0, 12)) {
      case 0: return "row_number() " + Over(true, false);
      case 1: return Pick<std::string>({"rank()", "dense_rank()", "percent_rank()", "cume_dist()"}) + " " + Over(false, false);
      case 2: return "ntile(" + std::to_string(Uniform(1, 5)) + ") " + Over(true, false);
      case 3: {
        std::string args = "v";
        if (Chance(0.7)) args += ", " + std::to_string(Uniform(0, 3));
        if (Chance(0.5)) args += ", " + std::to_string(Uniform(-1, 5));
        return Pick<std::string>({"lag", "lead"}) + "(" + args + ") " + Over(true, false);
      }
      case 4: return Pick<std::string>({"first_value(v)", "last_value(h)", "nth_value(v, 2)"}) + " " + Over(true, true);
      case 5: return Pick<std::string>({"first_value(v)", "last_value(v)"}) + " " + Over(true, true);
      case 6:
        if (Chance(0.3)) {
          return Pick<std::string>({"count(DISTINCT v)", "sum(DISTINCT v)", "min(DISTINCT h)"}) + " OVER (" +
                 Pick<std::string>({"", "PARTITION BY g", "PARTITION BY h, g"}) + ")";
        }
        return "count(*) " + Over(false, true);
      case 7: return Pick<std::string>({"min(h)", "max(h)"}) + " " + Over(Chance(0.5), true);
      case 8: return Pick<std::string>({"avg(v)", "stddev_samp(v)", "var_pop(v)", "bool_or(v > 6)", "bool_and(v < 8)"}) +
                     " " + Over(Chance(0.5), true);
      default:
        return Pick<std::string>({"sum(v)", "count(v)", "min(v)", "max(v)"}) + " " + Over(Chance(0.5), true);
    }
  }

  std::string WindowQuery() {
    std::string sql = "SELECT id AS c0";
    int k = static_cast<int>(Uniform(1, 3));
    for (int i = 1; i <= k; ++i) sql += ", " + WindowExpr() + " AS c" + std::to_string(i);
    sql += " FROM t";
    if (Chance(0.2)) sql += " WHERE v IS NULL OR v > " + std::to_string(Uniform(0, 5));
    if (Chance(0.2)) sql += " QUALIFY " + Pick<std::string>({"row_number() OVER (PARTITION BY g ORDER BY id) <= 2",
                                                             "c1 IS NOT NULL", "count(*) OVER (PARTITION BY h) > 1"});
    return sql;
  }

  std::string GroupingQuery() {
    std::string by = Pick<std::string>({"ROLLUP (g, h)", "CUBE (g, h)", "GROUPING SETS ((g), (h), ())",
                                        "g, ROLLUP (h)", "ROLLUP (g, (h, v))", "CUBE (g, h, v % 2)",
                                        "GROUPING SETS ((g, h), (g), (g))", "ROLLUP (h), CUBE (g)"});
    std::string sql = "SELECT g AS c0, h AS c1, grouping(g, h) AS c2, count(*) AS c3, sum(v) AS c4, min(h) AS c5";
    if (Chance(0.3)) sql += ", rank() OVER (PARTITION BY grouping(g, h) ORDER BY count(*) DESC, sum(v) NULLS LAST) AS c6";
    sql += " FROM t GROUP BY " + by;
    if (by.find("v % 2") != std::string::npos) sql = "SELECT g AS c0, h AS c1, v % 2 AS c2, grouping(g, h, v % 2) AS c3, count(*) AS c4 FROM t GROUP BY " + by;
    if (by.find("(h, v)") != std::string::npos) sql = "SELECT g AS c0, h AS c1, v AS c2, grouping(v, g) AS c3, max(id) AS c4 FROM t GROUP BY " + by;
    if (Chance(0.2)) sql += " HAVING count(*) > 1";
    return sql;
  }
};

using Table = std::vector<std::vector<std::string>>;

// A cell's comparable text: numbers as doubles compared with tolerance later.
bool AsNumber(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string SortKey(const std::vector<std::string>& row) {
  std::string key;
  for (const auto& c : row) {
    double d;
    char buf[64];
    if (AsNumber(c, &d)) {
      std::snprintf(buf, sizeof(buf), "%.6e", d);
      key += std::string("#") + buf + "|";
    } else {
      key += c + "|";
    }
  }
  return key;
}

bool SameCell(const std::string& a, const std::string& b) {
  if (a == b) return true;
  double x, y;
  if (!AsNumber(a, &x) || !AsNumber(b, &y)) return false;
  return std::fabs(x - y) <= 1e-9 * std::max({1.0, std::fabs(x), std::fabs(y)});
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs every query in one DuckDB process: rows tagged with the query number, as JSON.
std::vector<Table> DuckDbAnswers(const std::string& values, const std::vector<std::string>& queries) {
  std::string all;
  for (size_t q = 0; q < queries.size(); ++q) {
    all += std::string(q ? " UNION ALL " : "") + "SELECT " + std::to_string(q) + " AS q, CAST(to_json(x) AS VARCHAR) AS j FROM (" +
           queries[q] + ") AS x";
  }
  std::string cmd = testing::DuckDbCommand() + " " +
                    ShellQuote("CREATE TABLE t AS SELECT CAST(id AS BIGINT) AS id, CAST(g AS INTEGER) AS g, "
                               "CAST(h AS VARCHAR) AS h, CAST(v AS BIGINT) AS v FROM (VALUES " + values + ") AS v(id, g, h, v)") +
                    " " + ShellQuote(all);
  std::string out;
  int rc = testing::RunCommand(cmd + " 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  std::vector<Table> answers(queries.size());
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("q")) {
      ADD_FAILURE() << "DuckDB output: " << line;
      continue;
    }
    auto row = nlohmann::ordered_json::parse(j["j"].get<std::string>());
    std::vector<std::string> cells;
    for (auto it = row.begin(); it != row.end(); ++it) {
      const auto& x = it.value();
      cells.push_back(x.is_null() ? "NULL" : x.is_string() ? x.get<std::string>() : x.dump());
    }
    answers[j["q"].get<size_t>()].push_back(std::move(cells));
  }
  return answers;
}

void ExpectSameRows(Table got, Table want, const std::string& context) {
  auto by_key = [](const std::vector<std::string>& a, const std::vector<std::string>& b) { return SortKey(a) < SortKey(b); };
  std::sort(got.begin(), got.end(), by_key);
  std::sort(want.begin(), want.end(), by_key);
  ASSERT_EQ(got.size(), want.size()) << context;
  for (size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].size(), want[r].size()) << context;
    for (size_t c = 0; c < got[r].size(); ++c) {
      ASSERT_TRUE(SameCell(got[r][c], want[r][c]))
          << context << "\nrow " << r << " column " << c << ": shoal " << got[r][c] << ", DuckDB " << want[r][c];
    }
  }
}

TEST_F(WindowRandomTest, MatchesDuckDb) {
  if (testing::DuckDbCommand().empty()) {
    if (std::getenv("CI") && std::string(std::getenv("CI")) == "true") FAIL() << "DuckDB is required in CI";
    GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  }
  testing::TempDir dir;
  auto db = Database::Open(dir.path()).ValueOrDie();
  auto con = db->Connect();
  int compared = 0;
  // SHOAL_WINDOW_SEEDS=n runs n seeds (default 6) for a longer search.
  const char* env_seeds = std::getenv("SHOAL_WINDOW_SEEDS");
  const int seeds = env_seeds ? std::max(1, std::atoi(env_seeds)) : 6;
  for (int seed = 1; seed <= seeds; ++seed) {
    rng_.seed(static_cast<uint64_t>(seed) * 1000003);
    // The last seed is large enough for several scan batches, hash buckets and workers.
    const int rows = seed % 6 == 0 ? 3000 : static_cast<int>(Uniform(0, 1) ? Uniform(1, 12) : Uniform(20, 70));
    const std::string values = RandomValues(rows);
    ASSERT_TRUE(con->Query("DROP TABLE IF EXISTS t").ok());
    auto created = con->Query(
        "CREATE TABLE t USING DELTA AS SELECT CAST(id AS BIGINT) AS id, CAST(g AS INT) AS g, CAST(h AS STRING) AS h, "
        "CAST(v AS BIGINT) AS v FROM (VALUES " + values + ") AS v(id, g, h, v)");
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    std::vector<std::string> queries;
    for (int i = 0; i < 25; ++i) queries.push_back(Chance(0.7) ? WindowQuery() : GroupingQuery());
    auto want = DuckDbAnswers(values, queries);
    for (size_t q = 0; q < queries.size(); ++q) {
      auto r = con->Query(queries[q]);
      ASSERT_TRUE(r.ok()) << queries[q] << ": " << r.status().ToString();
      Table got;
      for (int64_t i = 0; i < r->num_rows(); ++i) {
        std::vector<std::string> row;
        for (int c = 0; c < r->num_columns(); ++c) row.push_back(r->GetText(i, c));
        got.push_back(std::move(row));
      }
      ExpectSameRows(std::move(got), want[q], "seed " + std::to_string(seed) + ": " + queries[q]);
      if (HasFatalFailure()) return;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 25 * seeds);
}

}  // namespace
}  // namespace shoal::sql
