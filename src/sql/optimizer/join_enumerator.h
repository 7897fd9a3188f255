// Join enumeration over a query graph of up to 64 relations (bit sets): DPccp (Moerkotte &
// Neumann, "Analysis of two existing and one new dynamic programming algorithm for the
// generation of optimal bushy join trees without cross products", VLDB 2006) for connected
// components of at most `max_dp` relations, greedy operator ordering (GOO, Fegaras 1998) for
// larger ones, and cross products between components, cheapest result first. Cost is C_out:
// the sum of the estimated sizes of all intermediate results (leaves cost 0).
//
// Thread-safety: a JoinEnumerator is used by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace shoal::sql {

using RelationSet = uint64_t;

struct JoinTreeNode {
  RelationSet set = 0;
  double rows = 0;  // estimated result size
  double cost = 0;  // C_out of the subtree
  RelationSet left = 0, right = 0;  // children (0 for a leaf); unordered: left is no probe hint
};

class JoinEnumerator {
 public:
  // `neighbors[i]`: relations sharing a predicate with relation i. `rows(S)`: estimated size of
  // the join of set S (must not depend on how S is split).
  JoinEnumerator(std::vector<RelationSet> neighbors, std::function<double(RelationSet)> rows, int max_dp);

  // The best tree over all relations; its nodes are reachable through Node().
  const JoinTreeNode& Solve();
  const JoinTreeNode& Node(RelationSet set) const { return table_.at(set); }
  // Number of csg-cmp pairs considered (tests of the enumeration).
  int64_t pairs_considered() const { return pairs_; }

 private:
  RelationSet Neighborhood(RelationSet s, RelationSet exclude) const;
  void Dpccp(RelationSet component);
  void EnumerateCsgRec(RelationSet s, RelationSet x, RelationSet component);
  void EmitCsg(RelationSet s1, RelationSet component);
  void EnumerateCmpRec(RelationSet s1, RelationSet s2, RelationSet x, RelationSet component);
  void EmitPair(RelationSet s1, RelationSet s2);
  // Costs the pairs DPccp emitted, by increasing result size.
  void CostPairs();
  // Greedy merging of `parts` (sets already in the table); connected pairs first.
  RelationSet Greedy(std::vector<RelationSet> parts);

  std::vector<RelationSet> neighbors_;
  std::function<double(RelationSet)> rows_;
  int max_dp_;
  int n_;
  std::unordered_map<RelationSet, JoinTreeNode> table_;
  std::vector<std::pair<RelationSet, RelationSet>> pending_;
  int64_t pairs_ = 0;
};

}  // namespace shoal::sql
