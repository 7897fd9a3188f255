#include "expr/evaluate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <type_traits>
#include <unordered_set>

#include "expr/cast.h"
#include "expr/comparison.h"
#include "expr/function_registry.h"
#include "expr/higher_order.h"
#include "expr/in_list_set.h"
#include "expr/like.h"
#include "expr/physical_type.h"

namespace shoal::expr {

using columnar::RecordBatch;
using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

EvalContext::EvalContext()
    : statement_timestamp(std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count()) {}

namespace {

// IN lists at least this long (all constants) are probed through a hash set.
constexpr size_t kInHashThreshold = 8;

// A vector of n rows, or one row standing for all (constant).
struct Datum {
  VectorPtr vec;
  bool constant = false;

  int64_t Row(int64_t i) const { return constant ? 0 : i; }
};

// Positions (0..n-1, ascending) relative to the rows being evaluated.
using Positions = std::vector<uint32_t>;

class Evaluator {
 public:
  Evaluator(const RecordBatch& batch, EvalContext& ctx)
      : batch_(batch), ctx_(ctx), has_coded_(columnar::HasCodedColumns(batch)) {}

  // Evaluates `e` on the rows `sel` (absolute batch rows; null means 0..n-1).
  Result<Datum> Eval(const Expr& e, const uint32_t* sel, int64_t n);
  // Appends to *out the absolute rows among `sel`/n where `e` is TRUE (ascending).
  Status Filter(const Expr& e, const uint32_t* sel, int64_t n, std::vector<uint32_t>* out);
  // The column `e` reads when that is one dictionary-coded column and no other, else -1.
  int SoleCodedColumn(const Expr& e) const;
  // `e` evaluated once per entry of coded column c's dictionary (ctx's cache); null when that
  // fails or when the dictionary is much larger than the `rows` it would serve.
  EvalContext::CodedResult* DictionaryValues(const Expr& e, int c, int64_t rows);
  // Row values from a dictionary result: coded over `r` when `keep_coded` and `r` is a string.
  static VectorPtr ExpandCoded(const Vector& col, const VectorPtr& r, bool keep_coded);

