// Array functions as Spark defines them: set operations (array_distinct, array_union,
// array_intersect, array_except, arrays_overlap), search and edit (array_position,
// array_remove, array_compact, array_append, array_prepend, slice, flatten, array_repeat),
// ordering (sort_array, array_sort), reductions (array_max, array_min, array_join), sequence,
// try_element_at. Elements compare with NULLs equal to each other in set operations.
#include <algorithm>
#include <string>
#include <vector>

#include "expr/coercion.h"
#include "expr/comparison.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

constexpr int64_t kMaxArrayElements = int64_t{1} << 28;

// Element rows [b, e) of list argument a at row i.
struct Span {
  const Vector* elems;
  int64_t b, e;
};
Span ListAt(const KernelCall& call, size_t a, int64_t i) {
  const KernelArg& x = call.arg(a);
  const int64_t* off = x.vec->offsets();
  return {x.vec->child(0).get(), off[x.Row(i)], off[x.Row(i) + 1]};
}

bool SameElem(const Vector& a, int64_t i, const Vector& b, int64_t j) {
  if (a.IsNull(i) || b.IsNull(j)) return a.IsNull(i) && b.IsNull(j);
  return CompareRows(a, i, b, j) == 0;
}
bool InSpan(const Span& s, const Vector& v, int64_t j) {
  for (int64_t k = s.b; k < s.e; ++k) {
    if (SameElem(*s.elems, k, v, j)) return true;
  }
  return false;
}

// Appends the elements of `s` not yet in `out` since row start `from` (first occurrence kept).
void AppendDistinct(const Span& s, Vector* out, int64_t from, const Span* exclude = nullptr,
                    const Span* require = nullptr) {
  for (int64_t k = s.b; k < s.e; ++k) {
    if (exclude && InSpan(*exclude, *s.elems, k)) continue;
    if (require && !InSpan(*require, *s.elems, k)) continue;
    bool seen = false;
    for (int64_t j = from; j < out->size() && !seen; ++j) seen = SameElem(*out, j, *s.elems, k);
    if (!seen) out->AppendFrom(*s.elems, k, 1);
  }
}

template <int kOp>  // 0 distinct, 1 union, 2 intersect, 3 except
Status SetOpKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    int64_t from = e->size();
    Span a = ListAt(call, 0, i);
    if (kOp == 0) {
      AppendDistinct(a, e, from);
    } else {
      Span b = ListAt(call, 1, i);
      if (kOp == 1) {
        AppendDistinct(a, e, from);
        AppendDistinct(b, e, from);
      } else {
        AppendDistinct(a, e, from, kOp == 3 ? &b : nullptr, kOp == 2 ? &b : nullptr);
      }
    }
    return RowStatus::kOk;
  }, out);
}

// arrays_overlap: true when a non-NULL element is shared; NULL when not but either array has a
// NULL element and both are non-empty.
Status OverlapKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i), b = ListAt(call, 1, i);
    bool nulls = false;
    *r = 0;
    for (int64_t k = a.b; k < a.e; ++k) {
      if (a.elems->IsNull(k)) {
        nulls = true;
        continue;
      }
      for (int64_t j = b.b; j < b.e; ++j) {
        if (b.elems->IsNull(j)) nulls = true;
        else if (CompareRows(*a.elems, k, *b.elems, j) == 0) {
          *r = 1;
          return RowStatus::kOk;
        }
      }
    }
    for (int64_t j = b.b; j < b.e; ++j) nulls |= b.elems->IsNull(j);
    return nulls && a.e > a.b && b.e > b.b ? RowStatus::kNull : RowStatus::kOk;
  }, out);
}

// array_position(arr, x): 1-based index of the first element equal to x, else 0.
Status PositionKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i);
    const KernelArg& x = call.arg(1);
    *r = 0;
    for (int64_t k = a.b; k < a.e; ++k) {
      if (a.elems->IsValid(k) && CompareRows(*a.elems, k, *x.vec, x.Row(i)) == 0) {
        *r = k - a.b + 1;
        break;
      }
    }
    return RowStatus::kOk;
  }, out);
}

