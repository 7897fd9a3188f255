// Math functions (abs, sign, round, floor, ceil, sqrt, power, exp, ln, log10, log2, log) and
// hash. Logarithms of non-positive numbers are NULL (Spark), sqrt of a negative is NaN.
#include <xxhash.h>

#include <cmath>
#include <limits>

#include "columnar/decimal.h"
#include "columnar/value_text.h"
#include "expr/arithmetic.h"
#include "expr/coercion.h"
#include "expr/physical_type.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

TypePtr Dbl() { return columnar::Float64(); }

int128_t DecimalAt(const KernelArg& a, int64_t i) {
  return a.type()->IsWideDecimal() ? a.vec->Get<int128_t>(a.Row(i)) : int128_t{a.vec->Get<int64_t>(a.Row(i))};
}

// Writes an int128 decimal into the result's storage, checking its precision.
Status PutDecimal(const KernelCall& call, Vector* out, int64_t i, int128_t v) {
  const auto& t = *call.result_type;
  int128_t max = columnar::MaxUnscaled(t.precision());
  if (v > max || v < -max) {
    return Status::OutOfRange("Overflow in " + std::string(call.name) + " of " + t.ToString());
  }
  if (t.IsWideDecimal()) out->data<int128_t>()[i] = v;
  else out->data<int64_t>()[i] = static_cast<int64_t>(v);
  return Status::OK();
}

template <typename F>
Status DoubleUnary(const KernelCall& call, VectorPtr* result, F f) {
  auto out = MakeFixedOutput(call);
  const KernelArg& a = call.arg(0);
  const double* x = a.vec->data<double>();
  double* r = out->data<double>();
  bool nulls = false;
  for (int64_t i = 0; i < call.n; ++i) {
    r[i] = f(x[a.Row(i)]);
    nulls |= std::isnan(r[i]) && !std::isnan(x[a.Row(i)]);
  }
  (void)nulls;
  *result = out;
  return Status::OK();
}

// Logarithms: NULL for x <= 0.
template <int kBase>
Status LogKernel(const KernelCall& call, VectorPtr* result) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    double x = FixedArg<double>(call, call.num_args - 1, i);
    if (!(x > 0)) return std::isnan(x) ? (*r = x, RowStatus::kOk) : RowStatus::kNull;
    double l = kBase == 10 ? std::log10(x) : kBase == 2 ? std::log2(x) : std::log(x);
    if (call.num_args == 2) {
      double b = FixedArg<double>(call, 0, i);
      if (!(b > 0) || b == 1) return RowStatus::kNull;
      l = std::log(x) / std::log(b);
    }
    *r = l;
    return RowStatus::kOk;
  }, result);
}

Status SqrtKernel(const KernelCall& c, VectorPtr* r) { return DoubleUnary(c, r, [](double x) { return std::sqrt(x); }); }
Status ExpKernel(const KernelCall& c, VectorPtr* r) { return DoubleUnary(c, r, [](double x) { return std::exp(x); }); }

Status PowerKernel(const KernelCall& call, VectorPtr* result) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    *r = std::pow(FixedArg<double>(call, 0, i), FixedArg<double>(call, 1, i));
    return RowStatus::kOk;
  }, result);
}

Status AbsKernel(const KernelCall& call, VectorPtr* result) {
  auto out = MakeFixedOutput(call);
  const KernelArg& a = call.arg(0);
  const auto& t = *call.result_type;
  Status st;
  DispatchFixed(
      t,
      [&](auto tag) {
        using T = decltype(tag);
        const T* x = a.vec->data<T>();
        T* r = out->data<T>();
        for (int64_t i = 0; i < call.n && st.ok(); ++i) {
          T v = x[a.Row(i)];
          if constexpr (std::is_floating_point_v<T>) {
            r[i] = std::fabs(v);
          } else if constexpr (std::is_unsigned_v<T>) {
            r[i] = v;
          } else {
            if (v == std::numeric_limits<T>::min() && t.id() != TypeId::kDecimal && out->IsValid(i)) {
              st = Status::OutOfRange(std::string("Overflow in abs of ") + PhysicalName(t));
            }
            r[i] = (v < 0 && v != std::numeric_limits<T>::min()) ? static_cast<T>(-v) : v;
          }
        }
        return 0;
      },
      [] { return 0; });
  RETURN_NOT_OK(st);
  *result = out;
  return Status::OK();
}

