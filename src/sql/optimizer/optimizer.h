// Logical optimizer: runs the rules of this folder, one file each, in order — decorrelation
// (correlated subqueries to joins), constant folding, OR factoring, filter pushdown (with
// outer-to-inner join conversion), cost-based join ordering, filter pushdown again (the
// filters join ordering derived), build sides of outer joins, projection pruning, LIMIT
// pushdown — and finally annotates every operator with its estimated rows. doc/optimizer.md
// describes the pipeline and the estimation rules.
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

struct OptimizerOptions {
  // Reorder inner joins by estimated cost (SET shoal.join_order = 'off' keeps FROM order).
  bool reorder_joins = true;
  // Apply the rewrites (SET shoal.optimizer = 'off': false). Off keeps only decorrelation, which
  // execution needs to run a correlated subquery at all: filters stay where the binder put them,
  // joins keep their FROM order and ON keys, every column is read, no estimates are made. The
  // plan is the reference a differential test compares the rewritten one with.
  bool rewrite = true;
};

Result<LogicalPtr> Optimize(LogicalPtr plan, const OptimizerOptions& options = {});

}  // namespace shoal::sql
