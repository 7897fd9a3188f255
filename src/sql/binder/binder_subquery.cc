// Subquery binding: uncorrelated subqueries run once and become literals; correlated ones
// (naming columns of enclosing queries) become dependent joins with outer references, which
// optimizer/decorrelation.h rewrites into joins.
#include "sql/binder/binder.h"

namespace shoal::sql {

using columnar::Value;

Result<expr::ExprPtr> Binder::BindOuterColumnRef(const ColumnRefExpression& e) {
  const size_t saved = active_frames_;
  const size_t f = active_frames_ - 1;
  // The lookup in frame f's context may itself go further out (frames below f only).
  active_frames_ = f;
  auto r = BindExpr(e, *frames_[f].outer);
  active_frames_ = saved;
  if (!r.ok()) return r.status();
  expr::ExprPtr bound = std::move(r).value();
  // Every subquery from frame f inward now depends on an enclosing row.
  for (size_t j = f; j < frames_.size(); ++j) frames_[j].correlated = true;
  if (IsOuterRef(*bound)) return bound;  // resolved further out: the same reference
  auto& frame = frames_[f];
  for (size_t i = 0; i < frame.outer_exprs.size(); ++i) {
    if (frame.outer_exprs[i]->Equals(*bound)) {
      return OuterRef(frame.ids[i], bound->type, bound->ToString(), bound->nullable);
    }
  }
  const int id = next_outer_id_++;
  frame.ids.push_back(id);
  frame.outer_exprs.push_back(bound);
  return OuterRef(id, bound->type, bound->ToString(), bound->nullable);
}

Result<expr::ExprPtr> Binder::BindSubqueryExpr(const ParsedExpression& e, ExprContext& ctx) {
  const QueryNode* q = e.kind == ExprKind::kExists     ? e.As<ExistsExpression>().query.get()
                       : e.kind == ExprKind::kSubquery ? e.As<SubqueryExpression>().query.get()
                                                       : e.As<InExpression>().subquery.get();
  frames_.push_back(SubqueryFrame{&ctx, {}, {}, false});
  const size_t saved = active_frames_;
  active_frames_ = frames_.size();
  auto bound = BindQueryNode(*q);
  active_frames_ = saved;
  SubqueryFrame frame = std::move(frames_.back());
  frames_.pop_back();
  ASSIGN_OR_RETURN(LogicalPtr plan, std::move(bound));
  const int ncols = static_cast<int>(plan->columns.size());
  if (e.kind != ExprKind::kExists && ncols != 1) {
    return Status::Binder("Subquery returns " + std::to_string(ncols) + " columns - expected 1");
  }
  const columnar::TypePtr type = ncols > 0 ? plan->columns[0].type : columnar::Boolean();

  // x op ANY / ALL (subquery): ALL is NOT (x negated-op ANY ...).
  std::string any_op = "=";
  bool all = false;
  if (e.kind == ExprKind::kIn && !e.As<InExpression>().quantifier.empty()) {
    const auto& in = e.As<InExpression>();
    all = in.quantifier == "ALL";
    any_op = in.compare;
    if (all) {
      static const std::pair<const char*, const char*> kFlip[] = {
          {"=", "<>"}, {"<>", "="}, {"<", ">="}, {"<=", ">"}, {">", "<="}, {">=", "<"}};
      for (const auto& [a, b] : kFlip) {
        if (any_op == a) {
          any_op = b;
          break;
        }
      }
    }
  }
  const bool quantified = any_op != "=" || all;
  if (frame.correlated || quantified) {
    if (!ctx.pending) {
      return Status::NotSupported(std::string(frame.correlated ? "correlated subquery" : "ANY/ALL subquery") + " in " +
                                  (ctx.clause[0] ? ctx.clause : "this clause") + " is not supported");
    }
    PendingSubquery p;
    p.info.ids = frame.ids;
    p.info.outer_exprs = frame.outer_exprs;
    if (e.kind == ExprKind::kExists) {
      p.info.kind = SubqueryKind::kExists;
      p.field = {"exists", columnar::Boolean(), false};
    } else if (e.kind == ExprKind::kSubquery) {
      p.info.kind = SubqueryKind::kScalar;
      p.field = {plan->columns[0].name, type, true};
    } else {
      const auto& in = e.As<InExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr needle, BindExpr(*in.input, ctx));
      // Compare in the common type: cast both sides as `=` would.
      ASSIGN_OR_RETURN(expr::ExprPtr probe,
                       expr::Call(any_op, {needle, expr::ColumnRef(0, type, plan->columns[0].name)}));
      if (probe->kind == expr::ExprKind::kFunction && probe->args.size() == 2) {
        needle = probe->args[0];
        if (probe->args[1]->kind == expr::ExprKind::kCast) {
          std::vector<std::string> names{plan->columns[0].name};
          plan = MakeProject(std::move(plan), {probe->args[1]}, names);
        }
      }
      p.info.kind = SubqueryKind::kAny;
      p.info.op = any_op;
      p.info.needle = needle;
      p.field = {"in", columnar::Boolean(), true};
    }
    p.plan = std::move(plan);
    const int index = kPendingBase + static_cast<int>(ctx.pending->size());
    expr::ExprPtr ref = expr::ColumnRef(index, p.field.type, p.field.name, p.field.nullable);
    ctx.pending->push_back(std::move(p));
    if (e.kind == ExprKind::kIn && (e.As<InExpression>().negated || all)) return expr::Not(ref);
    return ref;
  }