Status SignKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& a = call.arg(0);
  if (call.result_type->id() == TypeId::kDouble) {
    return DoubleUnary(call, result, [](double x) { return std::isnan(x) ? x : (x > 0) - (x < 0) + 0.0; });
  }
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    int128_t v = 0;
    DispatchFixed(
        *a.type(),
        [&](auto tag) {
          using T = decltype(tag);
          if constexpr (!std::is_floating_point_v<T>) v = static_cast<int128_t>(a.vec->Get<T>(a.Row(i)));
          return 0;
        },
        [] { return 0; });
    *r = (v > 0) - (v < 0);
    return RowStatus::kOk;
  }, result);
}

int64_t DigitsArg(const KernelCall& call, int64_t i) {
  return call.num_args > 1 ? FixedArg<int32_t>(call, 1, i) : 0;
}

// round(x[, d]) half away from zero (mode 0), bround half to even (mode 2); floor/ceil (mode -1
// / +1) to integral values.
template <int kMode>
Status RoundKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& a = call.arg(0);
  const auto& in = *a.type();
  auto out = MakeFixedOutput(call);
  for (int64_t i = 0; i < call.n; ++i) {
    if (!out->IsValid(i)) continue;
    constexpr bool kDigits = kMode == 0 || kMode == 2;
    int64_t d = kDigits ? DigitsArg(call, i) : 0;
    if (in.IsFloating()) {
      // std::nearbyint rounds half to even in the default rounding mode.
      auto nearest = [](double y) { return kMode == 2 ? std::nearbyint(y) : std::round(y); };
      double x = FixedArg<double>(call, 0, i), r;
      if (kMode == -1) r = std::floor(x);
      else if (kMode == 1) r = std::ceil(x);
      else if (d >= 0) {
        double f = std::pow(10.0, static_cast<double>(std::min<int64_t>(d, 308)));
        double y = nearest(x * f) / f;
        r = std::isfinite(y) ? y : x;
      } else {
        double f = std::pow(10.0, static_cast<double>(std::min<int64_t>(-d, 308)));
        r = nearest(x / f) * f;
      }
      out->data<double>()[i] = r;
      continue;
    }
    int s = in.id() == TypeId::kDecimal ? in.scale() : 0;
    int128_t v = in.id() == TypeId::kDecimal ? DecimalAt(a, i) : 0;
    if (in.IsInteger()) {
      DispatchFixed(in, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_floating_point_v<T>) v = static_cast<int128_t>(a.vec->Get<T>(a.Row(i)));
        return 0;
      }, [] { return 0; });
    }
    int64_t k = std::min<int64_t>(d, s);  // digits kept
    int128_t kept = v;
    if (k < s) {
      int64_t drop = s - k;
      if (drop > 38) {
        kept = 0;
      } else {
        int128_t p = columnar::Pow10(static_cast<int>(drop));
        if (kMode == 0) {
          kept = DivRoundHalfAway(v, p);
        } else if (kMode == 2) {
          kept = DivRoundHalfEven(v, p);
        } else {
          kept = v / p;
          if (kMode < 0 && v % p != 0 && v < 0) kept -= 1;
          if (kMode > 0 && v % p != 0 && v > 0) kept += 1;
        }
      }
    }
    int out_scale = call.result_type->id() == TypeId::kDecimal ? call.result_type->scale() : 0;
    int128_t r;
    int64_t up = out_scale - k;
    if (up > 38 || __builtin_mul_overflow(kept, columnar::Pow10(static_cast<int>(up)), &r)) {
      return Status::OutOfRange("Overflow in " + std::string(call.name) + " of " + in.ToString());
    }
    if (call.result_type->id() == TypeId::kDecimal) {
      RETURN_NOT_OK(PutDecimal(call, out.get(), i, r));
    } else {
      Status st;
      DispatchFixed(*call.result_type, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_floating_point_v<T>) {
          if (r < static_cast<int128_t>(std::numeric_limits<T>::min()) ||
              r > static_cast<int128_t>(std::numeric_limits<T>::max())) {
            st = Status::OutOfRange("Overflow in " + std::string(call.name) + " of " + in.ToString());
          }
          out->data<T>()[i] = static_cast<T>(r);
        }
        return 0;
      }, [] { return 0; });
      RETURN_NOT_OK(st);
    }
  }
  *result = out;
  return Status::OK();
}

