#include "sql/optimizer/or_factoring.h"

#include <unordered_set>

namespace shoal::sql {

using expr::ExprKind;
using expr::ExprPtr;

Result<ExprPtr> FactorOr(const ExprPtr& e) {
  if (e->kind != ExprKind::kAnd && e->kind != ExprKind::kOr) return e;
  std::vector<ExprPtr> args;
  for (const auto& a : e->args) {
    ASSIGN_OR_RETURN(auto f, FactorOr(a));
    args.push_back(f);
  }
  if (e->kind == ExprKind::kAnd) return expr::And(std::move(args));
  std::vector<std::vector<ExprPtr>> branches(args.size());
  for (size_t i = 0; i < args.size(); ++i) SplitConjuncts(args[i], &branches[i]);
  // Conjuncts of the first branch found in every other branch.
  std::vector<ExprPtr> common;
  for (const auto& c : branches[0]) {
    bool everywhere = true;
    for (size_t i = 1; i < branches.size() && everywhere; ++i) {
      bool found = false;
      for (const auto& d : branches[i]) found = found || c->Equals(*d);
      everywhere = found;
    }
    bool seen = false;
    for (const auto& d : common) seen = seen || c->Equals(*d);
    if (everywhere && !seen) common.push_back(c);
  }
  if (common.empty()) return expr::Or(std::move(args));
  std::vector<ExprPtr> rests;
  bool some_branch_empty = false;
  for (const auto& b : branches) {
    std::vector<ExprPtr> rest;
    for (const auto& c : b) {
      bool is_common = false;
      for (const auto& d : common) is_common = is_common || c->Equals(*d);
      if (!is_common) rest.push_back(c);
    }
    if (rest.empty()) {
      some_branch_empty = true;  // that branch is just the common part: the OR adds nothing
      break;
    }
    ASSIGN_OR_RETURN(auto r, expr::And(std::move(rest)));
    rests.push_back(r);
  }
  std::vector<ExprPtr> out = common;
  if (!some_branch_empty) {
    ASSIGN_OR_RETURN(auto o, expr::Or(std::move(rests)));
    out.push_back(o);
  }
  return expr::And(std::move(out));
}

Result<std::optional<ExprPtr>> ImpliedByOr(const ExprPtr& e, const std::function<bool(const expr::Expr&)>& keep) {
  if (e->kind != ExprKind::kOr) return std::optional<ExprPtr>();
  std::vector<ExprPtr> branches;
  for (const auto& b : e->args) {
    std::vector<ExprPtr> conj, kept;
    SplitConjuncts(b, &conj);
    for (const auto& c : conj) {
      if (keep(*c)) kept.push_back(c);
    }
    if (kept.empty()) return std::optional<ExprPtr>();
    ASSIGN_OR_RETURN(auto a, expr::And(std::move(kept)));
    branches.push_back(a);
  }
  ASSIGN_OR_RETURN(auto o, expr::Or(std::move(branches)));
  return std::optional<ExprPtr>(o);
}

Status FactorOrPredicates(LogicalOperator* op) {
  if (op->predicate) {
    ASSIGN_OR_RETURN(op->predicate, FactorOr(op->predicate));
  }
  for (auto& f : op->filters) {
    ASSIGN_OR_RETURN(f, FactorOr(f));
  }
  for (auto& c : op->children) RETURN_NOT_OK(FactorOrPredicates(c.get()));
  return Status::OK();
}

}  // namespace shoal::sql
