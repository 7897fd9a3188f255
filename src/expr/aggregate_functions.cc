#include "expr/aggregate_functions.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_set>

#include "columnar/decimal.h"
#include "columnar/value.h"
#include "columnar/value_text.h"
#include "expr/aggregate_functions_buffered.h"
#include "expr/aggregate_string_pick.h"
#include "expr/arithmetic.h"
#include "expr/comparison.h"
#include "expr/physical_type.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::TypePtr;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

template <typename T>
int64_t CapacityBytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}

// Heap bytes of a string beyond the object itself (none while it fits the short-string buffer).
int64_t HeapBytes(const std::string& s) {
  return s.capacity() > std::string().capacity() ? static_cast<int64_t>(s.capacity()) + 1 : 0;
}

enum Kind : int {
  kCountStar = 1,
  kCount,
  kSumInt,
  kSumDecimal,
  kSumDouble,
  kAvgDouble,
  kAvgDecimal,
  kMin,
  kMax,
  kFirst,
  kBoolAnd,
  kBoolOr,
  kStringAgg,
  kCollectList,
  kVarSamp,
  kVarPop,
  kStddevSamp,
  kStddevPop,
};

// ---- count

class CountAgg final : public GroupedAggregate {
 public:
  explicit CountAgg(bool star) : star_(star) {}
  void Resize(int64_t n) override {
    counts_.resize(n, 0);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    if (star_ || !args[0]->MayHaveNulls()) {
      for (int64_t i = 0; i < n; ++i) ++counts_[g[i]];
    } else {
      const uint8_t* valid = args[0]->validity().data();
      for (int64_t i = 0; i < n; ++i) counts_[g[i]] += valid[i];
    }
    return Status::OK();
  }
  Status UpdateOneGroup(uint32_t g, const std::vector<const Vector*>& args, int64_t n) override {
    if (star_ || !args[0]->MayHaveNulls()) {
      counts_[g] += n;
      return Status::OK();
    }
    const uint8_t* valid = args[0]->validity().data();
    int64_t c = 0;
    for (int64_t i = 0; i < n; ++i) c += valid[i] != 0;
    counts_[g] += c;
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<CountAgg&>(other);
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      if (map[i] != kSkipGroup) counts_[map[i]] += o.counts_[i];
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<CountAgg&>(other);
    for (int64_t k = 0; k < n; ++k) counts_[dst[k]] += o.counts_[src[k]];
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = Vector::Make(columnar::Int64(), num_groups_);
    out->Resize(num_groups_);
    if (num_groups_ > 0) std::memcpy(out->data<int64_t>(), counts_.data(), sizeof(int64_t) * num_groups_);
    return out;
  }

  int64_t MemoryBytes() const override { return CapacityBytes(counts_); }

 private:
  bool star_;
  std::vector<int64_t> counts_;
};

// ---- sum / avg with an accumulator type Acc. DECIMAL sums (Acc = int128_t) of 64-bit
// decimals add into a per-group int64 `pending_` and spill into the int128 sum only when that
// addition overflows, so the hot loop is one checked 64-bit add per row.

template <typename Acc>
class SumLikeAgg final : public GroupedAggregate {
  static constexpr bool kWide = std::is_same_v<Acc, int128_t>;

