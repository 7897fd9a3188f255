#include "sql/optimizer/cardinality.h"

#include <algorithm>
#include <cmath>

#include "sql/functions/column_statistics.h"

namespace shoal::sql {

namespace {

using expr::Expr;
using expr::ExprKind;

const Expr* StripCasts(const Expr* e) {
  while (e->kind == ExprKind::kCast && !e->args.empty()) e = e->args[0].get();
  return e;
}

// The input column `e` reads (through casts), or -1.
int ColumnOf(const Expr& e) {
  const Expr* s = StripCasts(&e);
  return s->kind == ExprKind::kColumnRef ? s->column : -1;
}


bool IsDateOrTimestamp(columnar::TypeId id) {
  return id == columnar::TypeId::kDate || id == columnar::TypeId::kTimestamp ||
         id == columnar::TypeId::kTimestampNtz;
}

// A date or timestamp in days (so DATE columns compare with TIMESTAMP literals); else as is.
std::optional<double> OnAxis(const columnar::Value& v, bool in_days) {
  auto x = NumericValue(v);
  if (x && in_days && v.type()->id() != columnar::TypeId::kDate) *x /= 86400e6;
  return x;
}

// Where `v` falls between the column's min and max, in [0, 1]; nullopt when not comparable.
std::optional<double> Position(const ColumnEstimate& c, const columnar::Value& v) {
  if (!c.min || !c.max || v.is_null()) return std::nullopt;
  const auto& ct = *c.min->type();
  const auto& vt = *v.type();
  const bool temporal = IsDateOrTimestamp(ct.id()) && IsDateOrTimestamp(vt.id()) && ct.id() != vt.id();
  bool comparable = ct.id() == vt.id() || (ct.IsNumeric() && vt.IsNumeric()) || temporal;
  if (!comparable) return std::nullopt;
  auto lo = OnAxis(*c.min, temporal), hi = OnAxis(*c.max, temporal), x = OnAxis(v, temporal);
  if (!lo || !hi || !x) return std::nullopt;
  if (*hi <= *lo) return *x < *lo ? 0.0 : (*x > *hi ? 1.0 : 0.5);
  return std::clamp((*x - *lo) / (*hi - *lo), 0.0, 1.0);
}

bool IsComparison(const Expr& e) {
  if (e.kind != ExprKind::kFunction || e.args.size() != 2) return false;
  return e.name == "=" || e.name == "<>" || e.name == "<" || e.name == "<=" || e.name == ">" || e.name == ">=";
}

// `op` with its operands swapped (a < b is b > a).
std::string Flip(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

// Columns that `col = literal` conjuncts of `pred` pin to one value.
void MarkConstantColumns(const Expr& pred, PlanEstimate* e) {
  if (pred.kind == ExprKind::kAnd) {
    for (const auto& a : pred.args) MarkConstantColumns(*a, e);
    return;
  }
  if (!IsComparison(pred) || pred.name != "=") return;
  int col = -1;
  if (pred.args[1]->IsLiteral()) col = ColumnOf(*pred.args[0]);
  if (pred.args[0]->IsLiteral()) col = ColumnOf(*pred.args[1]);
  if (col >= 0 && col < static_cast<int>(e->columns.size())) e->columns[col].distinct = 1;
}

double Clamp01(double s) { return std::isnan(s) ? 1.0 : std::clamp(s, 0.0, 1.0); }

}  // namespace

double CardinalityEstimator::Distinct(const Expr& e, const PlanEstimate& input) const {
  double d = -1;
  if (auto c = Column(input, ColumnOf(e))) d = c->distinct;
  if (e.IsLiteral()) d = 1;
  if (d < 0) d = input.rows;
  return std::clamp(d, 1.0, std::max(1.0, input.rows));
}

double CardinalityEstimator::CompareSelectivity(const Expr& pred, const PlanEstimate& input) const {
  const Expr& a = *pred.args[0];
  const Expr& b = *pred.args[1];
  int ca = ColumnOf(a), cb = ColumnOf(b);
  std::string op = pred.name;
  const Expr* lit = nullptr;
  int col = -1;
  if (ca >= 0 && b.IsLiteral()) {
    col = ca, lit = &b;
  } else if (cb >= 0 && a.IsLiteral()) {
    col = cb, lit = &a, op = Flip(op);
  }
  if (lit && lit->value.is_null()) return 0;
  auto c = Column(input, col);
  if (op == "=" || op == "<>") {
    double eq;
    if (lit) {
      eq = c && c->distinct > 0 ? 1 / std::max(1.0, c->distinct) : kEqualitySelectivity;
      if (c) {
        auto p = Position(*c, lit->value);
        if (p && (*p <= 0 || *p >= 1) && c->min && c->max) {
          // Outside [min, max]: only the bounds themselves can match.
          if (lit->value.Compare(*c->min) < 0 || lit->value.Compare(*c->max) > 0) eq = 0;
        }
      }
    } else if (ca >= 0 && ca == cb) {
      // x = x holds wherever x is not NULL (join ordering's filter for two members of one
      // equivalence class within a relation); x <> x never holds.
      if (op == "<>") return 0;
      auto same = Column(input, ca);
      return same ? 1 - same->null_fraction : 1;
    } else if (ca >= 0 && cb >= 0) {
      eq = 1 / std::max(Distinct(a, input), Distinct(b, input));
    } else {
      eq = kEqualitySelectivity;
    }
    return op == "=" ? eq : 1 - eq;
  }
  if (lit && c) {
    if (auto p = Position(*c, lit->value)) {
      double below = *p;  // fraction of values < v (continuous approximation)
      return (op == "<" || op == "<=") ? below : 1 - below;
    }
  }
  return kRangeSelectivity;
}

double CardinalityEstimator::AndSelectivity(const std::vector<expr::ExprPtr>& args,
                                            const PlanEstimate& input) const {
  // Range conjuncts on one column with known bounds combine into one interval.
  struct Interval {
    double lo = 0, hi = 1;
  };
  std::map<int, Interval> ranges;
  double s = 1;
  for (const auto& a : args) {
    if (IsComparison(*a) && a->name != "=" && a->name != "<>") {
      int ca = ColumnOf(*a->args[0]), cb = ColumnOf(*a->args[1]);
      std::string op = a->name;
      const Expr* lit = nullptr;
      int col = -1;
      if (ca >= 0 && a->args[1]->IsLiteral()) {
        col = ca, lit = a->args[1].get();
      } else if (cb >= 0 && a->args[0]->IsLiteral()) {
        col = cb, lit = a->args[0].get(), op = Flip(op);
      }
      auto c = Column(input, col);
      std::optional<double> p;
      if (lit && c) p = Position(*c, lit->value);
      if (p) {
        Interval& iv = ranges[col];
        if (op == "<" || op == "<=") {
          iv.hi = std::min(iv.hi, *p);
        } else {
          iv.lo = std::max(iv.lo, *p);
        }
        continue;
      }
    }
    s *= Selectivity(*a, input);
  }
  for (const auto& [col, iv] : ranges) s *= std::max(0.0, iv.hi - iv.lo);
  return s;
}

double CardinalityEstimator::Selectivity(const Expr& pred, const PlanEstimate& input) const {
  switch (pred.kind) {
    case ExprKind::kLiteral:
      if (pred.value.is_null()) return 0;
      return pred.type->id() == columnar::TypeId::kBoolean && !pred.value.GetBool() ? 0 : 1;
    case ExprKind::kAnd: return Clamp01(AndSelectivity(pred.args, input));
    case ExprKind::kOr: {
      double s = 0;
      for (const auto& a : pred.args) {
        double x = Selectivity(*a, input);
        s = s + x - s * x;
      }
      return Clamp01(s);
    }
    case ExprKind::kNot: return Clamp01(1 - Selectivity(*pred.args[0], input));
    case ExprKind::kIsNull: {
      auto c = Column(input, ColumnOf(*pred.args[0]));
      double s = c ? c->null_fraction : kNullSelectivity;
      return pred.negated ? 1 - s : s;
    }
    case ExprKind::kIn: {
      double n = static_cast<double>(pred.args.size() - 1);
      auto c = Column(input, ColumnOf(*pred.args[0]));
      double s = c && c->distinct > 0 ? n / c->distinct : n * kEqualitySelectivity;
      s = std::min(1.0, s);
      return pred.negated ? 1 - s : s;
    }
    case ExprKind::kLike: return pred.negated ? 1 - kLikeSelectivity : kLikeSelectivity;
    case ExprKind::kFunction:
      if (IsComparison(pred)) return Clamp01(CompareSelectivity(pred, input));
      break;
    default: break;
  }
  return kDefaultSelectivity;
}

std::optional<ColumnEstimate> CardinalityEstimator::Column(const PlanEstimate& in, int column) const {
  if (column < 0 || column >= static_cast<int>(in.columns.size())) return std::nullopt;
  ColumnEstimate c = in.columns[column];
  if (!c.source) return c;
  auto key = std::make_pair(c.source, c.source_column);
  auto it = cache_.find(key);
  if (it == cache_.end()) it = cache_.emplace(key, c.source->ColumnStatistics(c.source_column)).first;
  c.source = nullptr;
  if (const auto& s = it->second) {
    c.min = s->min;
    c.max = s->max;
    if (s->distinct_count && !c.unique) {
      double d = std::min(*s->distinct_count, std::max(1.0, in.rows));
      c.distinct = c.distinct >= 0 ? std::min(c.distinct, d) : d;
    }
    if (s->null_count && c.source_rows > 0) c.null_fraction = std::min(1.0, *s->null_count / c.source_rows);
  }
  return c;
}

PlanEstimate CardinalityEstimator::EstimateGet(const LogicalOperator& op) {
  PlanEstimate e;
  auto rows = op.source->EstimatedRows();
  e.rows = rows ? static_cast<double>(*rows) : kDefaultRows;
  for (size_t i = 0; i < op.columns.size(); ++i) {
    ColumnEstimate c;
    if (i < op.projected.size()) {
      c.source = op.source.get();
      c.source_column = op.projected[i];
      c.source_rows = e.rows;
    }
    e.columns.push_back(std::move(c));
  }
  // A one-column RELY key (PRIMARY KEY / UNIQUE): as many distinct values as rows.
  for (const std::vector<int>& key : op.source->UniqueKeys()) {
    if (key.size() != 1) continue;
    for (size_t i = 0; i < op.projected.size() && i < e.columns.size(); ++i) {
      if (op.projected[i] != key[0]) continue;
      e.columns[i].distinct = e.rows;
      e.columns[i].unique = true;
    }
  }
  double s = 1;
  if (!op.filters.empty()) s = AndSelectivity(op.filters, e);
  e.rows *= Clamp01(s);
  for (const auto& f : op.filters) MarkConstantColumns(*f, &e);
  return e;
}

PlanEstimate CardinalityEstimator::EstimateJoin(const LogicalOperator& op, const PlanEstimate& l,
                                                const PlanEstimate& r) const {
  // Several keys form one composite key: its distinct count is at most the larger input's rows.
  double divisor = 1;
  for (size_t k = 0; k < op.left_keys.size(); ++k) {
    divisor *= std::max(Distinct(*op.left_keys[k], l), Distinct(*op.right_keys[k], r));
  }
  double sel = 1 / std::min(divisor, std::max({1.0, l.rows, r.rows}));
  PlanEstimate both;
  both.columns = l.columns;
  both.columns.insert(both.columns.end(), r.columns.begin(), r.columns.end());
  both.rows = l.rows * r.rows;
  if (op.predicate) sel *= Selectivity(*op.predicate, both);
  double inner = l.rows * r.rows * sel;
  PlanEstimate out = both;
  switch (op.join_type) {
    case LogicalJoinType::kInner: out.rows = inner; break;
    case LogicalJoinType::kLeft: out.rows = std::max(inner, l.rows); break;
    case LogicalJoinType::kRight: out.rows = std::max(inner, r.rows); break;
    case LogicalJoinType::kFull: out.rows = std::max({inner, l.rows, r.rows}); break;
    case LogicalJoinType::kSemi:
    case LogicalJoinType::kAnti: {
      // Fraction of left rows with a partner: matches per left row, at most 1.
      double matched = std::min(1.0, l.rows > 0 ? inner / l.rows : 1.0);
      out.columns = l.columns;
      out.rows = l.rows * (op.join_type == LogicalJoinType::kSemi ? matched : 1 - matched);
      break;
    }
    case LogicalJoinType::kMark:  // the left rows plus a match flag
    case LogicalJoinType::kSingle:  // a left join with at most one match per row
      out.columns = l.columns;
      out.rows = l.rows;
      break;
    default: out.rows = std::max(inner, l.rows); break;
  }
  return out;
}

PlanEstimate CardinalityEstimator::Estimate(LogicalOperator* op) {
  std::vector<PlanEstimate> in;
  for (auto& c : op->children) in.push_back(Estimate(c.get()));
  PlanEstimate out;
  switch (op->kind) {
    case LogicalKind::kGet: out = EstimateGet(*op); break;
    case LogicalKind::kValues:
      out.rows = op->values ? static_cast<double>(op->values->num_rows) : 1;
      out.columns.resize(op->columns.size());
      break;
    case LogicalKind::kFilter:
      out = in[0];
      out.rows *= Selectivity(*op->predicate, in[0]);
      MarkConstantColumns(*op->predicate, &out);
      break;
    case LogicalKind::kProject:
      out.rows = in[0].rows;
      for (const auto& e : op->exprs) {
        int col = e->kind == expr::ExprKind::kColumnRef ? e->column : -1;
        bool known = col >= 0 && col < static_cast<int>(in[0].columns.size());
        out.columns.push_back(known ? in[0].columns[col] : ColumnEstimate{});
        if (e->IsLiteral()) out.columns.back().distinct = 1;
      }
      break;
    case LogicalKind::kAggregate: {
      double groups = 1;
      for (const auto& g : op->groups) {
        const double d = Distinct(*g, in[0]);
        groups *= d;
        auto c = Column(in[0], ColumnOf(*g));
        out.columns.push_back(c ? *c : ColumnEstimate{});
        out.columns.back().distinct = d;
      }
      out.rows = op->groups.empty() ? 1 : std::min(groups, in[0].rows);
      out.columns.resize(op->columns.size());
      break;
    }
    case LogicalKind::kSort:
      out = in[0];
      if (op->limit >= 0) out.rows = std::min(out.rows, static_cast<double>(op->limit));
      break;
    case LogicalKind::kLimit:
      out = in[0];
      out.rows = std::max(0.0, out.rows - static_cast<double>(op->offset));
      if (op->limit >= 0) out.rows = std::min(out.rows, static_cast<double>(op->limit));
      break;
    case LogicalKind::kSample:
      out = in[0];
      out.rows *= op->sample_fraction;
      break;
    case LogicalKind::kJoin: out = EstimateJoin(*op, in[0], in[1]); break;
    case LogicalKind::kUnion:
      out.rows = 0;
      for (const auto& c : in) out.rows += c.rows;
      out.columns.resize(op->columns.size());
      break;
    case LogicalKind::kSetOp:
      out = in[0];
      if (op->set_op == SetOpType::kIntersect) out.rows = std::min(in[0].rows, in[1].rows);
      break;
    default:
      if (!in.empty()) out.rows = in[0].rows;
      break;
  }
  out.columns.resize(op->columns.size());
  out.rows = std::max(1.0, std::isfinite(out.rows) ? out.rows : 1e18);
  for (auto& c : out.columns) {
    if (c.distinct > out.rows) c.distinct = out.rows;
  }
  op->estimated_rows = out.rows;
  return out;
}

void EstimateCardinalities(LogicalOperator* root) {
  CardinalityEstimator est;
  est.Estimate(root);
}

}  // namespace shoal::sql
