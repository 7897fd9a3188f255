#include "sql/optimizer/projection_pruning.h"

#include "sql/optimizer/expr_rewrite.h"
#include "sql/optimizer/unique_keys.h"

namespace shoal::sql {

namespace {

using expr::ExprPtr;


std::vector<bool> Need(size_t n) { return std::vector<bool>(n, false); }
void Mark(const ExprPtr& e, std::vector<bool>* need, int offset = 0) {
  if (!e) return;
  for (int c : expr::CollectColumns(*e)) {
    int i = c - offset;
    if (i >= 0 && i < static_cast<int>(need->size())) (*need)[i] = true;
  }
}

// Join elimination: a LEFT JOIN none of whose right columns is used, where each left row
// matches at most one right row (the right side is unique on its equi-join columns: a RELY key
// or GROUP BY columns), outputs exactly its left rows. Extra ON conditions and non-column keys
// only lower the number of matches, so they do not matter.
bool LeftJoinIsItsLeftInput(const LogicalOperator& op, const std::vector<bool>& required) {
  if (op.join_type != LogicalJoinType::kLeft || op.subquery) return false;
  const size_t lw = op.children[0]->columns.size();
  for (size_t i = lw; i < required.size(); ++i) {
    if (required[i]) return false;
  }
  std::vector<int> keys;
  for (const auto& k : op.right_keys) {
    if (k->kind == expr::ExprKind::kColumnRef) keys.push_back(k->column);
  }
  return IsUniqueOn(*op.children[1], keys);
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
    case LogicalKind::kLimit:
    case LogicalKind::kSample: {
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
    case LogicalKind::kWindow: {
      const size_t in_width = op->children[0]->columns.size();
      std::vector<bool> need(required.begin(), required.begin() + in_width);
      for (const auto& p : op->partition_by) Mark(p, &need);
      for (const auto& k : op->sort_keys) Mark(k.expr, &need);
      std::vector<bool> keep(width, true);
      std::vector<WindowCall> calls;
      for (size_t w = 0; w < op->windows.size(); ++w) {
        keep[in_width + w] = required[in_width + w];
        if (!keep[in_width + w]) continue;
        for (const auto& a : op->windows[w].args) Mark(a, &need);
        calls.push_back(op->windows[w]);
      }
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      for (auto& p : op->partition_by) {
        ASSIGN_OR_RETURN(p, Remap(p, cm));
      }
      for (auto& k : op->sort_keys) {
        ASSIGN_OR_RETURN(k.expr, Remap(k.expr, cm));
      }
      for (auto& c : calls) {
        for (auto& a : c.args) {
          ASSIGN_OR_RETURN(a, Remap(a, cm));
        }
      }
      op->windows = std::move(calls);
      // The child keeps the columns it kept; window columns follow them.
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < in_width; ++i) mapping[i] = cm[i];
      std::vector<columnar::Field> cols = op->children[0]->columns;
      for (size_t w = in_width; w < width; ++w) {
        if (!keep[w]) continue;
        mapping[w] = static_cast<int>(cols.size());
        cols.push_back(op->columns[w]);
      }
      op->columns = std::move(cols);
      return mapping;
    }
    case LogicalKind::kGenerate: {
      // The child keeps what the output needs of its columns and what the generator reads; the
      // generated columns all stay (the operator makes them together).
      const size_t in_width = op->children[0]->columns.size();
      std::vector<bool> need(required.begin(), required.begin() + in_width);
      Mark(op->generator, &need);
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      ASSIGN_OR_RETURN(op->generator, Remap(op->generator, cm));
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < in_width; ++i) mapping[i] = cm[i];
      std::vector<columnar::Field> cols = op->children[0]->columns;
      for (size_t g = in_width; g < width; ++g) {
        mapping[g] = static_cast<int>(cols.size());
        cols.push_back(op->columns[g]);
      }
      op->columns = std::move(cols);
      return mapping;
    }
    case LogicalKind::kExpand: {
      auto need = Need(op->children[0]->columns.size());
      for (const auto& set : op->expand_sets) {
        for (size_t i = 0; i < width; ++i) {
          if (required[i]) Mark(set[i], &need);
        }
      }
      ASSIGN_OR_RETURN(auto cm, Prune(op->children[0].get(), need));
      for (auto& set : op->expand_sets) {
        std::vector<ExprPtr> kept;
        for (size_t i = 0; i < width; ++i) {
          if (!required[i]) continue;
          ASSIGN_OR_RETURN(auto e, Remap(set[i], cm));
          kept.push_back(e);
        }
        set = std::move(kept);
      }
      return keep_columns(required);
    }
    case LogicalKind::kJoin: {
      const size_t lw = op->children[0]->columns.size();
      const size_t rw = op->children[1]->columns.size();
      if (LeftJoinIsItsLeftInput(*op, required)) {
        std::vector<bool> ln(required.begin(), required.begin() + static_cast<std::ptrdiff_t>(lw));
        ASSIGN_OR_RETURN(auto lm, Prune(op->children[0].get(), ln));
        LogicalPtr left = std::move(op->children[0]);
        *op = std::move(*left);
        std::vector<int> mapping(width, -1);
        for (size_t i = 0; i < lw; ++i) mapping[i] = lm[i];
        return mapping;
      }
      const std::vector<columnar::Field> old_columns = op->columns;
      auto ln = Need(lw), rn = Need(rw);
      const bool mark = op->join_type == LogicalJoinType::kMark;
      bool pairs = op->join_type != LogicalJoinType::kSemi && op->join_type != LogicalJoinType::kAnti && !mark;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i] || (mark && i == lw)) continue;
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
      if (mark) {  // the match flag stays last
        op->columns.push_back(old_columns[lw]);
        std::vector<int> out = lm;
        out.push_back(new_lw);
        return out;
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

}  // namespace

Status PruneColumns(LogicalOperator* root) {
  std::vector<bool> all(root->columns.size(), true);
  return Prune(root, all).status();
}

}  // namespace shoal::sql
