#include "expr/aggregate_functions_buffered.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "columnar/vector.h"
#include "expr/comparison.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::TypePtr;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

enum Kind : int {
  kCountIf = kBufferedKindBase,
  kMaxBy,
  kMinBy,
  kBitAnd,
  kBitOr,
  kBitXor,
  kCollectSet,
  kCorr,
  kCovarPop,
  kCovarSamp,
  kRegrCount,
  kRegrAvgX,
  kRegrAvgY,
  kRegrSxx,
  kRegrSyy,
  kRegrSxy,
  kRegrSlope,
  kRegrIntercept,
  kRegrR2,
  kSkewness,
  kKurtosis,
  kMedian,
  kPercentile,
  kPercentileApprox,
  kPercentileCont,  // percentile_cont(p) WITHIN GROUP (ORDER BY x [DESC]): args (x, p, desc)
  kPercentileDisc,
  kMode,
  kApproxCountDistinct,
  kFirstNulls,  // first(x, ignoreNulls)
  kLast,        // last(x[, ignoreNulls])
  kTrySum,
  kTryAvg,
};

struct NameKind {
  const char* name;
  int kind;
};
const NameKind kNames[] = {
    {"count_if", kCountIf},       {"max_by", kMaxBy},
    {"min_by", kMinBy},           {"bit_and", kBitAnd},
    {"bit_or", kBitOr},           {"bit_xor", kBitXor},
    {"collect_set", kCollectSet}, {"corr", kCorr},
    {"covar_pop", kCovarPop},     {"covar_samp", kCovarSamp},
    {"regr_count", kRegrCount},   {"regr_avgx", kRegrAvgX},
    {"regr_avgy", kRegrAvgY},     {"regr_sxx", kRegrSxx},
    {"regr_syy", kRegrSyy},       {"regr_sxy", kRegrSxy},
    {"regr_slope", kRegrSlope},   {"regr_intercept", kRegrIntercept},
    {"regr_r2", kRegrR2},         {"skewness", kSkewness},
    {"kurtosis", kKurtosis},      {"median", kMedian},
    {"percentile", kPercentile},  {"percentile_approx", kPercentileApprox},
    {"approx_percentile", kPercentileApprox}, {"mode", kMode},
    {"percentile_cont", kPercentileCont}, {"percentile_disc", kPercentileDisc},
    {"approx_count_distinct", kApproxCountDistinct}, {"last", kLast},
    {"last_value", kLast},        {"try_sum", kTrySum},
    {"try_avg", kTryAvg},
};

bool IsPairStat(int k) { return k >= kCorr && k <= kRegrR2; }

// Sums of a group's (x, y) pairs for the covariance and regression family.
struct PairSums {
  double n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
};

