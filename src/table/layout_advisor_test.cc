// The layout advisor on synthetic histories: which key it picks, near-optimality against every
// explicit key, hysteresis, and the read-fraction model's basic properties.
#include "table/layout_advisor.h"

#include <gtest/gtest.h>

#include <random>

namespace shoal::table {
namespace {

TableStats Stats(int64_t rows, std::vector<std::pair<std::string, double>> cols) {
  TableStats s;
  s.rows = rows;
  s.bytes = rows * 40;
  for (auto& [n, d] : cols) s.columns.push_back(ColumnStats{n, true, false, d});
  return s;
}

void AddQueries(QueryHistory* h, std::vector<ShapeTerm> terms, double selectivity, int n, int64_t rows,
                int64_t bytes) {
  for (int i = 0; i < n; ++i) {
    QueryLogEntry e;
    e.shape.terms = terms;
    e.rows_total = rows;
    e.rows_out = static_cast<int64_t>(selectivity * static_cast<double>(rows));
    e.bytes_read = bytes;
    h->Add(e);
  }
}

SortKey Lex(std::vector<std::string> c) { return SortKey{LocalSortMode::kLexicographic, std::move(c)}; }
SortKey Z(std::vector<std::string> c) { return SortKey{LocalSortMode::kZOrder, std::move(c)}; }

// Every explicit key over `cols` of up to 3 columns (lexicographic permutations and z-orders).
std::vector<SortKey> AllKeys(const std::vector<std::string>& cols) {
  std::vector<SortKey> out;
  for (size_t a = 0; a < cols.size(); ++a) {
    out.push_back(Lex({cols[a]}));
    for (size_t b = 0; b < cols.size(); ++b) {
      if (b == a) continue;
      out.push_back(Lex({cols[a], cols[b]}));
      if (a < b) out.push_back(Z({cols[a], cols[b]}));
      for (size_t c = 0; c < cols.size(); ++c) {
        if (c == a || c == b) continue;
        out.push_back(Lex({cols[a], cols[b], cols[c]}));
        if (a < b && b < c) out.push_back(Z({cols[a], cols[b], cols[c]}));
      }
    }
  }
  return out;
}

TEST(LayoutModel, EmptyKeyAndUnfilteredColumnsReadEverything) {
  TableStats s = Stats(10'000'000, {{"a", 0}, {"b", 0}});
  QueryShape q;
  q.terms = {{"a", PredicateClass::kEq}};
  EXPECT_DOUBLE_EQ(ModelReadFraction(SortKey{}, q, {0.001}, s), 1.0);
  EXPECT_DOUBLE_EQ(ModelReadFraction(Lex({"b"}), q, {0.001}, s), 1.0);
  EXPECT_LT(ModelReadFraction(Lex({"a"}), q, {0.001}, s), 0.01);
}

TEST(LayoutModel, SecondKeyColumnPrunesOnlyBehindALowCardinalityFirst) {
  QueryShape q;
  q.terms = {{"b", PredicateClass::kRange}};
  TableStats low = Stats(10'000'000, {{"a", 5}, {"b", 0}});
  TableStats high = Stats(10'000'000, {{"a", 1'000'000}, {"b", 0}});
  EXPECT_LT(ModelReadFraction(Lex({"a", "b"}), q, {0.01}, low), 0.05);
  EXPECT_DOUBLE_EQ(ModelReadFraction(Lex({"a", "b"}), q, {0.01}, high), 1.0);
}

TEST(LayoutAdvisor, PicksTheDominantFilterColumn) {
  TableStats s = Stats(10'000'000, {{"ts", 0}, {"user", 0}, {"flag", 3}});
  QueryHistory h;
  AddQueries(&h, {{"ts", PredicateClass::kRange}}, 0.01, 50, s.rows, s.bytes / 4);
  AddQueries(&h, {{"user", PredicateClass::kEq}}, 0.0001, 5, s.rows, s.bytes / 4);
  LayoutAdvice a = AdviseLayout(h, s, SortKey{});
  ASSERT_FALSE(a.ranked.empty());
  EXPECT_EQ(a.ranked[0].key.columns.front(), "ts");
  EXPECT_GT(a.ranked[0].skipped_fraction, 0.5);
}

TEST(LayoutAdvisor, PutsALowCardinalityEqualityColumnFirst) {
  // Point filters on mode (5 values) with a date range, and date ranges alone: (mode, date)
  // serves both nearly as well as (date) alone serves the second and much better the first.
  TableStats s = Stats(20'000'000, {{"mode", 0}, {"date", 2500}, {"id", 0}});
  QueryHistory h;
  AddQueries(&h, {{"mode", PredicateClass::kEq}}, 0.2, 20, s.rows, s.bytes / 3);
  AddQueries(&h, {{"mode", PredicateClass::kEq}, {"date", PredicateClass::kRange}}, 0.002, 40, s.rows, s.bytes / 3);
  AddQueries(&h, {{"date", PredicateClass::kRange}}, 0.01, 20, s.rows, s.bytes / 3);
  auto a = AdviseLayout(h, s, SortKey{});
  ASSERT_FALSE(a.ranked.empty());
  EXPECT_EQ(a.ranked[0].key, Lex({"mode", "date"})) << a.ranked[0].key.ToString();
}

TEST(LayoutAdvisor, ZOrdersTwoIndependentHighCardinalityColumns) {
  TableStats s = Stats(50'000'000, {{"x", 0}, {"y", 0}});
  QueryHistory h;
  AddQueries(&h, {{"x", PredicateClass::kRange}}, 0.001, 30, s.rows, s.bytes / 2);
  AddQueries(&h, {{"y", PredicateClass::kRange}}, 0.001, 30, s.rows, s.bytes / 2);
  auto a = AdviseLayout(h, s, SortKey{});
  ASSERT_FALSE(a.ranked.empty());
  EXPECT_EQ(a.ranked[0].key.mode, LocalSortMode::kZOrder) << a.ranked[0].key.ToString();
}

TEST(LayoutAdvisor, TooFewQueriesGiveNoRecommendation) {
  TableStats s = Stats(1'000'000, {{"a", 0}});
  QueryHistory h;
  AddQueries(&h, {{"a", PredicateClass::kEq}}, 0.001, 3, s.rows, s.bytes);
  auto a = AdviseLayout(h, s, SortKey{});
  EXPECT_TRUE(a.ranked.empty());
  EXPECT_FALSE(ChooseKey(a, std::nullopt, h, s).has_value());
}

TEST(LayoutAdvisor, IgnoresPartitionAndUnsortableColumns) {
  TableStats s = Stats(1'000'000, {{"p", 0}, {"m", 0}, {"a", 0}});
  s.columns[0].partition = true;
  s.columns[1].sortable = false;
  QueryHistory h;
  AddQueries(&h, {{"p", PredicateClass::kEq}}, 0.001, 50, s.rows, s.bytes);
  AddQueries(&h, {{"m", PredicateClass::kEq}}, 0.001, 50, s.rows, s.bytes);
  AddQueries(&h, {{"a", PredicateClass::kRange}}, 0.1, 10, s.rows, s.bytes);
  auto a = AdviseLayout(h, s, SortKey{});
  ASSERT_FALSE(a.ranked.empty());
  for (const auto& k : a.ranked) {
    for (const auto& c : k.key.columns) EXPECT_EQ(c, "a");
  }
}

TEST(LayoutAdvisor, KeepsThePersistedKeyUnlessTheNewOneIsClearlyBetter) {
  TableStats s = Stats(10'000'000, {{"a", 0}, {"b", 0}});
  QueryHistory h;
  AddQueries(&h, {{"b", PredicateClass::kRange}}, 0.01, 50, s.rows, s.bytes);
  AddQueries(&h, {{"a", PredicateClass::kRange}}, 0.01, 5, s.rows, s.bytes);
  auto a = AdviseLayout(h, s, Lex({"b"}));
  ASSERT_FALSE(a.ranked.empty());
  EXPECT_NE(a.ranked[0].key, Lex({"b"}));  // zorder(a, b) scores a little higher
  auto keep = ChooseKey(a, Lex({"b"}), h, s);
  ASSERT_TRUE(keep);
  EXPECT_EQ(keep->key, Lex({"b"}));  // but not 10% higher: no flapping
  QueryHistory shifted;
  AddQueries(&shifted, {{"a", PredicateClass::kRange}}, 0.01, 90, s.rows, s.bytes);
  AddQueries(&shifted, {{"b", PredicateClass::kRange}}, 0.01, 5, s.rows, s.bytes);
  auto a2 = AdviseLayout(shifted, s, Lex({"b"}));
  auto moved = ChooseKey(a2, Lex({"b"}), shifted, s);
  ASSERT_TRUE(moved);
  EXPECT_NE(moved->key, Lex({"b"}));
}

TEST(LayoutAdvisor, RandomWorkloadsPickWithinTenPercentOfTheBestExplicitKey) {
  std::mt19937_64 rng(42);
  const std::vector<std::string> cols = {"c0", "c1", "c2", "c3", "c4"};
  for (int iter = 0; iter < 200; ++iter) {
    std::vector<std::pair<std::string, double>> cs;
    for (const auto& c : cols) {
      int kind = static_cast<int>(rng() % 3);
      cs.push_back({c, kind == 0 ? 4.0 : kind == 1 ? 1000.0 : 0.0});
    }
    TableStats s = Stats(static_cast<int64_t>(1'000'000 + rng() % 50'000'000), cs);
    QueryHistory h;
    int shapes = 1 + static_cast<int>(rng() % 5);
    for (int q = 0; q < shapes; ++q) {
      std::vector<ShapeTerm> terms;
      int nterms = 1 + static_cast<int>(rng() % 2);
      for (int t = 0; t < nterms; ++t) {
        terms.push_back({cols[rng() % cols.size()], rng() % 2 ? PredicateClass::kEq : PredicateClass::kRange});
      }
      double sel = std::pow(10.0, -1.0 - static_cast<double>(rng() % 40) / 10.0);
      AddQueries(&h, terms, sel, 1 + static_cast<int>(rng() % 30), s.rows, s.bytes / 2);
    }
    h.Bound(128, 1e9);
    if (h.total_count < AdvisorOptions{}.min_history) continue;
    LayoutAdvice a = AdviseLayout(h, s, SortKey{});
    double best = 0;
    std::string best_key;
    for (const SortKey& k : AllKeys(cols)) {
      double sc = ScoreKey(k, h, [&] {
        // Same distinct estimates as the advisor derives from equality filters.
        TableStats filled = s;
        for (auto& c : filled.columns) {
          if (c.distinct_estimate > 0) continue;
          for (const auto& sh : h.shapes) {
            if (sh.shape.terms.size() == 1 && sh.shape.terms[0].column == c.name &&
                sh.shape.terms[0].op == PredicateClass::kEq && sh.avg_selectivity() > 0) {
              c.distinct_estimate = std::min<double>(static_cast<double>(s.rows), 1 / sh.avg_selectivity());
            }
          }
        }
        return filled;
      }(), SortKey{}).score;
      if (sc > best) best = sc, best_key = k.ToString();
    }
    if (best <= 0) continue;
    ASSERT_FALSE(a.ranked.empty()) << iter;
    EXPECT_GE(a.ranked[0].score, 0.9 * best) << iter << ": picked " << a.ranked[0].key.ToString() << ", best "
                                             << best_key;
  }
}

}  // namespace
}  // namespace shoal::table
