// Map functions as Spark defines them: map_from_arrays, map_from_entries, map_entries,
// map_contains_key, str_to_map. A NULL key is an error; a duplicate key is an error
// ([DUPLICATED_MAP_KEY], Spark's default mapKeyDedupPolicy EXCEPTION).
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

// Appends key row (kv, kr) and value row (vv, vr; vv null for a NULL value) to a map's entries,
// rejecting NULL and duplicate keys among the entries since row start `from`.
Status PutEntry(Vector* entries, int64_t from, const Vector& kv, int64_t kr, const Vector* vv, int64_t vr) {
  if (kv.IsNull(kr)) return Status::InvalidArgument("[NULL_MAP_KEY] Cannot use null as map key");
  Vector& keys = *entries->children()[0];
  for (int64_t j = from; j < keys.size(); ++j) {
    if (CompareRows(keys, j, kv, kr) == 0) return Status::InvalidArgument("[DUPLICATED_MAP_KEY] Duplicate map key");
  }
  keys.AppendFrom(kv, kr, 1);
  if (!vv || vv->IsNull(vr)) entries->children()[1]->AppendNull();
  else entries->children()[1]->AppendFrom(*vv, vr, 1);
  entries->AppendStructRow();
  return Status::OK();
}

// Builds a MAP result row by row: fn(i, entries, from) appends row i's entries (with PutEntry,
// `from` is where the row's entries start); a row with a NULL argument is NULL.
template <typename Fn>
Status MapRows(const KernelCall& call, Fn fn, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  Vector* entries = out->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    if (AnyArgNull(call, i)) {
      out->AppendNull();
      continue;
    }
    RETURN_NOT_OK(fn(i, entries, entries->children()[0]->size()));
    out->AppendListEnd();
  }
  *result = out;
  return Status::OK();
}

Status FromArraysKernel(const KernelCall& call, VectorPtr* result) {
  return MapRows(call, [&](int64_t i, Vector* entries, int64_t from) -> Status {
    const KernelArg& k = call.arg(0);
    const KernelArg& v = call.arg(1);
    int64_t kb = k.vec->offsets()[k.Row(i)], ke = k.vec->offsets()[k.Row(i) + 1];
    int64_t vb = v.vec->offsets()[v.Row(i)], ve = v.vec->offsets()[v.Row(i) + 1];
    if (ke - kb != ve - vb) {
      return Status::InvalidArgument("map_from_arrays() key and value arrays differ in length (" +
                                     std::to_string(ke - kb) + " and " + std::to_string(ve - vb) + ")");
    }
    for (int64_t j = 0; j < ke - kb; ++j) {
      RETURN_NOT_OK(PutEntry(entries, from, *k.vec->child(0), kb + j, v.vec->child(0).get(), vb + j));
    }
    return Status::OK();
  }, result);
}

Status FromEntriesKernel(const KernelCall& call, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  Vector* entries = out->children()[0].get();
  const KernelArg& a = call.arg(0);
  const Vector& structs = *a.vec->child(0);
  for (int64_t i = 0; i < call.n; ++i) {
    if (a.IsNull(i)) {
      out->AppendNull();
      continue;
    }
    int64_t b = a.vec->offsets()[a.Row(i)], e = a.vec->offsets()[a.Row(i) + 1];
    int64_t from = entries->children()[0]->size();
    bool null_row = false;
    for (int64_t j = b; j < e; ++j) null_row |= structs.IsNull(j);
    if (null_row) {
      out->AppendNull();
      continue;
    }
    for (int64_t j = b; j < e; ++j) {
      RETURN_NOT_OK(PutEntry(entries, from, *structs.child(0), j, structs.child(1).get(), j));
    }
    out->AppendListEnd();
  }
  *result = out;
  return Status::OK();
}

// map_entries: the map's entries as an array of struct<key, value>; same layout, new type.
Status EntriesKernel(const KernelCall& call, VectorPtr* result) {
  const KernelArg& m = call.arg(0);
  std::vector<int64_t> rows(call.n);
  for (int64_t i = 0; i < call.n; ++i) rows[i] = m.Row(i);
  VectorPtr flat = columnar::GatherOrNull(*m.vec, rows.data(), call.n);
  auto out = std::make_shared<Vector>(call.result_type);
  out->values() = flat->values();
  out->validity() = flat->validity();
  auto entries = std::make_shared<Vector>(call.result_type->element());
  const Vector& src = *flat->child(0);
  entries->children()[0] = src.child(0);
  entries->children()[1] = src.child(1);
  entries->validity() = src.validity();
  entries->SetLength(src.size());
  out->children()[0] = entries;
  out->SetLength(call.n);
  *result = out;
  return Status::OK();
}

Status ContainsKeyKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    const KernelArg& m = call.arg(0);
    const KernelArg& k = call.arg(1);
    const Vector& keys = *m.vec->child(0)->child(0);
    *r = 0;
    for (int64_t j = m.vec->offsets()[m.Row(i)]; j < m.vec->offsets()[m.Row(i) + 1] && !*r; ++j) {
      *r = CompareRows(keys, j, *k.vec, k.Row(i)) == 0;
    }
    return RowStatus::kOk;
  }, out);
}

