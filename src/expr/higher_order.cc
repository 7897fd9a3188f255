// Why higher-order functions are their own expression kind and not registry functions: a
// registry kernel gets argument vectors of n rows, but a lambda body is not a value per row: it
// must be evaluated over the elements (a different row count), with its parameters bound per
// element and the outer columns it reads repeated per element. Only the evaluator can evaluate
// an expression, so the call is a kHigherOrder node that the evaluator hands the element batches
// to (LambdaInvoker), and this file holds the per-function semantics on flat vectors.
#include "expr/higher_order.h"

#include <algorithm>
#include <array>

#include "expr/cast.h"
#include "expr/coercion.h"
#include "expr/comparison.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

enum class Hof : uint8_t {
  kTransform, kFilter, kExists, kForall, kAggregate, kZipWith,
  kMapFilter, kMapZipWith, kTransformKeys, kTransformValues,
};

struct HofInfo {
  std::string_view name;
  Hof kind;
  size_t inputs;      // value arguments before the lambdas
  size_t min_lambdas;
  size_t max_lambdas;
};

constexpr std::array<HofInfo, 11> kFunctions = {{
    {"transform", Hof::kTransform, 1, 1, 1},
    {"filter", Hof::kFilter, 1, 1, 1},
    {"exists", Hof::kExists, 1, 1, 1},
    {"forall", Hof::kForall, 1, 1, 1},
    {"aggregate", Hof::kAggregate, 2, 1, 2},
    {"reduce", Hof::kAggregate, 2, 1, 2},
    {"zip_with", Hof::kZipWith, 2, 1, 1},
    {"map_filter", Hof::kMapFilter, 1, 1, 1},
    {"map_zip_with", Hof::kMapZipWith, 2, 1, 1},
    {"transform_keys", Hof::kTransformKeys, 1, 1, 1},
    {"transform_values", Hof::kTransformValues, 1, 1, 1},
}};

const HofInfo* Find(std::string_view name) {
  for (const HofInfo& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string Str(size_t n) { return std::to_string(n); }

Status NeedType(const HofInfo& f, const ExprPtr& input, size_t index, TypeId id) {
  if (input->type->id() == id) return Status::OK();
  return Status::Binder(std::string(f.name) + "() argument " + Str(index + 1) + " must be " +
                        (id == TypeId::kList ? "an ARRAY" : "a MAP") + ", not " + input->type->ToString());
}

Status ParamCount(const HofInfo& f, size_t written, size_t lo, size_t hi) {
  if (written >= lo && written <= hi) return Status::OK();
  std::string want = lo == hi ? Str(lo) : Str(lo) + " or " + Str(hi);
  return Status::Binder("[INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH] a lambda of " + std::string(f.name) +
                        "() takes " + want + " parameter(s), not " + Str(written));
}

const TypePtr& LambdaType(const std::vector<ExprPtr>& lambdas, size_t k) { return lambdas[k]->args[0]->type; }

}  // namespace

bool IsHigherOrderFunction(std::string_view name) { return Find(name) != nullptr; }

size_t HigherOrderInputCount(std::string_view name) {
  const HofInfo* f = Find(name);
  return f ? f->inputs : 0;
}

Result<std::vector<TypePtr>> LambdaParameterTypes(std::string_view name, const std::vector<ExprPtr>& inputs,
                                                  size_t lambda, size_t num_params) {
  const HofInfo* f = Find(name);
  if (!f) return Status::Internal(std::string(name) + " is not a higher-order function");
  if (inputs.size() != f->inputs) {
    return Status::Binder(std::string(name) + "() takes " + Str(f->inputs) + " value argument(s) before its lambda, not " +
                          Str(inputs.size()));
  }
  if (lambda >= f->max_lambdas) {
    return Status::Binder(std::string(name) + "() takes at most " + Str(f->max_lambdas) + " lambda(s)");
  }
  const TypePtr int32 = columnar::Int32();
  switch (f->kind) {
    case Hof::kTransform:
    case Hof::kFilter:
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kList));
      RETURN_NOT_OK(ParamCount(*f, num_params, 1, 2));
      if (num_params == 1) return std::vector<TypePtr>{inputs[0]->type->element()};
      return std::vector<TypePtr>{inputs[0]->type->element(), int32};
    case Hof::kExists:
    case Hof::kForall:
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kList));
      RETURN_NOT_OK(ParamCount(*f, num_params, 1, 1));
      return std::vector<TypePtr>{inputs[0]->type->element()};
    case Hof::kAggregate:
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kList));
      if (lambda == 0) {
        RETURN_NOT_OK(ParamCount(*f, num_params, 2, 2));
        return std::vector<TypePtr>{inputs[1]->type, inputs[0]->type->element()};
      }
      RETURN_NOT_OK(ParamCount(*f, num_params, 1, 1));
      return std::vector<TypePtr>{inputs[1]->type};
    case Hof::kZipWith:
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kList));
      RETURN_NOT_OK(NeedType(*f, inputs[1], 1, TypeId::kList));
      RETURN_NOT_OK(ParamCount(*f, num_params, 2, 2));
      return std::vector<TypePtr>{inputs[0]->type->element(), inputs[1]->type->element()};
    case Hof::kMapFilter:
    case Hof::kTransformKeys:
    case Hof::kTransformValues:
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kMap));
      RETURN_NOT_OK(ParamCount(*f, num_params, 2, 2));
      return std::vector<TypePtr>{inputs[0]->type->key(), inputs[0]->type->value()};
    case Hof::kMapZipWith: {
      RETURN_NOT_OK(NeedType(*f, inputs[0], 0, TypeId::kMap));
      RETURN_NOT_OK(NeedType(*f, inputs[1], 1, TypeId::kMap));
      RETURN_NOT_OK(ParamCount(*f, num_params, 3, 3));
      const TypePtr& k0 = inputs[0]->type->key();
      const TypePtr& k1 = inputs[1]->type->key();
      if (!k0->Equals(*k1)) {
        return Status::Binder("map_zip_with() needs maps with the same key type, not " + k0->ToString() + " and " +
                              k1->ToString());
      }
      return std::vector<TypePtr>{k0, inputs[0]->type->value(), inputs[1]->type->value()};
    }
  }
  return Status::Internal("unknown higher-order function");
}

