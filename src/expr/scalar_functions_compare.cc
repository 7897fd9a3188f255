// Comparison operators = <> < <= > >= on every type, and greatest/least.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "columnar/value.h"
#include "expr/coercion.h"
#include "expr/comparison.h"
#include "expr/physical_type.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

template <typename T>
inline int Cmp3(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <CompareOp op>
inline bool FromCmp(int c) {
  switch (op) {
    case CompareOp::kEq: return c == 0;
    case CompareOp::kNe: return c != 0;
    case CompareOp::kLt: return c < 0;
    case CompareOp::kLe: return c <= 0;
    case CompareOp::kGt: return c > 0;
    case CompareOp::kGe: return c >= 0;
  }
  return false;
}

template <CompareOp op, typename T>
inline bool Apply(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return FromCmp<op>(Cmp3(a, b));
  } else {
    switch (op) {
      case CompareOp::kEq: return a == b;
      case CompareOp::kNe: return a != b;
      case CompareOp::kLt: return a < b;
      case CompareOp::kLe: return a <= b;
      case CompareOp::kGt: return a > b;
      case CompareOp::kGe: return a >= b;
    }
    return false;
  }
}

template <CompareOp op, typename T>
void FixedLoop(const KernelArg& a, const KernelArg& b, int64_t n, uint8_t* out) {
  const T* x = a.vec->data<T>();
  const T* y = b.vec->data<T>();
  if (a.constant && b.constant) {
    out[0] = Apply<op>(x[0], y[0]);
  } else if (a.constant) {
    const T v = x[0];
    for (int64_t i = 0; i < n; ++i) out[i] = Apply<op>(v, y[i]);
  } else if (b.constant) {
    const T v = y[0];
    for (int64_t i = 0; i < n; ++i) out[i] = Apply<op>(x[i], v);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = Apply<op>(x[i], y[i]);
  }
}

template <CompareOp op>
Status CompareKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& a = call.arg(0);
  const KernelArg& b = call.arg(1);
  auto out = MakeFixedOutput(call);
  uint8_t* o = out->data<uint8_t>();
  const int64_t n = call.n;
  const auto& type = *a.type();
  if (type.id() == TypeId::kNull || b.type()->id() == TypeId::kNull) {
    *result = Vector::MakeNull(columnar::Boolean(), n);
    return Status::OK();
  }
  bool done = DispatchFixed(
      type,
      [&](auto tag) {
        FixedLoop<op, decltype(tag)>(a, b, n, o);
        return true;
      },
      [] { return false; });
  if (!done) {
    if (type.IsStringLike() && (op == CompareOp::kEq || op == CompareOp::kNe)) {
      // Equality needs no ordering: lengths first, bytes only when they match.
      const bool want = op == CompareOp::kEq;
      if (a.constant != b.constant) {
        const KernelArg& c = a.constant ? a : b;
        const KernelArg& x = a.constant ? b : a;
        const std::string_view k = c.vec->GetString(0);
        const int64_t* off = x.vec->offsets();
        const char* chars = reinterpret_cast<const char*>(x.vec->bytes().data());
        for (int64_t i = 0; i < n; ++i) {
          const int64_t len = off[i + 1] - off[i];
          const bool eq = static_cast<size_t>(len) == k.size() && (len == 0 || std::memcmp(chars + off[i], k.data(), k.size()) == 0);
          o[i] = eq == want;
        }
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = (a.vec->GetString(a.Row(i)) == b.vec->GetString(b.Row(i))) == want;
      }
    } else if (type.IsStringLike()) {
      for (int64_t i = 0; i < n; ++i) {
        o[i] = FromCmp<op>(a.vec->GetString(a.Row(i)).compare(b.vec->GetString(b.Row(i))));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (a.IsNull(i) || b.IsNull(i)) {
          o[i] = 0;
          continue;
        }
        o[i] = FromCmp<op>(CompareRows(*a.vec, a.Row(i), *b.vec, b.Row(i)));
      }
    }
  }
  *result = out;
  return Status::OK();
}

bool ResolveComparison(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() != 2) return false;
  auto t = CommonType(args[0], args[1]);
  if (!t.ok()) return false;
  o->arg_types = {*t, *t};
  o->return_type = columnar::Boolean();
  return true;
}

