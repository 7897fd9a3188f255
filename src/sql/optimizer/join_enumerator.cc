#include "sql/optimizer/join_enumerator.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace shoal::sql {

namespace {

RelationSet Bit(int i) { return RelationSet{1} << i; }
// {0, ..., i}: the relations numbered at most i.
RelationSet UpTo(int i) { return i >= 63 ? ~RelationSet{0} : (Bit(i + 1) - 1); }
int Lowest(RelationSet s) { return std::countr_zero(s); }
// Subsets are enumerated in increasing numeric order, `sub = (sub - n) & n`, so every subset
// of a set comes before it ("subsets first", which DPccp's table order relies on).

}  // namespace

JoinEnumerator::JoinEnumerator(std::vector<RelationSet> neighbors, std::function<double(RelationSet)> rows,
                               int max_dp)
    : neighbors_(std::move(neighbors)), rows_(std::move(rows)), max_dp_(max_dp),
      n_(static_cast<int>(neighbors_.size())) {}

RelationSet JoinEnumerator::Neighborhood(RelationSet s, RelationSet exclude) const {
  RelationSet n = 0;
  for (RelationSet t = s; t; t &= t - 1) n |= neighbors_[Lowest(t)];
  return n & ~s & ~exclude;
}

void JoinEnumerator::EmitPair(RelationSet s1, RelationSet s2) {
  ++pairs_;
  pending_.emplace_back(s1, s2);
}

void JoinEnumerator::CostPairs() {
  // Smaller results first, so both inputs of a pair have their best plans when it is costed,
  // whatever the numbering of the relations.
  std::stable_sort(pending_.begin(), pending_.end(), [](const auto& a, const auto& b) {
    return std::popcount(a.first | a.second) < std::popcount(b.first | b.second);
  });
  for (const auto& [s1, s2] : pending_) {
    auto a = table_.find(s1), b = table_.find(s2);
    if (a == table_.end() || b == table_.end()) continue;
    const RelationSet s = s1 | s2;
    auto it = table_.find(s);
    double rows = it != table_.end() ? it->second.rows : rows_(s);
    double cost = rows + a->second.cost + b->second.cost;
    if (it == table_.end() || cost < it->second.cost) table_[s] = JoinTreeNode{s, rows, cost, s1, s2};
  }
  pending_.clear();
}

void JoinEnumerator::EnumerateCmpRec(RelationSet s1, RelationSet s2, RelationSet x, RelationSet component) {
  RelationSet n = Neighborhood(s2, x) & component;
  if (!n) return;
  for (RelationSet sub = (0 - n) & n; sub; sub = (sub - n) & n) EmitPair(s1, s2 | sub);
  for (RelationSet sub = (0 - n) & n; sub; sub = (sub - n) & n) EnumerateCmpRec(s1, s2 | sub, x | n, component);
}

void JoinEnumerator::EmitCsg(RelationSet s1, RelationSet component) {
  RelationSet x = s1 | (UpTo(Lowest(s1)) & component);
  RelationSet n = Neighborhood(s1, x) & component;
  for (int i = n_ - 1; i >= 0; --i) {
    if (!(n & Bit(i))) continue;
    EmitPair(s1, Bit(i));
    EnumerateCmpRec(s1, Bit(i), x | (UpTo(i) & n), component);
  }
}

void JoinEnumerator::EnumerateCsgRec(RelationSet s, RelationSet x, RelationSet component) {
  RelationSet n = Neighborhood(s, x) & component;
  if (!n) return;
  for (RelationSet sub = (0 - n) & n; sub; sub = (sub - n) & n) EmitCsg(s | sub, component);
  for (RelationSet sub = (0 - n) & n; sub; sub = (sub - n) & n) EnumerateCsgRec(s | sub, x | n, component);
}

void JoinEnumerator::Dpccp(RelationSet component) {
  for (int i = n_ - 1; i >= 0; --i) {
    if (!(component & Bit(i))) continue;
    EmitCsg(Bit(i), component);
    EnumerateCsgRec(Bit(i), UpTo(i) & component, component);
  }
  CostPairs();
}

RelationSet JoinEnumerator::Greedy(std::vector<RelationSet> parts) {
  while (parts.size() > 1) {
    size_t bi = 0, bj = 1;
    double best = std::numeric_limits<double>::infinity();
    bool best_connected = false;
    for (size_t i = 0; i < parts.size(); ++i) {
      for (size_t j = i + 1; j < parts.size(); ++j) {
        bool connected = (Neighborhood(parts[i], 0) & parts[j]) != 0;
        if (best_connected && !connected) continue;
        double r = rows_(parts[i] | parts[j]);
        if ((connected && !best_connected) || r < best) {
          best = r, bi = i, bj = j, best_connected = connected;
        }
      }
    }
    const RelationSet a = parts[bi], b = parts[bj];
    const RelationSet s = a | b;
    table_[s] = JoinTreeNode{s, best, best + table_.at(a).cost + table_.at(b).cost, a, b};
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(bj));
    parts[bi] = s;
  }
  return parts[0];
}

const JoinTreeNode& JoinEnumerator::Solve() {
  for (int i = 0; i < n_; ++i) table_[Bit(i)] = JoinTreeNode{Bit(i), rows_(Bit(i)), 0, 0, 0};
  // Connected components.
  std::vector<RelationSet> components;
  RelationSet seen = 0;
  for (int i = 0; i < n_; ++i) {
    if (seen & Bit(i)) continue;
    RelationSet c = Bit(i);
    for (RelationSet grow = c; grow;) {
      RelationSet next = Neighborhood(c, 0);
      grow = next & ~c;
      c |= next;
    }
    seen |= c;
    components.push_back(c);
  }
  std::vector<RelationSet> roots;
  for (RelationSet c : components) {
    if (std::popcount(c) <= max_dp_) {
      Dpccp(c);
      if (table_.count(c)) {
        roots.push_back(c);
        continue;
      }
    }
    std::vector<RelationSet> singles;
    for (RelationSet t = c; t; t &= t - 1) singles.push_back(RelationSet{1} << Lowest(t));
    roots.push_back(Greedy(std::move(singles)));
  }
  return table_.at(Greedy(std::move(roots)));
}

}  // namespace shoal::sql