ExprPtr LambdaVariable(int slot, TypePtr type, std::string name) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLambdaVariable;
  e->type = std::move(type);
  e->column = slot;
  e->name = std::move(name);
  return e;
}

ExprPtr Lambda(ExprPtr body, int first_slot, const std::vector<std::string>& params) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLambda;
  e->type = body->type;
  e->column = first_slot;
  e->field_index = static_cast<int>(params.size());
  for (size_t i = 0; i < params.size(); ++i) e->name += (i ? ", " : "") + params[i];
  e->args.push_back(std::move(body));
  return e;
}

Result<ExprPtr> HigherOrderCall(std::string_view name, std::vector<ExprPtr> inputs, std::vector<ExprPtr> lambdas) {
  const HofInfo* f = Find(name);
  if (!f) return Status::Internal(std::string(name) + " is not a higher-order function");
  if (lambdas.size() < f->min_lambdas || lambdas.size() > f->max_lambdas) {
    return Status::Binder(std::string(name) + "() takes " + Str(f->min_lambdas) +
                          (f->max_lambdas > f->min_lambdas ? " or " + Str(f->max_lambdas) : std::string()) +
                          " lambda(s) after its value arguments, not " + Str(lambdas.size()));
  }
  // Predicates must be BOOLEAN (a NULL-typed body is a NULL BOOLEAN).
  const bool predicate = f->kind == Hof::kFilter || f->kind == Hof::kExists || f->kind == Hof::kForall ||
                         f->kind == Hof::kMapFilter;
  if (predicate) {
    const TypePtr& t = LambdaType(lambdas, 0);
    if (t->id() == TypeId::kNull) {
      auto copy = std::make_shared<Expr>(*lambdas[0]);
      ASSIGN_OR_RETURN(copy->args[0], Cast(copy->args[0], columnar::Boolean()));
      copy->type = copy->args[0]->type;
      lambdas[0] = copy;
    } else if (t->id() != TypeId::kBoolean) {
      return Status::Binder("the lambda of " + std::string(name) + "() must return BOOLEAN, not " + t->ToString());
    }
  }
  TypePtr type;
  switch (f->kind) {
    case Hof::kTransform:
    case Hof::kZipWith: type = columnar::List(LambdaType(lambdas, 0)); break;
    case Hof::kFilter: type = inputs[0]->type; break;
    case Hof::kExists:
    case Hof::kForall: type = columnar::Boolean(); break;
    case Hof::kAggregate: {
      // Spark: the merge result must have the start's type; nothing widens it.
      const TypePtr& acc = inputs[1]->type;
      const TypePtr& merged = LambdaType(lambdas, 0);
      if (!merged->Equals(*acc)) {
        return Status::Binder("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + std::string(name) +
                              "(): the merge lambda returns " + merged->ToString() + ", but the start value is " +
                              acc->ToString() + " (write the start value with the merge's type)");
      }
      type = lambdas.size() > 1 ? LambdaType(lambdas, 1) : acc;
      break;
    }
    case Hof::kMapFilter: type = inputs[0]->type; break;
    case Hof::kMapZipWith: type = columnar::Map(inputs[0]->type->key(), LambdaType(lambdas, 0)); break;
    case Hof::kTransformKeys: {
      const TypePtr& k = LambdaType(lambdas, 0);
      if (k->id() == TypeId::kNull) return Status::Binder("[NULL_MAP_KEY] transform_keys() lambda returns NULL keys");
      type = columnar::Map(k, inputs[0]->type->value());
      break;
    }
    case Hof::kTransformValues: type = columnar::Map(inputs[0]->type->key(), LambdaType(lambdas, 0)); break;
  }
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kHigherOrder;
  e->type = std::move(type);
  e->name = std::string(f->name);
  e->args = std::move(inputs);
  for (auto& l : lambdas) e->args.push_back(std::move(l));
  return ExprPtr(e);
}

