// Arithmetic operators + - * / // % and unary minus on integers (overflow-checked), DECIMAL
// (exact, Spark's result precision/scale rules), FLOAT/DOUBLE, and DATE/TIMESTAMP/INTERVAL.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/time_zone.h"
#include "expr/arithmetic.h"
#include "expr/coercion.h"
#include "expr/function_registry.h"
#include "expr/physical_type.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

enum class Op : uint8_t { kAdd, kSub, kMul, kDiv, kIntDiv, kMod };

const char* OpWord(Op op) {
  switch (op) {
    case Op::kAdd: return "addition";
    case Op::kSub: return "subtraction";
    case Op::kMul: return "multiplication";
    case Op::kDiv: return "division";
    case Op::kIntDiv: return "integer division";
    case Op::kMod: return "modulo";
  }
  return "?";
}
const char* OpSymbol(Op op) {
  switch (op) {
    case Op::kAdd: return "+";
    case Op::kSub: return "-";
    case Op::kMul: return "*";
    case Op::kDiv: return "/";
    case Op::kIntDiv: return "//";
    case Op::kMod: return "%";
  }
  return "?";
}

template <typename T>
std::string NumText(T v) {
  if constexpr (std::is_same_v<T, int128_t>) return columnar::Int128ToString(v);
  else if constexpr (std::is_floating_point_v<T>) return std::to_string(v);
  else return std::to_string(v);
}

// Result of one row: ok, NULL, or an error (overflow, division by zero).
enum RowResult : uint8_t { kOk = 0, kNullRow = 1, kError = 2 };

// Spark's (ANSI mode) error for x / 0, x % 0 and x div 0.
Status DivideByZero() {
  return Status::OutOfRange(
      "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead.");
}

// Applies f(a, b, &r) -> RowResult over the rows; `error(a, b)` builds the Status for the
// first failing valid row. kTry (the try_* functions): a failing row is NULL instead.
template <typename A, typename B, typename R, bool kTry = false, typename F, typename E>
Status BinaryLoop(const KernelCall& call, F f, E error, VectorPtr* result) {
  auto out = MakeFixedOutput(call);
  const KernelArg& x = call.arg(0);
  const KernelArg& y = call.arg(1);
  const A* a = x.vec->data<A>();
  const B* b = y.vec->data<B>();
  R* r = out->data<R>();
  const int64_t n = call.n;
  uint8_t fails = 0;
  // Separate loops per constant-ness so the common cases vectorize.
  if (!x.constant && !y.constant) {
    for (int64_t i = 0; i < n; ++i) fails |= f(a[i], b[i], &r[i]);
  } else if (!x.constant) {
    const B b0 = b[0];
    for (int64_t i = 0; i < n; ++i) fails |= f(a[i], b0, &r[i]);
  } else if (!y.constant) {
    const A a0 = a[0];
    for (int64_t i = 0; i < n; ++i) fails |= f(a0, b[i], &r[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) fails |= f(a[0], b[0], &r[i]);
  }
  if (fails) {
    for (int64_t i = 0; i < n; ++i) {
      R tmp;
      uint8_t res = f(a[x.Row(i)], b[y.Row(i)], &tmp);
      if (res == kOk || !out->IsValid(i)) continue;
      if (res == kError && !kTry) return error(a[x.Row(i)], b[y.Row(i)]);
      out->MutableValidity()[i] = 0;
      r[i] = R{};
    }
  }
  *result = out;
  return Status::OK();
}

// ---- integers

template <Op op, typename T, bool kTry>
Status IntegerKernel(const KernelCall& call, VectorPtr* result) {
  auto f = [](T a, T b, T* r) -> uint8_t {
    if constexpr (op == Op::kAdd) return __builtin_add_overflow(a, b, r) ? kError : kOk;
    if constexpr (op == Op::kSub) return __builtin_sub_overflow(a, b, r) ? kError : kOk;
    if constexpr (op == Op::kMul) return __builtin_mul_overflow(a, b, r) ? kError : kOk;
    if constexpr (op == Op::kIntDiv || op == Op::kMod) {
      if (b == 0) {
        *r = 0;
        return kError;
      }
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
          if constexpr (op == Op::kMod) {
            *r = 0;
            return kOk;
          } else {
            return __builtin_sub_overflow(T{0}, a, r) ? kError : kOk;
          }
        }
      }
      *r = op == Op::kIntDiv ? static_cast<T>(a / b) : static_cast<T>(a % b);
      return kOk;
    }
    return kOk;
  };
  auto error = [&call](T a, T b) {
    if ((op == Op::kIntDiv || op == Op::kMod) && b == 0) return DivideByZero();
    return Status::OutOfRange(std::string("Overflow in ") + OpWord(op) + " of " +
                              PhysicalName(*call.result_type) + " (" + NumText(a) + " " + OpSymbol(op) + " " +
                              NumText(b) + ")");
  };
  return BinaryLoop<T, T, T, kTry>(call, f, error, result);
}

