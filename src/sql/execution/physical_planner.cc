#include "sql/execution/physical_planner.h"

#include "sql/execution/physical_aggregate.h"
#include "sql/execution/physical_basic.h"
#include "sql/execution/physical_expand.h"
#include "sql/execution/physical_join.h"
#include "sql/execution/physical_sort.h"
#include "sql/execution/physical_window.h"

namespace shoal::sql {

Result<PhysicalPtr> CreatePhysicalPlan(const LogicalOperator& op) {
  std::vector<PhysicalPtr> children;
  for (const auto& c : op.children) {
    ASSIGN_OR_RETURN(PhysicalPtr p, CreatePhysicalPlan(*c));
    children.push_back(std::move(p));
  }
  columnar::SchemaPtr schema = op.Schema();
  PhysicalPtr out;
  switch (op.kind) {
    case LogicalKind::kGet: {
      ScanRequest req;
      req.columns = op.projected;
      req.filters = op.filters;
      req.limit_hint = op.limit_hint;
      out = std::make_unique<PhysicalTableScan>(schema, op.source, req);
      if (!op.filters.empty() && !op.source->ExactFilters()) {
        ASSIGN_OR_RETURN(expr::ExprPtr pred, expr::And(op.filters));
        auto f = std::make_unique<PhysicalFilter>(schema, pred);
        f->children.push_back(std::move(out));
        out = std::move(f);
      }
      return out;
    }
    case LogicalKind::kValues: out = std::make_unique<PhysicalValues>(schema, op.values); break;
    case LogicalKind::kFilter: out = std::make_unique<PhysicalFilter>(schema, op.predicate); break;
    case LogicalKind::kProject: out = std::make_unique<PhysicalProject>(schema, op.exprs); break;
    case LogicalKind::kAggregate:
      out = std::make_unique<PhysicalHashAggregate>(schema, op.groups, op.aggregates);
      break;
    case LogicalKind::kSort:
      out = std::make_unique<PhysicalSort>(schema, op.sort_keys, op.limit);
      break;
    case LogicalKind::kLimit: out = std::make_unique<PhysicalLimit>(schema, op.limit, op.offset); break;
    case LogicalKind::kJoin:
      if (!op.left_keys.empty()) {
        out = std::make_unique<PhysicalHashJoin>(schema, op.join_type, op.left_keys, op.right_keys,
                                                 op.predicate, op.children[0]->columns.size(),
                                                 op.children[1]->Schema());
      } else {
        out = std::make_unique<PhysicalNestedLoopJoin>(schema, op.join_type, op.predicate,
                                                       op.children[0]->columns.size(),
                                                       op.children[1]->Schema());
      }
      break;
    case LogicalKind::kUnion:
      out = std::make_unique<PhysicalCollect>(schema, static_cast<int>(children.size()), "UnionAll");
      break;
    case LogicalKind::kSetOp:
      out = std::make_unique<PhysicalSetOp>(schema, op.set_op, op.all);
      break;
    case LogicalKind::kWindow:
      out = std::make_unique<PhysicalWindow>(schema, op.children[0]->columns.size(), op.partition_by,
                                             op.sort_keys, op.windows);
      break;
    case LogicalKind::kExpand: out = std::make_unique<PhysicalExpand>(schema, op.expand_sets); break;
  }
  out->children = std::move(children);
  return out;
}

}  // namespace shoal::sql