class BufferedAgg final : public GroupedAggregate {
 public:
  explicit BufferedAgg(const AggregateBinding& b) : kind_(b.kind), result_(b.result_type) {
    for (const auto& t : b.arg_types) store_.push_back(Vector::Make(t));
  }
  void Resize(int64_t n) override {
    rows_.resize(n);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    for (int64_t i = 0; i < n; ++i) {
      if (!Keeps(args, i)) continue;
      Add(g[i], store_[0]->size());
      for (size_t a = 0; a < store_.size(); ++a) store_[a]->AppendFrom(*args[a], i, 1);
    }
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<BufferedAgg&>(other);
    for (int64_t g = 0; g < o.num_groups_; ++g) {
      if (map[g] != kSkipGroup) CopyGroup(o, g, map[g]);
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<BufferedAgg&>(other);
    for (int64_t k = 0; k < n; ++k) CopyGroup(o, src[k], dst[k]);
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override;
  int64_t MemoryBytes() const override {
    int64_t b = lists_ + static_cast<int64_t>(rows_.capacity() * sizeof(rows_[0]));
    for (const auto& s : store_) b += s->MemoryBytes();
    return b;
  }

 private:
  bool Keeps(const std::vector<const Vector*>& args, int64_t i) const {
    switch (kind_) {
      case kMaxBy:
      case kMinBy: return args[1]->IsValid(i);
      case kFirstNulls:
      case kLast:
        return args[0]->IsValid(i) || args.size() < 2 || args[1]->IsNull(i) || args[1]->Get<uint8_t>(i) == 0;
      case kCountIf: return args[0]->IsValid(i) && args[0]->Get<uint8_t>(i) != 0;
      default:
        if (IsPairStat(kind_)) return args[0]->IsValid(i) && args[1]->IsValid(i);
        return args[0]->IsValid(i);
    }
  }
  void Add(uint32_t g, int64_t r) {
    auto& list = rows_[g];
    const size_t cap = list.capacity();
    list.push_back(r);
    lists_ += static_cast<int64_t>((list.capacity() - cap) * sizeof(int64_t));
  }
  void CopyGroup(const BufferedAgg& o, uint32_t src, uint32_t dst) {
    for (int64_t r : o.rows_[src]) {
      Add(dst, store_[0]->size());
      for (size_t a = 0; a < store_.size(); ++a) store_[a]->AppendFrom(*o.store_[a], r, 1);
    }
  }
  double D(size_t a, int64_t r) const { return store_[a]->Get<double>(r); }
  // Rows of a group sorted by argument 0 (all valid).
  std::vector<int64_t> Sorted(const std::vector<int64_t>& rows) const {
    std::vector<int64_t> s = rows;
    const Vector& v = *store_[0];
    std::stable_sort(s.begin(), s.end(), [&](int64_t x, int64_t y) { return CompareRows(v, x, v, y) < 0; });
    return s;
  }
  Status FinalizeGroup(const std::vector<int64_t>& rows, Vector* out);
  Status PercentileOf(const std::vector<int64_t>& rows, Vector* out);

  int kind_;
  TypePtr result_;
  std::vector<VectorPtr> store_;
  std::vector<std::vector<int64_t>> rows_;
  int64_t lists_ = 0;
};

Result<VectorPtr> BufferedAgg::Finalize() {
  auto out = Vector::Make(result_, num_groups_);
  for (int64_t g = 0; g < num_groups_; ++g) RETURN_NOT_OK(FinalizeGroup(rows_[g], out.get()));
  return out;
}

// percentile (exact, interpolated, DOUBLE) and percentile_approx (an element of the input,
// the smallest whose rank reaches the percentage); the percentage may be an array.
Status BufferedAgg::PercentileOf(const std::vector<int64_t>& rows, Vector* out) {
  const Vector& pv = *store_[1];
  int64_t r0 = rows[0];
  std::vector<double> ps;
  const bool many = pv.type()->id() == TypeId::kList;
  if (many) {
    const Vector& e = *pv.child(0);
    for (int64_t j = pv.offsets()[r0]; j < pv.offsets()[r0 + 1]; ++j) {
      if (e.IsNull(j)) return Status::InvalidArgument("percentage must not be NULL");
      ps.push_back(e.Get<double>(j));
    }
  } else {
    ps.push_back(pv.Get<double>(r0));
  }
  for (double p : ps) {
    if (!(p >= 0 && p <= 1)) {
      return Status::InvalidArgument("[INVALID_PARAMETER_VALUE] percentage must be between 0.0 and 1.0, got " +
                                     std::to_string(p));
    }
  }
  std::vector<int64_t> s = Sorted(rows);
  if (store_.size() > 2 && store_[2]->type()->id() == TypeId::kBoolean && store_[2]->Get<uint8_t>(r0)) {
    std::reverse(s.begin(), s.end());  // WITHIN GROUP (ORDER BY x DESC)
  }
  const double n = static_cast<double>(s.size());
  Vector* dst = many ? out->children()[0].get() : out;
  for (double p : ps) {
    if (kind_ == kPercentileDisc) {  // the first value whose cumulative distribution reaches p
      int64_t k = static_cast<int64_t>(std::ceil(p * n)) - 1;
      dst->Append<double>(D(0, s[std::clamp<int64_t>(k, 0, static_cast<int64_t>(s.size()) - 1)]));
      continue;
    }
    if (kind_ == kPercentileApprox) {
      int64_t k = static_cast<int64_t>(std::ceil(p * n)) - 1;
      k = std::clamp<int64_t>(k, 0, static_cast<int64_t>(s.size()) - 1);
      dst->AppendFrom(*store_[0], s[k], 1);
      continue;
    }
    double pos = p * (n - 1);
    auto lo = static_cast<int64_t>(std::floor(pos)), hi = static_cast<int64_t>(std::ceil(pos));
    double a = D(0, s[lo]), b = D(0, s[hi]);
    dst->Append<double>(lo == hi ? a : a + (pos - static_cast<double>(lo)) * (b - a));
  }
  if (many) out->AppendListEnd();
  return Status::OK();
}

Status BufferedAgg::FinalizeGroup(const std::vector<int64_t>& rows, Vector* out) {
  const auto n = static_cast<int64_t>(rows.size());
  switch (kind_) {
    case kCountIf:
    case kApproxCountDistinct: {
      int64_t c = n;
      if (kind_ == kApproxCountDistinct) {
        std::vector<int64_t> s = Sorted(rows);
        c = 0;
        for (size_t k = 0; k < s.size(); ++k) c += k == 0 || CompareRows(*store_[0], s[k - 1], *store_[0], s[k]) != 0;
      }
      out->Append<int64_t>(c);
      return Status::OK();
    }
    case kRegrCount: out->Append<int64_t>(n); return Status::OK();
    default: break;
  }
  if (n == 0) {
    out->AppendNull();
    return Status::OK();
  }
  switch (kind_) {
    case kMaxBy:
    case kMinBy: {
      const Vector& o = *store_[1];
      int64_t best = rows[0];
      for (int64_t r : rows) {
        int c = CompareRows(o, r, o, best);
        if (kind_ == kMaxBy ? c > 0 : c < 0) best = r;
      }
      out->AppendFrom(*store_[0], best, 1);
      return Status::OK();
    }
    case kFirstNulls: out->AppendFrom(*store_[0], rows.front(), 1); return Status::OK();
    case kLast: out->AppendFrom(*store_[0], rows.back(), 1); return Status::OK();
    case kBitAnd:
    case kBitOr:
    case kBitXor: {
      int64_t acc = kind_ == kBitAnd ? -1 : 0;
      for (int64_t r : rows) {
        int64_t v = store_[0]->Get<int64_t>(r);
        acc = kind_ == kBitAnd ? (acc & v) : kind_ == kBitOr ? (acc | v) : (acc ^ v);
      }
      out->Append<int64_t>(acc);
      return Status::OK();
    }
    case kCollectSet: {
      std::vector<int64_t> s = Sorted(rows);
      Vector* e = out->children()[0].get();
      for (size_t k = 0; k < s.size(); ++k) {
        if (k == 0 || CompareRows(*store_[0], s[k - 1], *store_[0], s[k]) != 0) e->AppendFrom(*store_[0], s[k], 1);
      }
      out->AppendListEnd();
      return Status::OK();
    }
    case kMode: {
      std::vector<int64_t> s = Sorted(rows);
      int64_t best = s[0], best_count = 0;
      for (size_t k = 0; k < s.size();) {
        size_t j = k;
        while (j < s.size() && CompareRows(*store_[0], s[k], *store_[0], s[j]) == 0) ++j;
        if (static_cast<int64_t>(j - k) > best_count) {
          best_count = static_cast<int64_t>(j - k);
          best = s[k];
        }
        k = j;
      }
      out->AppendFrom(*store_[0], best, 1);
      return Status::OK();
    }
    case kMedian:
    case kPercentile:
    case kPercentileApprox:
    case kPercentileCont:
    case kPercentileDisc: {
      if (kind_ != kMedian) return PercentileOf(rows, out);
      std::vector<int64_t> s = Sorted(rows);
      double a = D(0, s[(n - 1) / 2]), b = D(0, s[n / 2]);
      out->Append<double>(a + (b - a) / 2);
      return Status::OK();
    }
    case kTrySum:
    case kTryAvg: {
      if (store_[0]->type()->id() == TypeId::kInt64) {
        int64_t sum = 0;
        for (int64_t r : rows) {
          if (__builtin_add_overflow(sum, store_[0]->Get<int64_t>(r), &sum)) {
            out->AppendNull();
            return Status::OK();
          }
        }
        if (kind_ == kTrySum) out->Append<int64_t>(sum);
        else out->Append<double>(static_cast<double>(sum) / static_cast<double>(n));
        return Status::OK();
      }
      double sum = 0;
      for (int64_t r : rows) sum += D(0, r);
      out->Append<double>(kind_ == kTrySum ? sum : sum / static_cast<double>(n));
      return Status::OK();
    }
    case kSkewness:
    case kKurtosis: {
      double mean = 0;
      for (int64_t r : rows) mean += D(0, r);
      mean /= static_cast<double>(n);
      double m2 = 0, m3 = 0, m4 = 0;
      for (int64_t r : rows) {
        double d = D(0, r) - mean;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
      }
      if (m2 == 0) {
        out->AppendNull();
        return Status::OK();
      }
      double nn = static_cast<double>(n);
      out->Append<double>(kind_ == kSkewness ? std::sqrt(nn) * m3 / std::sqrt(m2 * m2 * m2) : nn * m4 / (m2 * m2) - 3);
      return Status::OK();
    }
    default: break;
  }
  // Pair statistics: argument 0 is y, argument 1 is x for regr_*; corr/covar are symmetric.
  PairSums p;
  double mx = 0, my = 0;
  for (int64_t r : rows) {
    my += D(0, r);
    mx += D(1, r);
  }
  p.n = static_cast<double>(n);
  mx /= p.n;
  my /= p.n;
  for (int64_t r : rows) {
    double dy = D(0, r) - my, dx = D(1, r) - mx;
    p.sxx += dx * dx;
    p.syy += dy * dy;
    p.sxy += dx * dy;
  }
  double v = 0;
  switch (kind_) {
    case kCorr:
      if (p.sxx == 0 || p.syy == 0) {
        out->AppendNull();
        return Status::OK();
      }
      v = p.sxy / std::sqrt(p.sxx * p.syy);
      break;
    case kCovarPop: v = p.sxy / p.n; break;
    case kCovarSamp:
      if (n < 2) {
        out->AppendNull();
        return Status::OK();
      }
      v = p.sxy / (p.n - 1);
      break;
    case kRegrAvgX: v = mx; break;
    case kRegrAvgY: v = my; break;
    case kRegrSxx: v = p.sxx; break;
    case kRegrSyy: v = p.syy; break;
    case kRegrSxy: v = p.sxy; break;
    case kRegrSlope:
    case kRegrIntercept:
    case kRegrR2:
      if (p.sxx == 0 || (kind_ == kRegrR2 && p.syy == 0)) {
        if (kind_ == kRegrR2 && p.sxx != 0) {
          v = 1;
          break;
        }
        out->AppendNull();
        return Status::OK();
      }
      v = kind_ == kRegrSlope ? p.sxy / p.sxx
          : kind_ == kRegrIntercept ? my - p.sxy / p.sxx * mx
                                    : p.sxy * p.sxy / (p.sxx * p.syy);
      break;
    default: return Status::Internal("unknown buffered aggregate kind " + std::to_string(kind_));
  }
  out->Append<double>(v);
  return Status::OK();
}

bool Orderable(const TypePtr& t) { return t->id() != TypeId::kMap; }

}  // namespace

int BufferedAggregateKind(std::string_view lower_name, size_t num_args) {
  if ((lower_name == "first" || lower_name == "first_value") && num_args == 2) return kFirstNulls;
  for (const auto& nk : kNames) {
    if (lower_name == nk.name) return nk.kind;
  }
  return 0;
}

bool BufferedAggregateIgnoresNulls(int kind) {
  return kind != kMaxBy && kind != kMinBy && kind != kFirstNulls && kind != kLast;
}

bool ResolveBufferedAggregate(int kind, const std::vector<TypePtr>& args, AggregateBinding* b) {
  auto dbl = columnar::Float64();
  auto numeric = [](const TypePtr& t) { return t->IsNumeric() || t->id() == TypeId::kNull; };
  const size_t n = args.size();
  switch (kind) {
    case kCountIf:
      if (n != 1 || (args[0]->id() != TypeId::kBoolean && args[0]->id() != TypeId::kNull)) return false;
      b->arg_types = {columnar::Boolean()};
      b->result_type = columnar::Int64();
      return true;
    case kMaxBy:
    case kMinBy:
      if (n != 2 || !Orderable(args[1])) return false;
      b->arg_types = {args[0]->id() == TypeId::kNull ? columnar::Int32() : args[0], args[1]};
      b->result_type = b->arg_types[0];
      return true;
    case kBitAnd:
    case kBitOr:
    case kBitXor:
      if (n != 1 || !(args[0]->IsInteger() || args[0]->id() == TypeId::kNull)) return false;
      b->arg_types = {columnar::Int64()};
      b->result_type = columnar::Int64();
      return true;
    case kCollectSet:
    case kMode:
    case kApproxCountDistinct:
      if (n != 1 || !Orderable(args[0])) return false;
      b->arg_types = {args[0]->id() == TypeId::kNull ? columnar::Int32() : args[0]};
      b->result_type = kind == kCollectSet ? columnar::List(b->arg_types[0])
                       : kind == kMode     ? b->arg_types[0]
                                           : columnar::Int64();
      return true;
    case kSkewness:
    case kKurtosis:
    case kMedian:
      if (n != 1 || !numeric(args[0])) return false;
      b->arg_types = {dbl};
      b->result_type = dbl;
      return true;
    case kPercentile:
    case kPercentileApprox: {
      if (n < 2 || n > 3) return false;
      if (n == 3 && !args[2]->IsInteger()) return false;
      TypePtr t = args[0]->id() == TypeId::kNull ? dbl : args[0];
      if (kind == kPercentile ? !numeric(t) : !(t->IsNumeric() || t->id() == TypeId::kDate || t->IsTemporal())) {
        return false;
      }
      if (kind == kPercentile) t = dbl;
      bool many = args[1]->id() == TypeId::kList;
      if (!many && !numeric(args[1])) return false;
      if (many && !numeric(args[1]->element())) return false;
      b->arg_types = {t, many ? columnar::List(dbl) : dbl};
      if (n == 3) b->arg_types.push_back(columnar::Int64());
      b->result_type = many ? columnar::List(t) : t;
      return true;
    }
    case kPercentileCont:
    case kPercentileDisc:
      if (n != 3 || !numeric(args[0]) || !numeric(args[1]) || args[2]->id() != TypeId::kBoolean) return false;
      b->arg_types = {dbl, dbl, columnar::Boolean()};
      b->result_type = dbl;
      return true;
    case kFirstNulls:
    case kLast:
      if (n < 1 || n > 2 || (n == 2 && args[1]->id() != TypeId::kBoolean)) return false;
      b->arg_types = {args[0]->id() == TypeId::kNull ? columnar::Int32() : args[0]};
      if (n == 2) b->arg_types.push_back(columnar::Boolean());
      b->result_type = b->arg_types[0];
      return true;
    case kTrySum:
    case kTryAvg:
      if (n != 1 || !numeric(args[0])) return false;
      b->arg_types = {args[0]->IsInteger() ? columnar::Int64() : dbl};
      b->result_type = kind == kTrySum ? b->arg_types[0] : dbl;
      return true;
    default:
      if (!IsPairStat(kind) || n != 2 || !numeric(args[0]) || !numeric(args[1])) return false;
      b->arg_types = {dbl, dbl};
      b->result_type = kind == kRegrCount ? columnar::Int64() : dbl;
      return true;
  }
}

std::unique_ptr<GroupedAggregate> MakeBufferedAggregate(const AggregateBinding& b) {
  return std::make_unique<BufferedAgg>(b);
}

}  // namespace shoal::expr