 private:
  Result<Datum> EvalFunction(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalLogical(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalCase(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalCoalesce(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalIn(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalInSet(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalDistinct(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalLike(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalFieldAccess(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalLambdaVariable(const Expr& e, const uint32_t* sel, int64_t n);
  Result<Datum> EvalHigherOrder(const Expr& e, const uint32_t* sel, int64_t n);

  // Absolute rows for relative positions.
  static std::vector<uint32_t> Absolute(const uint32_t* sel, const Positions& pos) {
    std::vector<uint32_t> out(pos.size());
    for (size_t k = 0; k < pos.size(); ++k) out[k] = sel ? sel[pos[k]] : pos[k];
    return out;
  }
  // Evaluates `e` on the subset `pos` of the current rows.
  Result<Datum> EvalOn(const Expr& e, const uint32_t* sel, int64_t n, const Positions& pos) {
    if (static_cast<int64_t>(pos.size()) == n) return Eval(e, sel, n);
    std::vector<uint32_t> abs = Absolute(sel, pos);
    return Eval(e, abs.data(), static_cast<int64_t>(abs.size()));
  }
  // Builds n rows of `type` from pieces: piece p supplies rows pos[p] (its k-th row goes to
  // pos[p][k]); rows no piece covers are NULL.
  Result<VectorPtr> Scatter(const columnar::TypePtr& type, std::vector<Datum>& pieces,
                            const std::vector<Positions>& pos, int64_t n);

  const RecordBatch& batch_;
  EvalContext& ctx_;
  const bool has_coded_;  // some column is dictionary-coded (else no expression walk is needed)
};

Result<VectorPtr> Evaluator::Scatter(const columnar::TypePtr& type, std::vector<Datum>& pieces,
                                     const std::vector<Positions>& pos, int64_t n) {
  if (pieces.size() == 1 && static_cast<int64_t>(pos[0].size()) == n && !pieces[0].constant) {
    return pieces[0].vec;
  }
  std::vector<VectorPtr> parts;
  std::vector<int64_t> index(n, -1);
  int64_t base = 0;
  for (size_t p = 0; p < pieces.size(); ++p) {
    VectorPtr v = pieces[p].vec;
    if (!v->type()->Equals(*type)) {
      ASSIGN_OR_RETURN(v, CastVector(v, type));
    }
    for (size_t k = 0; k < pos[p].size(); ++k) {
      index[pos[p][k]] = base + (pieces[p].constant ? 0 : static_cast<int64_t>(k));
    }
    base += v->size();
    parts.push_back(std::move(v));
  }
  if (parts.empty()) return Vector::MakeNull(type, n);
  VectorPtr all = parts.size() == 1 ? parts[0] : columnar::Concat(parts);
  return columnar::GatherOrNull(*all, index.data(), n);
}

Result<Datum> Evaluator::Eval(const Expr& e, const uint32_t* sel, int64_t n) {
  switch (e.kind) {
    case ExprKind::kColumnRef: {
      if (e.column < 0 || e.column >= static_cast<int>(batch_.columns.size())) {
        return Status::Internal("column #" + std::to_string(e.column) + " (" + e.name +
                                ") is outside the batch of " + std::to_string(batch_.columns.size()) +
                                " columns");
      }
      const VectorPtr& col = batch_.columns[e.column];
      if (col->IsDictionary()) return Datum{columnar::Decode(sel ? columnar::Gather(*col, sel, n) : col), false};
      if (!sel) return Datum{col, false};
      return Datum{columnar::Gather(*col, sel, n), false};
    }
    case ExprKind::kLiteral: {
      auto v = Vector::Make(e.value.type(), 1);
      e.value.AppendTo(v.get());
      return Datum{v, true};
    }
    case ExprKind::kFunction: return EvalFunction(e, sel, n);
    case ExprKind::kCast: {
      ASSIGN_OR_RETURN(Datum d, Eval(*e.args[0], sel, n));
      ASSIGN_OR_RETURN(VectorPtr v, CastVector(d.vec, e.type, e.try_cast, e.zone));
      return Datum{v, d.constant};
    }
    case ExprKind::kCase: return EvalCase(e, sel, n);
    case ExprKind::kAnd:
    case ExprKind::kOr: return EvalLogical(e, sel, n);
    case ExprKind::kNot: {
      ASSIGN_OR_RETURN(Datum d, Eval(*e.args[0], sel, n));
      int64_t m = d.constant ? 1 : n;
      auto out = Vector::Make(columnar::Boolean(), m);
      out->Resize(m);
      if (d.vec->id() == TypeId::kNull) return Datum{Vector::MakeNull(columnar::Boolean(), m), d.constant};
      const uint8_t* src = d.vec->data<uint8_t>();
      uint8_t* dst = out->data<uint8_t>();
      for (int64_t i = 0; i < m; ++i) dst[i] = src[i] ? 0 : 1;
      out->validity() = d.vec->validity();
      return Datum{out, d.constant};
    }
    case ExprKind::kIsNull: {
      ASSIGN_OR_RETURN(Datum d, Eval(*e.args[0], sel, n));
      int64_t m = d.constant ? 1 : n;
      auto out = Vector::Make(columnar::Boolean(), m);
      out->Resize(m);
      uint8_t* dst = out->data<uint8_t>();
      for (int64_t i = 0; i < m; ++i) dst[i] = d.vec->IsNull(i) != e.negated ? 1 : 0;
      return Datum{out, d.constant};
    }
    case ExprKind::kIsDistinctFrom: return EvalDistinct(e, sel, n);
    case ExprKind::kIn: return EvalIn(e, sel, n);
    case ExprKind::kInSet: return EvalInSet(e, sel, n);
    case ExprKind::kLike: return EvalLike(e, sel, n);
    case ExprKind::kCoalesce: return EvalCoalesce(e, sel, n);
    case ExprKind::kFieldAccess: return EvalFieldAccess(e, sel, n);
    case ExprKind::kHigherOrder: return EvalHigherOrder(e, sel, n);
    case ExprKind::kLambdaVariable: return EvalLambdaVariable(e, sel, n);
    case ExprKind::kLambda: return Status::Internal("a lambda evaluated outside its higher-order function");
  }
  return Status::Internal("unknown expression kind");
}

Result<Datum> Evaluator::EvalFunction(const Expr& e, const uint32_t* sel, int64_t n) {
  std::vector<Datum> args;
  args.reserve(e.args.size());
  bool all_constant = true;
  for (const auto& a : e.args) {
    ASSIGN_OR_RETURN(Datum d, Eval(*a, sel, n));
    all_constant &= d.constant;
    if (e.propagates_nulls && (d.vec->id() == TypeId::kNull || (d.constant && d.vec->IsNull(0)))) {
      return Datum{Vector::MakeNull(e.type, 1), true};
    }
    args.push_back(std::move(d));
  }
  std::vector<KernelArg> kargs(args.size());
  for (size_t i = 0; i < args.size(); ++i) kargs[i] = {args[i].vec.get(), args[i].constant};
  KernelCall call;
  call.args = kargs.data();
  call.num_args = kargs.size();
  call.n = all_constant ? 1 : n;
  call.result_type = e.type;
  call.ctx = &ctx_;
  call.name = e.name;
  call.zone = e.zone;
  VectorPtr out;
  RETURN_NOT_OK(e.kernel(call, &out));
  return Datum{out, all_constant};
}

Result<Datum> Evaluator::EvalLogical(const Expr& e, const uint32_t* sel, int64_t n) {
  // AND: a FALSE decides a row; OR: a TRUE does. Later args run only on undecided rows.
  const bool is_and = e.kind == ExprKind::kAnd;
  const uint8_t deciding = is_and ? 0 : 1;
  auto out = Vector::Make(columnar::Boolean(), n);
  out->Resize(n);
  uint8_t* value = out->data<uint8_t>();
  std::fill(value, value + n, static_cast<uint8_t>(1 - deciding));
  std::vector<uint8_t> saw_null(n, 0);
  Positions undecided(n);
  std::iota(undecided.begin(), undecided.end(), 0u);
  for (const auto& arg : e.args) {
    if (undecided.empty()) break;
    ASSIGN_OR_RETURN(Datum d, EvalOn(*arg, sel, n, undecided));
    const Vector& v = *d.vec;
    const bool null_type = v.id() == TypeId::kNull;
    Positions still;
    still.reserve(undecided.size());
    for (size_t k = 0; k < undecided.size(); ++k) {
      uint32_t p = undecided[k];
      int64_t r = d.Row(static_cast<int64_t>(k));
      if (null_type || v.IsNull(r)) {
        saw_null[p] = 1;
        still.push_back(p);
      } else if (v.Get<uint8_t>(r) == deciding) {
        value[p] = deciding;
      } else {
        still.push_back(p);
      }
    }
    undecided.swap(still);
  }
  bool any_null = false;
  for (uint32_t p : undecided) any_null |= saw_null[p] != 0;
  if (any_null) {
    uint8_t* valid = out->MutableValidity();
    for (uint32_t p : undecided) {
      if (saw_null[p]) valid[p] = 0;
    }
  }
  return Datum{out, false};
}

Result<Datum> Evaluator::EvalCase(const Expr& e, const uint32_t* sel, int64_t n) {
  size_t pairs = (e.args.size() - (e.has_else ? 1 : 0)) / 2;
  Positions remaining(n);
  std::iota(remaining.begin(), remaining.end(), 0u);
  std::vector<Datum> pieces;
  std::vector<Positions> pos;
  for (size_t w = 0; w < pairs && !remaining.empty(); ++w) {
    ASSIGN_OR_RETURN(Datum cond, EvalOn(*e.args[2 * w], sel, n, remaining));
    Positions taken, rest;
    const Vector& c = *cond.vec;
    const bool null_type = c.id() == TypeId::kNull;
    for (size_t k = 0; k < remaining.size(); ++k) {
      int64_t r = cond.Row(static_cast<int64_t>(k));
      if (!null_type && c.IsValid(r) && c.Get<uint8_t>(r)) taken.push_back(remaining[k]);
      else rest.push_back(remaining[k]);
    }
    if (!taken.empty()) {
      ASSIGN_OR_RETURN(Datum then, EvalOn(*e.args[2 * w + 1], sel, n, taken));
      pieces.push_back(std::move(then));
      pos.push_back(std::move(taken));
    }
    remaining.swap(rest);
  }
  if (e.has_else && !remaining.empty()) {
    ASSIGN_OR_RETURN(Datum d, EvalOn(*e.args.back(), sel, n, remaining));
    pieces.push_back(std::move(d));
    pos.push_back(std::move(remaining));
  }
  ASSIGN_OR_RETURN(VectorPtr v, Scatter(e.type, pieces, pos, n));
  return Datum{v, false};
}

Result<Datum> Evaluator::EvalCoalesce(const Expr& e, const uint32_t* sel, int64_t n) {
  Positions remaining(n);
  std::iota(remaining.begin(), remaining.end(), 0u);
  std::vector<Datum> pieces;
  std::vector<Positions> pos;
  for (const auto& arg : e.args) {
    if (remaining.empty()) break;
    ASSIGN_OR_RETURN(Datum d, EvalOn(*arg, sel, n, remaining));
    Positions taken, rest;
    std::vector<uint32_t> rows;  // rows of d that are taken
    const bool null_type = d.vec->id() == TypeId::kNull;
    for (size_t k = 0; k < remaining.size(); ++k) {
      int64_t r = d.Row(static_cast<int64_t>(k));
      if (!null_type && d.vec->IsValid(r)) {
        taken.push_back(remaining[k]);
        rows.push_back(static_cast<uint32_t>(r));
      } else {
        rest.push_back(remaining[k]);
      }
    }
    if (!taken.empty()) {
      if (d.constant || taken.size() == remaining.size()) {
        pieces.push_back(std::move(d));
      } else {
        pieces.push_back(Datum{columnar::Gather(*d.vec, rows.data(), static_cast<int64_t>(rows.size())), false});
      }
      pos.push_back(std::move(taken));
    }
    remaining.swap(rest);
  }
  ASSIGN_OR_RETURN(VectorPtr v, Scatter(e.type, pieces, pos, n));
  return Datum{v, false};
}

// IN against a hashed list: one probe per row. NULL for a NULL needle, and for a needle not
// found when the list holds a NULL.
Datum ProbeInSet(const Expr& e, const Vector& v, const InListSet& set, int64_t n) {
  auto out = Vector::Make(columnar::Boolean(), n);
  out->Resize(n);
  uint8_t* value = out->data<uint8_t>();
  uint8_t* valid = nullptr;
  auto finish = [&](int64_t i, bool found) {
    if (v.IsNull(i) || (!found && set.has_null)) {
      if (!valid) valid = out->MutableValidity();
      valid[i] = 0;
      value[i] = 0;
    } else {
      value[i] = found != e.negated ? 1 : 0;
    }
  };
  if (set.strings) {
    for (int64_t i = 0; i < n; ++i) finish(i, !v.IsNull(i) && set.string_set.count(v.GetString(i)) > 0);
    return Datum{out, false};
  }
  DispatchFixed(
      *v.type(),
      [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, int128_t>) {
          const T* x = v.data<T>();
          for (int64_t i = 0; i < n; ++i) finish(i, set.keys.Contains(InKey(x[i])));
        }
      },
      [] {});
  return Datum{out, false};
}

// IN against a short list of constant strings: compare lengths, then bytes, against each.
Datum InShortStrings(const Expr& e, const Vector& v, const std::vector<Datum>& items, int64_t n) {
  bool has_null = false;
  std::vector<std::string_view> list;
  for (const Datum& d : items) {
    if (d.vec->IsNull(0)) {
      has_null = true;
    } else {
      list.push_back(d.vec->GetString(0));
    }
  }
  auto out = Vector::Make(columnar::Boolean(), n);
  out->Resize(n);
  uint8_t* value = out->data<uint8_t>();
  uint8_t* valid = nullptr;
  const int64_t* off = v.offsets();
  const char* chars = reinterpret_cast<const char*>(v.bytes().data());
  for (int64_t i = 0; i < n; ++i) {
    bool found = false;
    if (!v.IsNull(i)) {
      const size_t len = static_cast<size_t>(off[i + 1] - off[i]);
      for (const std::string_view& k : list) {
        if (k.size() == len && (len == 0 || std::memcmp(chars + off[i], k.data(), len) == 0)) {
          found = true;
          break;
        }
      }
    }
    if (v.IsNull(i) || (!found && has_null)) {
      if (!valid) valid = out->MutableValidity();
      valid[i] = 0;
      value[i] = 0;
    } else {
      value[i] = found != e.negated ? 1 : 0;
    }
  }
  return Datum{out, false};
}

// IN against a list of constants that are not all literals (the cached set needs literals):
// hashed per call. Returns nullopt when the type has no fast path (the caller falls back to
// pairwise equality).
std::optional<Datum> InHashed(const Expr& e, const Datum& needle, const std::vector<Datum>& items, int64_t n) {
  for (const Datum& d : items) {
    if (!d.constant || d.vec->id() == TypeId::kNull) return std::nullopt;
  }
  const Vector& v = *needle.vec;
  if (v.id() == TypeId::kNull) return std::nullopt;
  if (v.type()->IsStringLike() && items.size() < kInHashThreshold) return InShortStrings(e, v, items, n);
  std::vector<const Vector*> values;
  for (const Datum& d : items) values.push_back(d.vec.get());
  std::shared_ptr<InListSet> set = MakeInListSet(*v.type(), values);
  if (!set) return std::nullopt;
  return ProbeInSet(e, v, *set, n);
}

Result<Datum> Evaluator::EvalIn(const Expr& e, const uint32_t* sel, int64_t n) {
  // needle IN (a, b, ...) = needle = a OR needle = b OR ...; then NOT for NOT IN.
  ASSIGN_OR_RETURN(Datum needle, Eval(*e.args[0], sel, n));
  if (!needle.constant && e.in_list && e.args.size() > kInHashThreshold && needle.vec->id() != TypeId::kNull) {
    if (auto set = e.in_list->Get(e)) return ProbeInSet(e, *needle.vec, *set, n);
  }
  std::vector<Datum> items;
  bool all_constant = needle.constant;
  for (size_t i = 1; i < e.args.size(); ++i) {
    ASSIGN_OR_RETURN(Datum item, Eval(*e.args[i], sel, n));
    all_constant &= item.constant;
    items.push_back(std::move(item));
  }
  if (!all_constant && (items.size() >= kInHashThreshold || needle.vec->type()->IsStringLike())) {
    std::optional<Datum> fast = InHashed(e, needle, items, n);
    if (fast) return std::move(*fast);
  }
  int64_t m = all_constant ? 1 : n;
  auto out = Vector::Make(columnar::Boolean(), m);
  out->Resize(m);
  uint8_t* value = out->data<uint8_t>();
  std::fill(value, value + m, uint8_t{0});
  std::vector<uint8_t> saw_null(m, 0);
  ScalarKernel eq = ComparisonKernel(CompareOp::kEq);
  for (const Datum& item : items) {
    KernelArg ka[2] = {{needle.vec.get(), needle.constant}, {item.vec.get(), item.constant}};
    KernelCall call;
    call.args = ka;
    call.num_args = 2;
    call.n = m;
    call.result_type = columnar::Boolean();
    call.ctx = &ctx_;
    VectorPtr r;
    if (needle.vec->id() == TypeId::kNull || item.vec->id() == TypeId::kNull) {
      r = Vector::MakeNull(columnar::Boolean(), m);
    } else {
      RETURN_NOT_OK(eq(call, &r));
    }
    for (int64_t k = 0; k < m; ++k) {
      if (r->IsNull(k)) saw_null[k] = 1;
      else if (r->Get<uint8_t>(k)) value[k] = 1;
    }
  }
  bool any = false;
  for (int64_t k = 0; k < m; ++k) any |= (saw_null[k] && !value[k]);
  if (any) {
    uint8_t* valid = out->MutableValidity();
    for (int64_t k = 0; k < m; ++k) {
      if (saw_null[k] && !value[k]) valid[k] = 0;
    }
  }
  if (e.negated) {
    for (int64_t k = 0; k < m; ++k) value[k] ^= 1;
  }
  return Datum{out, all_constant};
}

Result<Datum> Evaluator::EvalInSet(const Expr& e, const uint32_t* sel, int64_t n) {
  ASSIGN_OR_RETURN(Datum needle, Eval(*e.args[0], sel, n));
  if (needle.vec->id() == TypeId::kNull) return Datum{Vector::MakeNull(columnar::Boolean(), 1), true};
  const int64_t m = needle.constant ? 1 : n;
  return Datum{ProbeInSet(e, *needle.vec, *e.in_set, m).vec, needle.constant};
}

Result<Datum> Evaluator::EvalDistinct(const Expr& e, const uint32_t* sel, int64_t n) {
  ASSIGN_OR_RETURN(Datum a, Eval(*e.args[0], sel, n));
  ASSIGN_OR_RETURN(Datum b, Eval(*e.args[1], sel, n));
  const bool constant = a.constant && b.constant;
  const int64_t m = constant ? 1 : n;
  auto out = Vector::Make(columnar::Boolean(), m);
  out->Resize(m);
  uint8_t* value = out->data<uint8_t>();
  const bool null_type = a.vec->id() == TypeId::kNull || b.vec->id() == TypeId::kNull;
  VectorPtr eq;
  if (!null_type) {
    KernelArg ka[2] = {{a.vec.get(), a.constant}, {b.vec.get(), b.constant}};
    KernelCall call;
    call.args = ka;
    call.num_args = 2;
    call.n = m;
    call.result_type = columnar::Boolean();
    call.ctx = &ctx_;
    RETURN_NOT_OK(ComparisonKernel(CompareOp::kEq)(call, &eq));
  }
  for (int64_t k = 0; k < m; ++k) {
    bool an = a.vec->id() == TypeId::kNull || a.vec->IsNull(a.Row(k));
    bool bn = b.vec->id() == TypeId::kNull || b.vec->IsNull(b.Row(k));
    bool distinct = (an || bn) ? an != bn : eq->Get<uint8_t>(k) == 0;
    value[k] = distinct != e.negated ? 1 : 0;
  }
  return Datum{out, constant};
}

Result<Datum> Evaluator::EvalLike(const Expr& e, const uint32_t* sel, int64_t n) {
  ASSIGN_OR_RETURN(Datum text, Eval(*e.args[0], sel, n));
  ASSIGN_OR_RETURN(Datum pattern, Eval(*e.args[1], sel, n));
  Datum escape;
  if (e.args.size() > 2) {
    ASSIGN_OR_RETURN(escape, Eval(*e.args[2], sel, n));
  }
  const bool constant = text.constant && pattern.constant && (!escape.vec || escape.constant);
  const int64_t m = constant ? 1 : n;
  auto out = Vector::Make(columnar::Boolean(), m);
  out->Resize(m);
  uint8_t* value = out->data<uint8_t>();
  auto is_null = [](const Datum& d, int64_t k) {
    return d.vec->id() == TypeId::kNull || d.vec->IsNull(d.Row(k));
  };
  std::optional<LikeMatcher> matcher;
  std::string cached_pattern, cached_escape;
  uint8_t* valid = nullptr;
  for (int64_t k = 0; k < m; ++k) {
    if (is_null(text, k) || is_null(pattern, k) || (escape.vec && is_null(escape, k))) {
      if (!valid) valid = out->MutableValidity();
      valid[k] = 0;
      value[k] = 0;
      continue;
    }
    std::string_view p = pattern.vec->GetString(pattern.Row(k));
    std::string_view x = escape.vec ? escape.vec->GetString(escape.Row(k)) : std::string_view();
    if (!matcher || p != cached_pattern || x != cached_escape) {
      ASSIGN_OR_RETURN(LikeMatcher lm, LikeMatcher::Compile(p, x, e.case_insensitive));
      matcher = std::move(lm);
      cached_pattern.assign(p);
      cached_escape.assign(x);
    }
    value[k] = matcher->Matches(text.vec->GetString(text.Row(k))) != e.negated ? 1 : 0;
  }
  return Datum{out, constant};
}

Result<Datum> Evaluator::EvalFieldAccess(const Expr& e, const uint32_t* sel, int64_t n) {
  ASSIGN_OR_RETURN(Datum s, Eval(*e.args[0], sel, n));
  if (s.vec->id() == TypeId::kNull) return Datum{Vector::MakeNull(e.type, s.constant ? 1 : n), s.constant};
  VectorPtr field = s.vec->child(static_cast<size_t>(e.field_index));
  if (s.vec->MayHaveNulls()) {
    auto copy = field->Slice(0, field->size());
    uint8_t* valid = copy->MutableValidity();
    for (int64_t i = 0; i < copy->size(); ++i) {
      if (s.vec->IsNull(i)) valid[i] = 0;
    }
    field = copy;
  }
  return Datum{field, s.constant};
}

Result<Datum> Evaluator::EvalLambdaVariable(const Expr& e, const uint32_t* sel, int64_t n) {
  const int64_t c = static_cast<int64_t>(ctx_.lambda_column0) + e.column;
  if (ctx_.lambda_column0 < 0 || c >= static_cast<int64_t>(batch_.columns.size()) || !batch_.columns[c]) {
    return Status::Internal("lambda variable " + e.name + " evaluated outside its lambda");
  }
  const VectorPtr& col = batch_.columns[c];
  if (!sel) return Datum{col, false};
  return Datum{columnar::Gather(*col, sel, n), false};
}

namespace {

// Evaluates lambda bodies over element batches: the batch's columns a body reads and the
// enclosing lambdas' parameters, repeated per element, then this lambda's parameters.
class BodyInvoker : public LambdaInvoker {
 public:
  BodyInvoker(const Expr& call, const RecordBatch& batch, const uint32_t* sel, EvalContext& ctx)
      : call_(call), batch_(batch), sel_(sel), ctx_(ctx) {}

  Result<VectorPtr> Invoke(size_t lambda, const std::vector<VectorPtr>& params,
                           const std::vector<uint32_t>& parents) override {
    const Expr& lam = *call_.args[HigherOrderInputCount(call_.name) + lambda];
    const Expr& body = *lam.args[0];
    const int64_t m = static_cast<int64_t>(parents.size());
    const int width = ctx_.lambda_column0 >= 0 ? ctx_.lambda_column0 : static_cast<int>(batch_.columns.size());
    std::vector<uint32_t> rows(parents.size());
    for (size_t k = 0; k < parents.size(); ++k) rows[k] = sel_ ? sel_[parents[k]] : parents[k];
    RecordBatch child;
    child.schema = batch_.schema;
    child.num_rows = m;
    child.columns.assign(static_cast<size_t>(width + lam.column) + params.size(), nullptr);
    auto repeat = [&](int c) -> Status {
      if (c < 0 || c >= static_cast<int>(batch_.columns.size()) || !batch_.columns[c]) {
        return Status::Internal("lambda body of " + call_.name + " reads column #" + std::to_string(c) +
                                " outside its batch");
      }
      if (!child.columns[c]) child.columns[c] = columnar::Decode(columnar::Gather(*batch_.columns[c], rows.data(), m));
      return Status::OK();
    };
    for (int c : CollectColumns(body)) {
      if (c >= width) return Status::Internal("column #" + std::to_string(c) + " collides with lambda slots");
      RETURN_NOT_OK(repeat(c));
    }
    Status st;
    Visit(body, [&](const Expr& x) {
      if (st.ok() && x.kind == ExprKind::kLambdaVariable && x.column < lam.column) st = repeat(width + x.column);
    });
    RETURN_NOT_OK(st);
    for (size_t p = 0; p < params.size(); ++p) child.columns[width + lam.column + p] = params[p];
    const int saved = ctx_.lambda_column0;
    ctx_.lambda_column0 = width;
    Evaluator ev(child, ctx_);
    Result<Datum> d = ev.Eval(body, nullptr, m);
    ctx_.lambda_column0 = saved;
    if (!d.ok()) return d.status();
    if (!d->constant) return d->vec;
    std::vector<int64_t> zeros(static_cast<size_t>(m), 0);
    return columnar::GatherOrNull(*d->vec, zeros.data(), m);
  }

 private:
  const Expr& call_;
  const RecordBatch& batch_;
  const uint32_t* sel_;
  EvalContext& ctx_;
};

// Whether a call reads only its inputs: no column and no enclosing lambda's parameter.
bool SelfContained(const Expr& call) {
  const size_t inputs = HigherOrderInputCount(call.name);
  if (inputs >= call.args.size()) return false;
  const int first_slot = call.args[inputs]->column;
  bool self = true;
  Visit(call, [&](const Expr& x) {
    self = self && x.kind != ExprKind::kColumnRef && !(x.kind == ExprKind::kLambdaVariable && x.column < first_slot);
  });
  return self;
}

}  // namespace

Result<Datum> Evaluator::EvalHigherOrder(const Expr& e, const uint32_t* sel, int64_t n) {
  const size_t num_inputs = HigherOrderInputCount(e.name);
  std::vector<Datum> datums;
  bool all_constant = true;
  for (size_t i = 0; i < num_inputs && i < e.args.size(); ++i) {
    ASSIGN_OR_RETURN(Datum d, Eval(*e.args[i], sel, n));
    all_constant &= d.constant;
    datums.push_back(std::move(d));
  }
  // Constant inputs and a body that reads nothing else: one row stands for all.
  const bool constant = all_constant && SelfContained(e);
  const int64_t m = constant ? 1 : n;
  std::vector<VectorPtr> inputs;
  for (Datum& d : datums) {
    if (!d.constant || m == 1) {
      inputs.push_back(d.vec);
      continue;
    }
    std::vector<int64_t> zeros(static_cast<size_t>(m), 0);
    inputs.push_back(columnar::GatherOrNull(*d.vec, zeros.data(), m));
  }
  BodyInvoker invoker(e, batch_, constant ? nullptr : sel, ctx_);
  ASSIGN_OR_RETURN(VectorPtr out, EvaluateHigherOrder(e, inputs, m, invoker));
  return Datum{out, constant};
}

namespace {

// Appends to *out the rows (sel[i], or i without a selection) whose `keep` byte is nonzero and
// (with `valid`) whose validity byte is too. Branch-free: every row is written and the output
// position advances by the test's 0 or 1, so a filter keeping a random half of the rows costs
// no mispredicted branch per row (a `push_back` under `if` ran at about 130 M rows/s).
void AppendSelected(const uint8_t* keep, const uint8_t* valid, const uint32_t* sel, int64_t n,
                    std::vector<uint32_t>* out) {
  const size_t base = out->size();
  out->resize(base + static_cast<size_t>(n));
  uint32_t* o = out->data() + base;
  size_t k = 0;
  if (sel && valid) {
    for (int64_t i = 0; i < n; ++i) {
      o[k] = sel[i];
      k += (keep[i] != 0) & (valid[i] != 0);
    }
  } else if (sel) {
    for (int64_t i = 0; i < n; ++i) {
      o[k] = sel[i];
      k += keep[i] != 0;
    }
  } else if (valid) {
    for (int64_t i = 0; i < n; ++i) {
      o[k] = static_cast<uint32_t>(i);
      k += (keep[i] != 0) & (valid[i] != 0);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      o[k] = static_cast<uint32_t>(i);
      k += keep[i] != 0;
    }
  }
  out->resize(base + k);
}

}  // namespace

Status Evaluator::Filter(const Expr& e, const uint32_t* sel, int64_t n, std::vector<uint32_t>* out) {
  if (e.kind == ExprKind::kAnd) {
    std::vector<uint32_t> cur, next;
    if (sel) cur.assign(sel, sel + n);
    bool identity = sel == nullptr;
    for (const auto& arg : e.args) {
      next.clear();
      RETURN_NOT_OK(Filter(*arg, identity ? nullptr : cur.data(), identity ? n : static_cast<int64_t>(cur.size()),
                           &next));
      cur.swap(next);
      identity = false;
      if (cur.empty()) break;
    }
    out->insert(out->end(), cur.begin(), cur.end());
    return Status::OK();
  }
  if (e.kind == ExprKind::kOr) {
    std::vector<uint32_t> remaining;
    if (sel) remaining.assign(sel, sel + n);
    else {
      remaining.resize(n);
      std::iota(remaining.begin(), remaining.end(), 0u);
    }
    std::vector<uint32_t> matched, hit, rest;
    for (const auto& arg : e.args) {
      if (remaining.empty()) break;
      hit.clear();
      RETURN_NOT_OK(Filter(*arg, remaining.data(), static_cast<int64_t>(remaining.size()), &hit));
      if (hit.empty()) continue;
      rest.clear();
      std::set_difference(remaining.begin(), remaining.end(), hit.begin(), hit.end(), std::back_inserter(rest));
      remaining.swap(rest);
      std::vector<uint32_t> merged;
      std::merge(matched.begin(), matched.end(), hit.begin(), hit.end(), std::back_inserter(merged));
      matched.swap(merged);
    }
    out->insert(out->end(), matched.begin(), matched.end());
    return Status::OK();
  }
  if (int c = SoleCodedColumn(e); c >= 0) {
    EvalContext::CodedResult* r = DictionaryValues(e, c, n);
    if (r && r->result && r->result->id() == TypeId::kBoolean) {
      // One lookup per row in the pass table evaluated on the dictionary.
      const Vector& col = *batch_.columns[c];
      const int32_t* codes = col.codes();
      const uint8_t* pass = r->pass.data();
      const int32_t null_code = static_cast<int32_t>(r->pass.size()) - 1;
      const bool nulls = col.MayHaveNulls();
      const size_t base = out->size();
      out->resize(base + static_cast<size_t>(n));
      uint32_t* o = out->data() + base;
      size_t k = 0;
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t row = sel ? sel[i] : static_cast<uint32_t>(i);
        const int32_t code = nulls && col.IsNull(row) ? null_code : codes[row];
        o[k] = row;
        k += pass[code];  // branch-free: a filter keeping half the rows mispredicts no branch
      }
      out->resize(base + k);
      return Status::OK();
    }
  }
  ASSIGN_OR_RETURN(Datum d, Eval(e, sel, n));
  const Vector& v = *d.vec;
  if (v.id() == TypeId::kNull) return Status::OK();
  if (v.id() != TypeId::kBoolean) {
    return Status::Binder("Filter expression " + e.ToString() + " is " + v.type()->ToString() + ", not BOOLEAN");
  }
  if (d.constant) {
    if (v.IsValid(0) && v.Get<uint8_t>(0)) {
      for (int64_t i = 0; i < n; ++i) out->push_back(sel ? sel[i] : static_cast<uint32_t>(i));
    }
    return Status::OK();
  }
  AppendSelected(v.data<uint8_t>(), v.MayHaveNulls() ? v.validity().data() : nullptr, sel, n, out);
  return Status::OK();
}

int Evaluator::SoleCodedColumn(const Expr& e) const {
  if (!has_coded_) return -1;
  int column = -1;
  bool one = true;
  Visit(e, [&](const Expr& x) {
    if (x.kind != ExprKind::kColumnRef) return;
    if (column >= 0 && x.column != column) one = false;
    column = x.column;
  });
  if (!one || column < 0 || column >= static_cast<int>(batch_.columns.size())) return -1;
  const VectorPtr& col = batch_.columns[column];
  return col && col->IsDictionary() ? column : -1;
}

EvalContext::CodedResult* Evaluator::DictionaryValues(const Expr& e, int c, int64_t rows) {
  // Each entry is evaluated once per chunk; beyond this many per row of the first batch that
  // asks, a dictionary would cost more than the rows (its later batches are not known).
  constexpr int64_t kMaxEntriesPerRow = 64;
  const VectorPtr& dict = batch_.columns[c]->dictionary();
  for (auto& r : ctx_.coded_results) {
    if (r.expr == &e && r.dictionary == dict) return &r;
  }
  VectorPtr result;
  if (dict->size() < kMaxEntriesPerRow * std::max<int64_t>(rows, 1)) {
    auto entries = Vector::Make(dict->type(), dict->size() + 1);
    entries->AppendFrom(*dict, 0, dict->size());
    entries->AppendNull();
    RecordBatch b;
    b.schema = batch_.schema;
    b.columns.assign(batch_.columns.size(), nullptr);
    b.columns[c] = entries;
    b.num_rows = entries->size();
    Evaluator ev(b, ctx_);
    auto d = ev.Eval(e, nullptr, b.num_rows);
    if (d.ok()) {
      if (d->constant) {
        std::vector<int64_t> zeros(static_cast<size_t>(b.num_rows), 0);
        result = columnar::GatherOrNull(*d->vec, zeros.data(), b.num_rows);
      } else {
        result = d->vec;
      }
    }
  }
  constexpr size_t kCacheEntries = 8;
  if (ctx_.coded_results.size() < kCacheEntries) ctx_.coded_results.emplace_back();
  EvalContext::CodedResult& r = ctx_.coded_results[ctx_.coded_next++ % ctx_.coded_results.size()];
  r.expr = &e;
  r.dictionary = dict;
  r.result = result;
  r.pass.clear();
  if (result && result->id() == TypeId::kBoolean) {
    r.pass.resize(static_cast<size_t>(result->size()));
    for (int64_t i = 0; i < result->size(); ++i) r.pass[i] = result->IsValid(i) && result->Get<uint8_t>(i) ? 1 : 0;
  }
  return &r;
}

VectorPtr Evaluator::ExpandCoded(const Vector& col, const VectorPtr& r, bool keep_coded) {
  const int64_t n = col.size();
  const int32_t null_code = static_cast<int32_t>(r->size()) - 1;
  std::vector<uint32_t> codes(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) codes[i] = static_cast<uint32_t>(col.IsNull(i) ? null_code : col.codes()[i]);
  if (!keep_coded || !r->type()->IsStringLike()) return columnar::Gather(*r, codes.data(), n);
  auto out = Vector::MakeCoded(r, n);
  std::memcpy(out->mutable_codes(), codes.data(), sizeof(int32_t) * static_cast<size_t>(n));
  if (r->MayHaveNulls()) {
    uint8_t* valid = out->MutableValidity();
    for (int64_t i = 0; i < n; ++i) {
      valid[i] = r->IsValid(codes[i]) ? 1 : 0;
      if (!valid[i]) out->mutable_codes()[i] = 0;
    }
  }
  return out;
}

Result<VectorPtr> EvaluateImpl(const Expr& expr, const RecordBatch& input, EvalContext& ctx, bool keep_coded) {
  Evaluator ev(input, ctx);
  if (int c = ev.SoleCodedColumn(expr); c >= 0) {
    const VectorPtr& col = input.columns[c];
    if (expr.kind == ExprKind::kColumnRef) return keep_coded ? col : columnar::Decode(col);
    EvalContext::CodedResult* r = ev.DictionaryValues(expr, c, input.num_rows);
    if (r && r->result) return Evaluator::ExpandCoded(*col, r->result, keep_coded);
  }
  ASSIGN_OR_RETURN(Datum d, ev.Eval(expr, nullptr, input.num_rows));
  if (!d.constant) return d.vec;
  std::vector<int64_t> zeros(static_cast<size_t>(input.num_rows), 0);
  return columnar::GatherOrNull(*d.vec, zeros.data(), input.num_rows);
}

}  // namespace

Result<VectorPtr> Evaluate(const Expr& expr, const RecordBatch& input, EvalContext& ctx) {
  return EvaluateImpl(expr, input, ctx, false);
}

Result<VectorPtr> EvaluateMaybeCoded(const Expr& expr, const RecordBatch& input, EvalContext& ctx) {
  return EvaluateImpl(expr, input, ctx, true);
}

Result<int64_t> EvaluateFilter(const Expr& predicate, const RecordBatch& input, EvalContext& ctx,
                               std::vector<uint32_t>* selected) {
  selected->clear();
  Evaluator ev(input, ctx);
  RETURN_NOT_OK(ev.Filter(predicate, nullptr, input.num_rows, selected));
  return static_cast<int64_t>(selected->size());
}

Result<int64_t> EvaluateFilterOn(const Expr& predicate, const RecordBatch& input,
                                 const std::vector<uint32_t>& rows, EvalContext& ctx,
                                 std::vector<uint32_t>* selected) {
  selected->clear();
  Evaluator ev(input, ctx);
  RETURN_NOT_OK(ev.Filter(predicate, rows.data(), static_cast<int64_t>(rows.size()), selected));
  return static_cast<int64_t>(selected->size());
}

Result<Value> EvaluateConstant(const Expr& expr, EvalContext& ctx) {
  RecordBatch empty;
  empty.num_rows = 1;
  Evaluator ev(empty, ctx);
  ASSIGN_OR_RETURN(Datum d, ev.Eval(expr, nullptr, 1));
  return Value::FromVector(*d.vec, 0);
}

}  // namespace shoal::expr
