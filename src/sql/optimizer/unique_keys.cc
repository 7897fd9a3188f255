#include "sql/optimizer/unique_keys.h"

#include <algorithm>

namespace shoal::sql {

namespace {

bool Contains(const std::vector<int>& set, int v) { return std::find(set.begin(), set.end(), v) != set.end(); }

}  // namespace

bool IsUniqueOn(const LogicalOperator& op, const std::vector<int>& columns) {
  switch (op.kind) {
    case LogicalKind::kGet: {
      if (!op.source) return false;
      for (const std::vector<int>& key : op.source->UniqueKeys()) {
        // Every key column must be an output column among `columns`.
        bool covered = !key.empty();
        for (int source_column : key) {
          auto it = std::find(op.projected.begin(), op.projected.end(), source_column);
          covered = covered && it != op.projected.end() &&
                    Contains(columns, static_cast<int>(it - op.projected.begin()));
        }
        if (covered) return true;
      }
      return false;
    }
    case LogicalKind::kFilter:
    case LogicalKind::kSort:
    case LogicalKind::kLimit:
    case LogicalKind::kSample: return IsUniqueOn(*op.children[0], columns);
    case LogicalKind::kProject: {
      // Unique on a subset of the columns means unique on all of them: follow the bare
      // column references only.
      std::vector<int> below;
      for (int c : columns) {
        if (c < 0 || c >= static_cast<int>(op.exprs.size())) continue;
        const auto& e = op.exprs[static_cast<size_t>(c)];
        if (e->kind == expr::ExprKind::kColumnRef) below.push_back(e->column);
      }
      return IsUniqueOn(*op.children[0], below);
    }
    case LogicalKind::kAggregate: {
      // One row per group: unique on the GROUP BY columns (a global aggregate: one row). With
      // grouping sets the groups come from an Expand below that adds the set's id as a group.
      for (size_t g = 0; g < op.groups.size(); ++g) {
        if (!Contains(columns, static_cast<int>(g))) return false;
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace shoal::sql
