#include "sql/execution/runtime_filter.h"

#include <limits>
#include <string_view>
#include <unordered_set>

#include "expr/physical_type.h"
#include "sql/execution/physical_basic.h"
#include "sql/execution/physical_join.h"

namespace shoal::sql {

using columnar::TypeId;
using columnar::Value;
using columnar::Vector;

namespace {

bool IntegerLike(const columnar::DataType& t) {
  switch (t.id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return true;
    case TypeId::kDecimal: return !t.IsWideDecimal();
    default: return false;
  }
}

Value IntegerValue(const columnar::TypePtr& type, int64_t v) {
  if (type->id() == TypeId::kDecimal) return Value::Decimal(type->precision(), type->scale(), v);
  return Value::Integer(type, v);
}

std::optional<JoinKeySummary> SummarizeIntegers(const std::vector<const Vector*>& chunks,
                                                const columnar::TypePtr& type) {
  JoinKeySummary s;
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  std::unordered_set<int64_t> distinct;
  bool few = true;
  auto set = std::make_shared<expr::InListSet>();
  bool bounded = true;
  for (const Vector* v : chunks) {
    expr::DispatchFixed(
        *type,
        [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
            const T* d = v->data<T>();
            for (int64_t i = 0; i < v->size(); ++i) {
              if (!v->IsValid(i)) continue;
              const int64_t x = static_cast<int64_t>(d[i]);
              lo = std::min(lo, x);
              hi = std::max(hi, x);
              s.empty = false;
              if (few) {
                distinct.insert(x);
                few = distinct.size() <= kRuntimeFilterMaxValues;
              }
              if (bounded) {
                set->keys.Insert(expr::InKey(d[i]));
                bounded = set->keys.size() <= kRuntimeFilterMaxSetKeys;
              }
            }
          }
          return 0;
        },
        [] { return 0; });
  }
  if (s.empty) return s;
  s.min = IntegerValue(type, lo);
  s.max = IntegerValue(type, hi);
  const double width = static_cast<double>(hi) - static_cast<double>(lo) + 1;
  if (static_cast<double>(set->keys.size()) * kRuntimeFilterMinSparsity > width) return s;  // dense
  if (!few && bounded) s.set = std::move(set);
  if (few) {
    std::vector<int64_t> sorted(distinct.begin(), distinct.end());
    std::sort(sorted.begin(), sorted.end());
    s.values.emplace();
    for (int64_t x : sorted) s.values->push_back(IntegerValue(type, x));
  }
  return s;
}

JoinKeySummary SummarizeStrings(const std::vector<const Vector*>& chunks) {
  JoinKeySummary s;
  std::string_view lo, hi;
  std::unordered_set<std::string_view> distinct;
  bool few = true;
  for (const Vector* v : chunks) {
    for (int64_t i = 0; i < v->size(); ++i) {
      if (!v->IsValid(i)) continue;
      std::string_view x = v->GetString(i);
      if (s.empty || x < lo) lo = x;
      if (s.empty || x > hi) hi = x;
      s.empty = false;
      if (few) {
        distinct.insert(x);
        few = distinct.size() <= kRuntimeFilterMaxValues;
      }
    }
  }
  if (s.empty) return s;
  s.min = Value::String(std::string(lo));
  s.max = Value::String(std::string(hi));
  if (few) {
    std::vector<std::string_view> sorted(distinct.begin(), distinct.end());
    std::sort(sorted.begin(), sorted.end());
    s.values.emplace();
    for (std::string_view x : sorted) s.values->push_back(Value::String(std::string(x)));
  }
  return s;
}

// Joins with a filter slot per probe key, walking the whole tree.
void Plan(PhysicalOperator* op) {
  for (auto& c : op->children) Plan(c.get());
  auto* join = dynamic_cast<PhysicalHashJoin*>(op);
  if (!join || !join->DropsUnmatchedProbeRows()) return;
  for (size_t k = 0; k < join->probe_keys().size(); ++k) {
    const expr::Expr& key = *join->probe_keys()[k];
    if (key.kind != expr::ExprKind::kColumnRef) continue;
    PhysicalOperator* cur = op->children[0].get();
    int col = key.column;
    while (!dynamic_cast<PhysicalTableScan*>(cur)) {
      int child = -1, child_col = -1;
      if (!cur->PassesColumn(col, &child, &child_col)) break;
      cur = cur->children[child].get();
      col = child_col;
    }
    auto* scan = dynamic_cast<PhysicalTableScan*>(cur);
    if (!scan || col < 0 || col >= static_cast<int>(scan->schema()->size())) continue;
    const auto& field = scan->schema()->fields[col];
    if (!field.type->Equals(*join->build_keys()[k]->type) || !field.type->Equals(*key.type)) continue;
    auto filter = std::make_shared<RuntimeFilter>();
    join->AddRuntimeFilter(k, filter);
    scan->AddRuntimeFilter(filter, col);
  }
}

}  // namespace

