#include "expr/function_registry.h"

#include <algorithm>
#include <cctype>

#include "columnar/time_zone.h"
#include "expr/coercion.h"

namespace shoal::expr {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

const FunctionRegistry& FunctionRegistry::Get() {
  static const FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterArithmeticFunctions(r);
    RegisterComparisonFunctions(r);
    RegisterStringFunctions(r);
    RegisterMathFunctions(r);
    RegisterDatetimeFunctions(r);
    RegisterNestedFunctions(r);
    RegisterElementaryFunctions(r);
    RegisterEncodingFunctions(r);
    RegisterHashFunctions(r);
    RegisterStringSearchFunctions(r);
    RegisterRegexpFunctions(r);
    RegisterStringEditFunctions(r);
    RegisterNullFunctions(r);
    RegisterCalendarFunctions(r);
    RegisterTimeZoneFunctions(r);
    RegisterTimestampUnitFunctions(r);
    RegisterArrayFunctions(r);
    RegisterMapFunctions(r);
    RegisterBitwiseFunctions(r);
    RegisterUtf8Functions(r);
    RegisterErrorFunctions(r);
    RegisterDatetimeFormatFunctions(r);
    return r;
  }();
  return *registry;
}

void FunctionRegistry::Add(ScalarFunctionDef def, std::vector<std::string> aliases) {
  defs_.push_back(std::make_unique<ScalarFunctionDef>(std::move(def)));
  const ScalarFunctionDef* d = defs_.back().get();
  by_name_[Lower(d->name)] = d;
  for (const auto& a : aliases) by_name_[Lower(a)] = d;
}

const ScalarFunctionDef* FunctionRegistry::Find(std::string_view name) const {
  auto it = by_name_.find(Lower(name));
  return it == by_name_.end() ? nullptr : it->second;
}

Result<Overload> FunctionRegistry::Resolve(std::string_view name, const std::vector<TypePtr>& args,
                                           const ScalarFunctionDef** def_out) const {
  const ScalarFunctionDef* def = Find(name);
  std::string call = std::string(name) + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) call += ", ";
    call += args[i]->ToString();
  }
  call += ")";
  if (!def) return Status::Binder("Unknown function '" + std::string(name) + "' in " + call);
  Overload o;
  if (!def->resolve(args, &o)) {
    return Status::Binder("No function matches '" + call + "'. Candidates: " + def->signatures);
  }
  if (def_out) *def_out = def;
  return o;
}

std::vector<std::string> FunctionRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : by_name_) names.push_back(k);
  return names;
}

int MatchSignature(const std::vector<TypePtr>& args, const std::vector<TypePtr>& params,
                   const TypePtr& variadic) {
  if (args.size() < params.size()) return -1;
  if (args.size() > params.size() && !variadic) return -1;
  int total = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const TypePtr& p = i < params.size() ? params[i] : variadic;
    int c = ImplicitCastCost(args[i], p);
    if (c < 0) return -1;
    total += c;
  }
  return total;
}

const columnar::TimeZone& KernelCall::Zone() const { return zone ? *zone : columnar::TimeZone::Utc(); }

void PropagateNulls(const KernelCall& call, columnar::Vector* out) {
  bool any = false;
  for (size_t a = 0; a < call.num_args; ++a) any |= call.args[a].vec->MayHaveNulls();
  if (!any) return;
  uint8_t* v = out->MutableValidity();
  for (size_t a = 0; a < call.num_args; ++a) {
    const KernelArg& arg = call.args[a];
    if (!arg.vec->MayHaveNulls()) continue;
    if (arg.constant) {
      if (arg.vec->IsNull(0)) std::fill(v, v + call.n, uint8_t{0});
      continue;
    }
    const uint8_t* src = arg.vec->validity().data();
    for (int64_t i = 0; i < call.n; ++i) v[i] &= src[i];
  }
}

columnar::VectorPtr MakeFixedOutput(const KernelCall& call) {
  auto out = columnar::Vector::Make(call.result_type, call.n);
  out->Resize(call.n);
  PropagateNulls(call, out.get());
  return out;
}

}  // namespace shoal::expr