bool ResolveRoundLike(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k, bool allow_digits) {
  if (a.empty() || a.size() > (allow_digits ? 2u : 1u)) return false;
  TypePtr t = a[0]->id() == TypeId::kNull ? Dbl() : a[0];
  if (!t->IsNumeric()) return false;
  if (a.size() == 2 && ImplicitCastCost(a[1], columnar::Int32()) < 0) return false;
  if (t->id() == TypeId::kFloat) t = Dbl();
  if (t->id() == TypeId::kUInt64) t = columnar::Decimal(20, 0);
  o->arg_types = {t};
  if (a.size() == 2) o->arg_types.push_back(columnar::Int32());
  o->return_type = t;
  if (t->id() == TypeId::kDecimal && (!allow_digits || (a.size() == 1 && t->scale() > 0))) {
    o->return_type = columnar::Decimal(std::min(38, t->precision() - t->scale() + 1), 0);
  }
  o->kernel = k;
  return true;
}

bool ResolveDoubleFn(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k, size_t nargs) {
  std::vector<TypePtr> params(nargs, Dbl());
  return Fixed(a, params, Dbl(), k, o);
}

// hash(args...): 64-bit xxHash over each argument's canonical bytes, chained.
Status HashKernel(const KernelCall& call, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  out->Resize(call.n);
  int64_t* r = out->data<int64_t>();
  std::string buf;
  for (int64_t i = 0; i < call.n; ++i) {
    uint64_t h = 0x5368'6f61'6c21ULL;
    for (size_t a = 0; a < call.num_args; ++a) {
      const KernelArg& x = call.arg(a);
      int64_t row = x.Row(i);
      const auto& t = *x.type();
      if (t.id() == TypeId::kNull || x.vec->IsNull(row)) {
        h = XXH64("\xff", 1, h);
        continue;
      }
      if (t.IsStringLike()) {
        std::string_view s = x.vec->GetString(row);
        h = XXH64(s.data(), s.size(), h);
      } else if (t.IsNested()) {
        buf.clear();
        columnar::AppendJson(*x.vec, row, &buf);
        h = XXH64(buf.data(), buf.size(), h);
      } else if (t.IsFloating()) {
        double d = t.id() == TypeId::kDouble ? x.vec->Get<double>(row) : x.vec->Get<float>(row);
        if (d == 0) d = 0;
        if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
        h = XXH64(&d, sizeof d, h);
      } else {
        int w = t.SlotWidth();
        h = XXH64(x.vec->values().data() + row * w, w, h);
      }
    }
    r[i] = static_cast<int64_t>(h);
  }
  *result = out;
  return Status::OK();
}

// factorial(n): NULL outside [0, 20].
Status FactorialKernel(const KernelCall& call, VectorPtr* result) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    int64_t n = FixedArg<int32_t>(call, 0, i);
    if (n < 0 || n > 20) return RowStatus::kNull;
    *r = 1;
    for (int64_t k = 2; k <= n; ++k) *r *= k;
    return RowStatus::kOk;
  }, result);
}

// pmod(a, b): the non-negative remainder (a % b + b) % b; b = 0 is [DIVIDE_BY_ZERO].
Status PmodKernel(const KernelCall& call, VectorPtr* result) {
  const bool dbl = call.result_type->id() == TypeId::kDouble;
  auto zero = [&] { return Status::OutOfRange("[DIVIDE_BY_ZERO] Division by zero in pmod()"); };
  if (dbl) {
    return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
      double a = FixedArg<double>(call, 0, i), b = FixedArg<double>(call, 1, i);
      if (b == 0) return zero();
      double m = std::fmod(a, b);
      *r = m < 0 ? std::fmod(m + b, b) : m;
      return RowStatus::kOk;
    }, result);
  }
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    int64_t a = FixedArg<int64_t>(call, 0, i), b = FixedArg<int64_t>(call, 1, i);
    if (b == 0) return zero();
    if (b == -1) {
      *r = 0;
      return RowStatus::kOk;
    }
    int64_t m = a % b;
    *r = m < 0 ? (m + b) % b : m;
    return RowStatus::kOk;
  }, result);
}

