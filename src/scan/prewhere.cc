#include "scan/prewhere.h"

#include <algorithm>
#include <numeric>

namespace shoal::scan {

ConjunctOrder::ConjunctOrder(std::vector<double> static_cost) {
  seen_.resize(static_cost.size());
  for (size_t k = 0; k < static_cost.size(); ++k) seen_[k].prior_cost = std::max(static_cost[k], 1e-3);
  order_.resize(static_cost.size());
  std::iota(order_.begin(), order_.end(), 0);
  Reorder();
}

double ConjunctOrder::Rank(int k) const {
  const Observed& o = seen_[k];
  if (o.rows_in == 0) return o.prior_cost / 0.5;  // unobserved: assume half the rows go
  double cost = static_cast<double>(o.nanos) / static_cast<double>(o.rows_in) + 1e-3;
  double removed = 1.0 - static_cast<double>(o.rows_out) / static_cast<double>(o.rows_in);
  return cost / std::max(removed, 1e-3);
}

void ConjunctOrder::Record(int k, int64_t rows_in, int64_t rows_out, int64_t nanos) {
  Observed& o = seen_[k];
  o.rows_in += rows_in;
  o.rows_out += rows_out;
  o.nanos += nanos;
  if (++records_ % kReorderEvery == 0) Reorder();
}

void ConjunctOrder::Reorder() {
  bool any_observed = false;
  for (const Observed& o : seen_) any_observed |= o.rows_in > 0;
  if (any_observed) {
    // Observed and prior costs are in different units; rank unobserved conjuncts first so
    // each gets measured once.
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      bool sa = seen_[a].rows_in > 0, sb = seen_[b].rows_in > 0;
      if (sa != sb) return !sa;
      return Rank(a) < Rank(b);
    });
  } else {
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return Rank(a) < Rank(b); });
  }
}

bool PrewherePolicy::Lazy() const {
  if (batches_ < 4 || kept_ <= max_keep_) return true;
  // Keep measuring now and then: the data may change along the scan.
  return ++probe_ % 64 == 0;
}

void PrewherePolicy::Record(int64_t rows_in, int64_t rows_out) {
  if (rows_in <= 0) return;
  double f = static_cast<double>(rows_out) / static_cast<double>(rows_in);
  kept_ = batches_ == 0 ? f : 0.8 * kept_ + 0.2 * f;
  ++batches_;
}

double StaticConjunctCost(const expr::Expr& conjunct) {
  double cost = 0;
  expr::Visit(conjunct, [&](const expr::Expr& e) {
    if (e.kind == expr::ExprKind::kColumnRef) {
      cost += e.type->HasOffsets() ? 16 : std::max(1, e.type->SlotWidth());
    } else if (e.kind != expr::ExprKind::kLiteral) {
      cost += 1;
    }
  });
  return cost;
}

}  // namespace shoal::scan
