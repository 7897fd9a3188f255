// LIST / STRUCT / MAP functions: array/list_value, size/cardinality, element_at (also the
// subscript operator), array_contains, struct/struct_pack/named_struct, map, map_keys,
// map_values. List positions are 1-based; negative positions count from the end (Spark);
// out-of-range positions give NULL.
#include "columnar/value.h"
#include "expr/coercion.h"
#include "expr/comparison.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

Status ArrayKernel(const KernelCall& call, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  Vector* elems = out->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    for (size_t a = 0; a < call.num_args; ++a) {
      const KernelArg& x = call.arg(a);
      if (x.type()->id() == TypeId::kNull) elems->AppendNull();
      else elems->AppendFrom(*x.vec, x.Row(i), 1);
    }
    out->AppendListEnd();
  }
  *result = out;
  return Status::OK();
}

bool ResolveArray(const std::vector<TypePtr>& a, Overload* o) {
  TypePtr t = columnar::NullType();
  for (const auto& x : a) {
    auto c = CommonType(t, x);
    if (!c.ok()) return false;
    t = *c;
  }
  if (t->id() == TypeId::kNull) t = columnar::Int32();
  *o = {std::vector<TypePtr>(a.size(), t), columnar::List(t), ArrayKernel, false};
  return true;
}

Status CardinalityKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    const KernelArg& x = call.arg(0);
    const int64_t* off = x.vec->offsets();
    *r = static_cast<int32_t>(off[x.Row(i) + 1] - off[x.Row(i)]);
    return RowStatus::kOk;
  }, out);
}

// How an array index counts and what an index outside the array does.
enum class IndexMode : uint8_t {
  kElementAt,     // element_at: 1-based, negative from the end; 0 and out of bounds are errors
  kTryElementAt,  // try_element_at (and DuckDB's list_extract): 1-based, NULL out of bounds
  kSubscript,     // arr[i]: 0-based; out of bounds is an error
  kGet,           // get: 0-based, NULL out of bounds
};

template <IndexMode kMode>
Status ElementAtKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& c = call.arg(0);
  const KernelArg& k = call.arg(1);
  const bool is_map = c.type()->id() == TypeId::kMap;
  const int64_t* off = c.vec->offsets();
  const Vector& child = *c.vec->child(0);
  std::vector<int64_t> idx(call.n, -1);
  for (int64_t i = 0; i < call.n; ++i) {
    if (c.IsNull(i) || k.IsNull(i)) continue;
    int64_t b = off[c.Row(i)], e = off[c.Row(i) + 1];
    if (is_map) {
      const Vector& keys = *child.child(0);
      for (int64_t j = b; j < e; ++j) {
        if (keys.IsValid(j) && CompareRows(keys, j, *k.vec, k.Row(i)) == 0) {
          idx[i] = j;
          break;
        }
      }
    } else {
      int64_t pos = k.vec->Get<int64_t>(k.Row(i));
      int64_t len = e - b;
      if constexpr (kMode == IndexMode::kSubscript || kMode == IndexMode::kGet) {
        if (pos >= 0 && pos < len) idx[i] = b + pos;
        else if (kMode == IndexMode::kSubscript) {
          return Status::InvalidArgument("[INVALID_ARRAY_INDEX] The index " + std::to_string(pos) +
                                         " is out of bounds. The array has " + std::to_string(len) +
                                         " elements. Use the SQL function get() to tolerate accessing element at "
                                         "invalid index and return NULL instead.");
        }
      } else {
        if (pos > 0 && pos <= len) idx[i] = b + pos - 1;
        else if (pos < 0 && -pos <= len) idx[i] = e + pos;
        else if (kMode == IndexMode::kElementAt && pos == 0) {
          return Status::InvalidArgument("[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 "
                                         "or > 0 (the first element has index 1).");
        } else if (kMode == IndexMode::kElementAt) {
          return Status::InvalidArgument("[INVALID_ARRAY_INDEX_IN_ELEMENT_AT] The index " + std::to_string(pos) +
                                         " is out of bounds. The array has " + std::to_string(len) +
                                         " elements. Use try_element_at to tolerate accessing element at invalid "
                                         "index and return NULL instead.");
        }
      }
    }
  }
  const Vector& source = is_map ? *child.child(1) : child;
  *result = columnar::GatherOrNull(source, idx.data(), call.n);
  return Status::OK();
}

// A map's missing key is NULL in every mode (Spark 4); get() takes arrays only.
template <IndexMode kMode>
bool ResolveElementAt(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() != 2) return false;
  if (a[0]->id() == TypeId::kList) {
    if (ImplicitCastCost(a[1], columnar::Int64()) < 0) return false;
    *o = {{a[0], columnar::Int64()}, a[0]->element(), ElementAtKernel<kMode>};
    return true;
  }
  if (a[0]->id() == TypeId::kMap && kMode != IndexMode::kGet) {
    if (ImplicitCastCost(a[1], a[0]->key()) < 0) return false;
    *o = {{a[0], a[0]->key()}, a[0]->value(), ElementAtKernel<kMode>};
    return true;
  }
  return false;
}

Status ArrayContainsKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    const KernelArg& l = call.arg(0);
    const KernelArg& x = call.arg(1);
    const int64_t* off = l.vec->offsets();
    const Vector& elems = *l.vec->child(0);
    bool saw_null = false;
    for (int64_t j = off[l.Row(i)]; j < off[l.Row(i) + 1]; ++j) {
      if (elems.IsNull(j)) {
        saw_null = true;
      } else if (CompareRows(elems, j, *x.vec, x.Row(i)) == 0) {
        *r = 1;
        return RowStatus::kOk;
      }
    }
    *r = 0;
    return saw_null ? RowStatus::kNull : RowStatus::kOk;
  }, out);
}