// ---------------------------------------------------------------------------------------------
// Evaluation

namespace {

// Elements of the valid rows of a list (or map) vector: element k is entry elems[k] of row
// parents[k].
struct Elements {
  std::vector<uint32_t> parents;
  std::vector<uint32_t> elems;
};

Elements Flatten(const Vector& list, int64_t n) {
  Elements out;
  const int64_t* off = list.offsets();
  for (int64_t i = 0; i < n; ++i) {
    if (list.IsNull(i)) continue;
    for (int64_t j = off[i]; j < off[i + 1]; ++j) {
      out.parents.push_back(static_cast<uint32_t>(i));
      out.elems.push_back(static_cast<uint32_t>(j));
    }
  }
  return out;
}

VectorPtr Take(const Vector& v, const std::vector<uint32_t>& rows) {
  return columnar::Gather(v, rows.data(), static_cast<int64_t>(rows.size()));
}

VectorPtr TakeOrNull(const Vector& v, const std::vector<int64_t>& rows) {
  return columnar::GatherOrNull(v, rows.data(), static_cast<int64_t>(rows.size()));
}

// 0-based position of each element in its array, as INT.
VectorPtr Positions(const Vector& list, const Elements& el) {
  auto out = Vector::Make(columnar::Int32(), static_cast<int64_t>(el.elems.size()));
  for (size_t k = 0; k < el.elems.size(); ++k) {
    out->Append<int32_t>(static_cast<int32_t>(el.elems[k] - list.offsets()[el.parents[k]]));
  }
  return out;
}

// A list (or map) vector of `type` with counts[i] elements in row i (NULL where !valid[i]),
// whose elements are `child` in order.
VectorPtr ListOf(const TypePtr& type, const std::vector<int64_t>& counts, const std::vector<uint8_t>& valid,
                 VectorPtr child) {
  auto out = std::make_shared<Vector>(type);
  int64_t end = 0;
  for (int64_t c : counts) {
    end += c;
    out->values().Push<int64_t>(end);
  }
  out->children()[0] = std::move(child);
  out->SetLength(static_cast<int64_t>(counts.size()));
  if (std::find(valid.begin(), valid.end(), 0) != valid.end()) out->validity() = valid;
  return out;
}

// Map entries (STRUCT<key, value>) from key and value vectors of equal length.
VectorPtr EntriesOf(const TypePtr& map_type, VectorPtr keys, VectorPtr values) {
  auto entries = std::make_shared<Vector>(map_type->element());
  const int64_t m = keys->size();
  entries->children()[0] = std::move(keys);
  entries->children()[1] = std::move(values);
  entries->SetLength(m);
  return entries;
}

std::vector<uint8_t> Validity(const Vector& v, int64_t n) {
  std::vector<uint8_t> valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) valid[i] = v.IsValid(i) ? 1 : 0;
  return valid;
}