 public:
  SumLikeAgg(int kind, TypePtr arg, TypePtr result) : kind_(kind), arg_(std::move(arg)), result_(std::move(result)) {}
  void Resize(int64_t n) override {
    sums_.resize(n, Acc{});
    counts_.resize(n, 0);
    if constexpr (kWide) pending_.resize(n, 0);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    if constexpr (std::is_same_v<Acc, double>) {
      const double* d = v.data<double>();
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        sums_[g[i]] += d[i];
        ++counts_[g[i]];
      }
    } else if constexpr (std::is_same_v<Acc, int64_t>) {
      const int64_t* d = v.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        const uint32_t gi = g[i];
        ++counts_[gi];
        if (__builtin_add_overflow(sums_[gi], d[i], &sums_[gi])) return BigintOverflow();
      }
    } else if (!v.type()->IsWideDecimal()) {
      const int64_t* d = v.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        const uint32_t gi = g[i];
        ++counts_[gi];
        int64_t r;
        if (__builtin_add_overflow(pending_[gi], d[i], &r)) {
          RETURN_NOT_OK(AddWide(gi, pending_[gi]));
          r = d[i];
        }
        pending_[gi] = r;
      }
    } else {
      // 128-bit values: an inline overflow check per row; the 38-digit bound is checked when
      // the sum is read (Combine, Finalize).
      const int128_t* d = v.data<int128_t>();
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        const uint32_t gi = g[i];
        ++counts_[gi];
        if (__builtin_add_overflow(sums_[gi], d[i], &sums_[gi])) return WideOverflow();
      }
    }
    return Status::OK();
  }
  // The same additions in the same order as Update, with the group's state in registers.
  Status UpdateOneGroup(uint32_t g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    int64_t count = 0;
    if constexpr (std::is_same_v<Acc, double>) {
      const double* d = v.data<double>();
      double sum = sums_[g];
      if (!valid) {
        for (int64_t i = 0; i < n; ++i) sum += d[i];
        count = n;
      } else {
        for (int64_t i = 0; i < n; ++i) {
          if (!valid[i]) continue;
          sum += d[i];
          ++count;
        }
      }
      sums_[g] = sum;
    } else if constexpr (std::is_same_v<Acc, int64_t>) {
      const int64_t* d = v.data<int64_t>();
      int64_t sum = sums_[g];
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        ++count;
        if (__builtin_add_overflow(sum, d[i], &sum)) {
          counts_[g] += count;
          return BigintOverflow();
        }
      }
      sums_[g] = sum;
    } else if (!v.type()->IsWideDecimal()) {
      const int64_t* d = v.data<int64_t>();
      int64_t sum = pending_[g];
      int128_t spilled = 0;  // |spilled| < n * 2^64: no int128 overflow
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        ++count;
        int64_t r;
        if (__builtin_add_overflow(sum, d[i], &r)) {
          spilled += sum;
          r = d[i];
        }
        sum = r;
      }
      pending_[g] = sum;
      if (spilled != 0) RETURN_NOT_OK(AddWide(g, spilled));
    } else {
      // 128-bit values (DECIMAL(15,2) * DECIMAL(15,2) is DECIMAL(31,4)): the sum in registers,
      // an inline overflow check per row as in Update.
      const int128_t* d = v.data<int128_t>();
      int128_t sum = sums_[g];
      for (int64_t i = 0; i < n; ++i) {
        if (valid && !valid[i]) continue;
        ++count;
        if (__builtin_add_overflow(sum, d[i], &sum)) {
          counts_[g] += count;
          return WideOverflow();
        }
      }
      sums_[g] = sum;
    }
    counts_[g] += count;
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<SumLikeAgg&>(other);
    if constexpr (kWide) RETURN_NOT_OK(o.CheckWide());
    if constexpr (kWide) RETURN_NOT_OK(o.FlushPending());
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      if (!o.counts_[i] || map[i] == kSkipGroup) continue;
      const uint32_t gi = map[i];
      counts_[gi] += o.counts_[i];
      if constexpr (std::is_same_v<Acc, double>) {
        sums_[gi] += o.sums_[i];
      } else if constexpr (std::is_same_v<Acc, int64_t>) {
        if (__builtin_add_overflow(sums_[gi], o.sums_[i], &sums_[gi])) return BigintOverflow();
      } else {
        RETURN_NOT_OK(AddWide(gi, o.sums_[i]));
      }
    }
    return Status::OK();
  }
  Status PrepareCombine() override {
    if constexpr (kWide) RETURN_NOT_OK(CheckWide());
    if constexpr (kWide) RETURN_NOT_OK(FlushPending());
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<SumLikeAgg&>(other);
    if constexpr (kWide) RETURN_NOT_OK(o.CheckWide());
    if constexpr (kWide) RETURN_NOT_OK(o.FlushPending());
    for (int64_t k = 0; k < n; ++k) {
      const uint32_t i = src[k];
      if (!o.counts_[i]) continue;
      const uint32_t gi = dst[k];
      counts_[gi] += o.counts_[i];
      if constexpr (std::is_same_v<Acc, double>) {
        sums_[gi] += o.sums_[i];
      } else if constexpr (std::is_same_v<Acc, int64_t>) {
        if (__builtin_add_overflow(sums_[gi], o.sums_[i], &sums_[gi])) return BigintOverflow();
      } else {
        RETURN_NOT_OK(AddWide(gi, o.sums_[i]));
      }
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    if constexpr (kWide) RETURN_NOT_OK(CheckWide());
    if constexpr (kWide) RETURN_NOT_OK(FlushPending());
    auto out = Vector::Make(result_, num_groups_);
    for (int64_t gi = 0; gi < num_groups_; ++gi) {
      if (counts_[gi] == 0) {
        out->AppendNull();
        continue;
      }
      Acc s = sums_[gi];
      if constexpr (std::is_same_v<Acc, double>) {
        out->template Append<double>(kind_ == kAvgDouble ? s / static_cast<double>(counts_[gi]) : s);
      } else if constexpr (std::is_same_v<Acc, int64_t>) {
        out->template Append<int64_t>(s);
      } else {
        int128_t v = s;
        if (kind_ == kAvgDecimal) {
          int k = result_->scale() - arg_->scale();
          int128_t c = counts_[gi];
          int128_t q = v / c, r = v % c;
          int128_t scaled;
          if (__builtin_mul_overflow(q, columnar::Pow10(k), &scaled)) {
            return Status::OutOfRange("Overflow in AVG of " + arg_->ToString());
          }
          v = scaled + DivRoundHalfAway(r * columnar::Pow10(k), c);
          if (v > columnar::MaxUnscaled(result_->precision()) || v < -columnar::MaxUnscaled(result_->precision())) {
            return Status::OutOfRange("Overflow in AVG of " + arg_->ToString());
          }
        }
        if (kind_ == kSumDecimal && (v > columnar::MaxUnscaled(result_->precision()) ||
                                     v < -columnar::MaxUnscaled(result_->precision()))) {
          return Status::OutOfRange("Overflow in SUM of " + arg_->ToString() + " values: the sum does not fit " +
                                    result_->ToString());
        }
        if (result_->IsWideDecimal()) out->template Append<int128_t>(v);
        else out->template Append<int64_t>(static_cast<int64_t>(v));
      }
    }
    return out;
  }

  int64_t MemoryBytes() const override {
    return CapacityBytes(sums_) + CapacityBytes(counts_) + CapacityBytes(pending_);
  }

 private:
  static Status BigintOverflow() { return Status::OutOfRange("Overflow in SUM of BIGINT values"); }
  Status AddWide(uint32_t g, int128_t x) {
    static const int128_t kMax = columnar::MaxUnscaled(38);
    int128_t s;
    if (__builtin_add_overflow(sums_[g], x, &s) || s > kMax || s < -kMax) return WideOverflow();
    sums_[g] = s;
    return Status::OK();
  }
  Status WideOverflow() const {
    return Status::OutOfRange("Overflow in SUM of DECIMAL(38," + std::to_string(arg_->scale()) + ") values");
  }
  // Sums of 128-bit values are kept unbounded by 38 digits while rows are added; this checks them.
  Status CheckWide() const {
    static const int128_t kMax = columnar::MaxUnscaled(38);
    for (int64_t gi = 0; gi < num_groups_; ++gi) {
      if (sums_[gi] > kMax || sums_[gi] < -kMax) return WideOverflow();
    }
    return Status::OK();
  }
  // Moves every group's int64 pending sum into its int128 sum.
  Status FlushPending() {
    for (int64_t gi = 0; gi < num_groups_; ++gi) {
      if (pending_[gi] == 0) continue;
      RETURN_NOT_OK(AddWide(static_cast<uint32_t>(gi), pending_[gi]));
      pending_[gi] = 0;
    }
    return Status::OK();
  }

  int kind_;
  TypePtr arg_, result_;
  std::vector<Acc> sums_;
  std::vector<int64_t> counts_;
  std::vector<int64_t> pending_;  // kWide only: not yet added to sums_
};

