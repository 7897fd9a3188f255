#include "sql/optimizer/decorrelation.h"

#include <algorithm>

#include "sql/optimizer/dependent_join_pushdown.h"

namespace shoal::sql {

namespace {

using expr::ExprPtr;

enum class Mode { kValue, kSemi, kAnti };

ExprPtr Ref(const std::vector<columnar::Field>& cols, int i) {
  return expr::ColumnRef(i, cols[i].type, cols[i].name, cols[i].nullable);
}

LogicalPtr MakeJoinNode(LogicalJoinType t, LogicalPtr left, LogicalPtr right, const columnar::Field* mark) {
  auto j = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  j->join_type = t;
  j->columns = left->columns;
  if (t == LogicalJoinType::kMark) {
    j->columns.push_back(*mark);
  } else if (t != LogicalJoinType::kSemi && t != LogicalJoinType::kAnti) {
    for (auto f : right->columns) {
      if (t != LogicalJoinType::kInner) f.nullable = true;
      j->columns.push_back(f);
    }
  }
  j->children.push_back(std::move(left));
  j->children.push_back(std::move(right));
  return j;
}

Result<LogicalPtr> MakeJoin(LogicalJoinType t, LogicalPtr left, LogicalPtr right, const std::vector<ExprPtr>& cond,
                            const columnar::Field* mark = nullptr) {
  // A mark or semi join without a condition needs one right row at most (unless the right
  // side still depends on a further-out query: its decorrelation cannot pass a LIMIT).
  if (cond.empty() && (t == LogicalJoinType::kMark || t == LogicalJoinType::kSemi || t == LogicalJoinType::kAnti) &&
      !HasDependentJoin(*right)) {
    auto lim = std::make_unique<LogicalOperator>(LogicalKind::kLimit);
    lim->columns = right->columns;
    lim->limit = 1;
    lim->children.push_back(std::move(right));
    right = std::move(lim);
  }
  auto j = MakeJoinNode(t, std::move(left), std::move(right), mark);
  if (!cond.empty()) {
    ASSIGN_OR_RETURN(auto c, expr::And(cond));
    RETURN_NOT_OK(AddJoinCondition(j.get(), c));
  }
  return j;
}

// Columns >= `from` (the right input's) move by `delta` (marks were added to the left).
Result<std::vector<ExprPtr>> ShiftRight(const std::vector<ExprPtr>& v, int from, int delta) {
  std::vector<ExprPtr> out;
  for (const auto& e : v) {
    ASSIGN_OR_RETURN(auto r, RewriteColumnRefs(e, [&](const expr::Expr& c) -> Result<ExprPtr> {
      if (IsOuterRef(c) || c.column < from) return ExprPtr();
      return expr::ColumnRef(c.column + delta, c.type, c.name, c.nullable);
    }));
    out.push_back(r);
  }
  return out;
}

bool AnyOuterRef(const std::vector<ExprPtr>& v, const std::vector<int>& ids) {
  for (const auto& e : v) {
    if (RefersTo(*e, ids)) return true;
  }
  return false;
}

// The subquery plan `right` made uncorrelated, and the join condition (over left ++ the new
// right) that stands for the correlation.
struct Unnested {
  LogicalPtr right;
  std::vector<ExprPtr> cond;
};

// [Project without outer references] over Filter over an uncorrelated input: the filter's
// predicate becomes the join condition (the classic unnesting of EXISTS / IN).
Result<bool> TrySimple(LogicalPtr* right, const SubqueryInfo& info, int lw, Unnested* out) {
  // Projections without outer references, composed into one list over the filter's output.
  LogicalOperator* f = right->get();
  std::vector<ExprPtr> composed;
  bool projected = false;
  while (f->kind == LogicalKind::kProject && !AnyOuterRef(f->exprs, info.ids)) {
    if (!projected) {
      composed = f->exprs;
    } else {
      for (auto& e : composed) {
        ASSIGN_OR_RETURN(e, RewriteColumnRefs(e, [&](const expr::Expr& c) -> Result<ExprPtr> {
          if (IsOuterRef(c)) return ExprPtr();
          return f->exprs[c.column];
        }));
      }
    }
    projected = true;
    f = f->children[0].get();
  }
  if (f->kind != LogicalKind::kFilter || TreeRefersTo(*f->children[0], info.ids)) return false;
  const std::vector<columnar::Field> out_cols = right->get()->columns;
  LogicalPtr input = std::move(f->children[0]);
  const int cw = static_cast<int>(input->columns.size());
  int np = 0;
  if (projected) {
    std::vector<ExprPtr> exprs = composed;
    std::vector<std::string> names;
    for (const auto& c : out_cols) names.push_back(c.name);
    np = static_cast<int>(exprs.size());
    for (int i = 0; i < cw; ++i) {
      exprs.push_back(Ref(input->columns, i));
      names.push_back(input->columns[i].name);
    }
    out->right = MakeProject(std::move(input), std::move(exprs), std::move(names));
  } else {
    out->right = std::move(input);
  }
  ASSIGN_OR_RETURN(auto pred, RewriteColumnRefs(f->predicate, [&](const expr::Expr& c) -> Result<ExprPtr> {
    if (IsOuterRef(c)) {
      auto it = std::find(info.ids.begin(), info.ids.end(), c.column - kOuterRefBase);
      if (it == info.ids.end()) return ExprPtr();
      return info.outer_exprs[it - info.ids.begin()];
    }
    return expr::ColumnRef(lw + np + c.column, c.type, c.name, c.nullable);
  }));
  SplitConjuncts(pred, &out->cond);
  return true;
}

Result<Unnested> Unnest(LogicalPtr right, const SubqueryInfo& info, const LogicalOperator& left, bool missing_ok) {
  const int lw = static_cast<int>(left.columns.size());
  Unnested u;
  if (!TreeRefersTo(*right, info.ids)) {
    u.right = std::move(right);
    return u;
  }
  ASSIGN_OR_RETURN(bool simple, TrySimple(&right, info, lw, &u));
  if (simple) return u;
  Correlation corr{info.ids, info.outer_exprs, &left};
  const int rw = static_cast<int>(right->columns.size());
  ASSIGN_OR_RETURN(UnnestedSubquery un, PushDownDependentJoin(std::move(right), corr, missing_ok));
  u.right = std::move(un.plan);
  for (size_t k = 0; k < info.ids.size(); ++k) {
    ExprPtr d = Ref(u.right->columns, rw + static_cast<int>(k));
    d = expr::ColumnRef(lw + rw + static_cast<int>(k), d->type, d->name, d->nullable);
    if (un.d_not_null) {
      ASSIGN_OR_RETURN(auto eq, expr::Call("=", {info.outer_exprs[k], d}));
      u.cond.push_back(eq);
    } else {
      ASSIGN_OR_RETURN(auto eqs, NullSafeEquals(info.outer_exprs[k], d));
      for (auto& e : eqs) u.cond.push_back(e);
    }
  }
  return u;
}

// Left's columns plus `value` named as `field`.
LogicalPtr ProjectWith(LogicalPtr plan, int lw, ExprPtr value, const columnar::Field& field) {
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (int i = 0; i < lw; ++i) {
    exprs.push_back(Ref(plan->columns, i));
    names.push_back(plan->columns[i].name);
  }
  exprs.push_back(std::move(value));
  names.push_back(field.name);
  return MakeProject(std::move(plan), std::move(exprs), std::move(names));
}

// `x op ANY (right)` for every left row, three-valued: TRUE when some right row compares
// TRUE, else NULL when some compares NULL, else FALSE. Built from mark joins, which only
// say whether a row has a partner.
Result<LogicalPtr> AnyMark(LogicalPtr left, Unnested u, const SubqueryInfo& info, const columnar::Field& field) {
  const int lw = static_cast<int>(left->columns.size());
  const ExprPtr x = info.needle;
  const ExprPtr s = Ref(u.right->columns, 0);
  const ExprPtr s_at = expr::ColumnRef(lw, s->type, s->name, s->nullable);
  ASSIGN_OR_RETURN(ExprPtr cmp, expr::Call(info.op, {x, s_at}));
  const bool eq = info.op == "=";
  const bool need_x = x->nullable && eq, need_s = s->nullable && eq, need_any = !eq && (x->nullable || s->nullable);
  LogicalPtr copy_a = need_x ? u.right->Clone() : nullptr;
  LogicalPtr copy_b = need_s ? u.right->Clone() : nullptr;
  LogicalPtr copy_n = need_any ? u.right->Clone() : nullptr;
  columnar::Field mark{"__mark", columnar::Boolean(), false};
  std::vector<ExprPtr> c1 = u.cond;
  c1.push_back(cmp);
  ASSIGN_OR_RETURN(LogicalPtr plan, MakeJoin(LogicalJoinType::kMark, std::move(left), std::move(u.right), c1, &mark));
  int width = lw + 1;
  std::vector<ExprPtr> null_when;
  if (copy_a) {  // x IS NULL and the subquery has a row
    ASSIGN_OR_RETURN(auto c, ShiftRight(u.cond, lw, width - lw));
    ASSIGN_OR_RETURN(plan, MakeJoin(LogicalJoinType::kMark, std::move(plan), std::move(copy_a), c, &mark));
    ASSIGN_OR_RETURN(auto both, expr::And({expr::IsNull(x), Ref(plan->columns, width)}));
    null_when.push_back(both);
    ++width;
  }
  if (copy_b) {  // the subquery has a NULL
    auto nulls = MakeFilter(std::move(copy_b), expr::IsNull(s));
    ASSIGN_OR_RETURN(auto c, ShiftRight(u.cond, lw, width - lw));
    ASSIGN_OR_RETURN(plan, MakeJoin(LogicalJoinType::kMark, std::move(plan), std::move(nulls), c, &mark));
    null_when.push_back(Ref(plan->columns, width));
    ++width;
  }
  if (copy_n) {  // some comparison is NULL
    std::vector<ExprPtr> cn = u.cond;
    cn.push_back(expr::IsNull(cmp));
    ASSIGN_OR_RETURN(auto c, ShiftRight(cn, lw, width - lw));
    ASSIGN_OR_RETURN(plan, MakeJoin(LogicalJoinType::kMark, std::move(plan), std::move(copy_n), c, &mark));
    null_when.push_back(Ref(plan->columns, width));
    ++width;
  }
  ExprPtr value = Ref(plan->columns, lw);
  if (!null_when.empty()) {
    ASSIGN_OR_RETURN(auto is_null, expr::Or(null_when));
    ASSIGN_OR_RETURN(value, expr::Case({{value, expr::Literal(columnar::Value::Boolean(true))},
                                        {is_null, expr::Literal(columnar::Value::Null(columnar::Boolean()))}},
                                       expr::Literal(columnar::Value::Boolean(false))));
  }
  return ProjectWith(std::move(plan), lw, value, field);
}

// Rewrites one dependent join. kValue: output left + the subquery's value; kSemi/kAnti:
// the left rows whose EXISTS / IN is TRUE (kAnti: EXISTS is FALSE).
Result<LogicalPtr> RewriteDependent(LogicalPtr left, LogicalPtr right, const SubqueryInfo& info,
                                    const columnar::Field& field, Mode mode) {
  const int lw = static_cast<int>(left->columns.size());
  const bool missing_ok = info.kind == SubqueryKind::kScalar;
  ASSIGN_OR_RETURN(Unnested u, Unnest(std::move(right), info, *left, missing_ok));
  switch (info.kind) {
    case SubqueryKind::kExists: {
      if (mode != Mode::kValue) {
        return MakeJoin(mode == Mode::kSemi ? LogicalJoinType::kSemi : LogicalJoinType::kAnti, std::move(left),
                        std::move(u.right), u.cond);
      }
      return MakeJoin(LogicalJoinType::kMark, std::move(left), std::move(u.right), u.cond, &field);
    }
    case SubqueryKind::kScalar: {
      ASSIGN_OR_RETURN(auto j, MakeJoin(LogicalJoinType::kSingle, std::move(left), std::move(u.right), u.cond));
      ExprPtr v = Ref(j->columns, lw);
      return ProjectWith(std::move(j), lw, v, field);
    }
    case SubqueryKind::kLateral: return Status::Internal("LATERAL is rewritten by RewriteLateral");
    case SubqueryKind::kAny: {
      if (mode == Mode::kSemi) {
        const ExprPtr s = Ref(u.right->columns, 0);
        ASSIGN_OR_RETURN(ExprPtr cmp, expr::Call(info.op, {info.needle, expr::ColumnRef(lw, s->type, s->name)}));
        u.cond.push_back(cmp);
        return MakeJoin(LogicalJoinType::kSemi, std::move(left), std::move(u.right), u.cond);
      }
      return AnyMark(std::move(left), std::move(u), info, field);
    }
  }
  return Status::Internal("unknown subquery kind");
}

bool IsColumn(const expr::Expr& e, int col) { return e.kind == expr::ExprKind::kColumnRef && e.column == col; }

bool Mentions(const ExprPtr& e, int col) {
  if (!e) return false;
  bool hit = false;
  expr::Visit(*e, [&](const expr::Expr& x) { hit = hit || IsColumn(x, col); });
  return hit;
}

class Rewriter {
 public:
  Result<LogicalPtr> Visit(LogicalPtr op) {
    if (op->kind == LogicalKind::kFilter && IsDependent(*op->children[0])) return FilterOverDependent(std::move(op));
    for (auto& c : op->children) {
      ASSIGN_OR_RETURN(c, Visit(std::move(c)));
    }
    if (IsLateral(*op)) return RewriteLateral(std::move(op));
    if (!IsDependent(*op)) return op;
    const columnar::Field field = op->columns.back();
    auto info = op->subquery;
    return RewriteDependent(std::move(op->children[0]), std::move(op->children[1]), *info, field, Mode::kValue);
  }