template <Op op, bool kTry = false>
Status IntegerDispatch(const KernelCall& call, VectorPtr* result) {
  switch (call.result_type->id()) {
    case TypeId::kInt8: return IntegerKernel<op, int8_t, kTry>(call, result);
    case TypeId::kInt16: return IntegerKernel<op, int16_t, kTry>(call, result);
    case TypeId::kInt32: return IntegerKernel<op, int32_t, kTry>(call, result);
    case TypeId::kInt64: return IntegerKernel<op, int64_t, kTry>(call, result);
    case TypeId::kUInt64: return IntegerKernel<op, uint64_t, kTry>(call, result);
    default: return Status::Internal("integer kernel on " + call.result_type->ToString());
  }
}

// ---- floating point (division by zero is an error, as in Spark's ANSI mode; NULL when kTry)

template <Op op, typename T, bool kTry>
Status FloatKernel(const KernelCall& call, VectorPtr* result) {
  auto f = [](T a, T b, T* r) -> uint8_t {
    if constexpr (op == Op::kAdd) *r = a + b;
    if constexpr (op == Op::kSub) *r = a - b;
    if constexpr (op == Op::kMul) *r = a * b;
    if constexpr (op == Op::kDiv || op == Op::kMod || op == Op::kIntDiv) {
      if (b == 0) {
        *r = 0;
        return kError;
      }
      if constexpr (op == Op::kDiv) *r = a / b;
      if constexpr (op == Op::kMod) *r = std::fmod(a, b);
      if constexpr (op == Op::kIntDiv) *r = std::trunc(a / b);
    }
    return kOk;
  };
  auto error = [](T, T) { return DivideByZero(); };  // the only failure
  return BinaryLoop<T, T, T, kTry>(call, f, error, result);
}

template <Op op, bool kTry = false>
Status FloatDispatch(const KernelCall& call, VectorPtr* result) {
  if (call.result_type->id() == TypeId::kFloat) return FloatKernel<op, float, kTry>(call, result);
  return FloatKernel<op, double, kTry>(call, result);
}

// ---- decimals: exact in int128 with overflow checks, rounding half away from zero.

// Whether `op` over DECIMAL(p1,s1) and DECIMAL(p2,s2) can never leave DECIMAL(pr,s) and needs
// no rescaling after the operation: then the kernel runs without per-value checks (Spark's
// result types for + - * usually guarantee it: DECIMAL(15,2) * DECIMAL(16,2) is DECIMAL(31,4)).
template <Op op>
bool DecimalNeverOverflows(int p1, int s1, int p2, int s2, int pr, int s) {
  if constexpr (op == Op::kAdd || op == Op::kSub) {
    const int sm = std::max(s1, s2);
    return s == sm && std::max(p1 - s1, p2 - s2) + sm + 1 <= pr;
  } else if constexpr (op == Op::kMul) {
    return s == s1 + s2 && p1 + p2 <= pr;
  } else {
    return false;
  }
}

