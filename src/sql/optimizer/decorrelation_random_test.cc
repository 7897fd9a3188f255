// Randomized differential test of correlated subqueries against DuckDB: small generated
// tables with NULLs and duplicates (as VALUES CTEs, so both engines read the same rows),
// generated queries with correlated scalar / EXISTS / NOT EXISTS / IN / NOT IN subqueries in
// WHERE, the select list, HAVING and LATERAL joins, nested one or two levels, with equality and
// non-equality correlation. Answers are compared as multisets of rows.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal {
namespace {

class SubqueryGenerator {
 public:
  explicit SubqueryGenerator(uint64_t seed) : rng_(seed) {}

  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[Uniform(0, static_cast<int>(v.size()) - 1)]; }

  // WITH clause defining t1(a, b), t2(c, d), t3(e, f): small ranges give duplicates.
  std::string Tables() {
    std::string out = "WITH ";
    const char* names[3][3] = {{"t1", "a", "b"}, {"t2", "c", "d"}, {"t3", "e", "f"}};
    for (int t = 0; t < 3; ++t) {
      out += std::string(t ? ", " : "") + names[t][0] + "(" + names[t][1] + ", " + names[t][2] + ") AS (";
      const int n = Uniform(t == 0 ? 1 : 0, 7);
      if (n == 0) {
        out += "SELECT 1, 1 WHERE false)";
        continue;
      }
      out += "VALUES ";
      for (int i = 0; i < n; ++i) {
        // The first row has no NULL, so both engines type the columns INTEGER.
        out += std::string(i ? ", " : "") + "(" + Value(i > 0) + ", " + Value(i > 0) + ")";
      }
      out += ")";
    }
    return out;
  }

  // A query over the tables, selecting the columns c1, c2[, c3] as text.
  std::string Query() {
    std::string body;
    switch (Uniform(0, 4)) {
      case 4: {  // LATERAL
        std::string w = InnerWhere("t1", 1);
        if (Chance(0.5)) {
          body = "SELECT t1.a AS c1, s.x AS c2 FROM t1, LATERAL (SELECT " + Aggregate() + " AS x FROM t2 WHERE " + w +
                 ") AS s";
        } else {
          body = "SELECT t1.a AS c1, s.x AS c2 FROM t1 LEFT JOIN LATERAL (SELECT t2.d AS x FROM t2 WHERE " + w +
                 ") AS s ON " + Pick(std::vector<std::string>{"true", "s.x > 1"});
        }
        break;
      }
      case 0:  // WHERE
      case 1: {
        std::string pred = Predicate("t1", 1);
        if (Chance(0.25)) pred = "(" + pred + (Chance(0.5) ? " OR " : " AND ") + "t1.a > 2)";
        if (Chance(0.2)) pred = "NOT (" + pred + ")";
        body = "SELECT t1.a AS c1, t1.b AS c2 FROM " + From(0) + " WHERE " + pred;
        break;
      }
      case 2: {  // select list
        body = "SELECT t1.a AS c1, " + SelectItem("t1", 1) + " AS c2 FROM " + From(0);
        if (Chance(0.3)) body += " WHERE t1.b IS NOT NULL";
        break;
      }
      default: {  // HAVING / select list over groups
        std::string corr = Pick(std::vector<std::string>{"t2.c = t1.a", "t2.c < t1.a", "t2.d <> t1.a"});
        std::string sub = Pick(std::vector<std::string>{
            "(SELECT count(*) FROM t2 WHERE " + corr + ")",
            "(SELECT max(t2.d) FROM t2 WHERE " + corr + ")",
            "(SELECT sum(t2.d) FROM t2 WHERE " + corr + ")"});
        if (Chance(0.5)) {
          body = "SELECT t1.a AS c1, count(*) AS c2 FROM t1 GROUP BY t1.a HAVING count(*) " +
                 Pick(std::vector<std::string>{"<=", ">", "="}) + " " + sub;
        } else if (Chance(0.5)) {
          body = "SELECT t1.a AS c1, " + sub + " AS c2 FROM t1 GROUP BY t1.a";
        } else {
          body = "SELECT t1.a AS c1, sum(t1.b) AS c2 FROM t1 GROUP BY t1.a HAVING EXISTS (SELECT 1 FROM t2 WHERE " +
                 corr + ")";
        }
      }
    }
    return body;
  }

