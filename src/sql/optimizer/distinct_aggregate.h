// Splits an aggregate whose aggregates are all DISTINCT over one and the same argument into two
// plain aggregates: `SELECT g, count(DISTINCT x) ... GROUP BY g` becomes a grouping by (g, x),
// which removes duplicates with the parallel hash aggregate, and then `count(x) GROUP BY g` over
// it. The per-aggregate DISTINCT set (expr's DistinctAgg) is kept for the mixed cases.
//
// Applies to count, sum, avg, min and max: they ignore NULL inputs, as DISTINCT does, so the
// NULL group of x that the first step keeps changes nothing.
//
// Thread-safety: pure function of its input.
#pragma once

#include "shoal/status.h"
#include "sql/binder/logical_plan.h"

namespace shoal::sql {

Status SplitDistinctAggregates(LogicalOperator* op);

}  // namespace shoal::sql
