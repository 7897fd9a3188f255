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
  auto set = std::make_shared<InListSet>();
  for (size_t i = 1; i < e.args.size(); ++i) {
    if (!e.args[i]->IsLiteral()) return nullptr;
    const Value& v = e.args[i]->value;
    if (!v.is_null() && !v.type()->Equals(t)) return nullptr;
  }
  if (t.IsStringLike()) {
    set->strings = true;
    set->string_storage.reserve(e.args.size());
    for (size_t i = 1; i < e.args.size(); ++i) {
      const Value& v = e.args[i]->value;
      if (v.is_null()) {
        set->has_null = true;
      } else {
        set->string_storage.emplace_back(v.GetString());
      }
    }
    for (const auto& s : set->string_storage) set->string_set.insert(s);
    return set;
  }
  bool ok = DispatchFixed(
      t,
      [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, int128_t>) {
          return false;
        } else {
          auto v = columnar::Vector::Make(e.args[0]->type);
          for (size_t i = 1; i < e.args.size(); ++i) {
            const Value& x = e.args[i]->value;
            if (x.is_null()) {
              set->has_null = true;
              continue;
            }
            v->Clear();
            x.AppendTo(v.get());
            set->keys.insert(InKey(v->Get<T>(0)));
          }
          return true;
        }
      },
      [] { return false; });
  if (!ok) return nullptr;
  return set;
}

}  // namespace

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