template <bool kCompact>  // array_compact drops NULLs; array_remove drops elements equal to x
Status RemoveKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i);
    for (int64_t k = a.b; k < a.e; ++k) {
      bool drop = kCompact ? a.elems->IsNull(k)
                           : a.elems->IsValid(k) && CompareRows(*a.elems, k, *call.arg(1).vec, call.arg(1).Row(i)) == 0;
      if (!drop) e->AppendFrom(*a.elems, k, 1);
    }
    return RowStatus::kOk;
  }, out);
}

template <bool kAppend>
Status AppendKernel(const KernelCall& call, VectorPtr* out) {
  auto result = Vector::Make(call.result_type, call.n);
  Vector* e = result->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    if (call.arg(0).IsNull(i)) {
      result->AppendNull();
      continue;
    }
    Span a = ListAt(call, 0, i);
    const KernelArg& x = call.arg(1);
    auto put = [&] {
      if (x.type()->id() == TypeId::kNull || x.IsNull(i)) e->AppendNull();
      else e->AppendFrom(*x.vec, x.Row(i), 1);
    };
    if (!kAppend) put();
    if (a.e > a.b) e->AppendFrom(*a.elems, a.b, a.e - a.b);
    if (kAppend) put();
    result->AppendListEnd();
  }
  *out = result;
  return Status::OK();
}

// array_insert(arr, pos, value): pos 1-based; -1 inserts after the last element (Spark 4); a
// position beyond either end pads with NULLs; 0 is an error.
Status InsertKernel(const KernelCall& call, VectorPtr* out) {
  auto result = Vector::Make(call.result_type, call.n);
  Vector* e = result->children()[0].get();
  const KernelArg& x = call.arg(2);
  for (int64_t i = 0; i < call.n; ++i) {
    if (call.arg(0).IsNull(i) || call.arg(1).IsNull(i)) {
      result->AppendNull();
      continue;
    }
    Span a = ListAt(call, 0, i);
    const int64_t len = a.e - a.b;
    const int64_t pos = FixedArg<int32_t>(call, 1, i);
    if (pos == 0) {
      return Status::InvalidArgument("[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 "
                                     "(the first element has index 1).");
    }
    // Where the value goes among the elements (0..len), and the NULLs padded before / after.
    int64_t at = pos > 0 ? pos - 1 : len + pos + 1;
    int64_t pad_after_value = 0;
    if (at < 0) {
      pad_after_value = -at;
      at = 0;
    }
    const int64_t pad_before_value = at > len ? at - len : 0;
    if (len + pad_before_value + pad_after_value >= kMaxArrayElements) {
      return Status::InvalidArgument("array_insert() position " + std::to_string(pos) + " makes the array too large");
    }
    at = std::min(at, len);
    if (at > 0) e->AppendFrom(*a.elems, a.b, at);
    e->AppendNulls(pad_before_value);
    if (x.type()->id() == TypeId::kNull || x.IsNull(i)) e->AppendNull();
    else e->AppendFrom(*x.vec, x.Row(i), 1);
    e->AppendNulls(pad_after_value);
    if (len > at) e->AppendFrom(*a.elems, a.b + at, len - at);
    result->AppendListEnd();
  }
  *out = result;
  return Status::OK();
}

// slice(arr, start, length): start 1-based (negative from the end, 0 an error).
Status SliceKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i);
    int64_t start = FixedArg<int32_t>(call, 1, i), len = FixedArg<int32_t>(call, 2, i);
    if (start == 0) return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.START] slice() start must not be 0");
    if (len < 0) return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.LENGTH] slice() length must be >= 0, got " +
                                                std::to_string(len));
    int64_t n = a.e - a.b;
    int64_t from = start > 0 ? start - 1 : n + start;
    if (from < 0 || from >= n) return RowStatus::kOk;
    int64_t take = std::min(len, n - from);
    if (take > 0) e->AppendFrom(*a.elems, a.b + from, take);
    return RowStatus::kOk;
  }, out);
}

