#include "sql/optimizer/optimizer.h"

#include "sql/optimizer/constant_folding.h"
#include "sql/optimizer/decorrelation.h"
#include "sql/optimizer/filter_pushdown.h"
#include "sql/optimizer/limit_pushdown.h"
#include "sql/optimizer/projection_pruning.h"

namespace shoal::sql {

Result<LogicalPtr> Optimize(LogicalPtr plan) {
  ASSIGN_OR_RETURN(plan, Decorrelate(std::move(plan)));
  FoldConstants(plan.get());
  ASSIGN_OR_RETURN(plan, PushDownFilters(std::move(plan)));
  RETURN_NOT_OK(PruneColumns(plan.get()));
  PushDownLimits(plan.get());
  return plan;
}

}  // namespace shoal::sql