bool IsTrue(const Vector& b, int64_t k) { return b.id() == TypeId::kBoolean && b.IsValid(k) && b.Get<uint8_t>(k); }

size_t ParamCount(const Expr& call, size_t lambda) {
  return static_cast<size_t>(call.args[HigherOrderInputCount(call.name) + lambda]->field_index);
}

Result<VectorPtr> Transform(const Expr& call, const Vector& list, int64_t n, LambdaInvoker& invoker) {
  Elements el = Flatten(list, n);
  std::vector<VectorPtr> params = {Take(*list.child(0), el.elems)};
  if (ParamCount(call, 0) == 2) params.push_back(Positions(list, el));
  ASSIGN_OR_RETURN(VectorPtr r, invoker.Invoke(0, params, el.parents));
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  for (uint32_t p : el.parents) ++counts[p];
  return ListOf(call.type, counts, Validity(list, n), r);
}

// filter (arrays) and map_filter: keeps the entries whose lambda is TRUE.
Result<VectorPtr> Filter(const Expr& call, const Vector& list, int64_t n, bool map, LambdaInvoker& invoker) {
  Elements el = Flatten(list, n);
  std::vector<VectorPtr> params;
  if (map) {
    params = {Take(*list.child(0)->child(0), el.elems), Take(*list.child(0)->child(1), el.elems)};
  } else {
    params = {Take(*list.child(0), el.elems)};
    if (ParamCount(call, 0) == 2) params.push_back(Positions(list, el));
  }
  ASSIGN_OR_RETURN(VectorPtr r, invoker.Invoke(0, params, el.parents));
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  std::vector<uint32_t> kept;
  for (size_t k = 0; k < el.elems.size(); ++k) {
    if (!IsTrue(*r, static_cast<int64_t>(k))) continue;
    kept.push_back(el.elems[k]);
    ++counts[el.parents[k]];
  }
  return ListOf(call.type, counts, Validity(list, n), Take(*list.child(0), kept));
}

// exists: TRUE if any element is TRUE, else NULL if any is NULL, else FALSE; forall: FALSE if any
// is FALSE, else NULL if any is NULL, else TRUE. A NULL array is NULL.
Result<VectorPtr> Quantifier(const Vector& list, int64_t n, bool exists, LambdaInvoker& invoker) {
  Elements el = Flatten(list, n);
  ASSIGN_OR_RETURN(VectorPtr r, invoker.Invoke(0, {Take(*list.child(0), el.elems)}, el.parents));
  const uint8_t deciding = exists ? 1 : 0;
  std::vector<uint8_t> decided(static_cast<size_t>(n), 0), saw_null(static_cast<size_t>(n), 0);
  for (size_t k = 0; k < el.elems.size(); ++k) {
    const uint32_t p = el.parents[k];
    if (r->id() == TypeId::kNull || r->IsNull(static_cast<int64_t>(k))) saw_null[p] = 1;
    else if (r->Get<uint8_t>(static_cast<int64_t>(k)) == deciding) decided[p] = 1;
  }
  auto out = Vector::Make(columnar::Boolean(), n);
  for (int64_t i = 0; i < n; ++i) {
    if (list.IsNull(i) || (!decided[i] && saw_null[i])) out->AppendNull();
    else out->Append<uint8_t>(decided[i] ? deciding : static_cast<uint8_t>(1 - deciding));
  }
  return out;
}

