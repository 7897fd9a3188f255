// The parallel hash join, aggregation and sort through SQL on generated inputs large enough to
// take their partitioned / parallel paths (many batches, many threads), against brute-force
// references computed here: NULL keys, skewed and duplicate keys, empty build sides, string
// and composite keys, every outer join type, semi/anti (EXISTS), residual predicates, stable
// ORDER BY.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using Opt = std::optional<int64_t>;

// Column c of every row of r as optional integers (BIGINT results).
std::vector<Opt> Ints(const QueryResult& r, int c) {
  std::vector<Opt> out;
  for (const auto& b : r.batches()) {
    const auto& v = *b->columns[c];
    for (int64_t i = 0; i < b->num_rows; ++i) out.push_back(v.IsValid(i) ? Opt(v.Get<int64_t>(i)) : Opt());
  }
  return out;
}

class Fixture {
 public:
  explicit Fixture(int threads, int batch_size = 1000) {
    DatabaseOptions o;
    o.threads = threads;
    o.batch_size = batch_size;
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    con_ = db_->Connect();
  }
  QueryResult Query(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? std::move(*r) : QueryResult();
  }

 private:
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

// Probe rows i in [0, 30000), build rows j in [0, 40000): NULL keys, a skewed key 7 (a third
// of the build side, 30 probe rows), the rest spread over 20000 values.
Opt ProbeKey(int64_t i) {
  if (i % 17 == 0) return {};
  if (i % 1000 == 1) return 7;
  return (i * 7919) % 20000;
}
Opt BuildKey(int64_t j) {
  if (j % 13 == 0) return {};
  if (j % 3 == 0) return 7;
  return (j * 104729) % 20000;
}
const char* kProbeKeySql = "CASE WHEN i % 17 = 0 THEN NULL WHEN i % 1000 = 1 THEN 7 ELSE (i * 7919) % 20000 END";
const char* kBuildKeySql = "CASE WHEN j % 13 = 0 THEN NULL WHEN j % 3 = 0 THEN 7 ELSE (j * 104729) % 20000 END";

enum class KeyKind { kInt, kString, kComposite };

std::string JoinSql(const std::string& type, KeyKind kind, bool residual, int64_t build_rows) {
  std::string a = std::string("(SELECT i, ") + kProbeKeySql + " AS k FROM range(30000) t(i)) a";
  std::string b = std::string("(SELECT j, ") + kBuildKeySql + " AS k FROM range(" + std::to_string(build_rows) + ") t(j)) b";
  std::string on;
  switch (kind) {
    case KeyKind::kInt: on = "a.k = b.k"; break;
    case KeyKind::kString: on = "CAST(a.k AS VARCHAR) || 'suffix-to-make-it-long' = CAST(b.k AS VARCHAR) || 'suffix-to-make-it-long'"; break;
    case KeyKind::kComposite: on = "a.k = b.k AND a.k % 3 = b.k % 3 AND CAST(a.k AS VARCHAR) = CAST(b.k AS VARCHAR)"; break;
  }
  if (residual) on += " AND a.i % 5 <> b.j % 3";
  return "SELECT a.i, b.j FROM " + a + " " + type + " " + b + " ON " + on;
}

std::vector<std::pair<int64_t, int64_t>> JoinReference(const std::string& type, bool residual, int64_t build_rows) {
  std::map<int64_t, std::vector<int64_t>> by_key;
  for (int64_t j = 0; j < build_rows; ++j) {
    if (auto k = BuildKey(j)) by_key[*k].push_back(j);
  }
  std::vector<bool> build_matched(build_rows, false);
  std::vector<std::pair<int64_t, int64_t>> out;
  const bool left = type == "LEFT JOIN" || type == "FULL JOIN";
  const bool right = type == "RIGHT JOIN" || type == "FULL JOIN";
  for (int64_t i = 0; i < 30000; ++i) {
    bool any = false;
    if (auto k = ProbeKey(i); k && by_key.count(*k)) {
      for (int64_t j : by_key[*k]) {
        if (residual && i % 5 == j % 3) continue;
        any = true;
        build_matched[j] = true;
        out.emplace_back(i, j);
      }
    }
    if (!any && left) out.emplace_back(i, -1);
  }
  if (right) {
    for (int64_t j = 0; j < build_rows; ++j) {
      if (!build_matched[j]) out.emplace_back(-1, j);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParallelHashJoin, JoinTypesAndKeyKindsMatchBruteForce) {
  for (int threads : {1, 4}) {
    Fixture f(threads);
    for (int64_t build_rows : {int64_t{40000}, int64_t{0}}) {
      for (KeyKind kind : {KeyKind::kInt, KeyKind::kString, KeyKind::kComposite}) {
        for (std::string type : {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
          for (bool residual : {false, true}) {
            if (kind != KeyKind::kInt && (residual || type == "LEFT JOIN")) continue;  // keep it quick
            std::string sql = JoinSql(type, kind, residual, build_rows);
            SCOPED_TRACE(std::to_string(threads) + " threads: " + sql);
            auto r = f.Query(sql);
            auto is = Ints(r, 0), js = Ints(r, 1);
            std::vector<std::pair<int64_t, int64_t>> got;
            for (size_t x = 0; x < is.size(); ++x) got.emplace_back(is[x].value_or(-1), js[x].value_or(-1));
            std::sort(got.begin(), got.end());
            auto want = JoinReference(type, residual, build_rows);
            ASSERT_EQ(got.size(), want.size());
            ASSERT_TRUE(got == want);
          }
        }
      }
    }
  }
}

TEST(ParallelHashJoin, SemiAndAntiThroughExistsSubqueries) {
  for (int threads : {1, 4}) {
    Fixture f(threads);
    std::map<int64_t, bool> build_keys;
    for (int64_t j = 0; j < 40000; ++j) {
      if (auto k = BuildKey(j)) build_keys[*k] = true;
    }
    for (bool negate : {false, true}) {
      std::string sql = std::string("SELECT i FROM (SELECT i, ") + kProbeKeySql + " AS k FROM range(30000) t(i)) a WHERE " +
                        (negate ? "NOT " : "") + "EXISTS (SELECT 1 FROM (SELECT " + kBuildKeySql +
                        " AS k FROM range(40000) t(j)) b WHERE b.k = a.k)";
      auto got = Ints(f.Query(sql), 0);
      std::vector<Opt> want;
      for (int64_t i = 0; i < 30000; ++i) {
        auto k = ProbeKey(i);
        bool in = k && build_keys.count(*k);
        if (in != negate) want.push_back(i);
      }
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got.size(), want.size()) << sql;
      ASSERT_TRUE(got == want) << sql;
    }
  }
}

TEST(ParallelHashAggregate, ManyGroupsMatchBruteForce) {
  // 200000 rows over 50000 groups (plus a NULL group): the partitioned merge with 4 threads.
  const char* key = "CASE WHEN i % 101 = 0 THEN NULL ELSE (i * 7919) % 50000 END";
  for (int threads : {1, 4}) {
    Fixture f(threads);
    for (bool string_key : {false, true}) {
      std::string k = string_key ? std::string("CAST(") + key + " AS VARCHAR)" : key;
      std::string sql = "SELECT " + std::string(key) + " AS g, count(*), sum(i), min(i), max(i), count(DISTINCT i % 7), "
                        "CAST(sum(CAST(i AS DECIMAL(38, 2))) AS BIGINT), CAST(min(CAST(i + 100000 AS VARCHAR)) AS BIGINT) "
                        "FROM range(200000) t(i) GROUP BY " + k + ", " + std::string(key);
      SCOPED_TRACE(sql);
      auto r = f.Query(sql);
      struct Agg {
        int64_t count = 0, sum = 0, min = INT64_MAX, max = INT64_MIN;
        std::map<int64_t, bool> mods;
      };
      std::map<Opt, Agg> want;
      for (int64_t i = 0; i < 200000; ++i) {
        Opt g = i % 101 == 0 ? Opt() : Opt((i * 7919) % 50000);
        Agg& a = want[g];
        a.count++;
        a.sum += i;
        a.min = std::min(a.min, i);
        a.max = std::max(a.max, i);
        a.mods[i % 7] = true;
      }
      std::vector<std::vector<Opt>> cols;
      for (int c = 0; c < 8; ++c) cols.push_back(Ints(r, c));
      ASSERT_EQ(cols[0].size(), want.size());
      std::map<Opt, bool> seen;
      for (size_t x = 0; x < cols[0].size(); ++x) {
        Opt g = cols[0][x];
        ASSERT_TRUE(want.count(g));
        ASSERT_FALSE(seen[g]) << "duplicate group";
        seen[g] = true;
        const Agg& a = want[g];
        EXPECT_EQ(cols[1][x], Opt(a.count));
        EXPECT_EQ(cols[2][x], Opt(a.sum));
        EXPECT_EQ(cols[3][x], Opt(a.min));
        EXPECT_EQ(cols[4][x], Opt(a.max));
        EXPECT_EQ(cols[5][x], Opt(static_cast<int64_t>(a.mods.size())));
        EXPECT_EQ(cols[6][x], Opt(a.sum));
        EXPECT_EQ(cols[7][x], Opt(a.min + 100000));
      }
    }
  }
}

TEST(ParallelSort, OrderByEqualsAStableReference) {
  // 300000 rows, few distinct keys with NULLs: ties must keep input order, as a stable sort.
  const int64_t n = 300000;
  auto k1 = [](int64_t i) { return i % 23 == 0 ? Opt() : Opt((i * 31) % 97); };
  auto k2 = [](int64_t i) { return (i * 7) % 5; };
  for (int threads : {1, 4}) {
    Fixture f(threads, 2048);
    for (bool desc : {false, true}) {
      std::string sql = "SELECT i FROM (SELECT i, CASE WHEN i % 23 = 0 THEN NULL ELSE (i * 31) % 97 END AS a, "
                        "CAST((i * 7) % 5 AS VARCHAR) AS b FROM range(300000) t(i)) ORDER BY a " +
                        std::string(desc ? "DESC NULLS FIRST" : "ASC NULLS LAST") + ", b DESC";
      SCOPED_TRACE(std::to_string(threads) + " threads: " + sql);
      auto got = Ints(f.Query(sql), 0);
      std::vector<int64_t> idx(n);
      for (int64_t i = 0; i < n; ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](int64_t x, int64_t y) {
        Opt a = k1(x), b = k1(y);
        if (a != b) {
          if (!a) return desc;   // NULLS FIRST with DESC, LAST with ASC
          if (!b) return !desc;
          return desc ? *a > *b : *a < *b;
        }
        return k2(x) > k2(y);
      });
      ASSERT_EQ(got.size(), idx.size());
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], Opt(idx[i])) << "row " << i;
    }
  }
}

}  // namespace
}  // namespace shoal
