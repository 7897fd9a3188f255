#include "sql/binder/sort_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace shoal::sql {
namespace {

using columnar::Vector;

struct Row {
  std::optional<int32_t> a;
  std::optional<double> b;
  std::optional<std::string> c;
};

// Reference three-way comparison of optionals under a spec.
template <typename T, typename Less>
int RefCmp(const std::optional<T>& x, const std::optional<T>& y, const SortSpec& s, Less less) {
  if (!x || !y) {
    if (!x && !y) return 0;
    int c = x ? 1 : -1;
    return s.nulls_first ? c : -c;
  }
  int c = less(*x, *y) ? -1 : (less(*y, *x) ? 1 : 0);
  return s.descending ? -c : c;
}

bool DoubleLess(double x, double y) {  // NaN is the largest value
  if (std::isnan(y)) return !std::isnan(x);
  if (std::isnan(x)) return false;
  return x < y;
}

TEST(SortOrder, MatchesStableSortOnRandomMultiKeyDataWithNullsAndNaN) {
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    const int n = 1 + static_cast<int>(rng() % 300);
    std::vector<Row> rows(n);
    auto a = Vector::Make(columnar::Int32());
    auto b = Vector::Make(columnar::Float64());
    auto c = Vector::Make(columnar::String());
    for (auto& r : rows) {
      if (rng() % 6) r.a = static_cast<int32_t>(rng() % 5) - 2;
      if (rng() % 6) {
        int k = static_cast<int>(rng() % 6);
        r.b = k == 0 ? std::nan("") : k == 1 ? -0.5 : k == 2 ? INFINITY : static_cast<double>(k);
      }
      if (rng() % 6) r.c = std::string(rng() % 3, static_cast<char>('a' + rng() % 3));
      r.a ? a->Append<int32_t>(*r.a) : a->AppendNull();
      r.b ? b->Append<double>(*r.b) : b->AppendNull();
      r.c ? c->AppendString(*r.c) : c->AppendNull();
    }
    std::vector<SortSpec> specs(3);
    for (auto& s : specs) {
      s.descending = rng() % 2;
      s.nulls_first = rng() % 2;
    }
    std::vector<uint32_t> expected(n);
    for (int i = 0; i < n; ++i) expected[i] = i;
    std::stable_sort(expected.begin(), expected.end(), [&](uint32_t x, uint32_t y) {
      int r = RefCmp(rows[x].a, rows[y].a, specs[0], std::less<int32_t>());
      if (r == 0) r = RefCmp(rows[x].b, rows[y].b, specs[1], DoubleLess);
      if (r == 0) r = RefCmp(rows[x].c, rows[y].c, specs[2], std::less<std::string>());
      return r < 0;
    });
    auto got = SortIndices({a.get(), b.get(), c.get()}, specs, n);
    ASSERT_EQ(got, expected) << "round " << round;
    int64_t limit = rng() % (n + 2);
    auto top = SortIndices({a.get(), b.get(), c.get()}, specs, n, limit);
    std::vector<uint32_t> prefix(expected.begin(), expected.begin() + std::min<int64_t>(limit, n));
    ASSERT_EQ(top, prefix) << "top-N round " << round;
  }
}

}  // namespace
}  // namespace shoal::sql