template <Op op, bool kTry = false>
Status DecimalKernel(const KernelCall& call, VectorPtr* result) {
  const auto& ta = *call.arg(0).type();
  const auto& tb = *call.arg(1).type();
  const auto& tr = *call.result_type;
  const int s1 = ta.scale(), s2 = tb.scale(), s = tr.scale();
  const int128_t max = columnar::MaxUnscaled(tr.precision());
  // Scale factors, computed once per call.
  const int sm = op == Op::kMul ? s1 + s2 : std::max(s1, s2);
  const int128_t m1 = columnar::Pow10(std::max(sm - s1, 0)), m2 = columnar::Pow10(std::max(sm - s2, 0));
  const int128_t down = sm > s ? columnar::Pow10(sm - s) : 1, up = sm < s ? columnar::Pow10(s - sm) : 1;
  const int div_e = s - s1 + s2;
  const int128_t div_scale = div_e > 38 || -div_e > 38 ? 0 : columnar::Pow10(div_e >= 0 ? div_e : -div_e);
  // Inlined into the loop: a call per value cost more than the arithmetic.
  auto compute = [=](int128_t a, int128_t b, int128_t* r) __attribute__((always_inline)) -> uint8_t {
    int128_t v;
    if constexpr (op == Op::kAdd || op == Op::kSub || op == Op::kMod) {
      int128_t x = a, y = b;  // aligned to scale sm (a 128-bit checked multiply only when needed)
      if (m1 != 1 && __builtin_mul_overflow(a, m1, &x)) return kError;
      if (m2 != 1 && __builtin_mul_overflow(b, m2, &y)) return kError;
      if constexpr (op == Op::kAdd) {
        if (__builtin_add_overflow(x, y, &v)) return kError;
      } else if constexpr (op == Op::kSub) {
        if (__builtin_sub_overflow(x, y, &v)) return kError;
      } else {
        if (y == 0) return kError;
        v = x % y;
      }
      if (down != 1) v = DivRoundHalfAway(v, down);
      else if (up != 1 && __builtin_mul_overflow(v, up, &v)) return kError;
    } else if constexpr (op == Op::kMul) {
      if (__builtin_mul_overflow(a, b, &v)) return kError;
      if (down != 1) v = DivRoundHalfAway(v, down);
    } else {  // kDiv: a / b at scale s
      if (b == 0) return kError;
      if (div_scale == 0) return kError;
      int128_t x = a, y = b;
      if (div_e >= 0) {
        if (__builtin_mul_overflow(a, div_scale, &x)) return kError;
      } else {
        if (__builtin_mul_overflow(b, div_scale, &y)) return kError;
      }
      v = DivRoundHalfAway(x, y);
    }
    if (v > max || v < -max) return kError;
    *r = v;
    return kOk;
  };
  const bool unchecked = DecimalNeverOverflows<op>(ta.precision(), s1, tb.precision(), s2, tr.precision(), s);
  auto run = [&](auto ta_tag, auto tb_tag, auto tr_tag) {
    using A = decltype(ta_tag);
    using B = decltype(tb_tag);
    using R = decltype(tr_tag);
    auto error = [&](A a, B b) {
      if ((op == Op::kDiv || op == Op::kMod) && b == 0) return DivideByZero();
      return Status::OutOfRange(std::string("Overflow in ") + OpWord(op) + " of " + tr.ToString() + " (" +
                                columnar::FormatDecimal(a, s1) + " " + OpSymbol(op) + " " +
                                columnar::FormatDecimal(b, s2) + ")");
    };
    if constexpr (op == Op::kAdd || op == Op::kSub || op == Op::kMul) {
      if (unchecked) {
        // The result type holds every result: plain arithmetic, which vectorizes. It is done
        // unsigned (wrapping) because NULL slots may hold any value.
        using U = std::conditional_t<sizeof(R) == 16, unsigned __int128, uint64_t>;
        const U f1 = static_cast<U>(m1), f2 = static_cast<U>(m2);
        auto f = [=](A a, B b, R* r) -> uint8_t {  // f1, f2 unused by kMul
          const U x = static_cast<U>(static_cast<R>(a)), y = static_cast<U>(static_cast<R>(b));
          if constexpr (op == Op::kMul) *r = static_cast<R>(x * y);
          if constexpr (op == Op::kAdd) *r = static_cast<R>(x * f1 + y * f2);
          if constexpr (op == Op::kSub) *r = static_cast<R>(x * f1 - y * f2);
          return kOk;
        };
        return BinaryLoop<A, B, R, kTry>(call, f, error, result);
      }
    }
    auto f = [&](A a, B b, R* r) -> uint8_t {
      int128_t v = 0;
      uint8_t res = compute(static_cast<int128_t>(a), static_cast<int128_t>(b), &v);
      *r = static_cast<R>(v);
      return res;
    };
    return BinaryLoop<A, B, R, kTry>(call, f, error, result);
  };
  auto with_r = [&](auto a_tag, auto b_tag) {
    if (tr.IsWideDecimal()) return run(a_tag, b_tag, int128_t{});
    return run(a_tag, b_tag, int64_t{});
  };
  auto with_b = [&](auto a_tag) {
    if (tb.IsWideDecimal()) return with_r(a_tag, int128_t{});
    return with_r(a_tag, int64_t{});
  };
  if (ta.IsWideDecimal()) return with_b(int128_t{});
  return with_b(int64_t{});
}

