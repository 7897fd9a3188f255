#include "sql/binder/sort_order.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "expr/physical_type.h"

namespace shoal::sql {

using columnar::TypeId;

RowComparator::RowComparator(const std::vector<const columnar::Vector*>& keys,
                             const std::vector<SortSpec>& specs)
    : RowComparator(keys, specs, Deferred{}) {
  NormalizeRows(0, keys.empty() ? 0 : keys[0]->size());
}

RowComparator::RowComparator(const std::vector<const columnar::Vector*>& keys,
                             const std::vector<SortSpec>& specs, Deferred) {
  for (size_t k = 0; k < keys.size(); ++k) {
    const columnar::Vector& v = *keys[k];
    const size_t n = static_cast<size_t>(v.size());
    Key key;
    key.spec = specs[k];
    key.column = &v;
    if (v.MayHaveNulls()) key.validity = v.validity().data();
    const auto& t = *v.type();
    if (t.id() == TypeId::kNull) {
      key.kind = Kind::kNull;
    } else if (t.IsStringLike()) {
      key.kind = Kind::kString;
      key.strings = std::make_unique_for_overwrite<std::string_view[]>(n);
    } else if (t.IsNested()) {
      key.kind = Kind::kValue;
      key.values = std::make_unique<columnar::Value[]>(n);
    } else if (t.IsFloating()) {
      key.kind = Kind::kFloat;
      key.floats = std::make_unique_for_overwrite<double[]>(n);
    } else if (t.IsWideDecimal() || t.id() == TypeId::kUInt64) {
      key.kind = Kind::kWide;
      key.wides = std::make_unique_for_overwrite<__int128[]>(n);
    } else {
      key.kind = Kind::kInt;
      key.ints = std::make_unique_for_overwrite<int64_t[]>(n);
    }
    keys_.push_back(std::move(key));
  }
}

void RowComparator::NormalizeRows(int64_t from, int64_t to) {
  for (Key& key : keys_) {
    const columnar::Vector& v = *key.column;
    const auto& t = *v.type();
    switch (key.kind) {
      case Kind::kNull: break;
      case Kind::kString:
        for (int64_t i = from; i < to; ++i) key.strings[i] = v.GetString(i);
        break;
      case Kind::kValue:
        for (int64_t i = from; i < to; ++i) key.values[i] = columnar::Value::FromVector(v, i);
        break;
      case Kind::kFloat:
        if (t.id() == TypeId::kFloat) {
          for (int64_t i = from; i < to; ++i) key.floats[i] = v.Get<float>(i);
        } else if (to > from) {
          std::memcpy(key.floats.get() + from, v.data<double>() + from, (to - from) * sizeof(double));
        }
        break;
      case Kind::kWide:
        if (t.id() == TypeId::kUInt64) {
          for (int64_t i = from; i < to; ++i) key.wides[i] = v.Get<uint64_t>(i);
        } else {
          for (int64_t i = from; i < to; ++i) key.wides[i] = v.Get<__int128>(i);
        }
        break;
      case Kind::kInt:
        expr::DispatchFixed(
            t,
            [&](auto tag) {
              using T = decltype(tag);
              const T* d = v.data<T>();
              for (int64_t i = from; i < to; ++i) key.ints[i] = static_cast<int64_t>(d[i]);
            },
            [&] { std::fill(key.ints.get() + from, key.ints.get() + to, int64_t{0}); });  // all equal
        break;
    }
  }
}

namespace {
template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}
int CmpDouble(double a, double b) {
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return Cmp(a, b);
}
}  // namespace

int RowComparator::Compare(int64_t a, int64_t b) const {
  for (const Key& k : keys_) {
    if (k.validity) {
      bool va = k.validity[a] != 0, vb = k.validity[b] != 0;
      if (!va || !vb) {
        if (va == vb) continue;
        int c = va ? 1 : -1;  // NULL before the value
        return k.spec.nulls_first ? c : -c;
      }
    }
    int c = 0;
    switch (k.kind) {
      case Kind::kInt: c = Cmp(k.ints[a], k.ints[b]); break;
      case Kind::kWide: c = Cmp(k.wides[a], k.wides[b]); break;
      case Kind::kFloat: c = CmpDouble(k.floats[a], k.floats[b]); break;
      case Kind::kString: {
        const auto& x = k.strings[a];
        const auto& y = k.strings[b];
        const size_t common = std::min(x.size(), y.size());
        int m = common == 0 ? 0 : std::memcmp(x.data(), y.data(), common);  // empty views may be null
        c = m != 0 ? (m < 0 ? -1 : 1) : Cmp(x.size(), y.size());
        break;
      }
      case Kind::kValue: c = k.values[a].Compare(k.values[b]); break;
      case Kind::kNull: c = 0; break;
    }
    if (c != 0) return k.spec.descending ? -c : c;
  }
  return 0;
}

std::vector<uint32_t> SortIndices(const std::vector<const columnar::Vector*>& keys,
                                  const std::vector<SortSpec>& specs, int64_t n, int64_t limit) {
  std::vector<uint32_t> idx(n);
  for (int64_t i = 0; i < n; ++i) idx[i] = static_cast<uint32_t>(i);
  RowComparator cmp(keys, specs);
  if (limit >= 0 && limit < n) {
    // Index as the last key makes the order total, so partial_sort is stable too.
    std::partial_sort(idx.begin(), idx.begin() + limit, idx.end(), [&](uint32_t a, uint32_t b) {
      int c = cmp.Compare(a, b);
      return c != 0 ? c < 0 : a < b;
    });
    idx.resize(limit);
    return idx;
  }
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return cmp.Compare(a, b) < 0; });
  return idx;
}

}  // namespace shoal::sql
