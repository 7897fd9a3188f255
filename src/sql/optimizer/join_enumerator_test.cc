// DPccp enumerates each connected-subgraph/complement pair exactly once (the counts of
// Moerkotte & Neumann's paper for chains, stars and cliques) and finds the C_out optimum; GOO
// covers graphs beyond the DP limit; disconnected graphs are crossed at the end.
#include "sql/optimizer/join_enumerator.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <random>

namespace shoal::sql {
namespace {

std::vector<RelationSet> Chain(int n) {
  std::vector<RelationSet> nb(n, 0);
  for (int i = 0; i + 1 < n; ++i) nb[i] |= RelationSet{1} << (i + 1), nb[i + 1] |= RelationSet{1} << i;
  return nb;
}
std::vector<RelationSet> Star(int n) {
  std::vector<RelationSet> nb(n, 0);
  for (int i = 1; i < n; ++i) nb[0] |= RelationSet{1} << i, nb[i] |= 1;
  return nb;
}
std::vector<RelationSet> Clique(int n) {
  std::vector<RelationSet> nb(n);
  for (int i = 0; i < n; ++i) nb[i] = ((RelationSet{1} << n) - 1) & ~(RelationSet{1} << i);
  return nb;
}
double Size(RelationSet s) { return 10.0 * std::popcount(s); }

TEST(JoinEnumerator, CountsCsgCmpPairsOfChainsStarsAndCliques) {
  for (int n = 2; n <= 8; ++n) {
    JoinEnumerator chain(Chain(n), Size, 12);
    chain.Solve();
    EXPECT_EQ(chain.pairs_considered(), (n * n * n - n) / 6) << "chain " << n;
    JoinEnumerator star(Star(n), Size, 12);
    star.Solve();
    EXPECT_EQ(star.pairs_considered(), (n - 1) * (int64_t{1} << (n - 2))) << "star " << n;
    JoinEnumerator clique(Clique(n), Size, 12);
    clique.Solve();
    EXPECT_EQ(clique.pairs_considered(), (static_cast<int64_t>(std::pow(3, n)) - (int64_t{1} << (n + 1)) + 1) / 2)
        << "clique " << n;
  }
}

TEST(JoinEnumerator, FindsTheCheapestChainOrder) {
  // Chain 0-1-2-3 where joining 2 and 3 first is tiny: the best plan joins them first.
  auto rows = [](RelationSet s) -> double {
    if (s == 0b1100) return 1;
    if ((s & 0b1100) == 0b1100) return 5;
    return 1000.0 * std::popcount(s);
  };
  JoinEnumerator e(Chain(4), rows, 12);
  const JoinTreeNode& root = e.Solve();
  EXPECT_EQ(root.set, RelationSet{0b1111});
  // Every plan ends with a 4-relation result of 5 rows; the best adds {2,3} (1) and {1,2,3} (5).
  EXPECT_DOUBLE_EQ(root.cost, 5 + 5 + 1);
}

// Brute-force DP over all connected subsets and all their connected splits.
double BestCost(const std::vector<RelationSet>& nb, const std::function<double(RelationSet)>& rows) {
  const int n = static_cast<int>(nb.size());
  auto connected = [&](RelationSet s) {
    RelationSet seen = s & (0 - s);
    for (bool grew = true; grew;) {
      RelationSet next = seen;
      for (int i = 0; i < n; ++i) {
        if (seen & (RelationSet{1} << i)) next |= nb[i] & s;
      }
      grew = next != seen;
      seen = next;
    }
    return seen == s;
  };
  std::vector<double> best(RelationSet{1} << n, -1);
  for (int i = 0; i < n; ++i) best[RelationSet{1} << i] = 0;
  for (RelationSet s = 1; s < (RelationSet{1} << n); ++s) {
    if (std::popcount(s) < 2 || !connected(s)) continue;
    for (RelationSet a = (s - 1) & s; a; a = (a - 1) & s) {
      RelationSet b = s & ~a;
      if (best[a] < 0 || best[b] < 0 || !connected(a) || !connected(b)) continue;
      double c = rows(s) + best[a] + best[b];
      if (best[s] < 0 || c < best[s]) best[s] = c;
    }
  }
  return best[(RelationSet{1} << n) - 1];
}

TEST(JoinEnumerator, MatchesExhaustiveSearchOnRandomGraphs) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    const int n = 2 + static_cast<int>(rng() % 7);
    std::vector<RelationSet> nb(n, 0);
    for (int i = 1; i < n; ++i) {  // a random spanning tree, then extra edges
      int j = static_cast<int>(rng() % i);
      nb[i] |= RelationSet{1} << j, nb[j] |= RelationSet{1} << i;
    }
    for (int e = 0; e < n; ++e) {
      int i = static_cast<int>(rng() % n), j = static_cast<int>(rng() % n);
      if (i != j) nb[i] |= RelationSet{1} << j, nb[j] |= RelationSet{1} << i;
    }
    std::vector<double> base(n), edge(64 * 64, 1);
    for (auto& b : base) b = 1 + static_cast<double>(rng() % 100000);
    for (auto& e : edge) e = 1.0 / (1 + static_cast<double>(rng() % 1000));
    auto rows = [&](RelationSet s) {
      double r = 1;
      for (int i = 0; i < n; ++i) {
        if (!(s & (RelationSet{1} << i))) continue;
        r *= base[i];
        for (int j = i + 1; j < n; ++j) {
          if ((s & (RelationSet{1} << j)) && (nb[i] & (RelationSet{1} << j))) r *= edge[i * 64 + j];
        }
      }
      return r;
    };
    JoinEnumerator e(nb, rows, 12);
    EXPECT_NEAR(e.Solve().cost, BestCost(nb, rows), 1e-6 * BestCost(nb, rows)) << "round " << round;
  }
}

TEST(JoinEnumerator, GreedyBeyondTheDpLimitAndCrossProductsBetweenComponents) {
  JoinEnumerator big(Chain(20), Size, 12);
  EXPECT_EQ(big.Solve().set, (RelationSet{1} << 20) - 1);
  // Two components {0,1} and {2,3}: one cross product on top.
  std::vector<RelationSet> nb = {0b10, 0b01, 0b1000, 0b0100};
  JoinEnumerator split(nb, Size, 12);
  const JoinTreeNode& root = split.Solve();
  EXPECT_EQ(root.set, RelationSet{0b1111});
  EXPECT_TRUE((root.left == 0b0011 && root.right == 0b1100) || (root.left == 0b1100 && root.right == 0b0011));
}

}  // namespace
}  // namespace shoal::sql