// greatest/least: NULL arguments are skipped (Spark); all NULL gives NULL.
template <bool kGreatest>
Status GreatestKernel(const KernelCall& call, VectorPtr* result) {
  const int64_t n = call.n;
  std::vector<int64_t> pick_arg(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t best = -1;
    for (size_t a = 0; a < call.num_args; ++a) {
      const KernelArg& x = call.arg(a);
      if (x.IsNull(i)) continue;
      if (best < 0) {
        best = static_cast<int64_t>(a);
        continue;
      }
      const KernelArg& y = call.arg(best);
      int c = CompareRows(*x.vec, x.Row(i), *y.vec, y.Row(i));
      if (kGreatest ? c > 0 : c < 0) best = static_cast<int64_t>(a);
    }
    pick_arg[i] = best;
  }
  auto out = Vector::Make(call.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (pick_arg[i] < 0) {
      out->AppendNull();
    } else {
      const KernelArg& x = call.arg(pick_arg[i]);
      out->AppendFrom(*x.vec, x.Row(i), 1);
    }
  }
  *result = out;
  return Status::OK();
}

bool ResolveGreatest(const std::vector<TypePtr>& args, Overload* o) {
  if (args.empty()) return false;
  TypePtr t = columnar::NullType();
  for (const auto& a : args) {
    auto c = CommonType(t, a);
    if (!c.ok()) return false;
    t = *c;
  }
  o->arg_types.assign(args.size(), t);
  o->return_type = t;
  o->propagates_nulls = false;
  return true;
}

}  // namespace

int CompareRows(const Vector& a, int64_t i, const Vector& b, int64_t j) {
  const auto& type = *a.type();
  int c = 0;
  bool done = DispatchFixed(
      type,
      [&](auto tag) {
        using T = decltype(tag);
        c = Cmp3(a.Get<T>(i), b.Get<T>(j));
        return true;
      },
      [] { return false; });
  if (done) return c;
  if (type.IsStringLike()) {
    c = a.GetString(i).compare(b.GetString(j));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (type.id() == TypeId::kNull) return 0;
  return columnar::Value::FromVector(a, i).Compare(columnar::Value::FromVector(b, j));
}

ScalarKernel ComparisonKernel(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return CompareKernel<CompareOp::kEq>;
    case CompareOp::kNe: return CompareKernel<CompareOp::kNe>;
    case CompareOp::kLt: return CompareKernel<CompareOp::kLt>;
    case CompareOp::kLe: return CompareKernel<CompareOp::kLe>;
    case CompareOp::kGt: return CompareKernel<CompareOp::kGt>;
    case CompareOp::kGe: return CompareKernel<CompareOp::kGe>;
  }
  return nullptr;
}

const char* CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "<>";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
  }
  return "?";
}

bool ParseCompareOp(std::string_view name, CompareOp* op) {
  if (name == "=" || name == "==") *op = CompareOp::kEq;
  else if (name == "<>" || name == "!=") *op = CompareOp::kNe;
  else if (name == "<") *op = CompareOp::kLt;
  else if (name == "<=") *op = CompareOp::kLe;
  else if (name == ">") *op = CompareOp::kGt;
  else if (name == ">=") *op = CompareOp::kGe;
  else return false;
  return true;
}

CompareOp FlipCompareOp(CompareOp op) {
  switch (op) {
    case CompareOp::kLt: return CompareOp::kGt;
    case CompareOp::kLe: return CompareOp::kGe;
    case CompareOp::kGt: return CompareOp::kLt;
    case CompareOp::kGe: return CompareOp::kLe;
    default: return op;
  }
}

void RegisterComparisonFunctions(FunctionRegistry* r) {
  struct Entry {
    CompareOp op;
    std::vector<std::string> aliases;
  };
  const Entry entries[] = {{CompareOp::kEq, {"=="}}, {CompareOp::kNe, {"!="}}, {CompareOp::kLt, {}},
                           {CompareOp::kLe, {}},     {CompareOp::kGt, {}},     {CompareOp::kGe, {}}};
  for (const auto& e : entries) {
    ScalarFunctionDef def;
    def.name = std::string(CompareOpName(e.op));
    def.signatures = std::string("(T ") + def.name + " T) for any T with a common type";
    // The kernel is chosen per operator; Resolver is a plain function pointer, so one each.
    switch (e.op) {
      case CompareOp::kEq:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kEq>, true);
        };
        break;
      case CompareOp::kNe:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kNe>, true);
        };
        break;
      case CompareOp::kLt:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kLt>, true);
        };
        break;
      case CompareOp::kLe:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kLe>, true);
        };
        break;
      case CompareOp::kGt:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kGt>, true);
        };
        break;
      case CompareOp::kGe:
        def.resolve = [](const std::vector<TypePtr>& a, Overload* o) {
          return ResolveComparison(a, o) && (o->kernel = CompareKernel<CompareOp::kGe>, true);
        };
        break;
    }
    r->Add(std::move(def), e.aliases);
  }
  r->Add({"greatest", "greatest(T, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveGreatest(a, o) && (o->kernel = GreatestKernel<true>, true);
          }});
  r->Add({"least", "least(T, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveGreatest(a, o) && (o->kernel = GreatestKernel<false>, true);
          }});
}

}  // namespace shoal::expr