// width_bucket(v, min, max, n): the bucket 1..n of v in n equal-width buckets over [min, max)
// (max < min reverses them), 0 below and n + 1 above; NULL for n <= 0 or min = max.
Status WidthBucketKernel(const KernelCall& call, VectorPtr* result) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    double v = FixedArg<double>(call, 0, i), lo = FixedArg<double>(call, 1, i), hi = FixedArg<double>(call, 2, i);
    int64_t n = FixedArg<int64_t>(call, 3, i);
    if (n <= 0 || n == INT64_MAX || lo == hi || !std::isfinite(v) || !std::isfinite(lo) || !std::isfinite(hi)) {
      return RowStatus::kNull;
    }
    bool up = lo < hi;
    if (up ? v < lo : v > lo) *r = 0;
    else if (up ? v >= hi : v <= hi) *r = n + 1;
    else *r = static_cast<int64_t>(static_cast<double>(n) * (v - lo) / (hi - lo)) + 1;
    return RowStatus::kOk;
  }, result);
}

Status IdentityKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& a = call.arg(0);
  std::vector<int64_t> rows(call.n);
  for (int64_t i = 0; i < call.n; ++i) rows[i] = a.IsNull(i) ? -1 : a.Row(i);
  *result = columnar::GatherOrNull(*a.vec, rows.data(), call.n);
  return Status::OK();
}

}  // namespace

void RegisterMathFunctions(FunctionRegistry* r) {
  r->Add({"abs", "abs(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || !(a[0]->IsNumeric() || a[0]->id() == TypeId::kNull)) return false;
            TypePtr t = a[0]->id() == TypeId::kNull ? Dbl() : a[0];
            if (t->id() == TypeId::kFloat) t = Dbl();
            *o = {{t}, t, AbsKernel};
            return true;
          }});
  r->Add({"sign", "sign(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || !(a[0]->IsNumeric() || a[0]->id() == TypeId::kNull)) return false;
            TypePtr t = a[0]->id() == TypeId::kNull ? Dbl() : a[0];
            if (t->IsFloating()) *o = {{Dbl()}, Dbl(), SignKernel};
            else *o = {{t}, columnar::Int32(), SignKernel};
            return true;
          }},
         {"signum"});
  r->Add({"round", "round(NUMERIC[, INT])",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveRoundLike(a, o, RoundKernel<0>, true); }});
  r->Add({"bround", "bround(NUMERIC[, INT])",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveRoundLike(a, o, RoundKernel<2>, true); }});
  r->Add({"floor", "floor(NUMERIC)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveRoundLike(a, o, RoundKernel<-1>, false); }});
  r->Add({"ceil", "ceil(NUMERIC)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveRoundLike(a, o, RoundKernel<1>, false); }},
         {"ceiling"});
  r->Add({"sqrt", "sqrt(DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, SqrtKernel, 1); }});
  r->Add({"exp", "exp(DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, ExpKernel, 1); }});
  r->Add({"ln", "ln(DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, LogKernel<0>, 1); }});
  r->Add({"log10", "log10(DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, LogKernel<10>, 1); }});
  r->Add({"log2", "log2(DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, LogKernel<2>, 1); }});
  r->Add({"log", "log(DOUBLE) (base 10), log(DOUBLE base, DOUBLE x)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveDoubleFn(a, o, LogKernel<10>, 1) || ResolveDoubleFn(a, o, LogKernel<0>, 2);
          }});
  r->Add({"power", "power(DOUBLE, DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) { return ResolveDoubleFn(a, o, PowerKernel, 2); }},
         {"pow"});
  r->Add({"factorial", "factorial(INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {columnar::Int32()}, columnar::Int64(), FactorialKernel, o);
          }});
  r->Add({"pmod", "pmod(BIGINT, BIGINT), pmod(DOUBLE, DOUBLE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return BestOf(a,
                          {{{columnar::Int64(), columnar::Int64()}, columnar::Int64(), PmodKernel},
                           {{Dbl(), Dbl()}, Dbl(), PmodKernel}},
                          o);
          }});
  r->Add({"width_bucket", "width_bucket(DOUBLE value, DOUBLE min, DOUBLE max, BIGINT buckets)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Dbl(), Dbl(), Dbl(), columnar::Int64()}, columnar::Int64(), WidthBucketKernel, o);
          }});
  r->Add({"positive", "positive(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || !a[0]->IsNumeric()) return false;
            *o = {a, a[0], IdentityKernel};
            return true;
          }});
  r->Add({"hash", "hash(ANY, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.empty()) return false;
            *o = {a, columnar::Int64(), HashKernel, false};
            return true;
          }},
         {"xxhash64"});
}

}  // namespace shoal::expr
