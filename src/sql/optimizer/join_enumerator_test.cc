// DPccp enumerates each connected-subgraph/complement pair exactly once (the counts of
// Moerkotte & Neumann's paper for chains, stars and cliques) and finds the C_out optimum; GOO
// covers graphs beyond the DP limit; disconnected graphs are crossed at the end.
#include "sql/optimizer/join_enumerator.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

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