// ---- unary minus

Status NegateKernel(const KernelCall& call, VectorPtr* result) {
  auto out = MakeFixedOutput(call);
  const KernelArg& x = call.arg(0);
  const auto& type = *call.result_type;
  Status st;
  DispatchFixed(
      type,
      [&](auto tag) {
        using T = decltype(tag);
        const T* a = x.vec->data<T>();
        T* r = out->data<T>();
        for (int64_t i = 0; i < call.n; ++i) {
          T v = a[x.Row(i)];
          if constexpr (std::is_floating_point_v<T>) {
            r[i] = -v;
          } else {
            if (v == std::numeric_limits<T>::min() && type.id() != TypeId::kDecimal && out->IsValid(i)) {
              st = Status::OutOfRange(std::string("Overflow in negation of ") + PhysicalName(type) + " (-" +
                                      NumText(v) + ")");
              return 0;
            }
            r[i] = v == std::numeric_limits<T>::min() ? v : static_cast<T>(-v);  // NULL slots may hold min
          }
        }
        return 0;
      },
      [] { return 0; });
  RETURN_NOT_OK(st);
  *result = out;
  return Status::OK();
}

// ---- temporal

bool AddInterval(int64_t ts, int64_t months, int64_t days, int64_t micros, int64_t* out) {
  return columnar::AddMonthsAndDays(ts, months, days, &ts) && !__builtin_add_overflow(ts, micros, out);
}

struct IntervalRow {
  int64_t months, days, micros;
};
IntervalRow ReadInterval(const KernelArg& a, int64_t i) {
  int64_t r = a.Row(i);
  return {a.vec->child(0)->Get<int32_t>(r), a.vec->child(1)->Get<int32_t>(r), a.vec->child(2)->Get<int64_t>(r)};
}

// TIMESTAMP/DATE (arg ts_arg) +/- INTERVAL (the other arg) -> TIMESTAMP. For a TIMESTAMP result
// the months and days move the wall clock in the session zone, the micros the instant (Spark's
// timestampAddInterval), so a day added across a DST change keeps the time of day.
template <bool kSubtract>
Status TimestampIntervalKernel(const KernelCall& call, VectorPtr* result) {
  size_t ts_arg = IsIntervalType(call.arg(0).type()) ? 1 : 0;
  const KernelArg& t = call.arg(ts_arg);
  const KernelArg& iv = call.arg(1 - ts_arg);
  auto out = MakeFixedOutput(call);
  int64_t* r = out->data<int64_t>();
  const bool is_date = t.type()->id() == TypeId::kDate;
  const columnar::TimeZone* zone = call.result_type->id() == TypeId::kTimestamp ? &call.Zone() : nullptr;
  for (int64_t i = 0; i < call.n; ++i) {
    if (!out->IsValid(i)) {
      r[i] = 0;
      continue;
    }
    int64_t ts = is_date ? t.vec->Get<int32_t>(t.Row(i)) * columnar::kMicrosPerDay : t.vec->Get<int64_t>(t.Row(i));
    IntervalRow v = ReadInterval(iv, i);
    if (kSubtract) v = {-v.months, -v.days, -v.micros};
    bool ok = true;
    if (zone && (v.months != 0 || v.days != 0 || is_date)) {
      const int64_t local = is_date ? ts : zone->ToLocal(ts);
      int64_t moved = 0;
      ok = AddInterval(local, v.months, v.days, 0, &moved) && !__builtin_add_overflow(zone->ToUtc(moved), v.micros, &r[i]);
    } else {
      ok = AddInterval(ts, v.months, v.days, v.micros, &r[i]);
    }
    if (!ok) {
      return Status::OutOfRange("Overflow in " + std::string(kSubtract ? "subtraction" : "addition") +
                                " of TIMESTAMP and INTERVAL");
    }
  }
  *result = out;
  return Status::OK();
}

