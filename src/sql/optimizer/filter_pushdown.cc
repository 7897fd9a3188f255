#include "sql/optimizer/filter_pushdown.h"

#include <algorithm>

#include "sql/optimizer/expr_rewrite.h"
#include "sql/optimizer/outer_join_simplification.h"

namespace shoal::sql {

namespace {

using expr::ExprPtr;

Result<LogicalPtr> WrapFilter(LogicalPtr op, std::vector<ExprPtr> preds) {
  std::vector<ExprPtr> keep;
  for (auto& p : preds) {
    if (!IsTrue(p)) keep.push_back(p);
  }
  if (keep.empty()) return op;
  ASSIGN_OR_RETURN(ExprPtr pred, expr::And(keep));
  return MakeFilter(std::move(op), pred);
}

Result<LogicalPtr> PushFilters(LogicalPtr op, std::vector<ExprPtr> preds);

Status PushIntoChildren(LogicalOperator* op) {
  for (auto& c : op->children) {
    ASSIGN_OR_RETURN(c, PushFilters(std::move(c), {}));
  }
  return Status::OK();
}

Result<LogicalPtr> PushFilters(LogicalPtr op, std::vector<ExprPtr> preds) {
  switch (op->kind) {
    case LogicalKind::kFilter: {
      SplitConjuncts(op->predicate, &preds);
      return PushFilters(std::move(op->children[0]), std::move(preds));
    }
    case LogicalKind::kProject: {
      std::vector<ExprPtr> below;
      for (const auto& p : preds) below.push_back(expr::Fold(Substitute(p, op->exprs)));
      ASSIGN_OR_RETURN(op->children[0], PushFilters(std::move(op->children[0]), std::move(below)));
      return op;
    }
    case LogicalKind::kAggregate: {
      std::vector<ExprPtr> below, above;
      const int ng = static_cast<int>(op->groups.size());
      for (const auto& p : preds) {
        auto cols = expr::CollectColumns(*p);
        bool groups_only = !cols.empty() && std::all_of(cols.begin(), cols.end(), [&](int c) { return c < ng; });
        if (groups_only) {
          below.push_back(expr::Fold(Substitute(p, op->groups)));
        } else {
          above.push_back(p);
        }
      }
      ASSIGN_OR_RETURN(op->children[0], PushFilters(std::move(op->children[0]), std::move(below)));
      return WrapFilter(std::move(op), std::move(above));
    }
    case LogicalKind::kSort: {
      if (op->limit >= 0) break;
      ASSIGN_OR_RETURN(op->children[0], PushFilters(std::move(op->children[0]), std::move(preds)));
      return op;
    }
    case LogicalKind::kWindow: {
      // Only a filter on PARTITION BY columns keeps whole partitions, so only it may go below.
      std::vector<ExprPtr> below, above;
      for (const auto& p : preds) {
        auto cols = expr::CollectColumns(*p);
        bool on_partition = !cols.empty() && std::all_of(cols.begin(), cols.end(), [&](int c) {
          return std::any_of(op->partition_by.begin(), op->partition_by.end(), [&](const ExprPtr& k) {
            return k->kind == expr::ExprKind::kColumnRef && k->column == c;
          });
        });
        (on_partition ? below : above).push_back(p);
      }
      ASSIGN_OR_RETURN(op->children[0], PushFilters(std::move(op->children[0]), std::move(below)));
      return WrapFilter(std::move(op), std::move(above));
    }
    case LogicalKind::kGet: {
      for (auto& p : preds) {
        if (!IsTrue(p)) op->filters.push_back(p);
      }
      return op;
    }
    case LogicalKind::kUnion: {
      for (auto& c : op->children) {
        ASSIGN_OR_RETURN(c, PushFilters(std::move(c), preds));
      }
      return op;
    }
    case LogicalKind::kJoin: {
      SimplifyOuterJoin(op.get(), preds);
      const int lw = static_cast<int>(op->children[0]->columns.size());
      const int rw = static_cast<int>(op->children[1]->columns.size());
      std::vector<int> to_right(lw + rw, -1);
      for (int i = 0; i < rw; ++i) to_right[lw + i] = i;
      std::vector<ExprPtr> lp, rp, above;
      const auto t = op->join_type;
      for (const auto& p : preds) {
        int side = 0;
        for (int c : expr::CollectColumns(*p)) side |= c < lw ? 1 : 2;
        bool left_ok = t == LogicalJoinType::kInner || t == LogicalJoinType::kLeft ||
                       t == LogicalJoinType::kSemi || t == LogicalJoinType::kAnti ||
                       t == LogicalJoinType::kMark || t == LogicalJoinType::kSingle;
        bool right_ok = t == LogicalJoinType::kInner || t == LogicalJoinType::kRight;
        if (side == 1 && left_ok) {
          lp.push_back(p);
        } else if (side == 2 && right_ok) {
          ASSIGN_OR_RETURN(auto r, Remap(p, to_right));
          rp.push_back(r);
        } else if (side == 3 && t == LogicalJoinType::kInner) {
          RETURN_NOT_OK(AddJoinCondition(op.get(), p));
        } else {
          above.push_back(p);
        }
      }
      // Conjuncts of a join's residual (its ON clause) that touch one side only go down to
      // that side when rows of it that fail them can never be part of a match that is output:
      // both sides of an inner join; the right side of LEFT, SEMI, ANTI, MARK and SINGLE joins
      // (and the left of SEMI); the left side of RIGHT joins.
      const bool residual_left = t == LogicalJoinType::kInner || t == LogicalJoinType::kSemi ||
                                 t == LogicalJoinType::kRight;
      const bool residual_right = t != LogicalJoinType::kRight && t != LogicalJoinType::kFull;
      if (op->predicate && !op->subquery) {
        std::vector<ExprPtr> conj, keep;
        SplitConjuncts(op->predicate, &conj);
        for (const auto& c : conj) {
          int side = 0;
          for (int x : expr::CollectColumns(*c)) side |= x < lw ? 1 : 2;
          if (side == 1 && residual_left) {
            lp.push_back(c);
          } else if (side == 2 && residual_right) {
            ASSIGN_OR_RETURN(auto r, Remap(c, to_right));
            rp.push_back(r);
          } else {
            keep.push_back(c);
          }
        }
        if (keep.empty()) {
          op->predicate = nullptr;
        } else {
          ASSIGN_OR_RETURN(op->predicate, expr::And(keep));
        }
      }
      ASSIGN_OR_RETURN(op->children[0], PushFilters(std::move(op->children[0]), std::move(lp)));
      ASSIGN_OR_RETURN(op->children[1], PushFilters(std::move(op->children[1]), std::move(rp)));
      return WrapFilter(std::move(op), std::move(above));
    }
    default: break;
  }
  RETURN_NOT_OK(PushIntoChildren(op.get()));
  return WrapFilter(std::move(op), std::move(preds));
}

}  // namespace

Result<LogicalPtr> PushDownFilters(LogicalPtr plan) { return PushFilters(std::move(plan), {}); }

}  // namespace shoal::sql
