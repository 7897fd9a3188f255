// Randomized cross-check of DELETE / UPDATE / MERGE against DuckDB: random tables (several
// files and row groups, NULLs, optionally partitioned, deletion vectors on or off) and random
// statement sequences run in shoal and on a DuckDB copy of the data; the final tables must be
// equal as multisets.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <sstream>

#include "sql/write/dml_test_table.h"

namespace shoal::sql {
namespace {

using dml_testing::DmlFixture;
using dml_testing::Row;
using dml_testing::TableOptions;

struct Config {
  bool deletion_vectors;
  bool partitioned;
};

class DmlRandomTest : public DmlFixture, public ::testing::WithParamInterface<Config> {
 protected:
  std::mt19937_64 rng_;
  int64_t Uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[static_cast<size_t>(Uniform(0, static_cast<int64_t>(v.size()) - 1))]; }

  Row RandomRow(int64_t id) {
    Row r;
    r.id = id;
    if (!Chance(0.15)) r.v = Uniform(0, 9);
    if (!Chance(0.15)) r.s = std::string(1, static_cast<char>('a' + Uniform(0, 3)));
    if (!Chance(0.05)) r.p = static_cast<int32_t>(Uniform(0, 2));
    return r;
  }

  std::vector<Row> RandomRows(int64_t n, int64_t id_range) {
    std::vector<int64_t> ids;
    for (int64_t i = 0; i < id_range; ++i) ids.push_back(i);
    std::shuffle(ids.begin(), ids.end(), rng_);
    std::vector<Row> rows;
    for (int64_t i = 0; i < n; ++i) rows.push_back(RandomRow(ids[static_cast<size_t>(i)]));
    return rows;
  }

  std::string Atom(const std::string& q) {
    std::string k = std::to_string(Uniform(0, 9));
    switch (Uniform(0, 9)) {
      case 0: return q + "v > " + k;
      case 1: return q + "v <= " + k;
      case 2: return q + "v = " + k;
      case 3: return q + "v IS NULL";
      case 4: return q + "s = '" + std::string(1, static_cast<char>('a' + Uniform(0, 3))) + "'";
      case 5: return q + "s IS NOT NULL";
      case 6: return q + "p = " + std::to_string(Uniform(0, 2));
      case 7: return q + "id % 3 = " + std::to_string(Uniform(0, 2));
      case 8: return q + "v IN (1, 3, 5, 7)";
      default: return q + "s < 'c'";
    }
  }
  std::string Predicate(const std::string& q, int depth = 0) {
    if (depth >= 2 || Chance(0.4)) return Atom(q);
    switch (Uniform(0, 2)) {
      case 0: return "NOT (" + Predicate(q, depth + 1) + ")";
      case 1: return "(" + Predicate(q, depth + 1) + " AND " + Predicate(q, depth + 1) + ")";
      default: return "(" + Predicate(q, depth + 1) + " OR " + Predicate(q, depth + 1) + ")";
    }
  }

  std::string Statement() {
    switch (Uniform(0, 2)) {
      case 0: {
        if (Chance(0.1)) return "DELETE FROM t";
        if (Chance(0.2)) return "DELETE FROM t WHERE p = " + std::to_string(Uniform(0, 2));
        return "DELETE FROM t WHERE " + Predicate("");
      }
      case 1: {
        std::vector<std::string> sets = {"v = v + 1", "v = NULL", "s = 'z'", "s = s || 'x'", "p = id % 2",
                                         "v = CASE WHEN v > 5 THEN v - 5 ELSE v END", "p = 2"};
        std::shuffle(sets.begin(), sets.end(), rng_);
        std::string a = sets[0];
        if (Chance(0.5) && sets[1].substr(0, 1) != sets[0].substr(0, 1)) a += ", " + sets[1];
        return "UPDATE t SET " + a + (Chance(0.1) ? "" : " WHERE " + Predicate(""));
      }
      default: {
        std::string sql = "MERGE INTO t USING src ON t.id = src.id";
        if (Chance(0.2)) sql += " AND " + Predicate("t.");
        std::vector<std::string> matched = {
            " WHEN MATCHED AND " + Predicate("src.") + " THEN UPDATE SET v = src.v, s = src.s",
            " WHEN MATCHED AND " + Predicate("t.") + " THEN DELETE",
            " WHEN MATCHED AND " + Predicate("t.") + " THEN UPDATE SET v = t.v + src.v, p = src.p"};
        std::vector<std::string> matched_last = {" WHEN MATCHED THEN DELETE", " WHEN MATCHED THEN UPDATE SET *",
                                                 " WHEN MATCHED THEN UPDATE SET s = 'm'"};
        std::vector<std::string> not_matched = {
            " WHEN NOT MATCHED AND " + Predicate("src.") + " THEN INSERT (id, v, s, p) VALUES (src.id, src.v, src.s, src.p)",
            " WHEN NOT MATCHED AND " + Predicate("src.") + " THEN INSERT (id, s) VALUES (src.id + 1000, 'new')"};
        std::vector<std::string> not_matched_last = {" WHEN NOT MATCHED THEN INSERT *",
                                                     " WHEN NOT MATCHED THEN INSERT (id, v, s, p) VALUES (src.id, src.v, src.s, src.p)"};
        std::vector<std::string> by_source = {" WHEN NOT MATCHED BY SOURCE AND " + Predicate("t.") + " THEN DELETE",
                                              " WHEN NOT MATCHED BY SOURCE AND " + Predicate("t.") + " THEN UPDATE SET v = 0"};
        std::vector<std::string> by_source_last = {" WHEN NOT MATCHED BY SOURCE THEN UPDATE SET s = 'o'",
                                                   " WHEN NOT MATCHED BY SOURCE THEN DELETE"};
        std::string clauses;
        auto add = [&](const std::vector<std::string>& cond, const std::vector<std::string>& last) {
          int k = static_cast<int>(Uniform(0, 2));
          for (int i = 0; i < k; ++i) clauses += Pick(cond);
          if (Chance(0.5)) clauses += Pick(last);
        };
        if (Chance(0.8)) add(matched, matched_last);
        if (Chance(0.6)) add(not_matched, not_matched_last);
        if (Chance(0.4)) add(by_source, by_source_last);
        if (clauses.empty()) clauses = Pick(matched_last);
        return sql + clauses;
      }
    }
  }

