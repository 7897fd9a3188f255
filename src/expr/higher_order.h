// Higher-order functions (Spark's lambda functions): transform, filter, exists, forall,
// aggregate/reduce, zip_with over arrays; map_filter, map_zip_with, transform_keys,
// transform_values over maps. Each takes value inputs and then lambdas (`x -> x + 1`).
//
// Shape of a bound call: a kHigherOrder node whose args are the value inputs followed by kLambda
// nodes; a lambda's body reads its parameters as kLambdaVariable nodes by slot. Slots number the
// parameters of all enclosing lambdas first (an inner lambda's first slot is its outer lambda's
// first slot plus that lambda's parameter count), so a nested body can read outer parameters.
// Column references in a body read the row the element belongs to.
//
// Evaluation is vectorized: for one batch, the elements of all rows' arrays are flattened into
// one child batch (parameters as columns, the outer columns a body reads repeated per element)
// and a body is evaluated once over it; only aggregate's merge runs once per element position.
//
// Thread-safety: pure functions over immutable expressions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/vector.h"
#include "expr/expr.h"

namespace shoal::expr {

// Whether `name` (lower case) is a higher-order function.
bool IsHigherOrderFunction(std::string_view name);
// How many leading arguments of higher-order function `name` are values (the rest are lambdas).
size_t HigherOrderInputCount(std::string_view name);

// The parameter types of lambda number `lambda` (0-based among the call's lambdas) of `name`
// written with `num_params` parameters, given the bound value inputs. Binder errors name a wrong
// input type, a missing or extra lambda, or a wrong parameter count.
Result<std::vector<TypePtr>> LambdaParameterTypes(std::string_view name, const std::vector<ExprPtr>& inputs,
                                                  size_t lambda, size_t num_params);

ExprPtr LambdaVariable(int slot, TypePtr type, std::string name);
// A lambda with parameters `params` (names, for display) in slots first_slot, first_slot + 1, ...
ExprPtr Lambda(ExprPtr body, int first_slot, const std::vector<std::string>& params);
// The call (`inputs` as LambdaParameterTypes saw them): checks the lambdas' result types (a
// predicate is BOOLEAN, aggregate's merge has the start's type) and types the result.
Result<ExprPtr> HigherOrderCall(std::string_view name, std::vector<ExprPtr> inputs, std::vector<ExprPtr> lambdas);

// Evaluates a lambda's body over elements (implemented by the evaluator, evaluate.cc).
class LambdaInvoker {
 public:
  virtual ~LambdaInvoker() = default;
  // Lambda number `lambda` of the call over parents.size() elements: element k belongs to row
  // parents[k] of the call's rows and its parameter p has the value params[p] row k. Returns
  // one value per element.
  virtual Result<columnar::VectorPtr> Invoke(size_t lambda, const std::vector<columnar::VectorPtr>& params,
                                             const std::vector<uint32_t>& parents) = 0;
};

// The call `call` over n rows whose value inputs are `inputs` (flat vectors of n rows).
Result<columnar::VectorPtr> EvaluateHigherOrder(const Expr& call, const std::vector<columnar::VectorPtr>& inputs,
                                                int64_t n, LambdaInvoker& invoker);

}  // namespace shoal::expr
