// Test support for LocalSort: random rows with NULLs, NaN, -0.0, negative numbers and strings
// sharing long prefixes, kept as plain C++ values, with a brute-force comparator (ASC NULLS
// FIRST, NaN last, -0.0 == 0.0) as the oracle, and conversion to and from record batches.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "columnar/vector.h"

namespace shoal::table::testing_rows {

namespace c = columnar;

struct Row {
  int64_t id = 0;
  std::optional<int64_t> i;
  std::optional<double> d;
  std::optional<std::string> s;
  std::optional<int32_t> dt;   // DATE
  std::optional<int64_t> dec;  // DECIMAL(12,2) unscaled
  std::optional<std::string> low;  // low cardinality

  bool operator==(const Row&) const = default;
};

// Columns: id BIGINT NOT NULL, i BIGINT, d DOUBLE, s STRING, dt DATE, dec DECIMAL(12,2), low STRING.
inline c::Schema RowSchema() {
  c::Schema s;
  s.fields = {{"id", c::Int64(), false}, {"i", c::Int64(), true},  {"d", c::Float64(), true},
              {"s", c::String(), true},  {"dt", c::Date(), true},  {"dec", c::Decimal(12, 2), true},
              {"low", c::String(), true}};
  return s;
}

inline std::vector<Row> RandomRows(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int64_t k) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(k)); };
  const std::vector<std::string> prefixes = {"", "a", "common-prefix-longer-than-key-", "common-prefix-longer-than-kez",
                                             "\xC3\xBC", "Z"};
  const std::vector<std::string> lows = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK"};
  std::vector<Row> rows;
  for (int64_t r = 0; r < n; ++r) {
    Row x;
    x.id = r;
    if (pick(10) != 0) x.i = pick(3) == 0 ? pick(7) - 3 : static_cast<int64_t>(rng());
    if (pick(8) != 0) {
      switch (pick(8)) {
        case 0: x.d = std::nan(""); break;
        case 1: x.d = -0.0; break;
        case 2: x.d = 0.0; break;
        case 3: x.d = -std::numeric_limits<double>::infinity(); break;
        default: x.d = (static_cast<double>(pick(20001)) - 10000) / 7.0;
      }
    }
    if (pick(9) != 0) {
      std::string s = prefixes[static_cast<size_t>(pick(static_cast<int64_t>(prefixes.size())))];
      int64_t tail = pick(4);
      for (int64_t k = 0; k < tail; ++k) s.push_back(static_cast<char>('a' + pick(3)));
      if (pick(20) == 0) s.push_back('\0');
      x.s = s;
    }
    if (pick(7) != 0) x.dt = static_cast<int32_t>(pick(4000) - 1000);
    if (pick(6) != 0) x.dec = pick(2000001) - 1000000;
    if (pick(15) != 0) x.low = lows[static_cast<size_t>(pick(5))];
    rows.push_back(std::move(x));
  }
  return rows;
}

template <typename T, typename F>
c::VectorPtr Column(c::TypePtr type, const std::vector<Row>& rows, F get) {
  auto v = c::Vector::Make(type, static_cast<int64_t>(rows.size()));
  for (const Row& r : rows) {
    const std::optional<T>& x = get(r);
    if (!x) v->AppendNull();
    else if constexpr (std::is_same_v<T, std::string>) v->AppendString(*x);
    else v->template Append<T>(*x);
  }
  return v;
}