std::optional<JoinKeySummary> SummarizeKeys(const std::vector<const Vector*>& chunks,
                                            const columnar::TypePtr& type) {
  if (IntegerLike(*type)) return SummarizeIntegers(chunks, type);
  if (type->id() == TypeId::kString) return SummarizeStrings(chunks);
  return std::nullopt;
}

void RuntimeFilter::Publish(JoinKeySummary summary) {
  std::lock_guard<std::mutex> lock(mu_);
  summary_ = std::move(summary);
}

std::optional<JoinKeySummary> RuntimeFilter::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return summary_;
}

namespace {

// An integer-like value as a double (nullopt for other types).
std::optional<double> Numeric(const Value& v) {
  if (v.is_null() || !IntegerLike(*v.type())) return std::nullopt;
  if (v.type()->id() == TypeId::kDecimal) return static_cast<double>(v.GetDecimal());
  return static_cast<double>(v.GetInt());
}

// The fraction of a column's rows the summary's keys can pass, from the column's min, max and
// distinct count (uniform within the range); 1 when unknown.
double PassFraction(const JoinKeySummary& s, const ColumnStats& stats) {
  if (!stats.min || !stats.max) return 1;
  auto lo = Numeric(*stats.min), hi = Numeric(*stats.max), klo = Numeric(s.min), khi = Numeric(s.max);
  if (!lo || !hi || !klo || !khi || *hi < *lo) return 1;
  const double width = *hi - *lo + 1;
  const double overlap = std::max(0.0, std::min(*hi, *khi) - std::max(*lo, *klo) + 1);
  double f = overlap / width;
  const double ndv = stats.distinct_count ? std::max(1.0, *stats.distinct_count) : width;
  if (s.values) f = std::min(f, static_cast<double>(s.values->size()) / ndv);
  if (s.set) f = std::min(f, static_cast<double>(s.set->keys.size()) / ndv);
  return f;
}

}  // namespace

std::vector<expr::ExprPtr> RuntimeFilter::Predicates(int column, const columnar::Field& field,
                                                     const ColumnStats* stats) const {
  std::optional<JoinKeySummary> s = Get();
  if (!s || s->empty) return {};
  if (stats && PassFraction(*s, *stats) > kRuntimeFilterMaxPass) return {};
  expr::ExprPtr ref = expr::ColumnRef(column, field.type, field.name, field.nullable);
  std::vector<expr::ExprPtr> out;
  if (s->values && s->values->size() == 1) {
    auto eq = expr::Call("=", {ref, expr::Literal(s->values->front())});
    if (eq.ok()) out.push_back(*eq);
    return out;
  }
  if (s->values) {
    std::vector<expr::ExprPtr> items;
    for (const Value& v : *s->values) items.push_back(expr::Literal(v));
    auto in = expr::In(ref, std::move(items));
    if (in.ok()) out.push_back(*in);
    return out;
  }
  auto ge = expr::Call(">=", {ref, expr::Literal(s->min)});
  auto le = expr::Call("<=", {ref, expr::Literal(s->max)});
  if (ge.ok()) out.push_back(*ge);
  if (le.ok()) out.push_back(*le);
  if (s->set) {
    std::string label = "<";
    label += std::to_string(s->set->keys.size());
    label += " join keys>";
    out.push_back(expr::InSet(ref, s->set, std::move(label)));
  }
  return out;
}

void PlanRuntimeFilters(PhysicalOperator* root) { Plan(root); }

}  // namespace shoal::sql