// aggregate(array, start, merge[, finish]): merge runs once per element position over the rows
// whose arrays are that long, so the accumulator of each row sees its elements in order. Rows
// are kept longest first, so the rows still merging are a prefix and each step costs only them.
Result<VectorPtr> Aggregate(const Expr& call, const Vector& list, const VectorPtr& start, int64_t n,
                            LambdaInvoker& invoker) {
  const int64_t* off = list.offsets();
  auto length = [&](uint32_t i) { return off[i + 1] - off[i]; };
  std::vector<uint32_t> order;  // rows with a non-NULL array, longest first
  for (int64_t i = 0; i < n; ++i) {
    if (!list.IsNull(i)) order.push_back(static_cast<uint32_t>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return length(a) > length(b); });
  VectorPtr acc = Take(*start, order);  // acc row k belongs to order[k] while k < active
  std::vector<VectorPtr> done;          // final accumulators of finished suffixes of `order`
  size_t active = order.size();
  for (int64_t pos = 0;; ++pos) {
    size_t still = active;
    while (still > 0 && length(order[still - 1]) <= pos) --still;
    if (still < active) {
      done.push_back(acc->Slice(static_cast<int64_t>(still), static_cast<int64_t>(active - still)));
      acc = acc->Slice(0, static_cast<int64_t>(still));
      active = still;
    }
    if (active == 0) break;
    std::vector<uint32_t> rows(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(active));
    std::vector<uint32_t> elems(active);
    for (size_t k = 0; k < active; ++k) elems[k] = static_cast<uint32_t>(off[rows[k]] + pos);
    ASSIGN_OR_RETURN(VectorPtr merged, invoker.Invoke(0, {acc, Take(*list.child(0), elems)}, rows));
    if (!merged->type()->Equals(*acc->type())) {
      ASSIGN_OR_RETURN(merged, CastVector(merged, acc->type()));
    }
    acc = merged;
  }
  // The finished suffixes, last first, line up with `order` again.
  std::reverse(done.begin(), done.end());
  VectorPtr result = done.empty() ? acc : done.size() == 1 ? done[0] : columnar::Concat(done);
  if (call.args.size() > 3) {
    ASSIGN_OR_RETURN(result, invoker.Invoke(1, {result}, order));
  }
  if (result->id() == TypeId::kNull) return Vector::MakeNull(call.type, n);
  if (!result->type()->Equals(*call.type)) {
    ASSIGN_OR_RETURN(result, CastVector(result, call.type));
  }
  std::vector<int64_t> back(static_cast<size_t>(n), -1);
  for (size_t k = 0; k < order.size(); ++k) back[order[k]] = static_cast<int64_t>(k);
  return TakeOrNull(*result, back);
}

// zip_with: the shorter array is padded with NULLs.
Result<VectorPtr> ZipWith(const Expr& call, const Vector& a, const Vector& b, int64_t n, LambdaInvoker& invoker) {
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  std::vector<uint8_t> valid(static_cast<size_t>(n), 0);
  std::vector<uint32_t> parents;
  std::vector<int64_t> xa, xb;
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) continue;
    valid[i] = 1;
    const int64_t la = a.offsets()[i + 1] - a.offsets()[i];
    const int64_t lb = b.offsets()[i + 1] - b.offsets()[i];
    counts[i] = std::max(la, lb);
    for (int64_t k = 0; k < counts[i]; ++k) {
      parents.push_back(static_cast<uint32_t>(i));
      xa.push_back(k < la ? a.offsets()[i] + k : -1);
      xb.push_back(k < lb ? b.offsets()[i] + k : -1);
    }
  }
  ASSIGN_OR_RETURN(VectorPtr r,
                   invoker.Invoke(0, {TakeOrNull(*a.child(0), xa), TakeOrNull(*b.child(0), xb)}, parents));
  return ListOf(call.type, counts, valid, r);
}

// transform_keys / transform_values: one lambda over (key, value); new keys must be non-NULL and
// distinct within a map.
Result<VectorPtr> TransformMap(const Expr& call, const Vector& map, int64_t n, bool keys, LambdaInvoker& invoker) {
  Elements el = Flatten(map, n);
  VectorPtr k = Take(*map.child(0)->child(0), el.elems);
  VectorPtr v = Take(*map.child(0)->child(1), el.elems);
  ASSIGN_OR_RETURN(VectorPtr r, invoker.Invoke(0, {k, v}, el.parents));
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  for (uint32_t p : el.parents) ++counts[p];
  if (keys) {
    int64_t begin = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t x = begin; x < begin + counts[i]; ++x) {
        if (r->IsNull(x)) return Status::InvalidArgument("[NULL_MAP_KEY] Cannot use null as map key");
        for (int64_t y = begin; y < x; ++y) {
          if (CompareRows(*r, y, *r, x) == 0) {
            return Status::InvalidArgument("[DUPLICATED_MAP_KEY] Duplicate map key " + Value::FromVector(*r, x).ToString() +
                                           " was found");
          }
        }
      }
      begin += counts[i];
    }
  }
  VectorPtr entries = keys ? EntriesOf(call.type, r, v) : EntriesOf(call.type, k, r);
  return ListOf(call.type, counts, Validity(map, n), entries);
}