bool ResolveArrayContains(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() != 2 || a[0]->id() != TypeId::kList) return false;
  auto t = CommonType(a[0]->element(), a[1]);
  if (!t.ok()) return false;
  *o = {{columnar::List(*t), *t}, columnar::Boolean(), ArrayContainsKernel};
  return true;
}

Status StructKernel(const KernelCall& call, VectorPtr* result) {
  auto out = std::make_shared<Vector>(call.result_type);
  for (size_t a = 0; a < call.num_args; ++a) {
    const KernelArg& x = call.arg(a);
    VectorPtr child;
    if (x.constant) {
      std::vector<int64_t> zeros(call.n, 0);
      child = columnar::GatherOrNull(*x.vec, zeros.data(), call.n);
    } else {
      child = x.vec->Slice(0, call.n);
    }
    out->children()[a] = child;
  }
  out->SetLength(call.n);
  *result = out;
  return Status::OK();
}

bool ResolveStruct(const std::vector<TypePtr>& a, Overload* o) {
  if (a.empty()) return false;
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < a.size(); ++i) fields.push_back({"col" + std::to_string(i + 1), a[i], true});
  *o = {a, columnar::Struct(std::move(fields)), StructKernel, false};
  return true;
}

Status MapKernel(const KernelCall& call, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  Vector* entries = out->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    for (size_t a = 0; a + 1 < call.num_args; a += 2) {
      const KernelArg& k = call.arg(a);
      const KernelArg& v = call.arg(a + 1);
      if (k.type()->id() == TypeId::kNull || k.IsNull(i)) return Status::InvalidArgument("map key cannot be NULL");
      entries->children()[0]->AppendFrom(*k.vec, k.Row(i), 1);
      if (v.type()->id() == TypeId::kNull) entries->children()[1]->AppendNull();
      else entries->children()[1]->AppendFrom(*v.vec, v.Row(i), 1);
      entries->AppendStructRow();
    }
    out->AppendListEnd();
  }
  *result = out;
  return Status::OK();
}

bool ResolveMap(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() % 2 != 0) return false;
  TypePtr k = columnar::NullType(), v = columnar::NullType();
  for (size_t i = 0; i < a.size(); i += 2) {
    auto ck = CommonType(k, a[i]);
    auto cv = CommonType(v, a[i + 1]);
    if (!ck.ok() || !cv.ok()) return false;
    k = *ck;
    v = *cv;
  }
  if (k->id() == TypeId::kNull) k = columnar::String();
  if (v->id() == TypeId::kNull) v = columnar::String();
  o->arg_types.clear();
  for (size_t i = 0; i < a.size(); i += 2) {
    o->arg_types.push_back(k);
    o->arg_types.push_back(v);
  }
  o->return_type = columnar::Map(k, v);
  o->kernel = MapKernel;
  o->propagates_nulls = false;
  return true;
}

template <int kPart>
Status MapPartKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& m = call.arg(0);
  auto out = std::make_shared<Vector>(call.result_type);
  out->values() = m.vec->values();
  out->validity() = m.vec->validity();
  out->children()[0] = m.vec->child(0)->child(kPart);
  out->SetLength(m.vec->size());
  *result = out;
  return Status::OK();
}

}  // namespace

bool ResolveCardinality(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() != 1 || (a[0]->id() != TypeId::kList && a[0]->id() != TypeId::kMap)) return false;
  *o = {{a[0]}, columnar::Int32(), CardinalityKernel};
  return true;
}

void RegisterNestedFunctions(FunctionRegistry* r) {
  r->Add({"array", "array(T, ...)", ResolveArray}, {"list_value", "list_pack"});
  r->Add({"size", "size(ARRAY|MAP)", ResolveCardinality}, {"cardinality", "array_size", "array_length"});
  r->Add({"element_at", "element_at(ARRAY<T>, BIGINT), element_at(MAP<K,V>, K)", ResolveElementAt<IndexMode::kElementAt>});
  r->Add({"try_element_at", "try_element_at(ARRAY<T>, BIGINT), try_element_at(MAP<K,V>, K)",
          ResolveElementAt<IndexMode::kTryElementAt>},
         {"list_extract", "list_element", "array_extract"});
  r->Add({"get", "get(ARRAY<T>, INT index)", ResolveElementAt<IndexMode::kGet>});
  r->Add({"subscript", "subscript(ARRAY<T>, INT index) (arr[index], 0-based), subscript(MAP<K,V>, K)",
          ResolveElementAt<IndexMode::kSubscript>});
  r->Add({"array_contains", "array_contains(ARRAY<T>, T)", ResolveArrayContains},
         {"list_contains", "list_has", "array_has"});
  r->Add({"struct", "struct(ANY, ...)", ResolveStruct}, {"row"});
  r->Add({"map", "map(K, V, K, V, ...)", ResolveMap});
  r->Add({"map_keys", "map_keys(MAP)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || a[0]->id() != TypeId::kMap) return false;
            *o = {{a[0]}, columnar::List(a[0]->key()), MapPartKernel<0>};
            return true;
          }});
  r->Add({"map_values", "map_values(MAP)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || a[0]->id() != TypeId::kMap) return false;
            *o = {{a[0]}, columnar::List(a[0]->value()), MapPartKernel<1>};
            return true;
          }});
}

}  // namespace shoal::expr