inline c::RecordBatch ToBatch(const std::vector<Row>& rows) {
  auto schema = std::make_shared<c::Schema>(RowSchema());
  auto id = c::Vector::Make(c::Int64(), static_cast<int64_t>(rows.size()));
  for (const Row& r : rows) id->Append<int64_t>(r.id);
  std::vector<c::VectorPtr> cols = {
      id,
      Column<int64_t>(c::Int64(), rows, [](const Row& r) -> const auto& { return r.i; }),
      Column<double>(c::Float64(), rows, [](const Row& r) -> const auto& { return r.d; }),
      Column<std::string>(c::String(), rows, [](const Row& r) -> const auto& { return r.s; }),
      Column<int32_t>(c::Date(), rows, [](const Row& r) -> const auto& { return r.dt; }),
      Column<int64_t>(c::Decimal(12, 2), rows, [](const Row& r) -> const auto& { return r.dec; }),
      Column<std::string>(c::String(), rows, [](const Row& r) -> const auto& { return r.low; })};
  return c::RecordBatch(schema, cols, static_cast<int64_t>(rows.size()));
}

inline std::vector<Row> FromBatch(const c::RecordBatch& b) {
  std::vector<Row> out;
  for (int64_t i = 0; i < b.num_rows; ++i) {
    Row r;
    r.id = b.column(0)->Get<int64_t>(i);
    if (b.column(1)->IsValid(i)) r.i = b.column(1)->Get<int64_t>(i);
    if (b.column(2)->IsValid(i)) r.d = b.column(2)->Get<double>(i);
    if (b.column(3)->IsValid(i)) r.s = std::string(b.column(3)->GetString(i));
    if (b.column(4)->IsValid(i)) r.dt = b.column(4)->Get<int32_t>(i);
    if (b.column(5)->IsValid(i)) r.dec = b.column(5)->Get<int64_t>(i);
    if (b.column(6)->IsValid(i)) r.low = std::string(b.column(6)->GetString(i));
    out.push_back(std::move(r));
  }
  return out;
}

// Three-way comparisons with Spark's ASC NULLS FIRST; doubles: NaN largest, -0.0 == 0.0.
template <typename T>
int Cmp(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a || !b) return a ? 1 : (b ? -1 : 0);
  if constexpr (std::is_same_v<T, double>) {
    bool na = std::isnan(*a), nb = std::isnan(*b);
    if (na || nb) return na && nb ? 0 : (na ? 1 : -1);
  }
  if constexpr (std::is_same_v<T, std::string>) {
    int r = a->compare(*b);
    return r < 0 ? -1 : (r > 0 ? 1 : 0);
  }
  return *a < *b ? -1 : (*b < *a ? 1 : 0);
}

// Compares rows on the named columns in turn (names of RowSchema, not "id").
inline int CompareOn(const Row& a, const Row& b, const std::vector<std::string>& cols) {
  for (const auto& col : cols) {
    int r = 0;
    if (col == "i") r = Cmp(a.i, b.i);
    else if (col == "d") r = Cmp(a.d, b.d);
    else if (col == "s") r = Cmp(a.s, b.s);
    else if (col == "dt") r = Cmp(a.dt, b.dt);
    else if (col == "dec") r = Cmp(a.dec, b.dec);
    else if (col == "low") r = Cmp(a.low, b.low);
    if (r != 0) return r;
  }
  return 0;
}

// Oracle: the rows stably sorted on the named columns.
inline std::vector<Row> BruteSorted(std::vector<Row> rows, const std::vector<std::string>& cols) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return CompareOn(a, b, cols) < 0; });
  return rows;
}

// Bit-exact row identity for multiset comparison (NaN == NaN, -0.0 != 0.0).
inline std::string RowKey(const Row& r) {
  std::string k = std::to_string(r.id) + "|";
  k += r.i ? std::to_string(*r.i) : "N";
  k += "|";
  if (r.d) {
    uint64_t bits;
    std::memcpy(&bits, &*r.d, 8);
    k += std::to_string(bits);
  } else {
    k += "N";
  }
  k += '|';
  k += r.s ? "S" + *r.s : std::string("N");
  k += '|';
  k += r.dt ? std::to_string(*r.dt) : std::string("N");
  k += '|';
  k += r.dec ? std::to_string(*r.dec) : std::string("N");
  k += '|';
  k += r.low ? *r.low : std::string("N");
  return k;
}

}  // namespace shoal::table::testing_rows
