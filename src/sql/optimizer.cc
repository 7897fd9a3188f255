#include "sql/optimizer.h"

#include <algorithm>

namespace shoal::sql {

namespace {

using expr::ExprPtr;

// `e` with every column reference i replaced by exprs[i].
ExprPtr Substitute(const ExprPtr& e, const std::vector<ExprPtr>& exprs) {
  if (e->kind == expr::ExprKind::kColumnRef) return exprs[e->column];
  if (e->args.empty()) return e;
  auto copy = std::make_shared<expr::Expr>(*e);
  for (auto& a : copy->args) a = Substitute(a, exprs);
  return copy;
}

Result<ExprPtr> Remap(const ExprPtr& e, const std::vector<int>& mapping) {
  return expr::RemapColumns(e, mapping);
}

void FoldAll(LogicalOperator* op) {
  auto fold = [](std::vector<ExprPtr>& v) {
    for (auto& e : v) e = expr::Fold(e);
  };
  if (op->predicate) op->predicate = expr::Fold(op->predicate);
  fold(op->exprs);
  fold(op->groups);
  fold(op->filters);
  fold(op->left_keys);
  fold(op->right_keys);
  for (auto& a : op->aggregates) fold(a.args);
  for (auto& k : op->sort_keys) k.expr = expr::Fold(k.expr);
  for (auto& c : op->children) FoldAll(c.get());
}

bool IsTrue(const ExprPtr& e) {
  return e->IsLiteral() && !e->value.is_null() && e->type->id() == columnar::TypeId::kBoolean &&
         e->value.GetBool();
}

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
                       t == LogicalJoinType::kSemi || t == LogicalJoinType::kAnti;
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
      // Conjuncts of an inner join's residual that touch one side only go down too.
      if (t == LogicalJoinType::kInner && op->predicate) {
        std::vector<ExprPtr> conj, keep;
        SplitConjuncts(op->predicate, &conj);
        for (const auto& c : conj) {
          int side = 0;
          for (int x : expr::CollectColumns(*c)) side |= x < lw ? 1 : 2;
          if (side == 1) {
            lp.push_back(c);
          } else if (side == 2) {
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

// ---- projection pruning

std::vector<bool> Need(size_t n) { return std::vector<bool>(n, false); }
void Mark(const ExprPtr& e, std::vector<bool>* need, int offset = 0) {
  if (!e) return;
  for (int c : expr::CollectColumns(*e)) {
    int i = c - offset;
    if (i >= 0 && i < static_cast<int>(need->size())) (*need)[i] = true;
  }
}

// Prunes `op` to the required output columns (it may keep more); returns old -> new indices.
Result<std::vector<int>> Prune(LogicalOperator* op, const std::vector<bool>& required) {
  const size_t width = op->columns.size();
  std::vector<int> identity(width);
  for (size_t i = 0; i < width; ++i) identity[i] = static_cast<int>(i);
  auto keep_columns = [&](const std::vector<bool>& keep) {
    std::vector<int> mapping(width, -1);
    std::vector<columnar::Field> cols;
    for (size_t i = 0; i < width; ++i) {
      if (!keep[i]) continue;
      mapping[i] = static_cast<int>(cols.size());
      cols.push_back(op->columns[i]);
    }
    op->columns = std::move(cols);
    return mapping;
  };
  switch (op->kind) {
    case LogicalKind::kGet: {
      std::vector<bool> keep = required;
      for (const auto& f : op->filters) Mark(f, &keep);
      auto mapping = keep_columns(keep);
      std::vector<int> projected;
      for (size_t i = 0; i < width; ++i) {
        if (keep[i]) projected.push_back(op->projected[i]);
      }
      op->projected = std::move(projected);
      for (auto& f : op->filters) {
        ASSIGN_OR_RETURN(f, Remap(f, mapping));
      }
      return mapping;
    }
    case LogicalKind::kProject: {
      auto need = Need(op->children[0]->columns.size());
      std::vector<ExprPtr> exprs;
      for (size_t i = 0; i < width; ++i) {
        if (required[i]) Mark(op->exprs[i], &need);
      }
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) continue;
        ASSIGN_OR_RETURN(auto e, Remap(op->exprs[i], cm));
        exprs.push_back(e);
      }
      op->exprs = std::move(exprs);
      return keep_columns(required);
    }
    case LogicalKind::kFilter:
    case LogicalKind::kSort:
    case LogicalKind::kLimit: {
      std::vector<bool> need = required;
      Mark(op->predicate, &need);
      for (const auto& k : op->sort_keys) Mark(k.expr, &need);
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      if (op->predicate) {
        ASSIGN_OR_RETURN(op->predicate, Remap(op->predicate, cm));
      }
      for (auto& k : op->sort_keys) {
        ASSIGN_OR_RETURN(k.expr, Remap(k.expr, cm));
      }
      op->columns = op->children[0]->columns;
      return cm;
    }
    case LogicalKind::kAggregate: {
      const size_t ng = op->groups.size();
      auto need = Need(op->children[0]->columns.size());
      for (const auto& g : op->groups) Mark(g, &need);
      std::vector<bool> keep(width, true);
      for (size_t a = 0; a < op->aggregates.size(); ++a) {
        keep[ng + a] = required[ng + a];
        if (keep[ng + a]) {
          for (const auto& e : op->aggregates[a].args) Mark(e, &need);
        }
      }
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      for (auto& g : op->groups) {
        ASSIGN_OR_RETURN(g, Remap(g, cm));
      }
      std::vector<AggregateCall> aggs;
      for (size_t a = 0; a < op->aggregates.size(); ++a) {
        if (!keep[ng + a]) continue;
        auto call = op->aggregates[a];
        for (auto& e : call.args) {
          ASSIGN_OR_RETURN(e, Remap(e, cm));
        }
        aggs.push_back(std::move(call));
      }
      op->aggregates = std::move(aggs);
      return keep_columns(keep);
    }
    case LogicalKind::kJoin: {
      const size_t lw = op->children[0]->columns.size();
      const size_t rw = op->children[1]->columns.size();
      const std::vector<columnar::Field> old_columns = op->columns;
      auto ln = Need(lw), rn = Need(rw);
      bool pairs = op->join_type != LogicalJoinType::kSemi && op->join_type != LogicalJoinType::kAnti;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) continue;
        if (i < lw) {
          ln[i] = true;
        } else {
          rn[i - lw] = true;
        }
      }
      for (const auto& k : op->left_keys) Mark(k, &ln);
      for (const auto& k : op->right_keys) Mark(k, &rn);
      Mark(op->predicate, &ln);
      Mark(op->predicate, &rn, static_cast<int>(lw));
      ASSIGN_OR_RETURN(auto lm, Prune(op->children[0].get(), ln));
      ASSIGN_OR_RETURN(auto rm, Prune(op->children[1].get(), rn));
      for (auto& k : op->left_keys) {
        ASSIGN_OR_RETURN(k, Remap(k, lm));
      }
      for (auto& k : op->right_keys) {
        ASSIGN_OR_RETURN(k, Remap(k, rm));
      }
      const int new_lw = static_cast<int>(op->children[0]->columns.size());
      std::vector<int> combined = lm;
      for (int r : rm) combined.push_back(r < 0 ? -1 : r + new_lw);
      if (op->predicate) {
        ASSIGN_OR_RETURN(op->predicate, Remap(op->predicate, combined));
      }
      op->columns = op->children[0]->columns;
      if (pairs) {
        for (const auto& f : op->children[1]->columns) op->columns.push_back(f);
        // Keep the join's own nullability (outer joins make a side nullable).
        for (size_t i = 0; i < width; ++i) {
          if (combined[i] >= 0) op->columns[combined[i]].nullable = old_columns[i].nullable;
        }
        return combined;
      }
      return lm;
    }
    default: {
      for (auto& c : op->children) {
        std::vector<bool> all(c->columns.size(), true);
        RETURN_NOT_OK(Prune(c.get(), all).status());
      }
      return identity;
    }
  }
}

// ---- LIMIT pushdown

void PushLimits(LogicalOperator* op) {
  for (auto& c : op->children) PushLimits(c.get());
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

}  // namespace

Result<LogicalPtr> Optimize(LogicalPtr plan) {
  FoldAll(plan.get());
  ASSIGN_OR_RETURN(plan, PushFilters(std::move(plan), {}));
  std::vector<bool> all(plan->columns.size(), true);
  RETURN_NOT_OK(Prune(plan.get(), all).status());
  PushLimits(plan.get());
  return plan;
}

}  // namespace shoal::sql