Status FlattenKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i);
    const int64_t* off = a.elems->offsets();
    for (int64_t k = a.b; k < a.e; ++k) {
      if (a.elems->IsNull(k)) return RowStatus::kNull;
      int64_t b = off[k], end = off[k + 1];
      if (end > b) e->AppendFrom(*a.elems->child(0), b, end - b);
    }
    return RowStatus::kOk;
  }, out);
}

Status RepeatKernel(const KernelCall& call, VectorPtr* out) {
  auto result = Vector::Make(call.result_type, call.n);
  Vector* e = result->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    if (call.arg(1).IsNull(i)) {
      result->AppendNull();
      continue;
    }
    int64_t n = FixedArg<int32_t>(call, 1, i);
    if (n > kMaxArrayElements) return Status::OutOfRange("array_repeat() count " + std::to_string(n) + " is too large");
    const KernelArg& x = call.arg(0);
    for (int64_t k = 0; k < n; ++k) {
      if (x.type()->id() == TypeId::kNull || x.IsNull(i)) e->AppendNull();
      else e->AppendFrom(*x.vec, x.Row(i), 1);
    }
    result->AppendListEnd();
  }
  *out = result;
  return Status::OK();
}

// sort_array(arr[, asc]): NULLs first ascending, last descending. array_sort(arr): ascending
// with NULLs last.
template <bool kArraySort>
Status SortKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    Span a = ListAt(call, 0, i);
    bool asc = kArraySort || call.num_args < 2 || FixedArg<uint8_t>(call, 1, i) != 0;
    bool nulls_first = !kArraySort && asc;
    std::vector<int64_t> idx;
    for (int64_t k = a.b; k < a.e; ++k) idx.push_back(k);
    const Vector& v = *a.elems;
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t x, int64_t y) {
      bool xn = v.IsNull(x), yn = v.IsNull(y);
      if (xn || yn) return xn != yn && (xn == nulls_first);
      int c = CompareRows(v, x, v, y);
      return asc ? c < 0 : c > 0;
    });
    for (int64_t k : idx) e->AppendFrom(v, k, 1);
    return RowStatus::kOk;
  }, out);
}

template <bool kMax>
Status MinMaxKernel(const KernelCall& call, VectorPtr* out) {
  std::vector<int64_t> pick(call.n, -1);
  const KernelArg& x = call.arg(0);
  for (int64_t i = 0; i < call.n; ++i) {
    if (x.IsNull(i)) continue;
    Span a = ListAt(call, 0, i);
    for (int64_t k = a.b; k < a.e; ++k) {
      if (a.elems->IsNull(k)) continue;
      int c = pick[i] < 0 ? 0 : CompareRows(*a.elems, k, *a.elems, pick[i]);
      if (pick[i] < 0 || (kMax ? c > 0 : c < 0)) pick[i] = k;
    }
  }
  *out = columnar::GatherOrNull(*x.vec->child(0), pick.data(), call.n);
  return Status::OK();
}

// array_join(arr, sep[, null_replacement]): NULL elements skipped unless replaced.
Status JoinKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    if (call.arg(0).IsNull(i) || call.arg(1).IsNull(i)) return RowStatus::kNull;
    bool replace = call.num_args > 2;
    if (replace && call.arg(2).IsNull(i)) return RowStatus::kNull;
    Span a = ListAt(call, 0, i);
    std::string_view sep = StrArg(call, 1, i);
    bool first = true;
    for (int64_t k = a.b; k < a.e; ++k) {
      if (a.elems->IsNull(k) && !replace) continue;
      if (!first) s->append(sep);
      first = false;
      s->append(a.elems->IsNull(k) ? StrArg(call, 2, i) : a.elems->GetString(k));
    }
    return RowStatus::kOk;
  }, out, false);
}

