// Semi-join reduction of aggregates: when a join's input is an aggregate grouped by the join
// keys (what decorrelating `x > (SELECT agg(...) FROM big WHERE big.k = outer.k)` gives) and the
// join's other input draws its keys from a small filtered table, the aggregate only needs the
// groups of those keys. The rule puts a semi join with a copy of that table scan (its filters
// included) under the aggregate, so `big` is reduced before it is grouped: TPC-H Q17 groups
// ~6,000 lineitem rows instead of 6 million, Q20 ~14,000 instead of 900,000.
//
// Applies when the aggregate side's unmatched rows are dropped by the join (INNER, LEFT or
// SINGLE with the aggregate on the right, SEMI with it on the right, RIGHT or INNER with it on
// the left), every key reaches the aggregate's groups through column references, every key of
// the other side traces to one scan through projections, filters, joins that only remove its
// rows, and aggregates, and that scan has filters (an unfiltered one holds every key) and is
// estimated at most 1/kReductionRatio of the aggregate's
// input. Anti and mark joins are left alone (NULL semantics of NOT IN).
//
// Thread-safety: pure function of its input.
#pragma once

#include "shoal/status.h"
#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// The reducing scan must be estimated this many times smaller than the aggregate's input.
inline constexpr double kReductionRatio = 8.0;
// Aggregates over fewer input rows than this are not worth a second scan.
inline constexpr double kReductionMinRows = 50000;

Status ReduceAggregatesBySemiJoins(LogicalOperator* plan);

}  // namespace shoal::sql