Status IntervalArithKernel(const KernelCall& call, VectorPtr* result, int sign) {
  auto out = Vector::Make(call.result_type, call.n);
  for (int64_t i = 0; i < call.n; ++i) {
    if (call.arg(0).IsNull(i) || (call.num_args > 1 && call.arg(1).IsNull(i))) {
      out->AppendNull();
      continue;
    }
    IntervalRow a = ReadInterval(call.arg(0), i);
    IntervalRow b = call.num_args > 1 ? ReadInterval(call.arg(1), i) : IntervalRow{0, 0, 0};
    if (call.num_args == 1) a = {-a.months, -a.days, -a.micros};
    out->child(0)->Append<int32_t>(static_cast<int32_t>(a.months + sign * b.months));
    out->child(1)->Append<int32_t>(static_cast<int32_t>(a.days + sign * b.days));
    out->child(2)->Append<int64_t>(a.micros + sign * b.micros);
    out->AppendStructRow();
  }
  *result = out;
  return Status::OK();
}
Status IntervalAddKernel(const KernelCall& c, VectorPtr* r) { return IntervalArithKernel(c, r, 1); }
Status IntervalSubKernel(const KernelCall& c, VectorPtr* r) { return IntervalArithKernel(c, r, -1); }

// DATE +/- INT -> DATE; INT + DATE -> DATE.
template <bool kSubtract>
Status DateIntKernel(const KernelCall& call, VectorPtr* result) {
  bool date_first = call.arg(0).type()->id() == TypeId::kDate;
  const KernelArg& d = call.arg(date_first ? 0 : 1);
  const KernelArg& k = call.arg(date_first ? 1 : 0);
  auto out = MakeFixedOutput(call);
  int32_t* r = out->data<int32_t>();
  for (int64_t i = 0; i < call.n; ++i) {
    int64_t v = static_cast<int64_t>(d.vec->Get<int32_t>(d.Row(i))) +
                (kSubtract ? -1 : 1) * static_cast<int64_t>(k.vec->Get<int32_t>(k.Row(i)));
    if (v < INT32_MIN || v > INT32_MAX) {
      if (out->IsValid(i)) return Status::OutOfRange("Date out of range in date arithmetic");
      v = 0;
    }
    r[i] = static_cast<int32_t>(v);
  }
  *result = out;
  return Status::OK();
}

Status DateDiffKernel(const KernelCall& call, VectorPtr* result) {  // DATE - DATE -> BIGINT days
  auto out = MakeFixedOutput(call);
  int64_t* r = out->data<int64_t>();
  const KernelArg& a = call.arg(0);
  const KernelArg& b = call.arg(1);
  for (int64_t i = 0; i < call.n; ++i) {
    r[i] = static_cast<int64_t>(a.vec->Get<int32_t>(a.Row(i))) - b.vec->Get<int32_t>(b.Row(i));
  }
  *result = out;
  return Status::OK();
}

Status TimestampDiffKernel(const KernelCall& call, VectorPtr* result) {  // -> INTERVAL (micros)
  auto out = Vector::Make(call.result_type, call.n);
  const KernelArg& a = call.arg(0);
  const KernelArg& b = call.arg(1);
  for (int64_t i = 0; i < call.n; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) {
      out->AppendNull();
      continue;
    }
    int64_t d;
    if (__builtin_sub_overflow(a.vec->Get<int64_t>(a.Row(i)), b.vec->Get<int64_t>(b.Row(i)), &d)) {
      return Status::OutOfRange("Overflow in subtraction of TIMESTAMP");
    }
    out->child(0)->Append<int32_t>(0);
    out->child(1)->Append<int32_t>(0);
    out->child(2)->Append<int64_t>(d);
    out->AppendStructRow();
  }
  *result = out;
  return Status::OK();
}