// ---- min / max / first / bool_and / bool_or on fixed-width types; the kind is a template
// parameter of the row loops so they carry no per-row dispatch.

template <typename T>
class FixedPickAgg final : public GroupedAggregate {
 public:
  FixedPickAgg(int kind, TypePtr type) : kind_(kind), type_(std::move(type)) {}
  void Resize(int64_t n) override {
    vals_.resize(n, T{});
    has_.resize(n, 0);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const T* d = v.data<T>();
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    Dispatch([&](auto k) {
      for (int64_t i = 0; i < n; ++i) {
        if (!valid || valid[i]) Offer<decltype(k)::value>(g[i], d[i]);
      }
    });
    return Status::OK();
  }
  Status UpdateOneGroup(uint32_t g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const T* d = v.data<T>();
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    int64_t i = 0;
    if (valid) {
      while (i < n && !valid[i]) ++i;
    }
    if (i == n) return Status::OK();
    Dispatch([&](auto k) {
      constexpr int K = decltype(k)::value;
      T best = d[i];
      if constexpr (K != kFirst) {
        for (++i; i < n; ++i) {
          if (!valid || valid[i]) best = Fold<K>(best, d[i]);
        }
      }
      Offer<K>(g, best);
    });
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<FixedPickAgg&>(other);
    Dispatch([&](auto k) {
      for (int64_t i = 0; i < o.num_groups_; ++i) {
        if (o.has_[i] && map[i] != kSkipGroup) Offer<decltype(k)::value>(map[i], o.vals_[i]);
      }
    });
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<FixedPickAgg&>(other);
    Dispatch([&](auto k) {
      for (int64_t j = 0; j < n; ++j) {
        if (o.has_[src[j]]) Offer<decltype(k)::value>(dst[j], o.vals_[src[j]]);
      }
    });
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = Vector::Make(type_, num_groups_);
    for (int64_t i = 0; i < num_groups_; ++i) {
      if (has_[i]) out->template Append<T>(vals_[i]);
      else out->AppendNull();
    }
    return out;
  }

  int64_t MemoryBytes() const override { return CapacityBytes(vals_) + CapacityBytes(has_); }

