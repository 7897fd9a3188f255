#include "expr/in_list_set.h"

#include "expr/expr.h"
#include "expr/physical_type.h"

namespace shoal::expr {

namespace {

bool SameItems(const std::vector<const Expr*>& items, const Expr& e) {
  if (items.size() + 1 != e.args.size()) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i] != e.args[i + 1].get()) return false;
  }
  return true;
}

// Null when an item is not a literal or the type has no hashed form.
std::shared_ptr<const InListSet> Build(const Expr& e) {
  const auto& t = *e.args[0]->type;
  std::vector<columnar::VectorPtr> values;
  std::vector<const columnar::Vector*> items;
  for (size_t i = 1; i < e.args.size(); ++i) {
    if (!e.args[i]->IsLiteral()) return nullptr;
    const Value& v = e.args[i]->value;
    if (!v.is_null() && !v.type()->Equals(t)) return nullptr;
    values.push_back(columnar::Vector::Make(e.args[0]->type, 1));
    v.AppendTo(values.back().get());
    items.push_back(values.back().get());
  }
  return MakeInListSet(t, items);
}

}  // namespace

std::shared_ptr<InListSet> MakeInListSet(const columnar::DataType& type, const std::vector<const columnar::Vector*>& items) {
  auto set = std::make_shared<InListSet>();
  for (const columnar::Vector* v : items) set->has_null |= v->IsNull(0);
  if (type.IsStringLike()) {
    set->strings = true;
    set->string_storage.reserve(items.size());
    for (const columnar::Vector* v : items) {
      if (!v->IsNull(0)) set->string_storage.emplace_back(v->GetString(0));
    }
    for (const auto& s : set->string_storage) set->string_set.insert(s);
    return set;
  }
  bool ok = DispatchFixed(
      type,
      [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, int128_t>) {
          return false;
        } else {
          for (const columnar::Vector* v : items) {
            if (!v->IsNull(0)) set->keys.Insert(InKey(v->Get<T>(0)));
          }
          return true;
        }
      },
      [] { return false; });
  if (!ok) return nullptr;
  return set;
}

void KeySet::Insert(uint64_t k) {
  if (k == kEmpty) {
    has_empty_ = true;
    return;
  }
  if ((size_ + 1) * 2 > slots_.size()) Grow();
  for (uint64_t s = Mix(k) & mask_;; s = (s + 1) & mask_) {
    if (slots_[s] == k) return;
    if (slots_[s] == kEmpty) {
      slots_[s] = k;
      ++size_;
      return;
    }
  }
}

void KeySet::Grow() {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, kEmpty);
  mask_ = slots_.size() - 1;
  size_ = 0;
  for (uint64_t k : old) {
    if (k != kEmpty) Insert(k);
  }
}

std::shared_ptr<const InListSet> InListCache::Get(const Expr& e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (SameItems(items_, e)) return unsupported_ ? nullptr : set_;
  items_.clear();
  for (size_t i = 1; i < e.args.size(); ++i) items_.push_back(e.args[i].get());
  set_ = Build(e);
  unsupported_ = set_ == nullptr;
  return set_;
}

}  // namespace shoal::expr
