// The push-down step of decorrelation (decorrelation.h): a correlated subquery plan becomes
// an uncorrelated plan that also outputs the values of the outer columns it used (the
// domain D of Neumann & Kemper), so that joining it with the outer plan on those columns
// computes the dependent join.
//
// Thread-safety: pure functions of the plans they are given.
#pragma once

#include <vector>

#include "sql/binder/logical_plan.h"

namespace shoal::sql {

// One dependent join's correlations: outer-reference ids and their expressions over the
// outer (left) plan, which `outer` points to (not owned; cloned when D must be computed).
struct Correlation {
  std::vector<int> ids;
  std::vector<expr::ExprPtr> outer_exprs;
  const LogicalOperator* outer = nullptr;
};

// The subquery plan unnested: `plan` outputs the subquery's columns followed by one column
// per correlation id (D). `d_not_null`: D's columns came from equality predicates, so they
// are never NULL (and a NULL outer value has no partner, as in the subquery).
struct UnnestedSubquery {
  LogicalPtr plan;
  bool d_not_null = false;
};

// Whether `e` references any of `ids` (outer references).
bool RefersTo(const expr::Expr& e, const std::vector<int>& ids);
// Whether any expression of `op`'s tree references any of `ids`.
bool TreeRefersTo(const LogicalOperator& op, const std::vector<int>& ids);
// Replaces the outer references of `ids` by column `base + k` (k: position in ids).
Result<expr::ExprPtr> ReplaceOuterRefs(const expr::ExprPtr& e, const std::vector<int>& ids, int base);
// Equality of a and b that also holds when both are NULL, as `=` conjuncts when the type
// allows (so they become hash keys), else IS NOT DISTINCT FROM.
Result<std::vector<expr::ExprPtr>> NullSafeEquals(const expr::ExprPtr& a, const expr::ExprPtr& b);

// Pushes D through `plan` (see above). `missing_ok`: the consumer treats a D value without
// rows like one whose subquery value is NULL (a scalar subquery), so an aggregate without
// GROUP BY whose aggregates are NULL on empty input needs no outer join with D.
Result<UnnestedSubquery> PushDownDependentJoin(LogicalPtr plan, const Correlation& corr, bool missing_ok);

}  // namespace shoal::sql