// sequence(start, stop[, step]) over BIGINT; the step defaults to 1 or -1.
Status SequenceKernel(const KernelCall& call, VectorPtr* out) {
  return ListRows(call, [&](int64_t i, Vector* e) -> Result<RowStatus> {
    int64_t a = FixedArg<int64_t>(call, 0, i), b = FixedArg<int64_t>(call, 1, i);
    int64_t step = call.num_args > 2 ? FixedArg<int64_t>(call, 2, i) : (a <= b ? 1 : -1);
    if (step == 0 || (a < b && step < 0) || (a > b && step > 0)) {
      if (a == b) {
        e->Append<int64_t>(a);
        return RowStatus::kOk;
      }
      return Status::InvalidArgument("[INVALID_PARAMETER_VALUE] sequence() step " + std::to_string(step) +
                                     " does not move from " + std::to_string(a) + " to " + std::to_string(b));
    }
    __int128 count = (static_cast<__int128>(b) - a) / step + 1;
    if (count > kMaxArrayElements) return Status::OutOfRange("sequence() would have too many elements");
    for (__int128 k = 0; k < count; ++k) e->Append<int64_t>(static_cast<int64_t>(a + k * step));
    return RowStatus::kOk;
  }, out);
}

bool IsList(const TypePtr& t) { return t->id() == TypeId::kList; }

bool ResolveOneList(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k, bool elem_result = false) {
  if (a.size() != 1 || !IsList(a[0])) return false;
  *o = {{a[0]}, elem_result ? a[0]->element() : a[0], k};
  return true;
}

// Two lists with a common element type.
bool ResolveTwoLists(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k, TypePtr ret = nullptr) {
  if (a.size() != 2 || !IsList(a[0]) || !IsList(a[1])) return false;
  auto t = CommonType(a[0]->element(), a[1]->element());
  if (!t.ok()) return false;
  TypePtr l = columnar::List(*t);
  *o = {{l, l}, ret ? ret : l, k};
  return true;
}

// A list and a value of its element type.
bool ResolveListAndElem(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k, TypePtr ret = nullptr,
                        bool propagates = true) {
  if (a.size() != 2 || !IsList(a[0])) return false;
  auto t = CommonType(a[0]->element(), a[1]);
  if (!t.ok()) return false;
  TypePtr et = (*t)->id() == TypeId::kNull ? columnar::Int32() : *t;
  TypePtr l = columnar::List(et);
  *o = {{l, et}, ret ? ret : l, k, propagates};
  return true;
}

}  // namespace

