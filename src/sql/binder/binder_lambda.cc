// Binding of higher-order function calls: value arguments first, then each lambda body with
// its parameters in scope, typed from the values (expr/higher_order.h).
#include "expr/higher_order.h"
#include "sql/binder/binder.h"
#include "sql/parser/token.h"

namespace shoal::sql {

Result<expr::ExprPtr> Binder::BindLambdaVariable(const ColumnRefExpression& e, const ExprContext& ctx) {
  for (const LambdaScope* s = ctx.lambdas; s; s = s->outer) {
    for (size_t i = 0; i < s->names.size(); ++i) {
      if (!NameEq(s->names[i], e.parts[0])) continue;
      expr::ExprPtr out = expr::LambdaVariable(s->first_slot + static_cast<int>(i), s->types[i], s->names[i]);
      for (size_t p = 1; p < e.parts.size(); ++p) {
        ASSIGN_OR_RETURN(out, expr::FieldAccess(out, e.parts[p]));
      }
      return out;
    }
  }
  return expr::ExprPtr();
}

Result<expr::ExprPtr> Binder::BindHigherOrder(const FunctionExpression& e, ExprContext& ctx) {
  const std::string name = Lower(e.name);
  if (e.distinct) return Status::Binder("DISTINCT is only allowed in aggregate functions");
  const size_t num_inputs = expr::HigherOrderInputCount(name);
  std::vector<expr::ExprPtr> inputs;
  for (size_t i = 0; i < e.args.size() && i < num_inputs; ++i) {
    if (e.args[i]->kind == ExprKind::kLambda) {
      return Status::Binder(name + "() argument " + std::to_string(i + 1) + " must be a value, not the lambda " +
                            e.args[i]->ToString());
    }
    ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*e.args[i], ctx));
    inputs.push_back(std::move(b));
  }
  const int first_slot = ctx.lambdas ? ctx.lambdas->first_slot + static_cast<int>(ctx.lambdas->names.size()) : 0;
  std::vector<expr::ExprPtr> lambdas;
  for (size_t i = num_inputs; i < e.args.size(); ++i) {
    if (e.args[i]->kind != ExprKind::kLambda) {
      return Status::Binder(name + "() argument " + std::to_string(i + 1) + " must be a lambda function (x -> ...), not " +
                            e.args[i]->ToString());
    }
    const auto& lambda = e.args[i]->As<LambdaExpression>();
    for (size_t a = 0; a < lambda.params.size(); ++a) {
      for (size_t b = 0; b < a; ++b) {
        if (NameEq(lambda.params[a], lambda.params[b])) {
          return Status::Binder("lambda " + lambda.ToString() + " names parameter " + lambda.params[a] + " twice");
        }
      }
    }
    if (ContainsAggregate(*lambda.body)) {
      return Status::Binder("aggregate functions are not allowed in the lambda " + lambda.ToString());
    }
    ASSIGN_OR_RETURN(auto types, expr::LambdaParameterTypes(name, inputs, i - num_inputs, lambda.params.size()));
    LambdaScope scope{lambda.params, std::move(types), first_slot, ctx.lambdas};
    ExprContext inner = ctx;
    inner.lambdas = &scope;
    ASSIGN_OR_RETURN(expr::ExprPtr body, BindExpr(*lambda.body, inner));
    lambdas.push_back(expr::Lambda(std::move(body), first_slot, lambda.params));
  }
  if (inputs.size() != num_inputs || lambdas.empty()) {
    return Status::Binder(name + "() takes " + std::to_string(num_inputs) +
                          " value argument(s) and then a lambda function, e.g. transform(array, x -> x + 1)");
  }
  return expr::HigherOrderCall(name, std::move(inputs), std::move(lambdas));
}

}  // namespace shoal::sql
