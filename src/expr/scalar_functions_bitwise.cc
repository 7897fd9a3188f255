// Bit functions as Spark defines them: shiftleft / shiftright / shiftrightunsigned (INT or
// BIGINT base, the shift taken modulo the width as Java does), bit_count (set bits of the value
// sign-extended to 64 bits; a BOOLEAN counts 1 for TRUE), bit_get / getbit (TINYINT 0 or 1; a
// position outside the type's width is an error).
#include <bit>
#include <string>

#include "expr/coercion.h"
#include "expr/physical_type.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::VectorPtr;

namespace {

enum class Shift : uint8_t { kLeft, kRight, kRightUnsigned };

template <Shift kShift, typename T>
Status ShiftKernel(const KernelCall& call, VectorPtr* out) {
  using U = std::make_unsigned_t<T>;
  constexpr int kWidth = static_cast<int>(sizeof(T) * 8);
  return FixedRows<T>(call, [&](int64_t i, T* r) -> Result<RowStatus> {
    const T v = FixedArg<T>(call, 0, i);
    const int s = FixedArg<int32_t>(call, 1, i) & (kWidth - 1);
    if constexpr (kShift == Shift::kLeft) *r = static_cast<T>(static_cast<U>(v) << s);
    else if constexpr (kShift == Shift::kRight) *r = static_cast<T>(v >> s);
    else *r = static_cast<T>(static_cast<U>(v) >> s);
    return RowStatus::kOk;
  }, out);
}

// The argument's value as a sign-extended 64-bit integer (BOOLEAN as 0 or 1).
int64_t IntegralAt(const KernelArg& a, int64_t i) {
  const int64_t row = a.Row(i);
  switch (a.type()->id()) {
    case TypeId::kBoolean: return a.vec->Get<uint8_t>(row) ? 1 : 0;
    case TypeId::kInt8: return a.vec->Get<int8_t>(row);
    case TypeId::kInt16: return a.vec->Get<int16_t>(row);
    case TypeId::kInt32: return a.vec->Get<int32_t>(row);
    default: return a.vec->Get<int64_t>(row);
  }
}

Status BitCountKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = std::popcount(static_cast<uint64_t>(IntegralAt(call.arg(0), i)));
    return RowStatus::kOk;
  }, out);
}

Status BitGetKernel(const KernelCall& call, VectorPtr* out) {
  const int width = static_cast<int>(call.arg(0).type()->SlotWidth() * 8);
  return FixedRows<int8_t>(call, [&](int64_t i, int8_t* r) -> Result<RowStatus> {
    const int32_t pos = FixedArg<int32_t>(call, 1, i);
    if (pos < 0 || pos >= width) {
      return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE] The value of parameter(s) `pos` in `" +
                                     std::string(call.name) + "` is invalid: expects an integer value in [0, " +
                                     std::to_string(width) + "), but got " + std::to_string(pos) + ".");
    }
    *r = static_cast<int8_t>((static_cast<uint64_t>(IntegralAt(call.arg(0), i)) >> pos) & 1);
    return RowStatus::kOk;
  }, out);
}

bool IsIntegral(const TypePtr& t) {
  const TypeId id = t->id();
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64 ||
         id == TypeId::kNull;
}

template <Shift kShift>
bool ResolveShift(const std::vector<TypePtr>& a, Overload* o) {
  auto i32 = columnar::Int32();
  auto i64 = columnar::Int64();
  return BestOf(a, {{{i32, i32}, i32, ShiftKernel<kShift, int32_t>}, {{i64, i32}, i64, ShiftKernel<kShift, int64_t>}}, o);
}

}  // namespace

void RegisterBitwiseFunctions(FunctionRegistry* r) {
  using A = const std::vector<TypePtr>&;
  r->Add({"shiftleft", "shiftleft(INT|BIGINT, INT)", ResolveShift<Shift::kLeft>});
  r->Add({"shiftright", "shiftright(INT|BIGINT, INT)", ResolveShift<Shift::kRight>});
  r->Add({"shiftrightunsigned", "shiftrightunsigned(INT|BIGINT, INT)", ResolveShift<Shift::kRightUnsigned>});
  r->Add({"bit_count", "bit_count(integral or BOOLEAN)", [](A a, Overload* o) {
            if (a.size() != 1 || !(IsIntegral(a[0]) || a[0]->id() == TypeId::kBoolean)) return false;
            TypePtr t = a[0]->id() == TypeId::kNull ? columnar::Int64() : a[0];
            *o = {{t}, columnar::Int32(), BitCountKernel};
            return true;
          }});
  r->Add({"bit_get", "bit_get(integral, INT pos)", [](A a, Overload* o) {
            if (a.size() != 2 || !IsIntegral(a[0]) || ImplicitCastCost(a[1], columnar::Int32()) < 0) return false;
            TypePtr t = a[0]->id() == TypeId::kNull ? columnar::Int64() : a[0];
            *o = {{t, columnar::Int32()}, columnar::Int8(), BitGetKernel};
            return true;
          }},
         {"getbit"});
}

}  // namespace shoal::expr
