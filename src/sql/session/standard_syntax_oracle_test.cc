// DuckDB as the oracle for the standard-SQL forms of issue 23 that DuckDB accepts in the same
// text: substring/trim keyword forms, FETCH FIRST / OFFSET ROWS, SEMI / ANTI / NATURAL joins
// (fixed cases and randomized tables with NULL keys and duplicates), WITH RECURSIVE. Each
// query's rows are compared as multisets of text lines.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/shell_text.h"
#include "support/testdata.h"

namespace shoal {
namespace {

// DuckDB's rows of `sql`, columns in `sql`'s select order (names must be distinct).
std::multiset<std::string> DuckDbRows(const std::string& sql, const std::vector<std::string>& columns) {
  std::string out;
  int rc = testing::RunCommand(testing::DuckDbCommand() + " " + testing::ShellQuote(sql) + " 2>&1", &out);
  EXPECT_EQ(rc, 0) << sql << "\n" << out;
  std::multiset<std::string> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      ADD_FAILURE() << "DuckDB output: " << line;
      continue;
    }
    std::string text;
    for (size_t c = 0; c < columns.size(); ++c) {
      const auto& x = j[columns[c]];
      std::string cell = x.is_null() ? "NULL" : x.is_string() ? x.get<std::string>() : x.dump();
      text += (c ? "|" : "") + cell;
    }
    rows.insert(text);
  }
  return rows;
}

class StandardSyntaxOracle : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::DuckDbCommand().empty()) {
      const char* ci = std::getenv("CI");
      if (ci && std::string(ci) == "true") FAIL() << "DuckDB not installed (build/duckdb), required in CI";
      GTEST_SKIP() << "DuckDB not installed (build/duckdb; scripts/install-deps.sh): no oracle";
    }
    DatabaseOptions o;
    o.threads = 2;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
  }

  // Runs `sql` in both engines and compares the rows; returns how many rows matched.
  size_t Compare(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return 0;
    std::vector<std::string> names;
    for (int c = 0; c < r->num_columns(); ++c) names.push_back(r->column_name(c));
    std::vector<std::string> lines = testing::Rows(*r);
    std::multiset<std::string> got(lines.begin(), lines.end());
    std::multiset<std::string> want = DuckDbRows(sql, names);
    EXPECT_EQ(got, want) << sql;
    return got.size();
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(StandardSyntaxOracle, StringKeywordFormsMatchDuckDb) {
  Compare(
      "SELECT substring('hello world' FROM 2 FOR 4) AS a, substring('hello' FROM 3) AS b, "
      "substring('hello' FOR 2) AS c, trim(BOTH 'x' FROM 'xxhixx') AS d, trim(LEADING 'x' FROM 'xxhixx') AS e, "
      "trim(TRAILING 'x' FROM 'xxhixx') AS f, trim(TRAILING FROM '  hi  ') AS g, position('wor' IN 'hello world') AS h");
  Compare(
      "SELECT substring(p FROM 1 FOR 2) AS cntrycode, count(*) AS n FROM (VALUES ('13-1'), ('31-2'), ('13-3'), "
      "('99-4')) AS t(p) WHERE substring(p FROM 1 FOR 2) IN ('13', '31') GROUP BY cntrycode");
}

TEST_F(StandardSyntaxOracle, FetchFirstAndOffsetRowsMatchDuckDb) {
  EXPECT_EQ(Compare("SELECT i FROM range(10) AS t(i) ORDER BY i DESC FETCH FIRST 3 ROWS ONLY"), 3u);
  EXPECT_EQ(Compare("SELECT i FROM range(10) AS t(i) ORDER BY i OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY"), 2u);
  EXPECT_EQ(Compare("SELECT i FROM range(10) AS t(i) ORDER BY i OFFSET 8 ROWS"), 2u);
}

TEST_F(StandardSyntaxOracle, WithRecursiveMatchesDuckDb) {
  EXPECT_EQ(Compare("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100) "
                    "SELECT n, n * n AS sq FROM t"),
            100u);
  Compare(
      "WITH RECURSIVE edges(a, b) AS (VALUES (1, 2), (2, 3), (3, 1), (3, 4), (5, 6)), "
      "reach(node) AS (SELECT 1 UNION SELECT b FROM reach JOIN edges ON reach.node = edges.a) SELECT node FROM reach");
  Compare(
      "WITH RECURSIVE p(depth, path) AS (SELECT 0, 'r' UNION ALL SELECT depth + 1, path || '/' || "
      "CAST(depth + 1 AS VARCHAR) FROM p WHERE depth < 6) SELECT depth, path FROM p");
  // UNION removes duplicates the recursive term produces within one iteration, too.
  Compare(
      "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT CASE WHEN n < 20 THEN n + 1 ELSE 1 END FROM t "
      "CROSS JOIN (VALUES (1), (2)) AS dup(d)) SELECT n FROM t");
}

// Random small relations with NULL keys and duplicates, joined every way issue 23 names.
TEST_F(StandardSyntaxOracle, RandomSemiAntiNaturalJoinsMatchDuckDb) {
  std::mt19937 rng(23);
  auto relation = [&](const char* alias, const char* payload) {
    int n = 1 + static_cast<int>(rng() % 8);
    std::string values;
    for (int i = 0; i < n; ++i) {
      int k = static_cast<int>(rng() % 6);
      std::string key = k == 5 ? "NULL" : std::to_string(k);
      values += (i ? ", " : "") + std::string("(") + key + ", " + std::to_string(rng() % 4) + ", '" +
                payload + std::to_string(i) + "')";
    }
    return "(VALUES " + values + ") AS " + alias + "(k, g, " + payload + ")";
  };
  const std::vector<std::string> shapes = {
      "SELECT l.k, l.g, l.v FROM {L} SEMI JOIN {R} ON l.k = r.k",
      "SELECT l.k, l.g, l.v FROM {L} ANTI JOIN {R} ON l.k = r.k",
      "SELECT l.k, l.g, l.v FROM {L} SEMI JOIN {R} ON l.k = r.k AND l.g < r.g",
      "SELECT l.k, l.g, l.v FROM {L} ANTI JOIN {R} ON l.k = r.k AND l.g <> r.g",
      "SELECT l.k, l.g, l.v FROM {L} ANTI JOIN {R} ON l.k < r.k",
      "SELECT l.k, l.g, l.v FROM {L} SEMI JOIN {R} USING (k, g)",
      "SELECT k, g, v, w FROM {L} NATURAL JOIN {R}",
      "SELECT k, g, v, w FROM {L} NATURAL LEFT JOIN {R}",
      "SELECT k, g, v, w FROM {L} NATURAL RIGHT JOIN {R}",
      "SELECT k, g, v, w FROM {L} NATURAL FULL JOIN {R}",
      "SELECT k, l.g AS lg, r.g AS rg, v, w FROM {L} FULL JOIN {R} USING (k)",
  };
  // One DuckDB process per query (about a second on a busy machine): fresh tables per shape.
  for (const std::string& shape : shapes) {
    std::string sql = shape;
    sql.replace(sql.find("{L}"), 3, relation("l", "v"));
    sql.replace(sql.find("{R}"), 3, relation("r", "w"));
    Compare(sql);
  }
}

}  // namespace
}  // namespace shoal