// str_to_map(text[, pair_delim[, key_value_delim]]): defaults ',' and ':'; a pair without the
// key-value delimiter has a NULL value.
Status StrToMapKernel(const KernelCall& call, VectorPtr* result) {
  auto text = Vector::Make(columnar::String(), 2);
  return MapRows(call, [&](int64_t i, Vector* entries, int64_t from) -> Status {
    std::string_view s = StrArg(call, 0, i);
    std::string_view pd = call.num_args > 1 ? StrArg(call, 1, i) : ",";
    std::string_view kd = call.num_args > 2 ? StrArg(call, 2, i) : ":";
    if (pd.empty() || kd.empty()) return Status::InvalidArgument("str_to_map() delimiters must not be empty");
    size_t pos = 0;
    while (true) {
      size_t end = s.find(pd, pos);
      std::string_view pair = s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
      size_t kv = pair.find(kd);
      text->Clear();
      text->AppendString(pair.substr(0, kv));
      if (kv == std::string_view::npos) text->AppendNull();
      else text->AppendString(pair.substr(kv + kd.size()));
      RETURN_NOT_OK(PutEntry(entries, from, *text, 0, text.get(), 1));
      if (end == std::string_view::npos) break;
      pos = end + pd.size();
    }
    return Status::OK();
  }, result);
}

// map_concat(m1, m2, ...): the entries of all maps in order; a key in two maps is an error.
Status ConcatKernel(const KernelCall& call, VectorPtr* result) {
  return MapRows(call, [&](int64_t i, Vector* entries, int64_t from) -> Status {
    for (size_t a = 0; a < call.num_args; ++a) {
      const KernelArg& m = call.arg(a);
      const Vector& src = *m.vec->child(0);
      for (int64_t j = m.vec->offsets()[m.Row(i)]; j < m.vec->offsets()[m.Row(i) + 1]; ++j) {
        RETURN_NOT_OK(PutEntry(entries, from, *src.child(0), j, src.child(1).get(), j));
      }
    }
    return Status::OK();
  }, result);
}

}  // namespace

void RegisterMapFunctions(FunctionRegistry* r) {
  using A = const std::vector<TypePtr>&;
  r->Add({"map_from_arrays", "map_from_arrays(ARRAY<K>, ARRAY<V>)", [](A a, Overload* o) {
            if (a.size() != 2 || a[0]->id() != TypeId::kList || a[1]->id() != TypeId::kList) return false;
            *o = {a, columnar::Map(a[0]->element(), a[1]->element()), FromArraysKernel, false};
            return true;
          }});
  r->Add({"map_from_entries", "map_from_entries(ARRAY<STRUCT<K, V>>)", [](A a, Overload* o) {
            if (a.size() != 1 || a[0]->id() != TypeId::kList || a[0]->element()->id() != TypeId::kStruct ||
                a[0]->element()->children().size() != 2) {
              return false;
            }
            const auto& f = a[0]->element()->children();
            *o = {a, columnar::Map(f[0].type, f[1].type), FromEntriesKernel, false};
            return true;
          }});
  r->Add({"map_entries", "map_entries(MAP<K, V>)", [](A a, Overload* o) {
            if (a.size() != 1 || a[0]->id() != TypeId::kMap) return false;
            auto st = columnar::Struct({{"key", a[0]->key(), false}, {"value", a[0]->value(), true}});
            *o = {a, columnar::List(st), EntriesKernel};
            return true;
          }});
  r->Add({"map_contains_key", "map_contains_key(MAP<K, V>, K)", [](A a, Overload* o) {
            if (a.size() != 2 || a[0]->id() != TypeId::kMap || ImplicitCastCost(a[1], a[0]->key()) < 0) return false;
            *o = {{a[0], a[0]->key()}, columnar::Boolean(), ContainsKeyKernel};
            return true;
          }});
  r->Add({"map_concat", "map_concat(MAP<K, V>, ...)", [](A a, Overload* o) {
            if (a.empty()) return false;
            TypePtr common = a[0];
            for (const TypePtr& t : a) {
              if (t->id() != TypeId::kMap) return false;
              auto c = CommonType(common, t);
              if (!c.ok()) return false;
              common = *c;
            }
            *o = {std::vector<TypePtr>(a.size(), common), common, ConcatKernel};
            return true;
          }});
  r->Add({"str_to_map", "str_to_map(STRING[, STRING pair_delim[, STRING key_value_delim]])", [](A a, Overload* o) {
            auto s = columnar::String();
            if (a.empty() || a.size() > 3) return false;
            if (!Fixed(a, {s}, columnar::Map(s, s), StrToMapKernel, o, s)) return false;
            o->propagates_nulls = false;
            return true;
          }});
}

}  // namespace shoal::expr