 private:
  std::string Value(bool may_be_null) {
    if (may_be_null && Chance(0.2)) return "NULL";
    return std::to_string(Uniform(0, 4));
  }

  std::string From(int) { return Chance(0.8) ? "t1" : "t1 JOIN t3 ON t1.a = t3.e"; }

  // Correlation between the inner table (alias `in`, columns x, y) and the outer alias.
  std::string Correlation(const std::string& in, const std::string& x, const std::string& y, const std::string& out,
                          const std::string& oa, const std::string& ob) {
    switch (Uniform(0, 6)) {
      case 0: return in + "." + x + " = " + out + "." + oa;
      case 1: return in + "." + x + " = " + out + "." + oa + " AND " + in + "." + y + " < " + out + "." + ob;
      case 2: return in + "." + x + " > " + out + "." + oa;
      case 3: return in + "." + y + " <> " + out + "." + ob;
      case 4: return in + "." + x + " = " + out + "." + ob + " AND " + in + "." + y + " IS NOT NULL";
      case 5: return in + "." + x + " IS NOT DISTINCT FROM " + out + "." + oa;
      default: return in + "." + y + " >= 1";  // uncorrelated
    }
  }

  // The inner WHERE of a subquery over t2 correlated with `outer` (t1 columns a, b); at depth
  // 1 it may nest a subquery over t3 correlated with t2 and/or t1.
  std::string InnerWhere(const std::string& outer, int depth) {
    std::string w = Correlation("t2", "c", "d", outer, "a", "b");
    if (depth == 1 && Chance(0.35)) {
      std::string c3 = Pick(std::vector<std::string>{"t3.e = t2.c", "t3.e = t2.c AND t3.f > " + outer + ".b",
                                                     "t3.f = " + outer + ".a", "t3.e < t2.d"});
      switch (Uniform(0, 2)) {
        case 0: w += " AND EXISTS (SELECT 1 FROM t3 WHERE " + c3 + ")"; break;
        case 1: w += " AND t2.d NOT IN (SELECT t3.f FROM t3 WHERE " + c3 + ")"; break;
        default: w += " AND t2.d >= (SELECT count(*) FROM t3 WHERE " + c3 + ")"; break;
      }
    }
    return w;
  }

  std::string Aggregate() {
    return Pick(std::vector<std::string>{"count(*)", "count(t2.d)", "sum(t2.d)", "min(t2.d)", "max(t2.c)",
                                         "count(*) + 1", "coalesce(max(t2.d), -1)"});
  }

  std::string Predicate(const std::string& outer, int depth) {
    std::string w = InnerWhere(outer, depth);
    switch (Uniform(0, 8)) {
      case 0: return "EXISTS (SELECT 1 FROM t2 WHERE " + w + ")";
      case 1: return "NOT EXISTS (SELECT 1 FROM t2 WHERE " + w + ")";
      case 2: return outer + ".a IN (SELECT t2.d FROM t2 WHERE " + w + ")";
      case 3: return outer + ".b NOT IN (SELECT t2.d FROM t2 WHERE " + w + ")";
      case 4: return outer + ".b " + Pick(std::vector<std::string>{"=", "<", ">="}) + " (SELECT " + Aggregate() +
                     " FROM t2 WHERE " + w + ")";
      case 5: return "(SELECT " + Aggregate() + " FROM t2 WHERE " + w + ") IS NULL";
      case 6: return outer + ".a IN (SELECT max(t2.d) FROM t2 WHERE " + w + " GROUP BY t2.c)";
      case 7: return outer + ".b " + Pick(std::vector<std::string>{"<", ">=", "<>", "="}) + " " +
                     Pick(std::vector<std::string>{"ANY", "ALL"}) + " (SELECT t2.d FROM t2 WHERE " + w + ")";
      default: return "(SELECT count(*) FROM t2 WHERE " + w + ") " + Pick(std::vector<std::string>{"= 0", "> 1"});
    }
  }