  static std::string Values(const std::vector<Row>& rows) {
    std::string out;
    for (const Row& r : rows) {
      auto num = [](const auto& o) { return o ? std::to_string(*o) : std::string("NULL"); };
      out += std::string(out.empty() ? "" : ", ") + "(" + num(r.id) + ", " + num(r.v) + ", " +
             (r.s ? "'" + *r.s + "'" : std::string("NULL")) + ", " + num(r.p) + ")";
    }
    return out;
  }

  static std::string ShellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }

  // Runs the statements in DuckDB on copies of the tables; returns t's rows.
  std::multiset<std::string> DuckDbRows(const std::vector<Row>& t, const std::vector<Row>& src,
                                        const std::vector<std::string>& statements) {
    std::vector<std::string> sqls = {
        "CREATE TABLE t (id BIGINT, v BIGINT, s VARCHAR, p INTEGER)",
        "CREATE TABLE src (id BIGINT, v BIGINT, s VARCHAR, p INTEGER)"};
    if (!t.empty()) sqls.push_back("INSERT INTO t VALUES " + Values(t));
    if (!src.empty()) sqls.push_back("INSERT INTO src VALUES " + Values(src));
    for (const auto& s : statements) sqls.push_back(s);
    sqls.push_back("SELECT id, v, s, p FROM t");
    std::string cmd = testing::DuckDbCommand();
    for (const auto& s : sqls) cmd += " " + ShellQuote(s);
    std::string out;
    int rc = testing::RunCommand(cmd + " 2>&1", &out);
    EXPECT_EQ(rc, 0) << out;
    std::multiset<std::string> rows;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) {
        ADD_FAILURE() << "DuckDB output: " << line;
        continue;
      }
      std::string text;
      for (const char* c : {"id", "v", "s", "p"}) {
        const auto& x = j[c];
        std::string cell = x.is_null() ? "NULL" : x.is_string() ? x.get<std::string>() : x.dump();
        text += (text.empty() ? "" : "|") + cell;
      }
      rows.insert(text);
    }
    return rows;
  }
};

TEST_P(DmlRandomTest, MatchesDuckDb) {
  if (testing::DuckDbCommand().empty()) GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  const Config cfg = GetParam();
  for (int seed = 1; seed <= 6; ++seed) {
    rng_.seed(static_cast<uint64_t>(seed * 7919 + cfg.deletion_vectors * 3 + cfg.partitioned));
    std::string t = "t";
    // Fresh tables per seed: drop the previous ones.
    std::error_code ec;
    std::filesystem::remove_all(Root("t"), ec);
    std::filesystem::remove_all(Root("src"), ec);
    Create("t", TableOptions().Partitioned(cfg.partitioned).Dvs(cfg.deletion_vectors));
    Create("src", {});
    const int64_t n = Uniform(20, 80);
    auto rows = RandomRows(n, n);
    auto src = RandomRows(Uniform(5, 30), n + 20);
    Append("t", rows, Uniform(5, 30), Uniform(3, 10));
    Append("src", src, Uniform(5, 20), Uniform(3, 10));
    std::vector<std::string> statements;
    const int k = static_cast<int>(Uniform(2, 5));
    for (int i = 0; i < k; ++i) {
      std::string sql = Statement();
      auto c = Exec("t", sql);
      ASSERT_TRUE(c.ok()) << "seed " << seed << ": " << sql << ": " << c.status().ToString();
      statements.push_back(sql);
    }
    auto expected = DuckDbRows(rows, src, statements);
    auto got = TableRows("t");
    std::string trace;
    for (const auto& s : statements) trace += "\n  " + s + ";";
    ASSERT_EQ(got, expected) << "seed " << seed << trace;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, DmlRandomTest,
                         ::testing::Values(Config{true, false}, Config{true, true}, Config{false, false},
                                           Config{false, true}),
                         [](const auto& info) {
                           return std::string(info.param.deletion_vectors ? "Dv" : "CopyOnWrite") +
                                  (info.param.partitioned ? "Partitioned" : "Flat");
                         });

}  // namespace
}  // namespace shoal::sql
