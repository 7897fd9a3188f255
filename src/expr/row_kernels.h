// Kernel templates for functions whose per-row work dominates the loop (strings, dates,
// nested values): they walk the rows once, skip rows where an argument is NULL, and build
// the output without per-row allocation. Used by the scalar_functions_*.cc files.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "expr/function_registry.h"

namespace shoal::expr {

// Row outcome of a per-row function.
enum class RowStatus : uint8_t { kOk, kNull };

inline bool AnyArgNull(const KernelCall& call, int64_t i) {
  for (size_t a = 0; a < call.num_args; ++a) {
    if (call.args[a].IsNull(i)) return true;
  }
  return false;
}

inline std::string_view StrArg(const KernelCall& call, size_t a, int64_t i) {
  const KernelArg& x = call.arg(a);
  return x.vec->GetString(x.Row(i));
}

template <typename T>
inline T FixedArg(const KernelCall& call, size_t a, int64_t i) {
  const KernelArg& x = call.arg(a);
  return x.vec->Get<T>(x.Row(i));
}

// STRING (or BINARY) result: fn(i, std::string* out) -> Result<RowStatus>; `out` is cleared
// before each row. Rows with a NULL argument are NULL without calling fn (when
// skip_nulls is true).
template <typename Fn>
Status StringRows(const KernelCall& call, Fn fn, columnar::VectorPtr* result, bool skip_nulls = true) {
  auto out = columnar::Vector::Make(call.result_type, call.n);
  std::string buf;
  for (int64_t i = 0; i < call.n; ++i) {
    if (skip_nulls && AnyArgNull(call, i)) {
      out->AppendNull();
      continue;
    }
    buf.clear();
    Result<RowStatus> r = fn(i, &buf);
    if (!r.ok()) return r.status();
    if (*r == RowStatus::kNull) out->AppendNull();
    else out->AppendString(buf);
  }
  *result = out;
  return Status::OK();
}

// Fixed-width result of slot type T: fn(i, T* out) -> Result<RowStatus>.
template <typename T, typename Fn>
Status FixedRows(const KernelCall& call, Fn fn, columnar::VectorPtr* result, bool skip_nulls = true) {
  auto out = columnar::Vector::Make(call.result_type, call.n);
  out->Resize(call.n);
  T* d = out->data<T>();
  uint8_t* valid = nullptr;
  for (int64_t i = 0; i < call.n; ++i) {
    d[i] = T{};
    bool null = skip_nulls && AnyArgNull(call, i);
    if (!null) {
      Result<RowStatus> r = fn(i, &d[i]);
      if (!r.ok()) return r.status();
      null = *r == RowStatus::kNull;
    }
    if (null) {
      if (!valid) valid = out->MutableValidity();
      valid[i] = 0;
      d[i] = T{};
    }
  }
  *result = out;
  return Status::OK();
}

// LIST result: fn(i, columnar::Vector* elems) -> Result<RowStatus> appends row i's elements. Rows
// with a NULL argument are NULL without calling fn.
template <typename Fn>
Status ListRows(const KernelCall& call, Fn fn, columnar::VectorPtr* result) {
  auto out = columnar::Vector::Make(call.result_type, call.n);
  columnar::Vector* elems = out->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    if (AnyArgNull(call, i)) {
      out->AppendNull();
      continue;
    }
    int64_t before = elems->size();
    ASSIGN_OR_RETURN(RowStatus st, fn(i, elems));
    if (st == RowStatus::kNull) {
      // Drop what fn appended for a NULL row.
      std::vector<int64_t> keep(static_cast<size_t>(before));
      for (int64_t k = 0; k < before; ++k) keep[k] = k;
      out->children()[0] = columnar::GatherOrNull(*elems, keep.data(), before);
      elems = out->children()[0].get();
      out->AppendNull();
    } else {
      out->AppendListEnd();
    }
  }
  *result = out;
  return Status::OK();
}

// Resolver helper: exact parameter list with implicit casts; sets arg types and return type.
inline bool Fixed(const std::vector<TypePtr>& args, std::vector<TypePtr> params, TypePtr ret,
                  ScalarKernel kernel, Overload* o, const TypePtr& variadic = nullptr) {
  if (MatchSignature(args, params, variadic) < 0) return false;
  o->arg_types = params;
  while (o->arg_types.size() < args.size()) o->arg_types.push_back(variadic);
  o->return_type = std::move(ret);
  o->kernel = kernel;
  return true;
}

// The cheapest of several fixed signatures (ties: the first).
struct Signature {
  std::vector<TypePtr> params;
  TypePtr ret;
  ScalarKernel kernel;
};
inline bool BestOf(const std::vector<TypePtr>& args, const std::vector<Signature>& sigs, Overload* o) {
  int best = -1;
  const Signature* pick = nullptr;
  for (const auto& s : sigs) {
    int c = MatchSignature(args, s.params);
    if (c >= 0 && (best < 0 || c < best)) {
      best = c;
      pick = &s;
    }
  }
  if (!pick) return false;
  return Fixed(args, pick->params, pick->ret, pick->kernel, o);
}

// Number of UTF-8 characters (continuation bytes are not counted).
inline int64_t Utf8Length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Byte offset of character `k` (0-based) in s, or s.size() when s has fewer characters.
inline size_t Utf8Offset(std::string_view s, int64_t k) {
  size_t i = 0;
  while (i < s.size() && k > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    --k;
  }
  return i;
}

}  // namespace shoal::expr
