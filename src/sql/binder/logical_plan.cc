#include "sql/binder/logical_plan.h"

#include <cstdio>

namespace shoal::sql {

columnar::SchemaPtr LogicalOperator::Schema() const {
  auto s = std::make_shared<columnar::Schema>();
  s->fields = columns;
  return s;
}

const char* JoinTypeName(LogicalJoinType t) {
  switch (t) {
    case LogicalJoinType::kInner: return "INNER";
    case LogicalJoinType::kLeft: return "LEFT";
    case LogicalJoinType::kRight: return "RIGHT";
    case LogicalJoinType::kFull: return "FULL";
    case LogicalJoinType::kSemi: return "SEMI";
    case LogicalJoinType::kAnti: return "ANTI";
    case LogicalJoinType::kMark: return "MARK";
    case LogicalJoinType::kSingle: return "SINGLE";
  }
  return "?";
}

LogicalPtr LogicalOperator::Clone() const {
  auto op = std::make_unique<LogicalOperator>(kind);
  op->columns = columns;
  op->source = source;
  op->projected = projected;
  op->filters = filters;
  op->limit_hint = limit_hint;
  op->values = values;
  op->predicate = predicate;
  op->exprs = exprs;
  op->groups = groups;
  op->aggregates = aggregates;
  op->sort_keys = sort_keys;
  op->limit = limit;
  op->offset = offset;
  op->join_type = join_type;
  op->left_keys = left_keys;
  op->right_keys = right_keys;
  op->subquery = subquery;
  op->set_op = set_op;
  op->all = all;
  op->partition_by = partition_by;
  op->windows = windows;
  op->expand_sets = expand_sets;
  op->generator = generator;
  op->generate_kind = generate_kind;
  op->generate_outer = generate_outer;
  op->sample_fraction = sample_fraction;
  op->sample_seed = sample_seed;
  op->estimated_rows = estimated_rows;
  for (const auto& c : children) op->children.push_back(c->Clone());
  return op;
}

namespace {
std::string FormatFraction(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

std::string JoinExprs(const std::vector<expr::ExprPtr>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i]->ToString();
  return s;
}
}  // namespace

std::string LogicalOperator::ToString(int indent) const {
  std::string s(indent * 2, ' ');
  switch (kind) {
    case LogicalKind::kGet:
      s += "Get " + source->ToString();
      if (!filters.empty()) s += " filters=[" + JoinExprs(filters) + "]";
      break;
    case LogicalKind::kValues: s += "Values rows=" + std::to_string(values->num_rows); break;
    case LogicalKind::kFilter: s += "Filter " + predicate->ToString(); break;
    case LogicalKind::kProject: s += "Project " + JoinExprs(exprs); break;
    case LogicalKind::kAggregate: {
      s += "Aggregate groups=[" + JoinExprs(groups) + "] aggregates=[";
      for (size_t i = 0; i < aggregates.size(); ++i) s += (i ? ", " : "") + aggregates[i].display;
      s += "]";
      break;
    }
    case LogicalKind::kSort: {
      s += "Sort";
      for (const auto& k : sort_keys) {
        s += ' ';
        s += k.expr->ToString();
        if (k.descending) s += " DESC";
      }
      if (limit >= 0) s += " limit=" + std::to_string(limit);
      break;
    }
    case LogicalKind::kLimit:
      s += "Limit " + std::to_string(limit) + " offset " + std::to_string(offset);
      break;
    case LogicalKind::kJoin:
      s += std::string("Join ") + JoinTypeName(join_type) + " [" + JoinExprs(left_keys) + "] = [" +
           JoinExprs(right_keys) + "]";
      if (predicate) s += " residual " + predicate->ToString();
      if (subquery) s += " dependent";
      break;
    case LogicalKind::kUnion: s += "UnionAll"; break;
    case LogicalKind::kSetOp:
      s += std::string(set_op == SetOpType::kExcept ? "Except" : "Intersect") + (all ? " ALL" : "");
      break;
    case LogicalKind::kWindow: {
      s += "Window partition=[" + JoinExprs(partition_by) + "] order=[";
      for (size_t i = 0; i < sort_keys.size(); ++i) {
        if (i) s += ", ";
        s += sort_keys[i].expr->ToString();
        if (sort_keys[i].descending) s += " DESC";
      }
      s += "] windows=[";
      for (size_t i = 0; i < windows.size(); ++i) s += (i ? ", " : "") + windows[i].display;
      s += "]";
      break;
    }
    case LogicalKind::kExpand: s += "Expand sets=" + std::to_string(expand_sets.size()); break;
    case LogicalKind::kGenerate:
      s += std::string(generate_kind == GenerateKind::kExplode      ? "Generate explode"
                       : generate_kind == GenerateKind::kPosExplode ? "Generate posexplode"
                                                                    : "Generate inline") +
           (generate_outer ? "_outer(" : "(") + generator->ToString() + ")";
      break;
    case LogicalKind::kSample: s += "Sample fraction=" + FormatFraction(sample_fraction); break;
  }
  s += "\n";
  for (const auto& c : children) s += c->ToString(indent + 1);
  return s;
}

Result<expr::ExprPtr> RewriteColumnRefs(
    const expr::ExprPtr& e, const std::function<Result<expr::ExprPtr>(const expr::Expr&)>& fn) {
  if (e->kind == expr::ExprKind::kColumnRef) {
    ASSIGN_OR_RETURN(expr::ExprPtr r, fn(*e));
    return r ? r : e;
  }
  if (e->args.empty()) return e;
  std::vector<expr::ExprPtr> args;
  bool changed = false;
  for (const auto& a : e->args) {
    ASSIGN_OR_RETURN(expr::ExprPtr r, RewriteColumnRefs(a, fn));
    changed = changed || r != a;
    args.push_back(std::move(r));
  }
  if (!changed) return e;
  auto copy = std::make_shared<expr::Expr>(*e);
  copy->args = std::move(args);
  return expr::ExprPtr(copy);
}

LogicalPtr MakeFilter(LogicalPtr child, expr::ExprPtr predicate) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kFilter);
  op->columns = child->columns;
  op->predicate = std::move(predicate);
  op->children.push_back(std::move(child));
  return op;
}

