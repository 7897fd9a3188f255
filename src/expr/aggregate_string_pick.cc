#include "expr/aggregate_string_pick.h"

#include <string>
#include <string_view>

namespace shoal::expr {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

template <StringPick P>
class StringPickAgg final : public GroupedAggregate {
 public:
  explicit StringPickAgg(columnar::TypePtr type) : type_(std::move(type)) {}
  void Resize(int64_t n) override {
    vals_.resize(n);
    has_.resize(n, 0);
    num_groups_ = n;
  }
  Status Update(const uint32_t* g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      if (!valid || valid[i]) Offer(g[i], v.GetString(i));
    }
    return Status::OK();
  }
  // Finds the batch's pick among views, then offers that one value to the group.
  Status UpdateOneGroup(uint32_t g, const std::vector<const Vector*>& args, int64_t n) override {
    const Vector& v = *args[0];
    const uint8_t* valid = v.MayHaveNulls() ? v.validity().data() : nullptr;
    int64_t i = 0;
    if (valid) {
      while (i < n && !valid[i]) ++i;
    }
    if (i == n) return Status::OK();
    std::string_view best = v.GetString(i);
    if constexpr (P != StringPick::kFirst) {
      for (++i; i < n; ++i) {
        if (valid && !valid[i]) continue;
        std::string_view s = v.GetString(i);
        if (Better(s, best)) best = s;
      }
    }
    Offer(g, best);
    return Status::OK();
  }
  Status Combine(GroupedAggregate& other, const uint32_t* map) override {
    auto& o = static_cast<StringPickAgg&>(other);
    for (int64_t i = 0; i < o.num_groups_; ++i) {
      if (o.has_[i] && map[i] != kSkipGroup) Offer(map[i], o.vals_[i]);
    }
    return Status::OK();
  }
  Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst, int64_t n) override {
    auto& o = static_cast<StringPickAgg&>(other);
    for (int64_t k = 0; k < n; ++k) {
      if (o.has_[src[k]]) Offer(dst[k], o.vals_[src[k]]);
    }
    return Status::OK();
  }
  Result<VectorPtr> Finalize() override {
    auto out = Vector::Make(type_, num_groups_);
    for (int64_t i = 0; i < num_groups_; ++i) {
      if (has_[i]) out->AppendString(vals_[i]);
      else out->AppendNull();
    }
    return out;
  }
  int64_t MemoryBytes() const override {
    return static_cast<int64_t>(vals_.capacity() * sizeof(std::string) + has_.capacity()) + heap_;
  }

 private:
  // True when `s` replaces the current pick `cur` (ties keep the earlier value).
  static bool Better(std::string_view s, std::string_view cur) {
    if constexpr (P == StringPick::kMin) return s.compare(cur) < 0;
    else if constexpr (P == StringPick::kMax) return s.compare(cur) > 0;
    else return false;
  }
  void Offer(uint32_t g, std::string_view s) {
    if (!has_[g]) {
      Assign(g, s);
      has_[g] = 1;
    } else if (Better(s, vals_[g])) {
      Assign(g, s);
    }
  }
  void Assign(uint32_t g, std::string_view s) {
    const size_t cap = vals_[g].capacity();
    vals_[g].assign(s.data(), s.size());
    heap_ += static_cast<int64_t>(vals_[g].capacity()) - static_cast<int64_t>(cap);
  }

  columnar::TypePtr type_;
  std::vector<std::string> vals_;
  std::vector<uint8_t> has_;
  int64_t heap_ = 0;  // capacity of vals_' strings beyond their short-string buffers
};

}  // namespace

std::unique_ptr<GroupedAggregate> MakeStringPickAggregate(StringPick pick, columnar::TypePtr type) {
  switch (pick) {
    case StringPick::kMin: return std::make_unique<StringPickAgg<StringPick::kMin>>(std::move(type));
    case StringPick::kMax: return std::make_unique<StringPickAgg<StringPick::kMax>>(std::move(type));
    case StringPick::kFirst: break;
  }
  return std::make_unique<StringPickAgg<StringPick::kFirst>>(std::move(type));
}

}  // namespace shoal::expr
