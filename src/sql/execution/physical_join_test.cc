// Joins and aggregation through SQL on random data, against brute-force references.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using Opt = std::optional<int>;

std::string Text(const Opt& v) { return v ? std::to_string(*v) : "NULL"; }

std::string ValuesSql(const std::vector<std::pair<Opt, Opt>>& rows) {
  std::string s = "(VALUES ";
  for (size_t i = 0; i < rows.size(); ++i) {
    s += (i ? ", (" : "(") + Text(rows[i].first) + ", " + Text(rows[i].second) + ")";
  }
  return s + ")";
}

std::vector<std::string> SortedRows(const QueryResult& r) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < r.num_rows(); ++i) {
    std::string line;
    for (int c = 0; c < r.num_columns(); ++c) {
      if (c) line += '|';
      line += r.GetText(i, c);
    }
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<Opt, Opt>> RandomRows(std::mt19937& rng, int n) {
  std::vector<std::pair<Opt, Opt>> rows;
  for (int i = 0; i < n; ++i) {
    Opt k = rng() % 7 == 0 ? Opt() : Opt(static_cast<int>(rng() % 8));
    rows.emplace_back(k, Opt(static_cast<int>(rng() % 100)));
  }
  return rows;
}

class JoinVsNestedLoop : public ::testing::TestWithParam<int> {};

TEST_P(JoinVsNestedLoop, AllJoinTypesMatchTheReference) {
  testing::TempDir dir;
  DatabaseOptions o;
  o.threads = GetParam();
  o.batch_size = 16;  // many batches, many build chunks
  auto db = Database::Open(dir.path(), o).ValueOrDie();
  auto con = db->Connect();
  std::mt19937 rng(5 + GetParam());
  for (int round = 0; round < 6; ++round) {
    auto left = RandomRows(rng, 40 + round * 10);
    auto right = RandomRows(rng, 30 + round * 7);
    const bool residual = round % 2 == 1;
    for (std::string type : {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
      for (bool equi : {true, false}) {
        std::string on = equi ? "a.k = b.k" : "a.k < b.k";
        if (residual) on += " AND a.v < b.v + 50";
        std::string sql = "SELECT a.k, a.v, b.k, b.v FROM " + ValuesSql(left) + " AS a(k, v) " + type + " " +
                          ValuesSql(right) + " AS b(k, v) ON " + on;
        auto match = [&](const std::pair<Opt, Opt>& l, const std::pair<Opt, Opt>& r) {
          if (!l.first || !r.first) return false;
          bool ok = equi ? *l.first == *r.first : *l.first < *r.first;
          if (residual) ok = ok && *l.second < *r.second + 50;
          return ok;
        };
        std::vector<std::string> expected;
        std::vector<bool> right_matched(right.size(), false);
        for (const auto& l : left) {
          bool any = false;
          for (size_t j = 0; j < right.size(); ++j) {
            if (!match(l, right[j])) continue;
            any = true;
            right_matched[j] = true;
            expected.push_back(Text(l.first) + "|" + Text(l.second) + "|" + Text(right[j].first) + "|" +
                               Text(right[j].second));
          }
          if (!any && (type == "LEFT JOIN" || type == "FULL JOIN")) {
            expected.push_back(Text(l.first) + "|" + Text(l.second) + "|NULL|NULL");
          }
        }
        if (type == "RIGHT JOIN" || type == "FULL JOIN") {
          for (size_t j = 0; j < right.size(); ++j) {
            if (!right_matched[j]) expected.push_back("NULL|NULL|" + Text(right[j].first) + "|" + Text(right[j].second));
          }
        }
        std::sort(expected.begin(), expected.end());
        auto r = con->Query(sql);
        ASSERT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
        ASSERT_EQ(SortedRows(*r), expected) << sql;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, JoinVsNestedLoop, ::testing::Values(1, 3));

TEST(HashAggregate, MatchesABruteForceGroupByWithNullKeysAndStrings) {
  testing::TempDir dir;
  DatabaseOptions o;
  o.threads = 3;
  o.batch_size = 10;
  auto db = Database::Open(dir.path(), o).ValueOrDie();
  auto con = db->Connect();
  std::mt19937 rng(3);
  auto rows = RandomRows(rng, 300);
  // Group by the key and by a string derived from it; aggregate the value.
  std::map<std::pair<Opt, std::string>, std::vector<int>> groups;
  for (const auto& r : rows) {
    std::string s = r.first ? std::string(*r.first % 3, 'x') : "NULL";
    groups[{r.first, s}].push_back(*r.second);
  }
  std::vector<std::string> expected;
  for (const auto& [k, vals] : groups) {
    long sum = 0;
    for (int v : vals) sum += v;
    expected.push_back(Text(k.first) + "|" + (k.second.empty() ? "" : k.second) + "|" + std::to_string(vals.size()) +
                       "|" + std::to_string(sum) + "|" + std::to_string(*std::min_element(vals.begin(), vals.end())) +
                       "|" + std::to_string(*std::max_element(vals.begin(), vals.end())));
  }
  std::sort(expected.begin(), expected.end());
  std::string sql =
      "SELECT k, s, count(*), sum(v), min(v), max(v) FROM (SELECT k, v, CASE WHEN k IS NULL THEN 'NULL' ELSE "
      "repeat('x', k % 3) END AS s FROM " +
      ValuesSql(rows) + " AS t(k, v)) AS q GROUP BY k, s";
  auto r = con->Query(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(SortedRows(*r), expected);
}

}  // namespace
}  // namespace shoal
