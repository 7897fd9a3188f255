#include "sql/optimizer/join_order.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>

#include "sql/optimizer/cardinality.h"
#include "sql/optimizer/join_enumerator.h"
#include "sql/optimizer/or_factoring.h"

namespace shoal::sql {

namespace {

using expr::ExprKind;
using expr::ExprPtr;

constexpr int kMaxRelations = 64;

struct Relation {
  LogicalPtr plan;
  int offset = 0;  // first global column
  int width = 0;
  std::vector<ExprPtr> filters;  // derived, over global columns
  PlanEstimate estimate;
};

// A predicate over the region's global columns. Equalities between two disjoint relation sets
// become hash keys where a join separates them; the rest are residuals (or leaf filters).
struct Predicate {
  ExprPtr expr;
  ExprPtr lhs, rhs;  // equalities only
  RelationSet lrels = 0, rrels = 0, rels = 0;
  double selectivity = 1;
};

struct Region {
  std::vector<Relation> rels;
  std::vector<ExprPtr> conjuncts;                     // every condition, global columns
  std::vector<std::pair<ExprPtr, ExprPtr>> key_pairs;  // hash keys of the original joins
  std::vector<int> col_rel;                           // global column -> relation
  std::vector<Predicate> preds;
  std::vector<std::vector<int>> classes;  // equivalence classes of key columns (global)
  std::vector<ExprPtr> top_filters;       // constant conjuncts
  std::vector<columnar::Field> fields;    // global columns
};

// An inner join that is no dependent join (those are decorrelated first; any left is a leaf).
bool IsInnerJoin(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin && op.join_type == LogicalJoinType::kInner && !op.subquery;
}

int CountRelations(const LogicalOperator& op) {
  if (!IsInnerJoin(op)) return 1;
  return CountRelations(*op.children[0]) + CountRelations(*op.children[1]);
}

Result<ExprPtr> Shift(const ExprPtr& e, int width, int by) {
  std::vector<int> m(width);
  std::iota(m.begin(), m.end(), by);
  return expr::RemapColumns(e, m);
}

Result<LogicalPtr> Reorder(LogicalPtr op);

// Flattens the inner-join tree `op` whose first column is global column `offset`.
Status Collect(LogicalPtr op, int offset, Region* r) {
  if (!IsInnerJoin(*op)) {
    ASSIGN_OR_RETURN(op, Reorder(std::move(op)));
    Relation rel;
    rel.offset = offset;
    rel.width = static_cast<int>(op->columns.size());
    rel.plan = std::move(op);
    for (int i = 0; i < rel.width; ++i) r->col_rel.push_back(static_cast<int>(r->rels.size()));
    r->rels.push_back(std::move(rel));
    return Status::OK();
  }
  const int lw = static_cast<int>(op->children[0]->columns.size());
  const int width = static_cast<int>(op->columns.size());
  for (size_t k = 0; k < op->left_keys.size(); ++k) {
    ASSIGN_OR_RETURN(auto l, Shift(op->left_keys[k], lw, offset));
    ASSIGN_OR_RETURN(auto rr, Shift(op->right_keys[k], width - lw, offset + lw));
    r->key_pairs.emplace_back(l, rr);
  }
  if (op->predicate) {
    std::vector<ExprPtr> conj;
    SplitConjuncts(op->predicate, &conj);
    for (const auto& c : conj) {
      ASSIGN_OR_RETURN(auto g, Shift(c, width, offset));
      r->conjuncts.push_back(g);
    }
  }
  RETURN_NOT_OK(Collect(std::move(op->children[0]), offset, r));
  return Collect(std::move(op->children[1]), offset + lw, r);
}

RelationSet RelsOf(const expr::Expr& e, const Region& r) {
  RelationSet s = 0;
  for (int c : expr::CollectColumns(e)) s |= RelationSet{1} << r.col_rel[c];
  return s;
}

bool IsEquality(const expr::Expr& e) {
  return e.kind == ExprKind::kFunction && e.name == "=" && e.args.size() == 2;
}

int Find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

ExprPtr GlobalRef(const Region& r, int g) {
  const auto& f = r.fields[g];
  return expr::ColumnRef(g, f.type, f.name, f.nullable);
}

// Equivalence classes, per-relation filters and the remaining predicates.
Status Analyze(Region* r) {
  const int ncols = static_cast<int>(r->col_rel.size());
  std::vector<int> parent(ncols);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<std::pair<ExprPtr, ExprPtr>> others;
  auto add_equality = [&](const ExprPtr& a, const ExprPtr& b) {
    if (a->kind == ExprKind::kColumnRef && b->kind == ExprKind::kColumnRef && a->type->Equals(*b->type)) {
      parent[Find(parent, a->column)] = Find(parent, b->column);
    } else {
      others.emplace_back(a, b);
    }
  };
  for (const auto& [a, b] : r->key_pairs) add_equality(a, b);
  std::vector<ExprPtr> complex;
  for (const auto& c : r->conjuncts) {
    RelationSet rels = RelsOf(*c, *r);
    if (IsEquality(*c)) {
      RelationSet a = RelsOf(*c->args[0], *r), b = RelsOf(*c->args[1], *r);
      if (a && b && !(a & b)) {
        add_equality(c->args[0], c->args[1]);
        continue;
      }
    }
    if (rels == 0) {
      r->top_filters.push_back(c);
    } else if (std::popcount(rels) == 1) {
      r->rels[std::countr_zero(rels)].filters.push_back(c);
    } else {
      complex.push_back(c);
    }
  }
  // Classes; the members within one relation are made equal by a filter in that relation.
  std::vector<std::vector<int>> by_root(ncols);
  for (int c = 0; c < ncols; ++c) by_root[Find(parent, c)].push_back(c);
  for (auto& members : by_root) {
    if (members.size() < 2) continue;
    std::vector<int> reps;  // first member per relation
    for (int c : members) {
      auto same = std::find_if(reps.begin(), reps.end(), [&](int p) { return r->col_rel[p] == r->col_rel[c]; });
      if (same == reps.end()) {
        reps.push_back(c);
        continue;
      }
      ASSIGN_OR_RETURN(auto eq, expr::Call("=", {GlobalRef(*r, *same), GlobalRef(*r, c)}));
      r->rels[r->col_rel[c]].filters.push_back(eq);
    }
    if (reps.size() >= 2) r->classes.push_back(std::move(reps));
  }
  for (const auto& [a, b] : others) {
    Predicate p;
    ASSIGN_OR_RETURN(p.expr, expr::Call("=", {a, b}));
    p.lhs = a, p.rhs = b;
    p.lrels = RelsOf(*a, *r), p.rrels = RelsOf(*b, *r);
    p.rels = p.lrels | p.rrels;
    if (std::popcount(p.rels) == 1) {
      r->rels[std::countr_zero(p.rels)].filters.push_back(p.expr);
    } else if (p.rels == 0) {
      r->top_filters.push_back(p.expr);
    } else {
      r->preds.push_back(std::move(p));
    }
  }
  for (const auto& c : complex) {
    Predicate p;
    p.expr = c;
    p.rels = RelsOf(*c, *r);
    const RelationSet rels = p.rels;
    r->preds.push_back(std::move(p));
    // An OR over several relations implies, per relation it constrains in every branch, the OR
    // of those constraints.
    for (RelationSet t = rels; t; t &= t - 1) {
      const RelationSet bit = t & (0 - t);
      ASSIGN_OR_RETURN(auto implied,
                       ImpliedByOr(c, [&](const expr::Expr& e) { return RelsOf(e, *r) == bit; }));
      if (implied) r->rels[std::countr_zero(bit)].filters.push_back(*implied);
    }
  }
  return Status::OK();
}

// `col = literal` conjuncts of a relation (its scan filters, a filter on top, derived ones) as
// (global column, literal).
void CollectConstants(const Region& r, int rel, std::vector<std::pair<int, ExprPtr>>* out) {
  const Relation& R = r.rels[rel];
  auto scan = [&](const ExprPtr& c, int shift) {
    if (!IsEquality(*c)) return;
    const auto& a = c->args[0];
    const auto& b = c->args[1];
    if (a->kind == ExprKind::kColumnRef && b->IsLiteral() && !b->value.is_null()) {
      out->emplace_back(a->column + shift, b);
    } else if (b->kind == ExprKind::kColumnRef && a->IsLiteral() && !a->value.is_null()) {
      out->emplace_back(b->column + shift, a);
    }
  };
  for (const auto& f : R.filters) scan(f, 0);
  const LogicalOperator* p = R.plan.get();
  std::vector<ExprPtr> local;
  if (p->kind == LogicalKind::kGet) local = p->filters;
  if (p->kind == LogicalKind::kFilter) SplitConjuncts(p->predicate, &local);
  for (const auto& f : local) scan(f, R.offset);
}

// a = b AND a = 5 ⇒ b = 5 for every key column of a's class that has no constant yet.
Status PropagateConstants(Region* r) {
  std::vector<std::pair<int, ExprPtr>> constants;
  for (size_t rel = 0; rel < r->rels.size(); ++rel) CollectConstants(*r, static_cast<int>(rel), &constants);
  std::vector<bool> has_constant(r->col_rel.size(), false);
  for (const auto& c : constants) has_constant[c.first] = true;
  for (const auto& [col, lit] : constants) {
    for (const auto& cls : r->classes) {
      if (std::find(cls.begin(), cls.end(), col) == cls.end()) continue;
      for (int m : cls) {
        if (has_constant[m] || r->col_rel[m] == r->col_rel[col]) continue;
        if (!r->fields[m].type->Equals(*lit->type)) continue;
        ASSIGN_OR_RETURN(auto eq, expr::Call("=", {GlobalRef(*r, m), lit}));
        r->rels[r->col_rel[m]].filters.push_back(eq);
        has_constant[m] = true;
      }
    }
  }
  return Status::OK();
}

// Puts each relation's derived filters on top of it and estimates it.
Status PrepareRelations(Region* r, CardinalityEstimator* est) {
  const int ncols = static_cast<int>(r->col_rel.size());
  for (auto& rel : r->rels) {
    if (!rel.filters.empty()) {
      std::vector<int> m(ncols, -1);
      for (int i = 0; i < rel.width; ++i) m[rel.offset + i] = i;
      std::vector<ExprPtr> local;
      for (const auto& f : rel.filters) {
        ASSIGN_OR_RETURN(auto l, expr::RemapColumns(f, m));
        local.push_back(l);
      }
      ASSIGN_OR_RETURN(auto pred, expr::And(std::move(local)));
      rel.plan = MakeFilter(std::move(rel.plan), pred);
    }
    rel.estimate = est->Estimate(rel.plan.get());
  }
  return Status::OK();
}

double LocalDistinct(const Region& r, const CardinalityEstimator& est, const ExprPtr& e, RelationSet rels) {
  if (std::popcount(rels) != 1) {
    double m = 1;
    for (RelationSet t = rels; t; t &= t - 1) m = std::max(m, r.rels[std::countr_zero(t)].estimate.rows);
    return m;
  }
  const Relation& R = r.rels[std::countr_zero(rels)];
  std::vector<int> m(r.col_rel.size(), -1);
  for (int i = 0; i < R.width; ++i) m[R.offset + i] = i;
  auto local = expr::RemapColumns(e, m);
  return local.ok() ? est.Distinct(**local, R.estimate) : R.estimate.rows;
}

// Estimated rows of the join of `s` (independent of the split). Each equivalence class with
// members in k relations of `s` divides by the NDVs of all but its smallest-NDV member (ties:
// the larger relation's member is the one kept), each such member thus joining the kept one.
// The divisors of one relation towards one kept relation over all classes are capped at the
// relation's rows, since a composite key has at most that many distinct values (lineitem's
// (partkey, suppkey) against partsupp's is one key, not two independent ones).
double SetRows(const Region& r, const CardinalityEstimator& est, RelationSet s) {
  double rows = 1;
  std::map<std::pair<int, int>, double> divisor;  // (relation, kept relation) -> product of NDVs
  for (RelationSet t = s; t; t &= t - 1) rows *= std::max(1.0, r.rels[std::countr_zero(t)].estimate.rows);
  for (const auto& cls : r.classes) {
    std::vector<std::pair<int, double>> in;  // (relation, NDV)
    for (int m : cls) {
      const RelationSet bit = RelationSet{1} << r.col_rel[m];
      if (s & bit) in.emplace_back(r.col_rel[m], LocalDistinct(r, est, GlobalRef(r, m), bit));
    }
    if (in.size() < 2) continue;
    size_t keep = 0;
    for (size_t i = 1; i < in.size(); ++i) {
      const double di = in[i].second, dk = in[keep].second;
      if (di < dk || (di == dk && r.rels[in[i].first].estimate.rows > r.rels[in[keep].first].estimate.rows)) keep = i;
    }
    for (size_t i = 0; i < in.size(); ++i) {
      if (i == keep) continue;
      auto [it, fresh] = divisor.emplace(std::make_pair(in[i].first, in[keep].first), 1.0);
      it->second *= in[i].second;
    }
  }
  for (const auto& [key, d] : divisor) {
    rows /= std::min(d, std::max(1.0, r.rels[key.first].estimate.rows));
  }
  for (const auto& p : r.preds) {
    if ((p.rels & s) == p.rels) rows *= p.selectivity;
  }
  return std::max(1.0, rows);
}

struct Built {
  LogicalPtr plan;
  std::vector<int> local;  // global column -> output column (-1: not here)
};

Result<Built> Build(Region* r, const JoinEnumerator& en, RelationSet s) {
  const int ncols = static_cast<int>(r->col_rel.size());
  const JoinTreeNode& node = en.Node(s);
  Built out;
  out.local.assign(ncols, -1);
  if (node.left == 0) {
    Relation& rel = r->rels[std::countr_zero(s)];
    for (int i = 0; i < rel.width; ++i) out.local[rel.offset + i] = i;
    out.plan = std::move(rel.plan);
    return out;
  }
  RelationSet ls = node.left, rs = node.right;
  // The smaller input is the build (right) side.
  if (en.Node(ls).rows < en.Node(rs).rows) std::swap(ls, rs);
  ASSIGN_OR_RETURN(Built a, Build(r, en, ls));
  ASSIGN_OR_RETURN(Built b, Build(r, en, rs));
  auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  join->join_type = LogicalJoinType::kInner;
  const int lw = static_cast<int>(a.plan->columns.size());
  join->columns = a.plan->columns;
  join->columns.insert(join->columns.end(), b.plan->columns.begin(), b.plan->columns.end());
  out.local = a.local;
  for (int g = 0; g < ncols; ++g) {
    if (b.local[g] >= 0) out.local[g] = b.local[g] + lw;
  }
  auto in = [&](int g, RelationSet side) { return ((RelationSet{1} << r->col_rel[g]) & side) != 0; };
  for (const auto& cls : r->classes) {
    int ma = -1, mb = -1;
    for (int m : cls) {
      if (ma < 0 && in(m, ls)) ma = m;
      if (mb < 0 && in(m, rs)) mb = m;
    }
    if (ma < 0 || mb < 0) continue;
    ASSIGN_OR_RETURN(auto lk, expr::RemapColumns(GlobalRef(*r, ma), a.local));
    ASSIGN_OR_RETURN(auto rk, expr::RemapColumns(GlobalRef(*r, mb), b.local));
    join->left_keys.push_back(lk);
    join->right_keys.push_back(rk);
  }
  std::vector<ExprPtr> residual;
  for (const auto& p : r->preds) {
    if ((p.rels & s) != p.rels || (p.rels & ls) == p.rels || (p.rels & rs) == p.rels) continue;
    if (p.lhs && (p.lrels & ls) == p.lrels && (p.rrels & rs) == p.rrels) {
      ASSIGN_OR_RETURN(auto lk, expr::RemapColumns(p.lhs, a.local));
      ASSIGN_OR_RETURN(auto rk, expr::RemapColumns(p.rhs, b.local));
      join->left_keys.push_back(lk);
      join->right_keys.push_back(rk);
    } else if (p.lhs && (p.lrels & rs) == p.lrels && (p.rrels & ls) == p.rrels) {
      ASSIGN_OR_RETURN(auto lk, expr::RemapColumns(p.rhs, a.local));
      ASSIGN_OR_RETURN(auto rk, expr::RemapColumns(p.lhs, b.local));
      join->left_keys.push_back(lk);
      join->right_keys.push_back(rk);
    } else {
      ASSIGN_OR_RETURN(auto e, expr::RemapColumns(p.expr, out.local));
      residual.push_back(e);
    }
  }
  if (!residual.empty()) {
    ASSIGN_OR_RETURN(join->predicate, expr::And(std::move(residual)));
  }
  join->estimated_rows = node.rows;
  join->children.push_back(std::move(a.plan));
  join->children.push_back(std::move(b.plan));
  out.plan = std::move(join);
  return out;
}

Result<LogicalPtr> ReorderRegion(LogicalPtr op) {
  Region r;
  r.fields = op->columns;
  RETURN_NOT_OK(Collect(std::move(op), 0, &r));
  RETURN_NOT_OK(Analyze(&r));
  RETURN_NOT_OK(PropagateConstants(&r));
  CardinalityEstimator est;
  RETURN_NOT_OK(PrepareRelations(&r, &est));
  for (auto& p : r.preds) {
    if (p.lhs) {
      p.selectivity = 1 / std::max(LocalDistinct(r, est, p.lhs, p.lrels), LocalDistinct(r, est, p.rhs, p.rrels));
    } else {
      p.selectivity = CardinalityEstimator::kDefaultSelectivity;
    }
  }
  const int n = static_cast<int>(r.rels.size());
  std::vector<RelationSet> neighbors(n, 0);
  auto connect = [&](RelationSet rels) {
    for (RelationSet t = rels; t; t &= t - 1) neighbors[std::countr_zero(t)] |= rels & ~(t & (0 - t));
  };
  for (const auto& cls : r.classes) {
    RelationSet rels = 0;
    for (int m : cls) rels |= RelationSet{1} << r.col_rel[m];
    connect(rels);
  }
  for (const auto& p : r.preds) connect(p.rels);
  JoinEnumerator en(neighbors, [&](RelationSet s) { return SetRows(r, est, s); }, kMaxDpRelations);
  const JoinTreeNode& root = en.Solve();
  ASSIGN_OR_RETURN(Built built, Build(&r, en, root.set));
  LogicalPtr plan = std::move(built.plan);
  if (!r.top_filters.empty()) {
    std::vector<ExprPtr> top;
    for (const auto& f : r.top_filters) {
      ASSIGN_OR_RETURN(auto l, expr::RemapColumns(f, built.local));
      top.push_back(l);
    }
    ASSIGN_OR_RETURN(auto pred, expr::And(std::move(top)));
    plan = MakeFilter(std::move(plan), pred);
  }
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t g = 0; g < r.fields.size(); ++g) {
    const auto& f = r.fields[g];
    exprs.push_back(expr::ColumnRef(built.local[g], f.type, f.name, f.nullable));
    names.push_back(f.name);
  }
  return MakeProject(std::move(plan), std::move(exprs), std::move(names));
}

Result<LogicalPtr> Reorder(LogicalPtr op) {
  if (IsInnerJoin(*op) && CountRelations(*op) <= kMaxRelations) {
    return ReorderRegion(std::move(op));
  }
  for (auto& c : op->children) {
    ASSIGN_OR_RETURN(c, Reorder(std::move(c)));
  }
  return op;
}

}  // namespace

Result<LogicalPtr> ReorderJoins(LogicalPtr plan) { return Reorder(std::move(plan)); }

}  // namespace shoal::sql