  std::string SelectItem(const std::string& outer, int depth) {
    std::string w = InnerWhere(outer, depth);
    switch (Uniform(0, 5)) {
      case 0: return "EXISTS (SELECT 1 FROM t2 WHERE " + w + ")";
      case 4: return outer + ".b > ALL (SELECT t2.d FROM t2 WHERE " + w + ")";
      case 1: return outer + ".a IN (SELECT t2.d FROM t2 WHERE " + w + ")";
      case 2: return outer + ".b NOT IN (SELECT t2.c FROM t2 WHERE " + w + ")";
      default: return "(SELECT " + Aggregate() + " FROM t2 WHERE " + w + ")";
    }
  }

  std::mt19937_64 rng_;
};

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the queries (each selecting c1, c2) in one DuckDB process; rows keyed by query number.
std::map<int, std::multiset<std::string>> DuckDbRows(const std::vector<std::string>& queries) {
  std::string all;
  for (size_t i = 0; i < queries.size(); ++i) {
    all += std::string(i ? " UNION ALL " : "") + "SELECT " + std::to_string(i) +
           " AS q, CAST(c1 AS VARCHAR) AS c1, CAST(c2 AS VARCHAR) AS c2 FROM (" + queries[i] + ") s";
  }
  std::string out;
  int rc = testing::RunCommand(testing::DuckDbCommand() + " " + ShellQuote(all) + " 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  std::map<int, std::multiset<std::string>> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << "DuckDB output: " << line;
      continue;
    }
    auto cell = [](const nlohmann::json& x) { return x.is_null() ? std::string("NULL") : x.get<std::string>(); };
    rows[j["q"].get<int>()].insert(cell(j["c1"]) + "|" + cell(j["c2"]));
  }
  return rows;
}

TEST(CorrelatedSubqueryRandom, MatchesDuckDb) {
  if (testing::DuckDbCommand().empty()) {
    const char* ci = std::getenv("CI");
    if (ci && std::string(ci) == "true") FAIL() << "DuckDB not installed (build/duckdb) but CI=true";
    GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  }
  testing::TempDir dir;
  DatabaseOptions o;
  o.threads = 2;
  o.batch_size = 3;  // several batches per table: exercises the per-batch join state
  auto db = Database::Open(dir.path(), o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto con = (*db)->Connect();
  int compared = 0;
  // SHOAL_SUBQUERY_ROUNDS=n runs n rounds of 40 queries (default 8), from seed offset
  // SHOAL_SUBQUERY_SEED (default 0): longer hunts for mismatches than make test affords.
  const char* rounds_env = std::getenv("SHOAL_SUBQUERY_ROUNDS");
  const char* seed_env = std::getenv("SHOAL_SUBQUERY_SEED");
  const int rounds = rounds_env ? std::atoi(rounds_env) : 8;
  const int seed0 = seed_env ? std::atoi(seed_env) : 0;
  for (int round = seed0; round < seed0 + rounds; ++round) {
    std::vector<std::string> queries;
    for (int i = 0; i < 40; ++i) {
      SubqueryGenerator g(static_cast<uint64_t>(round * 1000 + i + 1));
      std::string tables = g.Tables();
      queries.push_back(tables + " " + g.Query());
    }
    auto expected = DuckDbRows(queries);
    for (size_t i = 0; i < queries.size(); ++i) {
      auto r = con->Query(queries[i]);
      ASSERT_TRUE(r.ok()) << queries[i] << "\n" << r.status().ToString();
      std::multiset<std::string> got;
      for (int64_t row = 0; row < r->num_rows(); ++row) {
        std::string line = r->GetText(row, 0);
        line.append("|").append(r->GetText(row, 1));
        got.insert(line);
      }
      EXPECT_EQ(got, expected[static_cast<int>(i)]) << queries[i];
      ++compared;
    }
  }
  EXPECT_EQ(compared, rounds * 40);
}

}  // namespace
}  // namespace shoal
