#include "sql/execution/physical_planner.h"

#include "sql/execution/physical_aggregate.h"
#include "sql/execution/physical_basic.h"
#include "sql/execution/physical_expand.h"
#include "sql/execution/physical_generate.h"
#include "sql/execution/physical_join.h"
#include "sql/execution/physical_sample.h"
#include "sql/execution/physical_sort.h"
#include "sql/execution/physical_window.h"
#include "sql/execution/runtime_filter.h"

namespace shoal::sql {

namespace {

// A SEMI or ANTI join builds on its left (output) input when the optimizer estimates it at
// least kOutputBuildRatio times smaller than the right (TPC-H Q4: 57k orders against 3.8M
// lineitem rows).
constexpr double kOutputBuildRatio = 4.0;

bool BuildOnOutputSide(const LogicalOperator& op) {
  if (op.join_type != LogicalJoinType::kSemi && op.join_type != LogicalJoinType::kAnti) return false;
  const double l = op.children[0]->estimated_rows, r = op.children[1]->estimated_rows;
  return l >= 0 && r >= 0 && l * kOutputBuildRatio < r;
}

}  // namespace

static Result<PhysicalPtr> CreateOperator(const LogicalOperator& op) {
  std::vector<PhysicalPtr> children;
  for (const auto& c : op.children) {
    ASSIGN_OR_RETURN(PhysicalPtr p, CreateOperator(*c));
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
      out->estimated_rows = op.estimated_rows;
      if (!op.filters.empty() && !op.source->ExactFilters()) {
        ASSIGN_OR_RETURN(expr::ExprPtr pred, expr::And(op.filters));
        auto f = std::make_unique<PhysicalFilter>(schema, pred);
        auto rows = op.source->EstimatedRows();
        out->estimated_rows = rows ? static_cast<double>(*rows) : -1;
        f->estimated_rows = op.estimated_rows;
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
      if (!op.left_keys.empty() && BuildOnOutputSide(op)) {
        // SEMI/ANTI with a much smaller left input: hash the left, probe with the right.
        const int lw = static_cast<int>(op.children[0]->columns.size());
        const int rw = static_cast<int>(op.children[1]->columns.size());
        std::vector<int> to_swapped(lw + rw);
        for (int i = 0; i < lw; ++i) to_swapped[i] = rw + i;
        for (int j = 0; j < rw; ++j) to_swapped[lw + j] = j;
        expr::ExprPtr residual;
        if (op.predicate) {
          ASSIGN_OR_RETURN(residual, expr::RemapColumns(op.predicate, to_swapped));
        }
        auto join = std::make_unique<PhysicalHashJoin>(schema, op.join_type, op.right_keys, op.left_keys,
                                                       residual, op.children[1]->columns.size(),
                                                       op.children[0]->Schema());
        join->EmitBuildSide();
        std::swap(children[0], children[1]);
        out = std::move(join);
      } else if (!op.left_keys.empty()) {
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
    case LogicalKind::kSample:
      out = std::make_unique<PhysicalSample>(schema, op.sample_fraction, op.sample_seed);
      break;
    case LogicalKind::kGenerate:
      out = std::make_unique<PhysicalGenerate>(schema, op.children[0]->columns.size(), op.generator,
                                               op.generate_kind, op.generate_outer);
      break;
  }
  out->children = std::move(children);
  out->estimated_rows = op.estimated_rows;
  return out;
}

Result<PhysicalPtr> CreatePhysicalPlan(const LogicalOperator& op) {
  ASSIGN_OR_RETURN(PhysicalPtr root, CreateOperator(op));
  PlanRuntimeFilters(root.get());
  return root;
}

}  // namespace shoal::sql