  if (!runner_) return Status::NotSupported("subqueries are not supported here");
  ASSIGN_OR_RETURN(auto batches, runner_(std::move(plan)));
  if (e.kind == ExprKind::kExists) {
    bool any = false;
    for (const auto& b : batches) any = any || b->num_rows > 0;
    return expr::Literal(Value::Boolean(any));
  }
  std::vector<expr::ExprPtr> values;
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b->num_rows; ++i) {
      values.push_back(expr::Literal(Value::FromVector(*b->columns[0], i)));
    }
  }
  if (e.kind == ExprKind::kSubquery) {
    if (values.size() > 1) {
      return Status::InvalidArgument("More than one row returned by a subquery used as an expression");
    }
    if (values.empty()) return expr::Literal(Value::Null(type));
    return values[0];
  }
  const auto& in = e.As<InExpression>();
  ASSIGN_OR_RETURN(expr::ExprPtr needle, BindExpr(*in.input, ctx));
  if (values.empty()) return expr::Literal(Value::Boolean(in.negated));
  return expr::In(needle, std::move(values), in.negated);
}

Result<LogicalPtr> Binder::BindLateral(const TableRef& ref, ExprContext& lctx, Scope* scope,
                                       std::shared_ptr<SubqueryInfo>* info) {
  frames_.push_back(SubqueryFrame{&lctx, {}, {}, false});
  const size_t saved = active_frames_;
  active_frames_ = frames_.size();
  auto bound = BindTableRef(ref, scope);
  active_frames_ = saved;
  SubqueryFrame frame = std::move(frames_.back());
  frames_.pop_back();
  ASSIGN_OR_RETURN(LogicalPtr plan, std::move(bound));
  if (frame.correlated) {
    auto i = std::make_shared<SubqueryInfo>();
    i->kind = SubqueryKind::kLateral;
    i->ids = std::move(frame.ids);
    i->outer_exprs = std::move(frame.outer_exprs);
    *info = std::move(i);
  }
  return plan;
}

Result<LogicalPtr> Binder::AttachPending(LogicalPtr plan, std::vector<PendingSubquery>* pending) {
  const int base = static_cast<int>(plan->columns.size());
  for (auto& p : *pending) {
    auto info = std::make_shared<SubqueryInfo>(std::move(p.info));
    if (info->needle) {
      ASSIGN_OR_RETURN(info->needle, ResolvePending(info->needle, base));
    }
    auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
    join->columns = plan->columns;
    join->columns.push_back(p.field);
    join->subquery = std::move(info);
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(p.plan));
    plan = std::move(join);
  }
  pending->clear();
  return plan;
}

Result<expr::ExprPtr> Binder::ResolvePending(const expr::ExprPtr& e, int base_width) {
  return RewriteColumnRefs(e, [&](const expr::Expr& c) -> Result<expr::ExprPtr> {
    if (c.column < kPendingBase || c.column >= kOuterRefBase) return expr::ExprPtr();
    return expr::ColumnRef(base_width + c.column - kPendingBase, c.type, c.name, c.nullable);
  });
}

}  // namespace shoal::sql