// map_zip_with: the keys of the first map in order, then the second's keys the first lacks; a
// key missing from one map has a NULL value there.
Result<VectorPtr> MapZipWith(const Expr& call, const Vector& a, const Vector& b, int64_t n, LambdaInvoker& invoker) {
  const Vector& ka = *a.child(0)->child(0);
  const Vector& kb = *b.child(0)->child(0);
  const int64_t a_total = ka.size();
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  std::vector<uint8_t> valid(static_cast<size_t>(n), 0);
  std::vector<uint32_t> parents;
  std::vector<int64_t> key_rows, ia, ib;  // key_rows index the concatenation of ka and kb
  for (int64_t i = 0; i < n; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) continue;
    valid[i] = 1;
    const size_t row_start = parents.size();
    const int64_t a0 = a.offsets()[i], a1 = a.offsets()[i + 1];
    const int64_t b0 = b.offsets()[i], b1 = b.offsets()[i + 1];
    std::vector<uint8_t> matched(static_cast<size_t>(b1 - b0), 0);
    for (int64_t x = a0; x < a1; ++x) {
      int64_t hit = -1;
      for (int64_t y = b0; y < b1 && hit < 0; ++y) {
        if (CompareRows(ka, x, kb, y) == 0) hit = y;
      }
      if (hit >= 0) matched[hit - b0] = 1;
      parents.push_back(static_cast<uint32_t>(i));
      key_rows.push_back(x);
      ia.push_back(x);
      ib.push_back(hit);
    }
    for (int64_t y = b0; y < b1; ++y) {
      if (matched[y - b0]) continue;
      parents.push_back(static_cast<uint32_t>(i));
      key_rows.push_back(a_total + y);
      ia.push_back(-1);
      ib.push_back(y);
    }
    counts[i] = static_cast<int64_t>(parents.size() - row_start);
  }
  VectorPtr keys = TakeOrNull(*columnar::Concat({a.child(0)->child(0), b.child(0)->child(0)}), key_rows);
  ASSIGN_OR_RETURN(VectorPtr r, invoker.Invoke(0, {keys, TakeOrNull(*a.child(0)->child(1), ia),
                                                   TakeOrNull(*b.child(0)->child(1), ib)},
                                               parents));
  return ListOf(call.type, counts, valid, EntriesOf(call.type, keys, r));
}

}  // namespace

Result<VectorPtr> EvaluateHigherOrder(const Expr& call, const std::vector<VectorPtr>& inputs, int64_t n,
                                      LambdaInvoker& invoker) {
  const HofInfo* f = Find(call.name);
  if (!f || inputs.size() != f->inputs) return Status::Internal("malformed higher-order call " + call.ToString());
  for (const VectorPtr& in : inputs) {
    if (in->id() == TypeId::kNull) return Vector::MakeNull(call.type, n);
  }
  const Vector& first = *inputs[0];
  switch (f->kind) {
    case Hof::kTransform: return Transform(call, first, n, invoker);
    case Hof::kFilter: return Filter(call, first, n, false, invoker);
    case Hof::kMapFilter: return Filter(call, first, n, true, invoker);
    case Hof::kExists: return Quantifier(first, n, true, invoker);
    case Hof::kForall: return Quantifier(first, n, false, invoker);
    case Hof::kAggregate: return Aggregate(call, first, inputs[1], n, invoker);
    case Hof::kZipWith: return ZipWith(call, first, *inputs[1], n, invoker);
    case Hof::kMapZipWith: return MapZipWith(call, first, *inputs[1], n, invoker);
    case Hof::kTransformKeys: return TransformMap(call, first, n, true, invoker);
    case Hof::kTransformValues: return TransformMap(call, first, n, false, invoker);
  }
  return Status::Internal("unknown higher-order function");
}

}  // namespace shoal::expr