 private:
  template <typename F>
  void Dispatch(F&& f) const {
    switch (kind_) {
      case kMin: f(std::integral_constant<int, kMin>{}); break;
      case kMax: f(std::integral_constant<int, kMax>{}); break;
      case kBoolAnd: f(std::integral_constant<int, kBoolAnd>{}); break;
      case kBoolOr: f(std::integral_constant<int, kBoolOr>{}); break;
      default: f(std::integral_constant<int, kFirst>{}); break;
    }
  }
  static int Cmp(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      bool an = std::isnan(a), bn = std::isnan(b);
      if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
    }
    return a < b ? -1 : (b < a ? 1 : 0);
  }
  // The pick of `cur` (the earlier value) and `x`.
  template <int K>
  static T Fold(T cur, T x) {
    if constexpr (K == kMin) return Cmp(x, cur) < 0 ? x : cur;
    else if constexpr (K == kMax) return Cmp(x, cur) > 0 ? x : cur;
    else if constexpr (K == kBoolAnd) return static_cast<T>(cur && x);
    else if constexpr (K == kBoolOr) return static_cast<T>(cur || x);
    else return cur;
  }
  template <int K>
  void Offer(uint32_t g, T x) {
    if (!has_[g]) {
      vals_[g] = x;
      has_[g] = 1;
      return;
    }
    vals_[g] = Fold<K>(vals_[g], x);
  }

  int kind_;
  TypePtr type_;
  std::vector<T> vals_;
  std::vector<uint8_t> has_;
};

// ---- min / max / first on any type: keeps (vector, row) of the current pick per group in a
// values vector it appends candidates to.

