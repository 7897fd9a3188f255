#include "sql/optimizer/semi_join_reduction.h"

#include "sql/optimizer/cardinality.h"

namespace shoal::sql {

namespace {

// The scan that column `col` of `op`'s output comes from, and the column of it; null when the
// column is computed or passes an operator that may add rows with new values of it.
LogicalOperator* TraceToGet(LogicalOperator* op, int col, int* get_col) {
  switch (op->kind) {
    case LogicalKind::kGet:
      *get_col = col;
      return op;
    case LogicalKind::kFilter:
    case LogicalKind::kSort:
    case LogicalKind::kLimit:
    case LogicalKind::kSample:
      return TraceToGet(op->children[0].get(), col, get_col);
    case LogicalKind::kProject: {
      const auto& e = op->exprs[col];
      if (e->kind != expr::ExprKind::kColumnRef) return nullptr;
      return TraceToGet(op->children[0].get(), e->column, get_col);
    }
    case LogicalKind::kAggregate: {
      if (col >= static_cast<int>(op->groups.size())) return nullptr;
      const auto& g = op->groups[col];
      if (g->kind != expr::ExprKind::kColumnRef) return nullptr;
      return TraceToGet(op->children[0].get(), g->column, get_col);
    }
    case LogicalKind::kJoin: {
      if (op->subquery) return nullptr;
      const int lw = static_cast<int>(op->children[0]->columns.size());
      const auto t = op->join_type;
      if (col < lw) {
        // Left columns: every join but RIGHT and FULL only removes (or keeps) left rows.
        if (t == LogicalJoinType::kRight || t == LogicalJoinType::kFull) return nullptr;
        return TraceToGet(op->children[0].get(), col, get_col);
      }
      if (t != LogicalJoinType::kInner && t != LogicalJoinType::kRight) return nullptr;
      return TraceToGet(op->children[1].get(), col - lw, get_col);
    }
    default: return nullptr;
  }
}

// The aggregate that columns `cols` of `op`'s output are groups of (walking down projections
// and filters); `groups` receives the group index of each.
LogicalOperator* FindGroupedAggregate(LogicalOperator* op, std::vector<int> cols, std::vector<int>* groups) {
  for (;;) {
    if (op->kind == LogicalKind::kFilter) {
      op = op->children[0].get();
    } else if (op->kind == LogicalKind::kProject) {
      for (int& c : cols) {
        const auto& e = op->exprs[c];
        if (e->kind != expr::ExprKind::kColumnRef) return nullptr;
        c = e->column;
      }
      op = op->children[0].get();
    } else {
      break;
    }
  }
  if (op->kind != LogicalKind::kAggregate || op->groups.empty()) return nullptr;
  for (int c : cols) {
    if (c >= static_cast<int>(op->groups.size())) return nullptr;
  }
  *groups = std::move(cols);
  return op;
}

// Key columns of a join side, or empty when a key is not a column reference.
std::vector<int> KeyColumns(const std::vector<expr::ExprPtr>& keys) {
  std::vector<int> cols;
  for (const auto& k : keys) {
    if (k->kind != expr::ExprKind::kColumnRef) return {};
    cols.push_back(k->column);
  }
  return cols;
}

// Reduces the aggregate below `agg_side` by the scan the keys of `other_side` come from.
Status TryReduce(LogicalOperator* agg_side, const std::vector<expr::ExprPtr>& agg_keys,
                 LogicalOperator* other_side, const std::vector<expr::ExprPtr>& other_keys,
                 CardinalityEstimator* est) {
  std::vector<int> agg_cols = KeyColumns(agg_keys), other_cols = KeyColumns(other_keys);
  if (agg_cols.empty() || other_cols.size() != agg_cols.size()) return Status::OK();
  std::vector<int> group_index;
  LogicalOperator* agg = FindGroupedAggregate(agg_side, agg_cols, &group_index);
  if (!agg) return Status::OK();
  LogicalOperator* get = nullptr;
  std::vector<int> get_cols;
  for (int c : other_cols) {
    int gc = -1;
    LogicalOperator* g = TraceToGet(other_side, c, &gc);
    if (!g || g->limit_hint >= 0 || g->filters.empty() || (get && g != get)) return Status::OK();
    get = g;
    get_cols.push_back(gc);
  }
  LogicalOperator* input = agg->children[0].get();
  const double input_rows = est->Estimate(input).rows;
  const double get_rows = est->Estimate(get).rows;
  if (input_rows < kReductionMinRows || get_rows * kReductionRatio > input_rows) return Status::OK();
  // The semi join: the aggregate's input probes the scan's keys.
  std::vector<expr::ExprPtr> left_keys, right_keys;
  for (size_t i = 0; i < get_cols.size(); ++i) {
    const expr::ExprPtr& g = agg->groups[group_index[i]];
    const auto& f = get->columns[get_cols[i]];
    if (!g->type->Equals(*f.type)) return Status::OK();
    left_keys.push_back(g);
    right_keys.push_back(expr::ColumnRef(get_cols[i], f.type, f.name, f.nullable));
  }
  auto semi = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  semi->join_type = LogicalJoinType::kSemi;
  semi->columns = input->columns;
  semi->left_keys = std::move(left_keys);
  semi->right_keys = std::move(right_keys);
  semi->children.push_back(std::move(agg->children[0]));
  semi->children.push_back(get->Clone());
  agg->children[0] = std::move(semi);
  return Status::OK();
}

Status Reduce(LogicalOperator* op, CardinalityEstimator* est) {
  for (auto& c : op->children) RETURN_NOT_OK(Reduce(c.get(), est));
  if (op->kind != LogicalKind::kJoin || op->subquery || op->left_keys.empty()) return Status::OK();
  LogicalOperator* left = op->children[0].get();
  LogicalOperator* right = op->children[1].get();
  switch (op->join_type) {
    case LogicalJoinType::kInner:
      RETURN_NOT_OK(TryReduce(right, op->right_keys, left, op->left_keys, est));
      return TryReduce(left, op->left_keys, right, op->right_keys, est);
    case LogicalJoinType::kLeft:
    case LogicalJoinType::kSingle:
    case LogicalJoinType::kSemi:
      return TryReduce(right, op->right_keys, left, op->left_keys, est);
    case LogicalJoinType::kRight:
      return TryReduce(left, op->left_keys, right, op->right_keys, est);
    default: return Status::OK();
  }
}

}  // namespace

Status ReduceAggregatesBySemiJoins(LogicalOperator* plan) {
  CardinalityEstimator est;
  return Reduce(plan, &est);
}

}  // namespace shoal::sql
