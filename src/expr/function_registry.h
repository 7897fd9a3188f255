// Scalar function registry: resolves a function name (case-insensitive) and argument types to
// an overload — the argument types to cast to, the return type and a vectorized kernel.
//
// Kernel calling convention: a kernel gets `call.num_args` arguments, each a vector of
// `call.n` rows or a constant (one row standing for every row), and writes a new vector of
// `call.n` rows of `call.result_type` to *out. Kernels loop over whole vectors (templated on
// physical types); they must not fail on NULL rows (whose value slots hold arbitrary bytes),
// and report errors (overflow, bad input) only for valid rows.
//
// Thread-safety: the registry is built once (function-local static) and read-only after.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/vector.h"
#include "expr/expr.h"

namespace shoal::expr {

struct EvalContext;

// One kernel argument: `constant` means vec has one row that stands for all n rows.
struct KernelArg {
  const columnar::Vector* vec = nullptr;
  bool constant = false;

  int64_t Row(int64_t i) const { return constant ? 0 : i; }
  bool IsNull(int64_t i) const { return vec->IsNull(constant ? 0 : i); }
  const columnar::TypePtr& type() const { return vec->type(); }
};

struct KernelCall {
  const KernelArg* args = nullptr;
  size_t num_args = 0;
  int64_t n = 0;
  TypePtr result_type;
  EvalContext* ctx = nullptr;
  std::string_view name;  // for error messages
  const columnar::TimeZone* zone = nullptr;  // the call's session time zone (Expr::zone); null: UTC

  // The session time zone, UTC when none was set.
  const columnar::TimeZone& Zone() const;

  const KernelArg& arg(size_t i) const { return args[i]; }
};

// A resolved overload.
struct Overload {
  std::vector<TypePtr> arg_types;  // each argument is cast to this type first
  TypePtr return_type;
  ScalarKernel kernel = nullptr;
  bool propagates_nulls = true;  // the kernel returns NULL whenever an argument is NULL
  // Checks the bound arguments once when the call is built (e.g. compiles a literal pattern so a
  // bad one is an error at bind time); null: no check.
  Status (*check)(const std::vector<ExprPtr>& args, std::string_view name) = nullptr;
};

// Picks the overload for `args`, or returns false when none fits.
using Resolver = bool (*)(const std::vector<TypePtr>& args, Overload* out);

struct ScalarFunctionDef {
  std::string name;  // canonical, lower case
  std::string signatures;  // human form for errors, e.g. "substring(STRING, BIGINT[, BIGINT])"
  Resolver resolve = nullptr;
};

class FunctionRegistry {
 public:
  // The process-wide registry with every built-in function.
  static const FunctionRegistry& Get();

  void Add(ScalarFunctionDef def, std::vector<std::string> aliases = {});
  // Null when unknown.
  const ScalarFunctionDef* Find(std::string_view name) const;
  // Resolution with the Binder errors described in expr.h.
  Result<Overload> Resolve(std::string_view name, const std::vector<TypePtr>& args,
                           const ScalarFunctionDef** def = nullptr) const;
  std::vector<std::string> Names() const;

 private:
  std::vector<std::unique_ptr<ScalarFunctionDef>> defs_;
  std::map<std::string, const ScalarFunctionDef*, std::less<>> by_name_;
};

// Registration hooks, one per scalar_functions_*.cc file.
void RegisterArithmeticFunctions(FunctionRegistry* r);
void RegisterComparisonFunctions(FunctionRegistry* r);
void RegisterStringFunctions(FunctionRegistry* r);
void RegisterMathFunctions(FunctionRegistry* r);
void RegisterDatetimeFunctions(FunctionRegistry* r);
void RegisterNestedFunctions(FunctionRegistry* r);
void RegisterElementaryFunctions(FunctionRegistry* r);
void RegisterEncodingFunctions(FunctionRegistry* r);
void RegisterHashFunctions(FunctionRegistry* r);
void RegisterStringSearchFunctions(FunctionRegistry* r);
void RegisterStringEditFunctions(FunctionRegistry* r);
void RegisterNullFunctions(FunctionRegistry* r);
void RegisterCalendarFunctions(FunctionRegistry* r);
void RegisterTimeZoneFunctions(FunctionRegistry* r);
void RegisterTimestampUnitFunctions(FunctionRegistry* r);
void RegisterArrayFunctions(FunctionRegistry* r);
void RegisterMapFunctions(FunctionRegistry* r);
void RegisterBitwiseFunctions(FunctionRegistry* r);
void RegisterUtf8Functions(FunctionRegistry* r);
void RegisterErrorFunctions(FunctionRegistry* r);
void RegisterRegexpFunctions(FunctionRegistry* r);
void RegisterDatetimeFormatFunctions(FunctionRegistry* r);

// The pattern forms of to_date, to_timestamp (STRING, STRING pattern) and unix_timestamp
// (STRING[, STRING pattern]), defined with the pattern functions (scalar_functions_datetime_format.cc).
bool ResolveParseWithPattern(std::string_view function, const std::vector<TypePtr>& args, Overload* o);

// ---- helpers for resolvers

// Matches `args` against fixed parameter types with implicit casts (coercion.h); a trailing
// `variadic` type (non-null) accepts any number of further args. Returns the total cast cost,
// or -1 when some argument cannot be cast.
int MatchSignature(const std::vector<TypePtr>& args, const std::vector<TypePtr>& params,
                   const TypePtr& variadic = nullptr);

// Helpers for kernels: an output vector of `n` rows of fixed-width type with validity that is
// the AND of the arguments' validity (no validity when no argument has NULLs).
columnar::VectorPtr MakeFixedOutput(const KernelCall& call);
// Sets out's validity to the AND of the args' validity (allocating it only when needed).
void PropagateNulls(const KernelCall& call, columnar::Vector* out);

}  // namespace shoal::expr