class GenericPickAgg final : public GroupedAggregate {
 public:
  GenericPickAgg(int kind, TypePtr type) : kind_(kind), store_(Vector::Make(std::move(type))) {}
  void Resize(int64_t n) override {
    pick_.resize(n, -1);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    return Offer(*args[0], n, [&](int64_t i) { return g[i]; });
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<GenericPickAgg&>(other);
    // Offer other's picks, row by row of its store where it is a current pick.
    std::vector<int64_t> owner(o.store_->size(), -1);
    for (int64_t gi = 0; gi < o.num_groups_; ++gi) {
      if (o.pick_[gi] >= 0) owner[o.pick_[gi]] = gi;
    }
    for (int64_t r = 0; r < o.store_->size(); ++r) {
      if (owner[r] < 0) continue;
      uint32_t g = map[owner[r]];
      if (g == kSkipGroup) continue;
      RETURN_NOT_OK(OfferRow(*o.store_, r, g));
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<GenericPickAgg&>(other);
    for (int64_t k = 0; k < n; ++k) {
      if (o.pick_[src[k]] >= 0) RETURN_NOT_OK(OfferRow(*o.store_, o.pick_[src[k]], dst[k]));
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    return columnar::GatherOrNull(*store_, pick_.data(), num_groups_);
  }

  int64_t MemoryBytes() const override { return store_->MemoryBytes() + CapacityBytes(pick_); }

 private:
  template <typename GroupOf>
  Status Offer(const Vector& v, int64_t n, GroupOf group_of) {
    for (int64_t i = 0; i < n; ++i) {
      if (v.IsNull(i)) continue;
      RETURN_NOT_OK(OfferRow(v, i, group_of(i)));
    }
    return Status::OK();
  }
  Status OfferRow(const Vector& v, int64_t i, uint32_t g) {
    int64_t cur = pick_[g];
    bool take = cur < 0;
    if (!take && kind_ != kFirst) {
      int c = CompareRows(v, i, *store_, cur);
      take = kind_ == kMin ? c < 0 : c > 0;
    }
    if (take) {
      store_->AppendFrom(v, i, 1);
      pick_[g] = store_->size() - 1;
      ++garbage_;
      if (garbage_ > 1024 && garbage_ > 2 * num_groups_) Compact();
    }
    return Status::OK();
  }
  void Compact() {
    VectorPtr fresh = Vector::Make(store_->type());
    for (int64_t gi = 0; gi < num_groups_; ++gi) {
      if (pick_[gi] < 0) continue;
      fresh->AppendFrom(*store_, pick_[gi], 1);
      pick_[gi] = fresh->size() - 1;
    }
    store_ = fresh;
    garbage_ = 0;
  }

  int kind_;
  VectorPtr store_;
  std::vector<int64_t> pick_;
  int64_t garbage_ = 0;
};

// ---- string_agg

class StringAggAgg final : public GroupedAggregate {
 public:
  void Resize(int64_t n) override {
    text_.resize(n);
    lead_sep_.resize(n);
    has_.resize(n, 0);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const Vector* sep = args.size() > 1 ? args[1] : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      if (v.IsNull(i)) continue;
      std::string_view s = sep ? (sep->IsNull(i) ? std::string_view() : sep->GetString(i)) : std::string_view(",");
      Append(g[i], v.GetString(i), s);
    }
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<StringAggAgg&>(other);
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      if (!o.has_[i] || map[i] == kSkipGroup) continue;
      MergeGroup(o, i, map[i]);
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<StringAggAgg&>(other);
    for (int64_t k = 0; k < n; ++k) {
      const uint32_t i = src[k];
      if (!o.has_[i]) continue;
      MergeGroup(o, i, dst[k]);
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = Vector::Make(columnar::String(), num_groups_);
    for (int64_t i = 0; i < num_groups_; ++i) {
      if (has_[i]) out->AppendString(text_[i]);
      else out->AppendNull();
    }
    return out;
  }

  int64_t MemoryBytes() const override {
    return CapacityBytes(text_) + CapacityBytes(lead_sep_) + CapacityBytes(has_) + heap_;
  }

 private:
  void Append(uint32_t g, std::string_view s, std::string_view sep) {
    const int64_t before = HeapBytes(text_[g]) + HeapBytes(lead_sep_[g]);
    if (has_[g]) text_[g].append(sep);
    else lead_sep_[g].assign(sep);
    text_[g].append(s);
    has_[g] = 1;
    heap_ += HeapBytes(text_[g]) + HeapBytes(lead_sep_[g]) - before;
  }
  // Appends other's group i to group g.
  void MergeGroup(const StringAggAgg& o, uint32_t i, uint32_t g) {
    const int64_t before = HeapBytes(text_[g]) + HeapBytes(lead_sep_[g]);
    if (!has_[g]) {
      text_[g] = o.text_[i];
      lead_sep_[g] = o.lead_sep_[i];
      has_[g] = 1;
    } else {
      text_[g] += o.lead_sep_[i];
      text_[g] += o.text_[i];
    }
    heap_ += HeapBytes(text_[g]) + HeapBytes(lead_sep_[g]) - before;
  }
  std::vector<std::string> text_;
  std::vector<std::string> lead_sep_;  // separator of the group's first row, used by Combine
  std::vector<uint8_t> has_;
  int64_t heap_ = 0;  // heap bytes of text_ and lead_sep_ strings
};

// ---- collect_list

class CollectListAgg final : public GroupedAggregate {
 public:
  CollectListAgg(TypePtr element, TypePtr result)
      : result_(std::move(result)), store_(Vector::Make(std::move(element))) {}
  void Resize(int64_t n) override {
    rows_.resize(n);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    for (int64_t i = 0; i < n; ++i) {
      if (v.IsNull(i)) continue;
      Add(g[i], store_->size());
      store_->AppendFrom(v, i, 1);
    }
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<CollectListAgg&>(other);
    bool skips = false;
    for (int64_t i = 0; i < o.num_groups_ && !skips; ++i) skips = map[i] == kSkipGroup;
    if (!skips) {
      int64_t base = store_->size();
      store_->AppendFrom(*o.store_, 0, o.store_->size());
      for (int64_t i = 0; i < o.num_groups_; ++i) {
        for (int64_t r : o.rows_[i]) Add(map[i], base + r);
      }
      return Status::OK();
    }
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      if (map[i] == kSkipGroup) continue;
      for (int64_t r : o.rows_[i]) {
        Add(map[i], store_->size());
        store_->AppendFrom(*o.store_, r, 1);
      }
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<CollectListAgg&>(other);
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t r : o.rows_[src[k]]) {
        Add(dst[k], store_->size());
        store_->AppendFrom(*o.store_, r, 1);
      }
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = std::make_shared<Vector>(result_);
    std::vector<int64_t> sel;
    out->values().Resize(sizeof(int64_t) * (num_groups_ + 1));
    int64_t* off = out->offsets();
    off[0] = 0;
    for (int64_t i = 0; i < num_groups_; ++i) {
      sel.insert(sel.end(), rows_[i].begin(), rows_[i].end());
      off[i + 1] = static_cast<int64_t>(sel.size());
    }
    out->children()[0] = columnar::GatherOrNull(*store_, sel.data(), static_cast<int64_t>(sel.size()));
    out->SetLength(num_groups_);
    // Groups without non-NULL input are NULL.
    for (int64_t i = 0; i < num_groups_; ++i) {
      if (rows_[i].empty()) out->MutableValidity()[i] = 0;
    }
    return out;
  }

  int64_t MemoryBytes() const override {
    return store_->MemoryBytes() + CapacityBytes(rows_) + lists_;
  }

 private:
  // Appends store row r to group g's list.
  void Add(uint32_t g, int64_t r) {
    auto& list = rows_[g];
    const size_t cap = list.capacity();
    list.push_back(r);
    lists_ += static_cast<int64_t>((list.capacity() - cap) * sizeof(int64_t));
  }

  TypePtr result_;
  VectorPtr store_;
  std::vector<std::vector<int64_t>> rows_;
  int64_t lists_ = 0;  // bytes of the rows_ lists' arrays
};

// ---- variance family (Welford, Chan et al. for Combine)

class VarianceAgg final : public GroupedAggregate {
 public:
  explicit VarianceAgg(int kind) : kind_(kind) {}
  void Resize(int64_t n) override {
    st_.resize(n);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    for (int64_t i = 0; i < n; ++i) {
      if (v.IsNull(i)) continue;
      State& s = st_[g[i]];
      double x = v.Get<double>(i);
      s.n += 1;
      double d = x - s.mean;
      s.mean += d / s.n;
      s.m2 += d * (x - s.mean);
    }
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<VarianceAgg&>(other);
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      const State& b = o.st_[i];
      if (b.n == 0 || map[i] == kSkipGroup) continue;
      State& a = st_[map[i]];
      double n = a.n + b.n;
      double d = b.mean - a.mean;
      a.mean += d * b.n / n;
      a.m2 += b.m2 + d * d * a.n * b.n / n;
      a.n = n;
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<VarianceAgg&>(other);
    for (int64_t k = 0; k < n; ++k) {
      const State& b = o.st_[src[k]];
      if (b.n == 0) continue;
      State& a = st_[dst[k]];
      double total = a.n + b.n;
      double d = b.mean - a.mean;
      a.mean += d * b.n / total;
      a.m2 += b.m2 + d * d * a.n * b.n / total;
      a.n = total;
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = Vector::Make(columnar::Float64(), num_groups_);
    bool samp = kind_ == kVarSamp || kind_ == kStddevSamp;
    for (int64_t i = 0; i < num_groups_; ++i) {
      const State& s = st_[i];
      if (s.n == 0 || (samp && s.n < 2)) {
        out->AppendNull();
        continue;
      }
      double var = s.m2 / (samp ? s.n - 1 : s.n);
      out->Append<double>(kind_ == kStddevSamp || kind_ == kStddevPop ? std::sqrt(var) : var);
    }
    return out;
  }

  int64_t MemoryBytes() const override { return CapacityBytes(st_); }

 private:
  struct State {
    double n = 0, mean = 0, m2 = 0;
  };
  int kind_;
  std::vector<State> st_;
};

// ---- DISTINCT: forwards only the first occurrence of each (group, value) to the inner
// aggregate and keeps those values for Combine.

class DistinctAgg final : public GroupedAggregate {
 public:
  DistinctAgg(std::unique_ptr<GroupedAggregate> inner, std::vector<TypePtr> types) : inner_(std::move(inner)) {
    for (auto& t : types) kept_.push_back(Vector::Make(t));
  }
  void Resize(int64_t n) override {
    inner_->Resize(n);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    std::vector<uint32_t> sel, groups;
    std::string key;
    for (int64_t i = 0; i < n; ++i) {
      if (args[0]->IsNull(i)) continue;  // NULLs never count
      key.assign(reinterpret_cast<const char*>(&g[i]), sizeof(uint32_t));
      for (const Vector* a : args) AppendKey(*a, i, &key);
      if (seen_.insert(key).second) {
        seen_bytes_ +=
            kSeenNodeBytes +
            (key.size() > std::string().capacity() ? static_cast<int64_t>(key.size()) + 1 : 0);
        sel.push_back(static_cast<uint32_t>(i));
        groups.push_back(g[i]);
      }
    }
    if (sel.empty()) return Status::OK();
    std::vector<VectorPtr> gathered;
    std::vector<const Vector*> ptrs;
    for (size_t a = 0; a < args.size(); ++a) {
      gathered.push_back(columnar::Gather(*args[a], sel.data(), static_cast<int64_t>(sel.size())));
      ptrs.push_back(gathered.back().get());
      kept_[a]->AppendFrom(*gathered.back(), 0, gathered.back()->size());
    }
    kept_groups_.insert(kept_groups_.end(), groups.begin(), groups.end());
    return inner_->Update(groups.data(), ptrs, static_cast<int64_t>(groups.size()));
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<DistinctAgg&>(other);
    std::vector<uint32_t> groups, sel;
    for (size_t i = 0; i < o.kept_groups_.size(); ++i) {
      uint32_t g = map[o.kept_groups_[i]];
      if (g == kSkipGroup) continue;
      groups.push_back(g);
      sel.push_back(static_cast<uint32_t>(i));
    }
    std::vector<VectorPtr> owned;
    std::vector<const Vector*> ptrs;
    for (auto& k : o.kept_) {
      if (sel.size() == o.kept_groups_.size()) {
        ptrs.push_back(k.get());
      } else {
        owned.push_back(columnar::Gather(*k, sel.data(), static_cast<int64_t>(sel.size())));
        ptrs.push_back(owned.back().get());
      }
    }
    return Update(groups.data(), ptrs, static_cast<int64_t>(groups.size()));
  }
  Result<VectorPtr> Finalize() override { return inner_->Finalize(); }

