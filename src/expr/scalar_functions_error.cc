// Functions that raise the user's error, as Spark defines them: raise_error(message) and
// assert_true(condition[, message]) (NULL when the condition is TRUE). Both fail with
// [USER_RAISED_EXCEPTION] and the message (an InvalidArgument status: InvalidInputException).
// The binder gives assert_true without a message Spark's "'<condition>' is not true!".
#include <string>

#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::VectorPtr;

namespace {

Status UserError(const KernelArg& message, int64_t i) {
  std::string text = message.IsNull(i) ? "null" : std::string(message.vec->GetString(message.Row(i)));
  return Status::InvalidArgument("[USER_RAISED_EXCEPTION] " + text);
}

Status RaiseErrorKernel(const KernelCall& call, VectorPtr* out) {
  if (call.n > 0) return UserError(call.arg(0), 0);
  *out = columnar::Vector::MakeNull(call.result_type, call.n);
  return Status::OK();
}

Status AssertTrueKernel(const KernelCall& call, VectorPtr* out) {
  const KernelArg& cond = call.arg(0);
  for (int64_t i = 0; i < call.n; ++i) {
    if (cond.IsNull(i) || !cond.vec->Get<uint8_t>(cond.Row(i))) {
      if (call.num_args > 1) return UserError(call.arg(1), i);
      return Status::InvalidArgument("[USER_RAISED_EXCEPTION] assert_true failed");
    }
  }
  *out = columnar::Vector::MakeNull(call.result_type, call.n);
  return Status::OK();
}

}  // namespace

void RegisterErrorFunctions(FunctionRegistry* r) {
  using A = const std::vector<TypePtr>&;
  r->Add({"raise_error", "raise_error(STRING message)", [](A a, Overload* o) {
            if (!Fixed(a, {columnar::String()}, columnar::NullType(), RaiseErrorKernel, o)) return false;
            o->propagates_nulls = false;
            return true;
          }});
  r->Add({"assert_true", "assert_true(BOOLEAN[, STRING message])", [](A a, Overload* o) {
            auto b = columnar::Boolean();
            auto s = columnar::String();
            if (!(a.size() == 1 ? Fixed(a, {b}, columnar::NullType(), AssertTrueKernel, o)
                                : Fixed(a, {b, s}, columnar::NullType(), AssertTrueKernel, o))) {
              return false;
            }
            o->propagates_nulls = false;
            return true;
          }});
}

}  // namespace shoal::expr