 private:
  static bool IsDependent(const LogicalOperator& op) {
    return op.kind == LogicalKind::kJoin && op.subquery && op.subquery->kind != SubqueryKind::kLateral;
  }
  static bool IsLateral(const LogicalOperator& op) {
    return op.kind == LogicalKind::kJoin && op.subquery && op.subquery->kind == SubqueryKind::kLateral;
  }

  // LATERAL: the right side unnested, joined with the join's own type and ON condition (over
  // left then right columns, which the unnested right keeps first).
  Result<LogicalPtr> RewriteLateral(LogicalPtr op) {
    const int lw = static_cast<int>(op->children[0]->columns.size());
    const int rw = static_cast<int>(op->children[1]->columns.size());
    auto info = op->subquery;
    ASSIGN_OR_RETURN(Unnested u, Unnest(std::move(op->children[1]), *info, *op->children[0], false));
    if (op->predicate) SplitConjuncts(op->predicate, &u.cond);
    ASSIGN_OR_RETURN(auto j, MakeJoin(op->join_type, std::move(op->children[0]), std::move(u.right), u.cond));
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    for (int i = 0; i < lw + rw; ++i) {
      exprs.push_back(Ref(j->columns, i));
      names.push_back(j->columns[i].name);
    }
    return MakeProject(std::move(j), std::move(exprs), std::move(names));
  }

