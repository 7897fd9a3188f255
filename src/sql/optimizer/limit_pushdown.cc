#include "sql/optimizer/limit_pushdown.h"

namespace shoal::sql {


void PushDownLimits(LogicalOperator* op) {
  for (auto& c : op->children) PushDownLimits(c.get());
  if (op->kind != LogicalKind::kLimit || op->limit < 0) return;
  const int64_t n = op->limit + op->offset;
  LogicalOperator* child = op->children[0].get();
  if (child->kind == LogicalKind::kSort && child->limit < 0) {
    child->limit = n;
    return;
  }
  while (child->kind == LogicalKind::kProject) child = child->children[0].get();
  if (child->kind == LogicalKind::kGet && child->filters.empty()) child->limit_hint = n;
}

}  // namespace shoal::sql
