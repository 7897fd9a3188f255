// Elementary functions on DOUBLE as Spark defines them: trigonometric and hyperbolic
// functions and their inverses (NaN outside the domain, as java.lang.Math), degrees/radians,
// pi(), e(), cbrt, expm1, log1p, rint (half to even), hypot, atan2.
#include <cmath>
#include <numbers>

#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::VectorPtr;

namespace {

using UnaryFn = double (*)(double);
using BinaryFn = double (*)(double, double);

template <UnaryFn kFn>
Status Unary(const KernelCall& call, VectorPtr* result) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    *r = kFn(FixedArg<double>(call, 0, i));
    return RowStatus::kOk;
  }, result);
}

template <BinaryFn kFn>
Status Binary(const KernelCall& call, VectorPtr* result) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    *r = kFn(FixedArg<double>(call, 0, i), FixedArg<double>(call, 1, i));
    return RowStatus::kOk;
  }, result);
}

// The constant is a function, not a double template argument: clang 14 has no floating-point
// non-type template parameters.
template <double (*kValue)()>
Status ConstantKernel(const KernelCall& call, VectorPtr* result) {
  return FixedRows<double>(call, [&](int64_t, double* r) -> Result<RowStatus> {
    *r = kValue();
    return RowStatus::kOk;
  }, result);
}

double Pi() { return std::numbers::pi; }
double E() { return std::numbers::e; }
double Acos(double x) { return std::acos(x); }
double Asin(double x) { return std::asin(x); }
double Atan(double x) { return std::atan(x); }
double Acosh(double x) { return std::acosh(x); }
double Asinh(double x) { return std::asinh(x); }
double Atanh(double x) { return std::atanh(x); }
double Cos(double x) { return std::cos(x); }
double Cosh(double x) { return std::cosh(x); }
double Sin(double x) { return std::sin(x); }
double Sinh(double x) { return std::sinh(x); }
double Tan(double x) { return std::tan(x); }
double Tanh(double x) { return std::tanh(x); }
double Cot(double x) { return 1 / std::tan(x); }
double Sec(double x) { return 1 / std::cos(x); }
double Csc(double x) { return 1 / std::sin(x); }
double Degrees(double x) { return x * (180 / std::numbers::pi); }
double Radians(double x) { return x / 180 * std::numbers::pi; }
// One Newton step after std::cbrt, so exact cubes give exact roots (as java.lang.Math.cbrt).
double Cbrt(double x) {
  double r = std::cbrt(x);
  if (r == 0 || !std::isfinite(r)) return r;
  double better = r - (r * r * r - x) / (3 * r * r);
  return std::fabs(better * better * better - x) < std::fabs(r * r * r - x) ? better : r;
}
double Expm1(double x) { return std::expm1(x); }
double Log1p(double x) { return std::log1p(x); }
double Rint(double x) { return std::nearbyint(x); }  // default rounding: half to even
double Hypot(double x, double y) { return std::hypot(x, y); }
double Atan2(double y, double x) { return std::atan2(y, x); }

// Resolver for a function of `kArgs` DOUBLE arguments returning DOUBLE.
template <ScalarKernel kKernel, size_t kArgs>
bool ResolveDouble(const std::vector<TypePtr>& a, Overload* o) {
  return Fixed(a, std::vector<TypePtr>(kArgs, columnar::Float64()), columnar::Float64(), kKernel, o);
}

}  // namespace

void RegisterElementaryFunctions(FunctionRegistry* r) {
  r->Add({"acos", "acos(DOUBLE)", ResolveDouble<Unary<Acos>, 1>});
  r->Add({"asin", "asin(DOUBLE)", ResolveDouble<Unary<Asin>, 1>});
  r->Add({"atan", "atan(DOUBLE)", ResolveDouble<Unary<Atan>, 1>});
  r->Add({"acosh", "acosh(DOUBLE)", ResolveDouble<Unary<Acosh>, 1>});
  r->Add({"asinh", "asinh(DOUBLE)", ResolveDouble<Unary<Asinh>, 1>});
  r->Add({"atanh", "atanh(DOUBLE)", ResolveDouble<Unary<Atanh>, 1>});
  r->Add({"cos", "cos(DOUBLE)", ResolveDouble<Unary<Cos>, 1>});
  r->Add({"cosh", "cosh(DOUBLE)", ResolveDouble<Unary<Cosh>, 1>});
  r->Add({"sin", "sin(DOUBLE)", ResolveDouble<Unary<Sin>, 1>});
  r->Add({"sinh", "sinh(DOUBLE)", ResolveDouble<Unary<Sinh>, 1>});
  r->Add({"tan", "tan(DOUBLE)", ResolveDouble<Unary<Tan>, 1>});
  r->Add({"tanh", "tanh(DOUBLE)", ResolveDouble<Unary<Tanh>, 1>});
  r->Add({"cot", "cot(DOUBLE)", ResolveDouble<Unary<Cot>, 1>});
  r->Add({"sec", "sec(DOUBLE)", ResolveDouble<Unary<Sec>, 1>});
  r->Add({"csc", "csc(DOUBLE)", ResolveDouble<Unary<Csc>, 1>});
  r->Add({"degrees", "degrees(DOUBLE)", ResolveDouble<Unary<Degrees>, 1>});
  r->Add({"radians", "radians(DOUBLE)", ResolveDouble<Unary<Radians>, 1>});
  r->Add({"cbrt", "cbrt(DOUBLE)", ResolveDouble<Unary<Cbrt>, 1>});
  r->Add({"expm1", "expm1(DOUBLE)", ResolveDouble<Unary<Expm1>, 1>});
  r->Add({"log1p", "log1p(DOUBLE)", ResolveDouble<Unary<Log1p>, 1>});
  r->Add({"rint", "rint(DOUBLE)", ResolveDouble<Unary<Rint>, 1>});
  r->Add({"hypot", "hypot(DOUBLE, DOUBLE)", ResolveDouble<Binary<Hypot>, 2>});
  r->Add({"atan2", "atan2(DOUBLE y, DOUBLE x)", ResolveDouble<Binary<Atan2>, 2>});
  r->Add({"pi", "pi()", ResolveDouble<ConstantKernel<Pi>, 0>});
  r->Add({"e", "e()", ResolveDouble<ConstantKernel<E>, 0>});
}

}  // namespace shoal::expr
