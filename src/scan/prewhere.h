// Prewhere (late materialization) support for FileSetScan: the run-time order of a scan's
// filter conjuncts and the per-batch choice between lazy and eager column reading.
//
// A worker evaluates the conjuncts one at a time, each on the rows still alive, reading a
// conjunct's columns only for those rows; the columns no conjunct needs are read last, for the
// survivors only. ConjunctOrder puts the conjunct that removes the most rows per unit of cost
// first (rank = cost per input row / fraction of rows removed, ascending), from observed
// counts and times; PrewherePolicy turns late materialization off for batches where the filter
// keeps most rows (then every column is read whole and the filter applied once, as the plain
// scan does).
//
// Thread-safety: not thread-safe; each worker owns its own instances.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/expr.h"

namespace shoal::scan {

class ConjunctOrder {
 public:
  // `static_cost[k]`: the prior cost estimate of conjunct k (e.g. bytes per row of the columns
  // it reads), used until it has been observed.
  explicit ConjunctOrder(std::vector<double> static_cost);

  // The conjuncts in the order to evaluate them.
  const std::vector<int>& order() const { return order_; }
  // Records one evaluation of conjunct k: rows in, rows out, nanoseconds spent (reading its
  // not yet read columns and evaluating it). Re-ranks every kReorderEvery records.
  void Record(int k, int64_t rows_in, int64_t rows_out, int64_t nanos);
  // The current rank of conjunct k (lower runs earlier).
  double Rank(int k) const;

  static constexpr int kReorderEvery = 16;

 private:
  void Reorder();

  struct Observed {
    double prior_cost = 1;
    int64_t rows_in = 0;
    int64_t rows_out = 0;
    int64_t nanos = 0;
  };
  std::vector<Observed> seen_;
  std::vector<int> order_;
  int records_ = 0;
};

// Tracks the fraction of rows the whole filter keeps and says whether the next batch should
// be read lazily (filter columns first, the rest only for survivors).
class PrewherePolicy {
 public:
  // Lazy reading while the kept fraction stays at or below `max_keep`.
  explicit PrewherePolicy(double max_keep = 0.6) : max_keep_(max_keep) {}
  bool Lazy() const;
  void Record(int64_t rows_in, int64_t rows_out);
  double kept() const { return kept_; }

 private:
  double max_keep_;
  double kept_ = 0;   // exponential moving average of rows_out / rows_in
  int64_t batches_ = 0;
  mutable int64_t probe_ = 0;
};

// The prior cost of evaluating `conjunct`: the summed slot widths (strings count 16) of the
// columns it reads, plus one per function call node.
double StaticConjunctCost(const expr::Expr& conjunct);

}  // namespace shoal::scan