// ---- resolution

bool IsNumOrNull(const TypePtr& t) { return t->IsNumeric() || t->id() == TypeId::kNull; }
TypePtr NullToInt(const TypePtr& t) { return t->id() == TypeId::kNull ? columnar::Int32() : t; }

template <Op op, bool kTry = false>
bool ResolveNumeric(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() != 2 || !IsNumOrNull(args[0]) || !IsNumOrNull(args[1])) return false;
  TypePtr a = NullToInt(args[0]), b = NullToInt(args[1]);
  auto common = CommonType(a, b);
  if (!common.ok()) return false;
  TypePtr t = *common;
  if (op == Op::kDiv && t->IsInteger()) t = columnar::Float64();
  if (t->IsFloating()) {
    o->arg_types = {t, t};
    o->return_type = t;
    o->kernel = FloatDispatch<op, kTry>;
    return true;
  }
  if (t->IsInteger()) {
    o->arg_types = {t, t};
    o->return_type = t;
    o->kernel = IntegerDispatch<op, kTry>;
    return true;
  }
  // DECIMAL (Spark's rules).
  if (op == Op::kIntDiv) {
    o->arg_types = {columnar::Int64(), columnar::Int64()};
    o->return_type = columnar::Int64();
    o->kernel = IntegerDispatch<op, kTry>;
    return true;
  }
  TypePtr d1 = DecimalFor(a), d2 = DecimalFor(b);
  int p1 = d1->precision(), s1 = d1->scale(), p2 = d2->precision(), s2 = d2->scale();
  TypePtr r;
  switch (op) {
    case Op::kAdd:
    case Op::kSub: {
      int s = std::max(s1, s2);
      r = BoundedDecimal(std::max(p1 - s1, p2 - s2) + s + 1, s);
      break;
    }
    case Op::kMul: r = BoundedDecimal(p1 + p2 + 1, s1 + s2); break;
    case Op::kDiv: {
      int s = std::max(6, s1 + p2 + 1);
      r = BoundedDecimal(p1 - s1 + s2 + s, s);
      break;
    }
    case Op::kMod: {
      int s = std::max(s1, s2);
      r = BoundedDecimal(std::min(p1 - s1, p2 - s2) + s, s);
      break;
    }
    default: return false;
  }
  o->arg_types = {d1, d2};
  o->return_type = r;
  o->kernel = DecimalKernel<op, kTry>;
  return true;
}

bool IsInt(const TypePtr& t) {
  return t->id() == TypeId::kInt8 || t->id() == TypeId::kInt16 || t->id() == TypeId::kInt32 ||
         t->id() == TypeId::kInt64;
}
bool IsTs(const TypePtr& t) { return t->id() == TypeId::kTimestamp || t->id() == TypeId::kTimestampNtz; }

bool ResolveNegate(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() != 1) return false;
  if (IsIntervalType(args[0])) {
    o->arg_types = args;
    o->return_type = args[0];
    o->kernel = IntervalSubKernel;
    return true;
  }
  if (!IsNumOrNull(args[0])) return false;
  TypePtr t = NullToInt(args[0]);
  o->arg_types = {t};
  o->return_type = t;
  o->kernel = NegateKernel;
  return true;
}

bool ResolveAdd(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() != 2) return false;
  const TypePtr& a = args[0];
  const TypePtr& b = args[1];
  if (a->id() == TypeId::kDate && IsInt(b)) {
    *o = {{a, columnar::Int32()}, columnar::Date(), DateIntKernel<false>};
    return true;
  }
  if (IsInt(a) && b->id() == TypeId::kDate) {
    *o = {{columnar::Int32(), b}, columnar::Date(), DateIntKernel<false>};
    return true;
  }
  if ((IsTs(a) || a->id() == TypeId::kDate) && IsIntervalType(b)) {
    *o = {{a, b}, IsTs(a) ? a : columnar::Timestamp(), TimestampIntervalKernel<false>};
    return true;
  }
  if (IsIntervalType(a) && (IsTs(b) || b->id() == TypeId::kDate)) {
    *o = {{a, b}, IsTs(b) ? b : columnar::Timestamp(), TimestampIntervalKernel<false>};
    return true;
  }
  if (IsIntervalType(a) && IsIntervalType(b)) {
    *o = {{a, b}, a, IntervalAddKernel};
    return true;
  }
  return ResolveNumeric<Op::kAdd>(args, o);
}

