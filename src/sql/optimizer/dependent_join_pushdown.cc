#include "sql/optimizer/dependent_join_pushdown.h"

#include <algorithm>

#include "expr/cast.h"

namespace shoal::sql {

using expr::ExprPtr;

bool RefersTo(const expr::Expr& e, const std::vector<int>& ids) {
  bool hit = false;
  expr::Visit(e, [&](const expr::Expr& x) {
    if (IsOuterRef(x) && std::find(ids.begin(), ids.end(), x.column - kOuterRefBase) != ids.end()) hit = true;
  });
  return hit;
}

namespace {
bool AnyRefers(const std::vector<ExprPtr>& v, const std::vector<int>& ids) {
  for (const auto& e : v) {
    if (e && RefersTo(*e, ids)) return true;
  }
  return false;
}
}  // namespace

bool TreeRefersTo(const LogicalOperator& op, const std::vector<int>& ids) {
  if (AnyRefers(op.filters, ids) || AnyRefers(op.exprs, ids) || AnyRefers(op.groups, ids) ||
      AnyRefers(op.left_keys, ids) || AnyRefers(op.right_keys, ids) ||
      (op.predicate && RefersTo(*op.predicate, ids))) {
    return true;
  }
  for (const auto& a : op.aggregates) {
    if (AnyRefers(a.args, ids)) return true;
  }
  for (const auto& k : op.sort_keys) {
    if (RefersTo(*k.expr, ids)) return true;
  }
  if (AnyRefers(op.partition_by, ids)) return true;
  for (const auto& w : op.windows) {
    if (AnyRefers(w.args, ids)) return true;
  }
  for (const auto& set : op.expand_sets) {
    if (AnyRefers(set, ids)) return true;
  }
  if (op.subquery) {
    if (AnyRefers(op.subquery->outer_exprs, ids) || (op.subquery->needle && RefersTo(*op.subquery->needle, ids))) {
      return true;
    }
  }
  for (const auto& c : op.children) {
    if (TreeRefersTo(*c, ids)) return true;
  }
  return false;
}

Result<ExprPtr> ReplaceOuterRefs(const ExprPtr& e, const std::vector<int>& ids, int base) {
  return RewriteColumnRefs(e, [&](const expr::Expr& c) -> Result<ExprPtr> {
    if (!IsOuterRef(c)) return ExprPtr();
    auto it = std::find(ids.begin(), ids.end(), c.column - kOuterRefBase);
    if (it == ids.end()) return ExprPtr();
    return expr::ColumnRef(base + static_cast<int>(it - ids.begin()), c.type, c.name, c.nullable);
  });
}

namespace {

// A non-NULL value of `type` standing for NULL in a null-safe hash key, or null if none.
ExprPtr Stand_in(const columnar::TypePtr& type) {
  Result<ExprPtr> r = Status::NotSupported("");
  if (type->IsNumeric()) {
    r = expr::Cast(expr::Literal(columnar::Value::Int64(0)), type);
  } else if (type->IsStringLike()) {
    r = expr::Cast(expr::Literal(columnar::Value::String("")), type);
  } else if (type->id() == columnar::TypeId::kBoolean) {
    r = expr::Literal(columnar::Value::Boolean(false));
  } else if (type->id() == columnar::TypeId::kDate || type->id() == columnar::TypeId::kTimestamp ||
             type->id() == columnar::TypeId::kTimestampNtz) {
    r = expr::Cast(expr::Literal(columnar::Value::String("2000-01-01")), type);
  }
  if (!r.ok()) return nullptr;
  return expr::Fold(*r);
}

}  // namespace

Result<std::vector<ExprPtr>> NullSafeEquals(const ExprPtr& a, const ExprPtr& b) {
  if (!a->nullable && !b->nullable) {
    ASSIGN_OR_RETURN(auto eq, expr::Call("=", {a, b}));
    return std::vector<ExprPtr>{eq};
  }
  ASSIGN_OR_RETURN(auto probe, expr::Call("=", {a, b}));  // the common type
  ExprPtr ca = probe->args.size() == 2 ? probe->args[0] : a;
  ExprPtr cb = probe->args.size() == 2 ? probe->args[1] : b;
  ExprPtr zero = Stand_in(ca->type);
  if (!zero) {
    ASSIGN_OR_RETURN(auto nd, expr::IsDistinctFrom(a, b, /*negated=*/true));
    return std::vector<ExprPtr>{nd};
  }
  ASSIGN_OR_RETURN(auto va, expr::Coalesce({ca, zero}));
  ASSIGN_OR_RETURN(auto vb, expr::Coalesce({cb, zero}));
  ASSIGN_OR_RETURN(auto eq_v, expr::Call("=", {va, vb}));
  ASSIGN_OR_RETURN(auto eq_n, expr::Call("=", {expr::IsNull(ca), expr::IsNull(cb)}));
  return std::vector<ExprPtr>{eq_v, eq_n};
}

namespace {

using Refs = std::vector<ExprPtr>;

// Columns mapped through `map` (new = map[old]); outer references kept.
Result<ExprPtr> RemapKeepOuter(const ExprPtr& e, const std::vector<int>& map) {
  return RewriteColumnRefs(e, [&](const expr::Expr& c) -> Result<ExprPtr> {
    if (IsOuterRef(c)) return ExprPtr();
    if (c.column < 0 || c.column >= static_cast<int>(map.size())) {
      return Status::Internal("column #" + std::to_string(c.column) + " outside a join's inputs");
    }
    return expr::ColumnRef(map[c.column], c.type, c.name, c.nullable);
  });
}

Refs ColumnRefs(const std::vector<columnar::Field>& cols, int from, int n) {
  Refs out;
  for (int i = from; i < from + n; ++i) {
    out.push_back(expr::ColumnRef(i, cols[i].type, cols[i].name, cols[i].nullable));
  }
  return out;
}

LogicalPtr ProjectColumns(LogicalPtr child, const std::vector<int>& order) {
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (int i : order) {
    const auto& f = child->columns[i];
    exprs.push_back(expr::ColumnRef(i, f.type, f.name, f.nullable));
    names.push_back(f.name);
  }
  return MakeProject(std::move(child), std::move(exprs), std::move(names));
}

std::vector<int> Range(int from, int to) {
  std::vector<int> v;
  for (int i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Whether `e` is NULL whenever one of its columns is (so a missing row and a row of NULL
// aggregates give the same value).
bool Strict(const expr::Expr& e) {
  switch (e.kind) {
    case expr::ExprKind::kColumnRef:
    case expr::ExprKind::kLiteral: return true;
    case expr::ExprKind::kCast: return Strict(*e.args[0]);
    case expr::ExprKind::kFunction:
      if (!e.propagates_nulls) return false;
      for (const auto& a : e.args) {
        if (!Strict(*a)) return false;
      }
      return true;
    default: return false;
  }
}

bool CountLike(const AggregateCall& a) { return a.binding.name.find("count") != std::string::npos; }

class PushDown {
 public:
  explicit PushDown(const Correlation& corr) : corr_(corr), nd_(static_cast<int>(corr.ids.size())) {}

  // The distinct outer values of the correlated expressions.
  LogicalPtr MakeDomain() {
    LogicalPtr outer = corr_.outer->Clone();
    std::vector<std::string> names;
    for (size_t k = 0; k < corr_.outer_exprs.size(); ++k) names.push_back("__d" + std::to_string(k));
    auto proj = MakeProject(std::move(outer), corr_.outer_exprs, names);
    auto agg = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
    agg->columns = proj->columns;
    agg->groups = ColumnRefs(proj->columns, 0, nd_);
    agg->children.push_back(std::move(proj));
    return agg;
  }

  LogicalPtr Cross(LogicalPtr left, LogicalPtr right) {
    auto j = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
    j->join_type = LogicalJoinType::kInner;
    j->columns = left->columns;
    for (const auto& f : right->columns) j->columns.push_back(f);
    j->children.push_back(std::move(left));
    j->children.push_back(std::move(right));
    return j;
  }

  Result<ExprPtr> Subst(const ExprPtr& e, int base) { return ReplaceOuterRefs(e, corr_.ids, base); }

  // Output: op's columns then D's.
  Result<LogicalPtr> Run(LogicalPtr op, bool missing_ok) {
    if (!TreeRefersTo(*op, corr_.ids)) {
      d_from_outer_ = true;
      return Cross(std::move(op), MakeDomain());
    }
    const int w = op->children.empty() ? 0 : static_cast<int>(op->children[0]->columns.size());
    switch (op->kind) {
      case LogicalKind::kFilter: {
        if (!TreeRefersTo(*op->children[0], corr_.ids)) {
          ASSIGN_OR_RETURN(auto r, TryEliminate(op.get()));
          if (r) return r;
        }
        ASSIGN_OR_RETURN(op->children[0], Run(std::move(op->children[0]), false));
        ASSIGN_OR_RETURN(op->predicate, Subst(op->predicate, w));
        op->columns = op->children[0]->columns;
        return op;
      }
      case LogicalKind::kProject: {
        bool strict = missing_ok;
        for (const auto& e : op->exprs) strict = strict && Strict(*e);
        ASSIGN_OR_RETURN(op->children[0], Run(std::move(op->children[0]), strict));
        for (auto& e : op->exprs) {
          ASSIGN_OR_RETURN(e, Subst(e, w));
        }
        const auto& cc = op->children[0]->columns;
        for (int k = 0; k < nd_; ++k) {
          op->exprs.push_back(expr::ColumnRef(w + k, cc[w + k].type, cc[w + k].name, cc[w + k].nullable));
          op->columns.push_back(cc[w + k]);
        }
        return op;
      }
      case LogicalKind::kAggregate: return Aggregate(std::move(op), missing_ok);
      case LogicalKind::kJoin: return Join(std::move(op));
      case LogicalKind::kUnion: {
        for (auto& c : op->children) {
          ASSIGN_OR_RETURN(c, Run(std::move(c), false));
        }
        const auto& cc = op->children[0]->columns;
        for (int k = 0; k < nd_; ++k) op->columns.push_back(cc[op->columns.size()]);
        return op;
      }
      case LogicalKind::kSort: {
        if (op->limit >= 0) return Status::NotSupported("ORDER BY ... LIMIT inside a correlated subquery");
        // Order does not matter inside a subquery.
        return Run(std::move(op->children[0]), missing_ok);
      }
      case LogicalKind::kLimit: return Status::NotSupported("LIMIT/OFFSET inside a correlated subquery");
      case LogicalKind::kSetOp:
        return Status::NotSupported("EXCEPT/INTERSECT inside a correlated subquery");
      default: return Status::NotSupported("correlated subquery of this shape");
    }
  }

  bool d_from_outer() const { return d_from_outer_; }

 private:
  // Filter over an uncorrelated child with `outer_k = inner_k` for every k: D's columns are
  // the inner expressions, no D needed. Returns null when some k has no such equality.
  Result<LogicalPtr> TryEliminate(LogicalOperator* op) {
    std::vector<ExprPtr> conj;
    SplitConjuncts(op->predicate, &conj);
    std::vector<ExprPtr> inner(nd_);
    for (const auto& c : conj) {
      if (c->kind != expr::ExprKind::kFunction || c->name != "=" || c->args.size() != 2) continue;
      for (int s = 0; s < 2; ++s) {
        ExprPtr a = c->args[s], b = c->args[1 - s];
        while (a->kind == expr::ExprKind::kCast && IsOuterRef(*a->args[0])) a = a->args[0];
        if (!IsOuterRef(*a) || RefersTo(*b, corr_.ids)) continue;
        auto it = std::find(corr_.ids.begin(), corr_.ids.end(), a->column - kOuterRefBase);
        if (it == corr_.ids.end()) continue;
        int k = static_cast<int>(it - corr_.ids.begin());
        if (inner[k] || !a->type->Equals(*b->type)) continue;
        inner[k] = b;
      }
    }
    for (const auto& e : inner) {
      if (!e) return LogicalPtr();
    }
    LogicalPtr child = std::move(op->children[0]);
    const int w = static_cast<int>(child->columns.size());
    std::vector<ExprPtr> exprs = ColumnRefs(child->columns, 0, w);
    std::vector<std::string> names;
    for (const auto& f : child->columns) names.push_back(f.name);
    for (int k = 0; k < nd_; ++k) {
      exprs.push_back(inner[k]);
      names.push_back("__d" + std::to_string(k));
    }
    auto proj = MakeProject(std::move(child), std::move(exprs), std::move(names));
    ASSIGN_OR_RETURN(auto pred, Subst(op->predicate, w));
    return MakeFilter(std::move(proj), pred);
  }

  Result<LogicalPtr> Aggregate(LogicalPtr op, bool missing_ok) {
    const int w = static_cast<int>(op->children[0]->columns.size());
    const bool scalar = op->groups.empty();
    ASSIGN_OR_RETURN(op->children[0], Run(std::move(op->children[0]), false));
    const auto& cc = op->children[0]->columns;
    for (auto& g : op->groups) {
      ASSIGN_OR_RETURN(g, Subst(g, w));
    }
    for (auto& a : op->aggregates) {
      for (auto& e : a.args) {
        ASSIGN_OR_RETURN(e, Subst(e, w));
      }
    }
    const int ng = static_cast<int>(op->groups.size());
    const int na = static_cast<int>(op->aggregates.size());
    std::vector<columnar::Field> cols(op->columns.begin(), op->columns.begin() + ng);
    for (int k = 0; k < nd_; ++k) {
      op->groups.push_back(expr::ColumnRef(w + k, cc[w + k].type, cc[w + k].name, cc[w + k].nullable));
      cols.push_back(cc[w + k]);
    }
    for (int a = 0; a < na; ++a) cols.push_back(op->columns[ng + a]);
    op->columns = cols;
    // groups, D, aggregates -> groups, aggregates, D
    std::vector<int> order = Range(0, ng);
    for (int a = 0; a < na; ++a) order.push_back(ng + nd_ + a);
    for (int k = 0; k < nd_; ++k) order.push_back(ng + k);
    LogicalPtr out = ProjectColumns(std::move(op), order);
    if (!scalar) return out;
    bool null_on_empty = true;
    for (int a = 0; a < na; ++a) null_on_empty = null_on_empty && !CountLike(out->children[0]->aggregates[a]);
    if (missing_ok && null_on_empty) return out;
    // The COUNT bug: every D value needs a row, the aggregates of no input for the missing.
    std::vector<AggregateCall> calls = out->children[0]->aggregates;
    LogicalPtr domain = MakeDomain();
    auto join = Cross(std::move(domain), std::move(out));
    join->join_type = LogicalJoinType::kLeft;
    for (int i = nd_; i < nd_ + na + nd_; ++i) join->columns[i].nullable = true;
    std::vector<ExprPtr> cond;
    for (int k = 0; k < nd_; ++k) {
      const auto& jc = join->columns;
      ASSIGN_OR_RETURN(auto eqs, NullSafeEquals(ColumnRefs(jc, k, 1)[0], ColumnRefs(jc, nd_ + na + k, 1)[0]));
      for (auto& e : eqs) cond.push_back(e);
    }
    if (!cond.empty()) {
      ASSIGN_OR_RETURN(auto c, expr::And(cond));
      RETURN_NOT_OK(AddJoinCondition(join.get(), c));
    }
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    for (int a = 0; a < na; ++a) {
      ExprPtr v = ColumnRefs(join->columns, nd_ + a, 1)[0];
      if (CountLike(calls[a])) {
        ASSIGN_OR_RETURN(auto zero, expr::Cast(expr::Literal(columnar::Value::Int64(0)), v->type));
        ASSIGN_OR_RETURN(v, expr::Coalesce({v, zero}));
      }
      exprs.push_back(v);
      names.push_back(join->columns[nd_ + a].name);
    }
    for (int k = 0; k < nd_; ++k) {
      exprs.push_back(ColumnRefs(join->columns, k, 1)[0]);
      names.push_back(join->columns[k].name);
    }
    d_from_outer_ = true;
    return MakeProject(std::move(join), std::move(exprs), std::move(names));
  }

  Result<LogicalPtr> Join(LogicalPtr op) {
    const auto t = op->join_type;
    const int lw = static_cast<int>(op->children[0]->columns.size());
    const int rw = static_cast<int>(op->children[1]->columns.size());
    const bool lr = TreeRefersTo(*op->children[0], corr_.ids);
    const bool rr = TreeRefersTo(*op->children[1], corr_.ids);
    const bool pairs = t == LogicalJoinType::kInner || t == LogicalJoinType::kLeft || t == LogicalJoinType::kSingle;
    const bool left_only = t == LogicalJoinType::kSemi || t == LogicalJoinType::kAnti;
    const bool mark = t == LogicalJoinType::kMark;
    if (!pairs && !left_only && !mark) {
      return Status::NotSupported(std::string(JoinTypeName(t)) + " JOIN inside a correlated subquery");
    }
    // The whole condition over left ++ right, before the inputs change.
    std::vector<ExprPtr> cond;
    for (size_t i = 0; i < op->left_keys.size(); ++i) {
      std::vector<int> shift(rw);
      for (int c = 0; c < rw; ++c) shift[c] = lw + c;
      ASSIGN_OR_RETURN(auto r, RemapKeepOuter(op->right_keys[i], shift));
      ASSIGN_OR_RETURN(auto eq, expr::Call("=", {op->left_keys[i], r}));
      cond.push_back(eq);
    }
    if (op->predicate) cond.push_back(op->predicate);
    op->left_keys.clear();
    op->right_keys.clear();
    op->predicate = nullptr;
    const bool both = rr && (t != LogicalJoinType::kInner || lr);
    const bool into_right = rr && !lr && t == LogicalJoinType::kInner;
    // New positions: left cols, [D1], right cols, [D2].
    std::vector<int> map(lw + rw);
    int d_base;
    if (into_right) {
      ASSIGN_OR_RETURN(op->children[1], Run(std::move(op->children[1]), false));
      for (int i = 0; i < lw + rw; ++i) map[i] = i;
      d_base = lw + rw;
    } else {
      ASSIGN_OR_RETURN(op->children[0], Run(std::move(op->children[0]), false));
      if (both) {
        ASSIGN_OR_RETURN(op->children[1], Run(std::move(op->children[1]), false));
      }
      for (int i = 0; i < lw + rw; ++i) map[i] = i < lw ? i : i + nd_;
      d_base = lw;
    }
    std::vector<ExprPtr> new_cond;
    for (const auto& c : cond) {
      ASSIGN_OR_RETURN(auto r, RemapKeepOuter(c, map));
      ASSIGN_OR_RETURN(r, Subst(r, d_base));
      new_cond.push_back(r);
    }
    if (both) {
      const int d2 = lw + nd_ + rw;
      for (int k = 0; k < nd_; ++k) {
        const auto& jl = op->children[0]->columns[lw + k];
        const auto& jr = op->children[1]->columns[rw + k];
        ASSIGN_OR_RETURN(auto eqs, NullSafeEquals(expr::ColumnRef(lw + k, jl.type, jl.name, jl.nullable),
                                                  expr::ColumnRef(d2 + k, jr.type, jr.name, jr.nullable)));
        for (auto& e : eqs) new_cond.push_back(e);
      }
    }
    // Output columns of the rewritten join.
    std::vector<columnar::Field> cols = op->children[0]->columns;
    const auto& rc = op->children[1]->columns;
    if (pairs) {
      for (size_t i = 0; i < rc.size(); ++i) {
        columnar::Field f = rc[i];
        if (t != LogicalJoinType::kInner) f.nullable = true;
        cols.push_back(f);
      }
    } else if (mark) {
      cols.push_back(op->columns[lw]);
    }
    op->columns = cols;
    if (!new_cond.empty()) {
      ASSIGN_OR_RETURN(auto c, expr::And(new_cond));
      RETURN_NOT_OK(AddJoinCondition(op.get(), c));
    }
    // Reorder to the original columns followed by D.
    std::vector<int> order;
    if (into_right) return op;  // left, right, D already
    order = Range(0, lw);
    if (pairs) {
      for (int i = 0; i < rw; ++i) order.push_back(lw + nd_ + i);
    } else if (mark) {
      order.push_back(lw + nd_);
    }
    for (int k = 0; k < nd_; ++k) order.push_back(lw + k);
    return ProjectColumns(std::move(op), order);
  }

  const Correlation& corr_;
  const int nd_;
  bool d_from_outer_ = false;
};

}  // namespace

Result<UnnestedSubquery> PushDownDependentJoin(LogicalPtr plan, const Correlation& corr, bool missing_ok) {
  PushDown p(corr);
  UnnestedSubquery out;
  ASSIGN_OR_RETURN(out.plan, p.Run(std::move(plan), missing_ok));
  out.d_not_null = !p.d_from_outer();
  return out;
}

}  // namespace shoal::sql