  // Filter over a chain of dependent joins (the binder's WHERE): an EXISTS / IN that is a
  // conjunct by itself becomes a semi join, NOT EXISTS an anti join.
  Result<LogicalPtr> FilterOverDependent(LogicalPtr filter) {
    std::vector<LogicalPtr> chain;  // top first
    LogicalPtr cur = std::move(filter->children[0]);
    while (IsDependent(*cur)) {
      LogicalPtr next = std::move(cur->children[0]);
      chain.push_back(std::move(cur));
      cur = std::move(next);
    }
    std::reverse(chain.begin(), chain.end());
    ASSIGN_OR_RETURN(LogicalPtr plan, Visit(std::move(cur)));
    const int base = static_cast<int>(plan->columns.size());
    std::vector<ExprPtr> conj;
    SplitConjuncts(filter->predicate, &conj);
    for (size_t i = 0; i < chain.size(); ++i) {
      LogicalOperator& dj = *chain[i];
      const int col = base + static_cast<int>(i);
      const columnar::Field field = dj.columns.back();
      const SubqueryInfo& info = *dj.subquery;
      Mode mode = Mode::kValue;
      int at = -1;
      for (size_t c = 0; c < conj.size() && at < 0; ++c) {
        const auto& e = *conj[c];
        const bool exists = info.kind == SubqueryKind::kExists;
        if (IsColumn(e, col) && (exists || (info.kind == SubqueryKind::kAny && info.op == "="))) {
          mode = Mode::kSemi;
          at = static_cast<int>(c);
        } else if (exists && e.kind == expr::ExprKind::kNot && IsColumn(*e.args[0], col)) {
          mode = Mode::kAnti;
          at = static_cast<int>(c);
        }
      }
      bool elsewhere = false;
      for (size_t c = 0; c < conj.size(); ++c) elsewhere = elsewhere || (static_cast<int>(c) != at && Mentions(conj[c], col));
      for (size_t j = i + 1; j < chain.size(); ++j) {
        elsewhere = elsewhere || Mentions(chain[j]->subquery->needle, col);
        for (const auto& o : chain[j]->subquery->outer_exprs) elsewhere = elsewhere || Mentions(o, col);
      }
      if (elsewhere) mode = Mode::kValue;
      ASSIGN_OR_RETURN(LogicalPtr right, Visit(std::move(dj.children[1])));
      ASSIGN_OR_RETURN(plan, RewriteDependent(std::move(plan), std::move(right), info, field, mode));
      if (mode != Mode::kValue) {
        plan = ProjectWith(std::move(plan), col, expr::Literal(columnar::Value::Boolean(true)), field);
        conj[at] = expr::Literal(columnar::Value::Boolean(true));
      }
    }
    ASSIGN_OR_RETURN(auto pred, expr::And(conj));
    return MakeFilter(std::move(plan), pred);
  }
};

bool AnyOuter(const std::vector<ExprPtr>& v) {
  for (const auto& e : v) {
    if (!e) continue;
    bool hit = false;
    expr::Visit(*e, [&](const expr::Expr& x) { hit = hit || IsOuterRef(x); });
    if (hit) return true;
  }
  return false;
}

}  // namespace

Result<LogicalPtr> Decorrelate(LogicalPtr plan) {
  if (!HasDependentJoin(*plan)) return plan;
  Rewriter r;
  ASSIGN_OR_RETURN(plan, r.Visit(std::move(plan)));
  if (HasDependentJoin(*plan)) return Status::Internal("a correlated subquery was left after decorrelation");
  return plan;
}

bool HasDependentJoin(const LogicalOperator& op) {
  if (op.subquery) return true;
  if (AnyOuter(op.filters) || AnyOuter(op.exprs) || AnyOuter(op.groups) || AnyOuter(op.left_keys) ||
      AnyOuter(op.right_keys) || AnyOuter({op.predicate})) {
    return true;
  }
  for (const auto& a : op.aggregates) {
    if (AnyOuter(a.args)) return true;
  }
  for (const auto& k : op.sort_keys) {
    if (AnyOuter({k.expr})) return true;
  }
  for (const auto& c : op.children) {
    if (HasDependentJoin(*c)) return true;
  }
  return false;
}

}  // namespace shoal::sql
