// Cost-based join ordering. Each maximal region of inner joins and cross products becomes a
// query graph: its base relations (any subtree that is no inner join, itself reordered
// inside) and its predicates, with key equalities closed into equivalence classes (a = b AND
// b = c also joins a with c). Connected components of up to kMaxDpRelations relations are
// enumerated by DPccp (Moerkotte & Neumann 2006: every connected-subgraph/complement pair
// once, so no cross products), larger ones greedily (GOO); components are then combined by
// cross products, smallest result first. Cost is C_out (the sum of intermediate result sizes,
// cardinality.h); the smaller input of every join is its right (build) side. The region is
// replaced by the new tree under a projection restoring its column order, so parents are
// unchanged.
//
// Per-relation predicates the region implies are added below the joins: for an OR over
// several relations, the OR of each branch's conjuncts on one relation (ImpliedByOr), and for
// a key equal to a constant in one relation, the same constant for every key in its
// equivalence class (a = b AND a = 5 ⇒ b = 5).
//
// Thread-safety: pure function of its input.
#pragma once

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

inline constexpr int kMaxDpRelations = 12;

// Reorders every inner-join region of `plan`. Expects filters pushed down (filter_pushdown.h),
// so WHERE conjuncts sit in the joins; run filter pushdown again afterwards to move the
// derived per-relation filters into scans.
Result<LogicalPtr> ReorderJoins(LogicalPtr plan);

}  // namespace shoal::sql