bool ResolveSub(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() == 1) return ResolveNegate(args, o);
  if (args.size() != 2) return false;
  const TypePtr& a = args[0];
  const TypePtr& b = args[1];
  if (a->id() == TypeId::kDate && IsInt(b)) {
    *o = {{a, columnar::Int32()}, columnar::Date(), DateIntKernel<true>};
    return true;
  }
  if (a->id() == TypeId::kDate && b->id() == TypeId::kDate) {
    *o = {{a, b}, columnar::Int64(), DateDiffKernel};
    return true;
  }
  if ((IsTs(a) || a->id() == TypeId::kDate) && IsIntervalType(b)) {
    *o = {{a, b}, IsTs(a) ? a : columnar::Timestamp(), TimestampIntervalKernel<true>};
    return true;
  }
  if (IsTs(a) && IsTs(b)) {
    *o = {{columnar::Timestamp(), columnar::Timestamp()}, IntervalType(), TimestampDiffKernel};
    return true;
  }
  if (IsIntervalType(a) && IsIntervalType(b)) {
    *o = {{a, b}, a, IntervalSubKernel};
    return true;
  }
  return ResolveNumeric<Op::kSub>(args, o);
}

bool ResolveIntDiv(const std::vector<TypePtr>& args, Overload* o) {
  if (args.size() != 2 || !IsNumOrNull(args[0]) || !IsNumOrNull(args[1])) return false;
  auto t = CommonType(NullToInt(args[0]), NullToInt(args[1]));
  if (!t.ok()) return false;
  if ((*t)->IsFloating()) return ResolveNumeric<Op::kIntDiv>(args, o);
  TypePtr it = (*t)->IsInteger() ? *t : columnar::Int64();
  *o = {{it, it}, it, IntegerDispatch<Op::kIntDiv>};
  return true;
}

}  // namespace

void RegisterArithmeticFunctions(FunctionRegistry* r) {
  r->Add({"+", "(NUMERIC + NUMERIC), (DATE + INT), (TIMESTAMP + INTERVAL), (INTERVAL + INTERVAL)", ResolveAdd},
         {"add"});
  r->Add({"-", "(NUMERIC - NUMERIC), (- NUMERIC), (DATE - INT), (DATE - DATE), (TIMESTAMP - INTERVAL), "
                "(TIMESTAMP - TIMESTAMP)",
          ResolveSub},
         {"subtract"});
  r->Add({"*", "(NUMERIC * NUMERIC)", ResolveNumeric<Op::kMul>}, {"multiply"});
  r->Add({"/", "(NUMERIC / NUMERIC)", ResolveNumeric<Op::kDiv>}, {"divide"});
  r->Add({"//", "(NUMERIC // NUMERIC)", ResolveIntDiv}, {"div"});
  r->Add({"%", "(NUMERIC % NUMERIC)", ResolveNumeric<Op::kMod>}, {"mod"});
  r->Add({"negate", "negate(NUMERIC), negate(INTERVAL)", ResolveNegate}, {"negative"});
  // Spark's try_* arithmetic: NULL instead of an overflow or division-by-zero error.
  r->Add({"try_add", "try_add(NUMERIC, NUMERIC)", ResolveNumeric<Op::kAdd, true>});
  r->Add({"try_subtract", "try_subtract(NUMERIC, NUMERIC)", ResolveNumeric<Op::kSub, true>});
  r->Add({"try_multiply", "try_multiply(NUMERIC, NUMERIC)", ResolveNumeric<Op::kMul, true>});
  r->Add({"try_divide", "try_divide(NUMERIC, NUMERIC)", ResolveNumeric<Op::kDiv, true>});
  r->Add({"try_mod", "try_mod(NUMERIC, NUMERIC)", ResolveNumeric<Op::kMod, true>});
}

}  // namespace shoal::expr
