// Estimates output rows and per-column distinct counts of logical operators, bottom-up, from
// the sources' row counts and column statistics (TableSource::ColumnStatistics); stores the
// rows on every operator (LogicalOperator::estimated_rows) for the join enumerator and EXPLAIN.
// The rules are in doc/optimizer.md: equality 1/NDV, ranges by min/max interpolation, IN n/NDV,
// AND as a product (ranges on one column combined), OR by inclusion–exclusion, equi-joins
// |L|·|R|/max(NDV_l, NDV_r) per key, aggregates by the product of group NDVs.
//
// Thread-safety: a CardinalityEstimator is used by one thread (it caches source statistics).
#pragma once

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "columnar/value.h"
#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// What is known about one output column.
// A column read from a source carries `source` until its statistics are first needed, so
// only the columns a predicate, key or group uses cost a statistics lookup.
struct ColumnEstimate {
  double distinct = -1;  // < 0: unknown
  bool unique = false;   // a RELY key of its table: distinct is the row count, whatever statistics say
  std::optional<columnar::Value> min, max;
  double null_fraction = 0;
  const TableSource* source = nullptr;  // statistics not loaded yet
  int source_column = -1;
  double source_rows = 0;
};

struct PlanEstimate {
  double rows = 1;
  std::vector<ColumnEstimate> columns;  // parallel to the operator's output columns
};

class CardinalityEstimator {
 public:
  // Estimates `op`'s subtree, setting estimated_rows on each operator of it.
  PlanEstimate Estimate(LogicalOperator* op);
  // Fraction of `input`'s rows for which `pred` (over its columns) is true, in [0, 1].
  double Selectivity(const expr::Expr& pred, const PlanEstimate& input) const;
  // Distinct values of `e` over `input` (at least 1, at most input.rows).
  double Distinct(const expr::Expr& e, const PlanEstimate& input) const;

  // Defaults when nothing is known.
  static constexpr double kDefaultRows = 1000;
  static constexpr double kDefaultSelectivity = 0.2;
  static constexpr double kEqualitySelectivity = 0.1;
  static constexpr double kRangeSelectivity = 1.0 / 3;
  static constexpr double kLikeSelectivity = 0.1;
  static constexpr double kNullSelectivity = 0.05;

 private:
  PlanEstimate EstimateGet(const LogicalOperator& op);
  PlanEstimate EstimateJoin(const LogicalOperator& op, const PlanEstimate& l, const PlanEstimate& r) const;
  double AndSelectivity(const std::vector<expr::ExprPtr>& args, const PlanEstimate& input) const;
  double CompareSelectivity(const expr::Expr& pred, const PlanEstimate& input) const;
  // Column `column` of `in` with its source statistics loaded; nullopt when out of range.
  std::optional<ColumnEstimate> Column(const PlanEstimate& in, int column) const;

  mutable std::map<std::pair<const TableSource*, int>, std::optional<ColumnStats>> cache_;
};

// Estimates the whole plan (EXPLAIN's numbers).
void EstimateCardinalities(LogicalOperator* root);

}  // namespace shoal::sql