  int64_t MemoryBytes() const override {
    int64_t n = inner_->MemoryBytes() + CapacityBytes(kept_groups_) + seen_bytes_ +
                static_cast<int64_t>(seen_.bucket_count() * sizeof(void*));
    for (const auto& k : kept_) n += k->MemoryBytes();
    return n;
  }

 private:
  static void AppendKey(const Vector& v, int64_t i, std::string* key) {
    if (v.IsNull(i)) {
      key->push_back('\0');
      return;
    }
    key->push_back('\1');
    const auto& t = *v.type();
    if (t.id() == TypeId::kDouble || t.id() == TypeId::kFloat) {
      double d = t.id() == TypeId::kDouble ? v.Get<double>(i) : v.Get<float>(i);
      if (std::isnan(d)) d = NAN;  // one NaN
      if (d == 0) d = 0;           // -0.0 equals 0.0
      key->append(reinterpret_cast<const char*>(&d), sizeof d);
    } else if (t.IsStringLike()) {
      std::string_view s = v.GetString(i);
      uint64_t len = s.size();
      key->append(reinterpret_cast<const char*>(&len), sizeof len);
      key->append(s);
    } else if (t.IsNested()) {
      std::string json;
      columnar::AppendJson(v, i, &json);
      uint64_t len = json.size();
      key->append(reinterpret_cast<const char*>(&len), sizeof len);
      key->append(json);
    } else {
      int w = t.SlotWidth();
      key->append(reinterpret_cast<const char*>(v.values().data()) + i * w, w);
    }
  }

