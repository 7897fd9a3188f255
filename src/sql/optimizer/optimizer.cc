#include "sql/optimizer/optimizer.h"

#include "sql/optimizer/build_side.h"
#include "sql/optimizer/cardinality.h"
#include "sql/optimizer/constant_folding.h"
#include "sql/optimizer/decorrelation.h"
#include "sql/optimizer/distinct_aggregate.h"
#include "sql/optimizer/filter_pushdown.h"
#include "sql/optimizer/join_order.h"
#include "sql/optimizer/limit_pushdown.h"
#include "sql/optimizer/or_factoring.h"
#include "sql/optimizer/projection_pruning.h"
#include "sql/optimizer/semi_join_reduction.h"

namespace shoal::sql {

Result<LogicalPtr> Optimize(LogicalPtr plan, const OptimizerOptions& options) {
  ASSIGN_OR_RETURN(plan, Decorrelate(std::move(plan)));
  if (!options.rewrite) return plan;
  FoldConstants(plan.get());
  RETURN_NOT_OK(FactorOrPredicates(plan.get()));
  ASSIGN_OR_RETURN(plan, PushDownFilters(std::move(plan)));
  if (options.reorder_joins) {
    ASSIGN_OR_RETURN(plan, ReorderJoins(std::move(plan)));
    ASSIGN_OR_RETURN(plan, PushDownFilters(std::move(plan)));
    ASSIGN_OR_RETURN(plan, ChooseBuildSides(std::move(plan)));
  }
  RETURN_NOT_OK(ReduceAggregatesBySemiJoins(plan.get()));
  RETURN_NOT_OK(SplitDistinctAggregates(plan.get()));
  RETURN_NOT_OK(PruneColumns(plan.get()));
  PushDownLimits(plan.get());
  EstimateCardinalities(plan.get());
  return plan;
}

}  // namespace shoal::sql