void RegisterArrayFunctions(FunctionRegistry* r) {
  using A = const std::vector<TypePtr>&;
  r->Add({"array_distinct", "array_distinct(ARRAY)", [](A a, Overload* o) { return ResolveOneList(a, o, SetOpKernel<0>); }});
  r->Add({"array_union", "array_union(ARRAY, ARRAY)", [](A a, Overload* o) { return ResolveTwoLists(a, o, SetOpKernel<1>); }});
  r->Add({"array_intersect", "array_intersect(ARRAY, ARRAY)",
          [](A a, Overload* o) { return ResolveTwoLists(a, o, SetOpKernel<2>); }});
  r->Add({"array_except", "array_except(ARRAY, ARRAY)", [](A a, Overload* o) { return ResolveTwoLists(a, o, SetOpKernel<3>); }});
  r->Add({"arrays_overlap", "arrays_overlap(ARRAY, ARRAY)",
          [](A a, Overload* o) { return ResolveTwoLists(a, o, OverlapKernel, columnar::Boolean()); }});
  r->Add({"array_position", "array_position(ARRAY<T>, T)",
          [](A a, Overload* o) { return ResolveListAndElem(a, o, PositionKernel, columnar::Int64()); }});
  r->Add({"array_remove", "array_remove(ARRAY<T>, T)", [](A a, Overload* o) { return ResolveListAndElem(a, o, RemoveKernel<false>); }});
  r->Add({"array_compact", "array_compact(ARRAY)", [](A a, Overload* o) { return ResolveOneList(a, o, RemoveKernel<true>); }});
  r->Add({"array_append", "array_append(ARRAY<T>, T)",
          [](A a, Overload* o) { return ResolveListAndElem(a, o, AppendKernel<true>, nullptr, false); }});
  r->Add({"array_prepend", "array_prepend(ARRAY<T>, T)",
          [](A a, Overload* o) { return ResolveListAndElem(a, o, AppendKernel<false>, nullptr, false); }});
  r->Add({"array_insert", "array_insert(ARRAY<T>, INT pos, T)", [](A a, Overload* o) {
            if (a.size() != 3 || ImplicitCastCost(a[1], columnar::Int32()) < 0) return false;
            if (!ResolveListAndElem({a[0], a[2]}, o, InsertKernel, nullptr, false)) return false;
            o->arg_types.insert(o->arg_types.begin() + 1, columnar::Int32());
            return true;
          }});
  r->Add({"slice", "slice(ARRAY, INT start, INT length)", [](A a, Overload* o) {
            if (a.size() != 3 || !IsList(a[0])) return false;
            return Fixed(a, {a[0], columnar::Int32(), columnar::Int32()}, a[0], SliceKernel, o);
          }});
  r->Add({"flatten", "flatten(ARRAY<ARRAY>)", [](A a, Overload* o) {
            if (a.size() != 1 || !IsList(a[0]) || !IsList(a[0]->element())) return false;
            *o = {{a[0]}, a[0]->element(), FlattenKernel};
            return true;
          }});
  r->Add({"array_repeat", "array_repeat(T, INT)", [](A a, Overload* o) {
            if (a.size() != 2 || ImplicitCastCost(a[1], columnar::Int32()) < 0) return false;
            TypePtr t = a[0]->id() == TypeId::kNull ? columnar::Int32() : a[0];
            *o = {{t, columnar::Int32()}, columnar::List(t), RepeatKernel, false};
            return true;
          }});
  r->Add({"sort_array", "sort_array(ARRAY[, BOOLEAN asc])", [](A a, Overload* o) {
            if (a.empty() || a.size() > 2 || !IsList(a[0])) return false;
            if (a.size() == 1) return Fixed(a, {a[0]}, a[0], SortKernel<false>, o);
            return Fixed(a, {a[0], columnar::Boolean()}, a[0], SortKernel<false>, o);
          }});
  r->Add({"array_sort", "array_sort(ARRAY)", [](A a, Overload* o) { return ResolveOneList(a, o, SortKernel<true>); }});
  r->Add({"array_max", "array_max(ARRAY)", [](A a, Overload* o) { return ResolveOneList(a, o, MinMaxKernel<true>, true); }});
  r->Add({"array_min", "array_min(ARRAY)", [](A a, Overload* o) { return ResolveOneList(a, o, MinMaxKernel<false>, true); }});
  r->Add({"array_join", "array_join(ARRAY<STRING>, STRING sep[, STRING null_replacement])", [](A a, Overload* o) {
            if (a.size() < 2 || a.size() > 3 || !IsList(a[0])) return false;
            TypePtr l = columnar::List(columnar::String());
            if (ImplicitCastCost(a[0], l) < 0 && a[0]->element()->IsNested()) return false;
            std::vector<TypePtr> p = {l, columnar::String()};
            if (a.size() == 3) p.push_back(columnar::String());
            *o = {p, columnar::String(), JoinKernel, false};
            return true;
          }});
  r->Add({"sequence", "sequence(BIGINT start, BIGINT stop[, BIGINT step])", [](A a, Overload* o) {
            auto i = columnar::Int64();
            return Fixed(a, {i, i}, columnar::List(i), SequenceKernel, o) ||
                   Fixed(a, {i, i, i}, columnar::List(i), SequenceKernel, o);
          }});
}

}  // namespace shoal::expr
