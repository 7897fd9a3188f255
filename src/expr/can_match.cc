#include "expr/can_match.h"

#include <cmath>

#include "columnar/time_zone.h"
#include "expr/cast.h"
#include "expr/comparison.h"
#include "expr/like.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::TypePtr;

namespace {

// Which truth values some row could produce.
struct Truth {
  bool t = true, f = true, n = true;
};
constexpr Truth kAny{true, true, true};

Truth Swap(Truth x) { return {x.f, x.t, x.n}; }

// Whether CAST(from -> to) preserves order (so bounds can be cast too).
bool Monotonic(const TypePtr& from, const TypePtr& to, const columnar::TimeZone* zone) {
  TypeId f = from->id(), t = to->id();
  // An instant's wall clock falls back at the end of daylight saving time.
  if (f == TypeId::kTimestamp && t == TypeId::kTimestampNtz && zone && !zone->is_fixed()) return false;
  if (from->IsInteger() || f == TypeId::kDecimal) {
    if (to->IsFloating()) return true;
    if (t == TypeId::kDecimal || to->IsInteger()) return CanCast(from, to);  // widening by construction
  }
  if (f == TypeId::kFloat && t == TypeId::kDouble) return true;
  if (f == TypeId::kDate && (t == TypeId::kTimestamp || t == TypeId::kTimestampNtz)) return true;
  if ((f == TypeId::kTimestamp || f == TypeId::kTimestampNtz) &&
      (t == TypeId::kTimestamp || t == TypeId::kTimestampNtz)) {
    return true;
  }
  return false;
}

// A column reference, possibly under monotonic casts, with its statistics converted to the
// expression's type.
struct ColumnRange {
  bool known = false;       // bounds usable
  bool all_null = false;
  bool may_null = true;
  bool no_rows = false;
  columnar::Value min, max;  // valid when known
};

bool ResolveColumn(const Expr& e, const ColumnStatsProvider& p, ColumnRange* out) {
  const Expr* cur = &e;
  std::vector<const Expr*> casts;
  while (cur->kind == ExprKind::kCast && !cur->try_cast) {
    if (!Monotonic(cur->args[0]->type, cur->type, cur->zone)) return false;
    casts.push_back(cur);
    cur = cur->args[0].get();
  }
  if (cur->kind != ExprKind::kColumnRef) return false;
  const ColumnStats* s = p.Stats(cur->column);
  ColumnRange r;
  if (!s) {
    *out = r;
    return true;
  }
  if (s->row_count && *s->row_count == 0) r.no_rows = true;
  if (s->null_count) {
    r.may_null = *s->null_count > 0;
    if (s->row_count && *s->null_count >= *s->row_count) r.all_null = true;
  }
  if (s->min && s->max && !s->min->is_null() && !s->max->is_null()) {
    columnar::Value lo = *s->min, hi = *s->max;
    bool floating = cur->type->IsFloating();
    bool bad = !lo.type()->Equals(*cur->type) || !hi.type()->Equals(*cur->type);
    if (!bad && floating && (std::isnan(lo.GetDouble()) || std::isnan(hi.GetDouble()))) bad = true;
    if (!bad && floating && s->may_have_nan) hi = columnar::Value::Double(NAN);
    if (!bad && floating && hi.type()->id() != cur->type->id()) {
      auto c = CastValue(hi, cur->type);
      if (!c.ok()) bad = true;
      else hi = *c;
    }
    for (size_t i = casts.size(); i-- > 0 && !bad;) {
      auto l2 = CastValue(lo, casts[i]->type, false, casts[i]->zone);
      auto h2 = CastValue(hi, casts[i]->type, false, casts[i]->zone);
      if (!l2.ok() || !h2.ok()) bad = true;
      else {
        lo = *l2;
        hi = *h2;
      }
    }
    if (!bad && lo.Compare(hi) <= 0) {
      r.known = true;
      r.min = lo;
      r.max = hi;
    }
  }
  *out = r;
  return true;
}

// Applies the null facts of a column to a non-null analysis.
Truth WithNulls(const ColumnRange& r, Truth values) {
  if (r.no_rows) return {false, false, false};
  if (r.all_null) return {false, false, true};
  values.n = r.may_null;
  return values;
}

Truth Compare(CompareOp op, const ColumnRange& r, const columnar::Value& v) {
  if (r.no_rows) return {false, false, false};
  if (v.is_null()) return {false, false, true};
  if (!r.known) return WithNulls(r, kAny);
  int lo = r.min.Compare(v), hi = r.max.Compare(v);
  Truth x;
  switch (op) {
    case CompareOp::kEq: x = {lo <= 0 && hi >= 0, !(lo == 0 && hi == 0), false}; break;
    case CompareOp::kNe: x = {!(lo == 0 && hi == 0), lo <= 0 && hi >= 0, false}; break;
    case CompareOp::kLt: x = {lo < 0, hi >= 0, false}; break;
    case CompareOp::kLe: x = {lo <= 0, hi > 0, false}; break;
    case CompareOp::kGt: x = {hi > 0, lo <= 0, false}; break;
    case CompareOp::kGe: x = {hi >= 0, lo < 0, false}; break;
  }
  return WithNulls(r, x);
}

Truth Analyze(const Expr& e, const ColumnStatsProvider& p);

Truth AnalyzeIn(const Expr& e, const ColumnStatsProvider& p) {
  ColumnRange r;
  if (!ResolveColumn(*e.args[0], p, &r)) return kAny;
  if (r.no_rows) return {false, false, false};
  bool hit = false, all_hit = false, null_item = false;
  for (size_t i = 1; i < e.args.size(); ++i) {
    const Expr& item = *e.args[i];
    if (!item.IsLiteral()) return kAny;
    if (item.value.is_null()) {
      null_item = true;
      continue;
    }
    if (!r.known) {
      hit = true;
      continue;
    }
    int lo = r.min.Compare(item.value), hi = r.max.Compare(item.value);
    if (lo <= 0 && hi >= 0) hit = true;
    if (lo == 0 && hi == 0) all_hit = true;
  }
  if (r.all_null) return {false, false, true};
  Truth x{hit, !all_hit && !null_item, r.may_null || (null_item && !all_hit)};
  return e.negated ? Swap(x) : x;
}

Truth AnalyzeLike(const Expr& e, const ColumnStatsProvider& p) {
  ColumnRange r;
  if (!ResolveColumn(*e.args[0], p, &r)) return kAny;
  if (!e.args[1]->IsLiteral() || (e.args.size() > 2 && !e.args[2]->IsLiteral())) return WithNulls(r, kAny);
  if (e.args[1]->value.is_null() || (e.args.size() > 2 && e.args[2]->value.is_null())) {
    return r.no_rows ? Truth{false, false, false} : Truth{false, false, true};
  }
  if (e.case_insensitive) return WithNulls(r, kAny);
  std::string esc = e.args.size() > 2 ? e.args[2]->value.GetString() : "";
  auto m = LikeMatcher::Compile(e.args[1]->value.GetString(), esc, false);
  if (!m.ok()) return kAny;
  const std::string& prefix = m->literal_prefix();
  bool can_match = true;
  if (r.known && !prefix.empty() && r.min.type()->id() == TypeId::kString) {
    const std::string& lo = r.min.GetString();
    const std::string& hi = r.max.GetString();
    // Some string in [lo, hi] starts with prefix iff hi >= prefix and lo's first |prefix|
    // bytes are <= prefix.
    can_match = hi.compare(prefix) >= 0 && lo.compare(0, prefix.size(), prefix) <= 0;
  }
  Truth x{can_match, true, false};
  return WithNulls(r, e.negated ? Swap(x) : x);
}

Truth AnalyzeDistinct(const Expr& e, const ColumnStatsProvider& p) {
  ColumnRange r;
  const Expr* lit = e.args[1].get();
  const Expr* col = e.args[0].get();
  if (col->IsLiteral()) std::swap(lit, col);
  if (!lit->IsLiteral() || !ResolveColumn(*col, p, &r)) return kAny;
  if (r.no_rows) return {false, false, false};
  Truth x;
  if (lit->value.is_null()) {
    x = {!r.all_null, r.may_null, false};  // distinct from NULL = IS NOT NULL
  } else {
    Truth eq = Compare(CompareOp::kEq, r, lit->value);
    x = {eq.f || r.may_null, eq.t, false};
  }
  return e.negated ? Swap(x) : x;
}

Truth Analyze(const Expr& e, const ColumnStatsProvider& p) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      if (e.value.is_null()) return {false, false, true};
      if (e.value.type()->id() != TypeId::kBoolean) return kAny;
      return e.value.GetBool() ? Truth{true, false, false} : Truth{false, true, false};
    case ExprKind::kAnd: {
      Truth x{true, false, false};
      for (const auto& a : e.args) {
        Truth y = Analyze(*a, p);
        x.t = x.t && y.t;
        x.f = x.f || y.f;
        x.n = x.n || y.n;
      }
      return x;
    }
    case ExprKind::kOr: {
      Truth x{false, true, false};
      for (const auto& a : e.args) {
        Truth y = Analyze(*a, p);
        x.t = x.t || y.t;
        x.f = x.f && y.f;
        x.n = x.n || y.n;
      }
      return x;
    }
    case ExprKind::kNot: return Swap(Analyze(*e.args[0], p));
    case ExprKind::kIsNull: {
      ColumnRange r;
      if (!ResolveColumn(*e.args[0], p, &r)) return {true, true, false};
      if (r.no_rows) return {false, false, false};
      Truth x{r.may_null, !r.all_null, false};
      return e.negated ? Swap(x) : x;
    }
    case ExprKind::kIn: return AnalyzeIn(e, p);
    case ExprKind::kLike: return AnalyzeLike(e, p);
    case ExprKind::kIsDistinctFrom: return AnalyzeDistinct(e, p);
    case ExprKind::kFunction: {
      CompareOp op;
      if (e.args.size() != 2 || !ParseCompareOp(e.name, &op)) return kAny;
      const Expr* col = e.args[0].get();
      const Expr* lit = e.args[1].get();
      if (col->IsLiteral() && !lit->IsLiteral()) {
        std::swap(col, lit);
        op = FlipCompareOp(op);
      }
      if (!lit->IsLiteral()) return kAny;
      ColumnRange r;
      if (!ResolveColumn(*col, p, &r)) return lit->value.is_null() ? Truth{false, false, true} : kAny;
      return Compare(op, r, lit->value);
    }
    default: return kAny;
  }
}

}  // namespace

TriState CanMatch(const Expr& predicate, const ColumnStatsProvider& stats) {
  Truth x = Analyze(predicate, stats);
  if (!x.t) return TriState::kFalse;
  if (!x.f && !x.n) return TriState::kTrue;
  return TriState::kMaybe;
}

}  // namespace shoal::expr