  // A set node: the string object, the next pointer and the cached hash.
  static constexpr int64_t kSeenNodeBytes = sizeof(std::string) + 2 * sizeof(void*);

  std::unique_ptr<GroupedAggregate> inner_;
  std::unordered_set<std::string> seen_;
  int64_t seen_bytes_ = 0;  // seen_'s nodes and their keys' heap bytes
  std::vector<VectorPtr> kept_;
  std::vector<uint32_t> kept_groups_;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct NameKind {
  const char* name;
  int kind;
};
const NameKind kNames[] = {
    {"count", kCount},           {"sum", kSumInt},           {"avg", kAvgDouble},       {"mean", kAvgDouble},
    {"min", kMin},               {"max", kMax},              {"any_value", kFirst},     {"first", kFirst},
    {"arbitrary", kFirst},       {"first_value", kFirst},    {"bool_and", kBoolAnd},    {"every", kBoolAnd},
    {"bool_or", kBoolOr},        {"some", kBoolOr},          {"string_agg", kStringAgg}, {"listagg", kStringAgg},
    {"group_concat", kStringAgg}, {"collect_list", kCollectList}, {"array_agg", kCollectList},
    {"list", kCollectList},      {"variance", kVarSamp},     {"var_samp", kVarSamp},    {"var_pop", kVarPop},
    {"stddev", kStddevSamp},     {"stddev_samp", kStddevSamp}, {"stddev_pop", kStddevPop},
    {"std", kStddevSamp},        {"any", kBoolOr},
};

}  // namespace

Status GroupedAggregate::UpdateOneGroup(uint32_t group, const std::vector<const Vector*>& args, int64_t n) {
  std::vector<uint32_t> ids(static_cast<size_t>(n), group);
  return Update(ids.data(), args, n);
}

bool IsAggregateFunction(std::string_view name) {
  std::string l = Lower(name);
  for (const auto& nk : kNames) {
    if (l == nk.name) return true;
  }
  return BufferedAggregateKind(l, 1) != 0;
}

bool AggregateIgnoresNulls(std::string_view name) {
  std::string l = Lower(name);
  for (const auto& nk : kNames) {
    if (l == nk.name) return nk.kind != kFirst;
  }
  int buffered = BufferedAggregateKind(l, 1);
  return buffered != 0 && BufferedAggregateIgnoresNulls(buffered);
}

Status GroupedAggregate::CombineSelected(GroupedAggregate&, const uint32_t*, const uint32_t*, int64_t) {
  return Status::NotSupported("this aggregate cannot be used over a window frame");
}

Result<AggregateBinding> ResolveAggregate(std::string_view name, const std::vector<TypePtr>& args, bool distinct) {
  std::string l = Lower(name);
  int kind = 0;
  for (const auto& nk : kNames) {
    if (l == nk.name) kind = nk.kind;
  }
  auto fail = [&]() -> Status {
    std::string call = l + "(" + (distinct ? "DISTINCT " : "");
    for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i]->ToString();
    return Status::Binder("No aggregate function matches '" + call + ")'");
  };
  AggregateBinding b;
  b.name = l;
  b.distinct = distinct;
  if (int buffered = BufferedAggregateKind(l, args.size())) {
    b.kind = buffered;
    if (!ResolveBufferedAggregate(buffered, args, &b)) return fail();
    return b;
  }
  if (kind == 0) return Status::Binder("Unknown aggregate function '" + std::string(name) + "'");
  if (kind == kCount && args.empty()) {
    if (distinct) return fail();
    b.name = "count_star";
    b.kind = kCountStar;
    b.result_type = columnar::Int64();
    return b;
  }
  bool two_args = kind == kStringAgg;
  if (args.empty() || args.size() > (two_args ? 2u : 1u)) return fail();
  TypePtr t = args[0]->id() == TypeId::kNull && kind != kCount && kind != kMin && kind != kMax && kind != kFirst &&
                      kind != kCollectList
                  ? columnar::Int32()
                  : args[0];
  b.kind = kind;
  b.arg_types = {t};
  switch (kind) {
    case kCount: b.result_type = columnar::Int64(); break;
    case kSumInt:
    case kAvgDouble:
      if (t->id() == TypeId::kUInt64) t = columnar::Decimal(20, 0);
      if (t->IsInteger()) {
        b.arg_types = {kind == kSumInt ? columnar::Int64() : columnar::Float64()};
        b.result_type = b.arg_types[0];
      } else if (t->IsFloating()) {
        b.kind = kind == kSumInt ? kSumDouble : kAvgDouble;
        b.arg_types = {columnar::Float64()};
        b.result_type = columnar::Float64();
      } else if (t->id() == TypeId::kDecimal) {
        b.arg_types = {t};
        if (kind == kSumInt) {
          b.kind = kSumDecimal;
          b.result_type = columnar::Decimal(std::min(38, t->precision() + 10), t->scale());  // Spark's Sum
        } else {
          b.kind = kAvgDecimal;
          b.result_type = columnar::Decimal(std::min(38, t->precision() + 4), std::min(38, t->scale() + 4));
        }
      } else {
        return fail();
      }
      break;
    case kMin:
    case kMax:
    case kFirst:
      if (t->id() == TypeId::kMap && kind != kFirst) return fail();
      b.result_type = t;
      break;
    case kBoolAnd:
    case kBoolOr:
      if (t->id() != TypeId::kBoolean) return fail();
      b.result_type = t;
      break;
    case kStringAgg:
      if (t->IsNested()) return fail();
      b.arg_types = {columnar::String()};
      if (args.size() == 2) b.arg_types.push_back(columnar::String());
      b.result_type = columnar::String();
      break;
    case kCollectList: b.result_type = columnar::List(t); break;
    default:
      if (!t->IsNumeric()) return fail();
      b.arg_types = {columnar::Float64()};
      b.result_type = columnar::Float64();
  }
  return b;
}

std::unique_ptr<GroupedAggregate> AggregateBinding::Create() const {
  std::unique_ptr<GroupedAggregate> agg;
  const TypePtr arg = arg_types.empty() ? nullptr : arg_types[0];
  switch (kind) {
    case kCountStar: agg = std::make_unique<CountAgg>(true); break;
    case kCount: agg = std::make_unique<CountAgg>(false); break;
    case kSumInt: agg = std::make_unique<SumLikeAgg<int64_t>>(kind, arg, result_type); break;
    case kSumDouble:
    case kAvgDouble: agg = std::make_unique<SumLikeAgg<double>>(kind, arg, result_type); break;
    case kSumDecimal:
    case kAvgDecimal: agg = std::make_unique<SumLikeAgg<int128_t>>(kind, arg, result_type); break;
    case kMin:
    case kMax:
    case kFirst:
    case kBoolAnd:
    case kBoolOr:
      if (arg->id() != TypeId::kNull && !arg->IsNested() && !arg->HasOffsets()) {
        agg = DispatchFixed(
            *arg,
            [&](auto tag) -> std::unique_ptr<GroupedAggregate> {
              return std::make_unique<FixedPickAgg<decltype(tag)>>(kind, arg);
            },
            [&]() -> std::unique_ptr<GroupedAggregate> { return nullptr; });
      }
      if (!agg && arg->IsStringLike() && kind != kBoolAnd && kind != kBoolOr) {
        agg = MakeStringPickAggregate(kind == kMin ? StringPick::kMin
                                                   : (kind == kMax ? StringPick::kMax : StringPick::kFirst),
                                      arg);
      }
      if (!agg) agg = std::make_unique<GenericPickAgg>(kind, arg);
      break;
    case kStringAgg: agg = std::make_unique<StringAggAgg>(); break;
    case kCollectList: agg = std::make_unique<CollectListAgg>(arg, result_type); break;
    default:
      agg = kind >= kBufferedKindBase ? MakeBufferedAggregate(*this) : std::make_unique<VarianceAgg>(kind);
      break;
  }
  if (distinct && kind != kCountStar) agg = std::make_unique<DistinctAgg>(std::move(agg), arg_types);
  return agg;
}

}  // namespace shoal::expr