LogicalPtr MakeProject(LogicalPtr child, std::vector<expr::ExprPtr> exprs,
                       std::vector<std::string> names) {
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kProject);
  for (size_t i = 0; i < exprs.size(); ++i) {
    op->columns.push_back({names[i], exprs[i]->type, exprs[i]->nullable});
  }
  op->exprs = std::move(exprs);
  op->children.push_back(std::move(child));
  return op;
}

}  // namespace shoal::sql

namespace shoal::sql {

void SplitConjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out) {
  if (e->kind == expr::ExprKind::kAnd) {
    for (const auto& a : e->args) SplitConjuncts(a, out);
  } else {
    out->push_back(e);
  }
}

Status AddJoinCondition(LogicalOperator* join, const expr::ExprPtr& cond) {
  const int lw = static_cast<int>(join->children[0]->columns.size());
  const int rw = static_cast<int>(join->children[1]->columns.size());
  std::vector<int> to_right(lw + rw, -1);
  for (int i = 0; i < rw; ++i) to_right[lw + i] = i;
  auto side = [&](const expr::Expr& e) {  // 1 left only, 2 right only, 3 both, 0 none
    int s = 0;
    for (int c : expr::CollectColumns(e)) {
      if (c < kOuterRefBase) s |= c < lw ? 1 : 2;  // an outer reference is a constant here
    }
    return s;
  };
  std::vector<expr::ExprPtr> conj, residual;
  SplitConjuncts(cond, &conj);
  if (join->predicate) SplitConjuncts(join->predicate, &residual);
  for (const auto& c : conj) {
    if (c->kind == expr::ExprKind::kFunction && c->name == "=" && c->args.size() == 2) {
      int a = side(*c->args[0]), b = side(*c->args[1]);
      if ((a == 1 && b == 2) || (a == 2 && b == 1)) {
        const auto& l = a == 1 ? c->args[0] : c->args[1];
        const auto& r = a == 1 ? c->args[1] : c->args[0];
        ASSIGN_OR_RETURN(auto rr, expr::RemapColumns(r, to_right));
        join->left_keys.push_back(l);
        join->right_keys.push_back(rr);
        continue;
      }
    }
    residual.push_back(c);
  }
  if (residual.empty()) {
    join->predicate = nullptr;
  } else {
    ASSIGN_OR_RETURN(join->predicate, expr::And(residual));
  }
  return Status::OK();
}

}  // namespace shoal::sql
