// NULL tests and replacements as Spark defines them: isnull, isnotnull, equal_null (NULL-safe
// equality), nvl2, zeroifnull, nullifzero.
#include <cstring>

#include "expr/coercion.h"
#include "expr/comparison.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::VectorPtr;

namespace {

template <bool kWantNull>
Status IsNullKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    *r = (call.arg(0).type()->id() == TypeId::kNull || call.arg(0).IsNull(i)) == kWantNull;
    return RowStatus::kOk;
  }, out, false);
}

Status EqualNullKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    const KernelArg& a = call.arg(0);
    const KernelArg& b = call.arg(1);
    bool an = a.IsNull(i) || a.type()->id() == TypeId::kNull, bn = b.IsNull(i) || b.type()->id() == TypeId::kNull;
    *r = (an || bn) ? an == bn : CompareRows(*a.vec, a.Row(i), *b.vec, b.Row(i)) == 0;
    return RowStatus::kOk;
  }, out, false);
}

// Row i of argument `pick` (or NULL) into a vector of the result type.
Status PickKernel(const KernelCall& call, VectorPtr* out, const std::vector<int>& pick) {
  auto r = columnar::Vector::Make(call.result_type, call.n);
  for (int64_t i = 0; i < call.n; ++i) {
    const KernelArg& x = call.arg(static_cast<size_t>(pick[i]));
    if (x.type()->id() == TypeId::kNull || x.IsNull(i)) r->AppendNull();
    else r->AppendFrom(*x.vec, x.Row(i), 1);
  }
  *out = r;
  return Status::OK();
}

Status Nvl2Kernel(const KernelCall& call, VectorPtr* out) {
  std::vector<int> pick(call.n);
  for (int64_t i = 0; i < call.n; ++i) pick[i] = call.arg(0).IsNull(i) || call.arg(0).type()->id() == TypeId::kNull ? 2 : 1;
  return PickKernel(call, out, pick);
}

// zeroifnull(x): 0 for NULL; nullifzero(x): NULL for 0. Both on the value's slot type.
template <bool kZeroIfNull>
Status ZeroNullKernel(const KernelCall& call, VectorPtr* out) {
  auto r = columnar::Vector::Make(call.result_type, call.n);
  const KernelArg& x = call.arg(0);
  auto zero = columnar::Vector::Make(call.result_type, 1);
  zero->Resize(1);
  std::memset(zero->values().data(), 0, static_cast<size_t>(call.result_type->SlotWidth()));
  for (int64_t i = 0; i < call.n; ++i) {
    bool null = x.type()->id() == TypeId::kNull || x.IsNull(i);
    if (kZeroIfNull) {
      if (null) r->AppendFrom(*zero, 0, 1);
      else r->AppendFrom(*x.vec, x.Row(i), 1);
    } else if (null || CompareRows(*x.vec, x.Row(i), *zero, 0) == 0) {
      r->AppendNull();
    } else {
      r->AppendFrom(*x.vec, x.Row(i), 1);
    }
  }
  *out = r;
  return Status::OK();
}

bool ResolveZeroNull(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k) {
  if (a.size() != 1) return false;
  TypePtr t = a[0]->id() == TypeId::kNull ? columnar::Int32() : a[0];
  if (!t->IsNumeric()) return false;
  *o = {{t}, t, k, false};
  return true;
}

}  // namespace

void RegisterNullFunctions(FunctionRegistry* r) {
  r->Add({"isnull", "isnull(ANY)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1) return false;
            *o = {a, columnar::Boolean(), IsNullKernel<true>, false};
            return true;
          }});
  r->Add({"isnotnull", "isnotnull(ANY)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1) return false;
            *o = {a, columnar::Boolean(), IsNullKernel<false>, false};
            return true;
          }});
  r->Add({"equal_null", "equal_null(T, T)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 2) return false;
            auto t = CommonType(a[0], a[1]);
            if (!t.ok()) return false;
            *o = {{*t, *t}, columnar::Boolean(), EqualNullKernel, false};
            return true;
          }});
  r->Add({"nvl2", "nvl2(ANY, T, T)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 3) return false;
            auto t = CommonType(a[1], a[2]);
            if (!t.ok()) return false;
            TypePtr rt = (*t)->id() == TypeId::kNull ? columnar::Int32() : *t;
            *o = {{a[0], rt, rt}, rt, Nvl2Kernel, false};
            return true;
          }});
  r->Add({"zeroifnull", "zeroifnull(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveZeroNull(a, o, ZeroNullKernel<true>);
          }});
  r->Add({"nullifzero", "nullifzero(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveZeroNull(a, o, ZeroNullKernel<false>);
          }});
}

}  // namespace shoal::expr
