#include "table/local_sort_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "table/local_sort_test_support.h"
#include "table/local_sort_zorder.h"

namespace shoal::table {
namespace {

using namespace testing_rows;
using namespace std::string_literals;

int Sign(int x) { return (x > 0) - (x < 0); }

std::vector<uint32_t> BruteOrder(const std::vector<Row>& rows, const std::vector<std::string>& cols) {
  std::vector<uint32_t> perm(rows.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](uint32_t a, uint32_t b) { return CompareOn(rows[a], rows[b], cols) < 0; });
  return perm;
}

std::vector<SortColumn> ColumnsOf(const std::vector<std::string>& names) {
  c::Schema s = RowSchema();
  std::vector<SortColumn> out;
  for (const auto& n : names) out.push_back({s.Find(n), false, true});
  return out;
}

TEST(SortKey, KeyOrderMatchesBruteForceForEveryColumnType) {
  auto rows = RandomRows(600, 1);
  auto batch = ToBatch(rows);
  for (const std::string col : {"i", "d", "s", "dt", "dec", "low"}) {
    auto enc = SortKeyEncoder::Make(RowSchema(), ColumnsOf({col}));
    ASSERT_TRUE(enc.ok()) << enc.status().ToString();
    KeyRows keys = enc->Encode(batch);
    ASSERT_EQ(keys.num_rows(), 600);
    for (size_t a = 0; a < rows.size(); ++a) {
      for (size_t b = a; b < rows.size(); b += 7) {
        ASSERT_EQ(Sign(CompareKeyRows(keys, a, keys, b)), CompareOn(rows[a], rows[b], {col}))
            << col << " rows " << a << " " << b << ": " << RowKey(rows[a]) << " vs " << RowKey(rows[b]);
      }
    }
  }
}

TEST(SortKey, NullsFirstNanLastAndNegativeZeroEqualsZero) {
  std::vector<Row> rows(6);
  rows[0].d = std::nan("");
  rows[1].d = -std::nan("");
  rows[2].d = -0.0;
  rows[3].d = 0.0;
  rows[4].d = -std::numeric_limits<double>::infinity();
  // rows[5]: NULL
  auto enc = SortKeyEncoder::Make(RowSchema(), ColumnsOf({"d"}));
  ASSERT_TRUE(enc.ok());
  KeyRows keys = enc->Encode(ToBatch(rows));
  auto perm = SortKeyRows(keys);
  EXPECT_EQ(perm, (std::vector<uint32_t>{5, 4, 2, 3, 0, 1}));
  EXPECT_EQ(CompareKeyRows(keys, 0, keys, 1), 0);  // NaNs equal
  EXPECT_EQ(CompareKeyRows(keys, 2, keys, 3), 0);  // -0.0 == 0.0
}

TEST(SortKey, LongStringsTieBreakOnTheFullValueBeforeLaterColumns) {
  std::vector<Row> rows(4);
  rows[0].s = "abcdefghijklmnopqrstuvwxyz-2";
  rows[0].i = 1;
  rows[1].s = "abcdefghijklmnopqrstuvwxyz-1";
  rows[1].i = 2;
  rows[2].s = "abcdefghijklmn";  // exactly the prefix
  rows[2].i = 3;
  rows[3].s = "abcdefghijklmn\0"s;
  rows[3].i = 0;
  auto enc = SortKeyEncoder::Make(RowSchema(), ColumnsOf({"s", "i"}));
  ASSERT_TRUE(enc.ok());
  c::RecordBatch batch = ToBatch(rows);  // the keys borrow its strings
  KeyRows keys = enc->Encode(batch);
  EXPECT_FALSE(keys.tie_breaks.empty());
  EXPECT_EQ(SortKeyRows(keys), (std::vector<uint32_t>{2, 3, 1, 0}));
}

TEST(SortKey, DescendingAndNullsLastInvertOnlyWhatTheySay) {
  auto rows = RandomRows(300, 2);
  auto batch = ToBatch(rows);
  c::Schema s = RowSchema();
  auto enc = SortKeyEncoder::Make(s, {{s.Find("s"), true, false}, {s.Find("i"), false, false}});
  ASSERT_TRUE(enc.ok());
  KeyRows keys = enc->Encode(batch);
  auto cmp = [&](const Row& a, const Row& b) {
    // s DESC NULLS LAST, i ASC NULLS LAST
    if (a.s.has_value() != b.s.has_value()) return a.s ? -1 : 1;
    if (a.s && *a.s != *b.s) return *a.s > *b.s ? -1 : 1;
    if (a.i.has_value() != b.i.has_value()) return a.i ? -1 : 1;
    if (a.i && *a.i != *b.i) return *a.i < *b.i ? -1 : 1;
    return 0;
  };
  for (size_t a = 0; a < rows.size(); ++a) {
    for (size_t b = 0; b < rows.size(); b += 5) {
      ASSERT_EQ(Sign(CompareKeyRows(keys, a, keys, b)), cmp(rows[a], rows[b])) << a << " " << b;
    }
  }
}

TEST(SortKey, MultiColumnSortIsStableAndMatchesBruteForce) {
  auto rows = RandomRows(5000, 3);
  auto batch = ToBatch(rows);
  for (const auto& cols : std::vector<std::vector<std::string>>{
           {"low", "dt"}, {"s", "d"}, {"dec", "i"}, {"low"}, {"i"}, {"dt", "low", "s"}}) {
    auto enc = SortKeyEncoder::Make(RowSchema(), ColumnsOf(cols));
    ASSERT_TRUE(enc.ok());
    EXPECT_EQ(SortKeyRows(enc->Encode(batch)), BruteOrder(rows, cols)) << cols[0];
  }
}

TEST(RadixSort, MatchesAStableComparisonSortOnIntegerKeys) {
  auto rows = RandomRows(20000, 4);
  auto enc = SortKeyEncoder::Make(RowSchema(), ColumnsOf({"i"}));
  ASSERT_TRUE(enc.ok());
  KeyRows keys = enc->Encode(ToBatch(rows));
  ASSERT_TRUE(keys.tie_breaks.empty());
  EXPECT_EQ(RadixSortKeyRows(keys), BruteOrder(rows, {"i"}));
}

// A sort column by name for the brute-force oracle.
struct Spec {
  std::string col;
  bool desc = false;
  bool nulls_first = true;
};

// Brute-force comparison on the specs in turn: NULLs placed by nulls_first, values by
// CompareOn (NaN largest, -0.0 == 0.0), inverted when descending.
int CompareSpecs(const Row& a, const Row& b, const std::vector<Spec>& specs) {
  for (const Spec& sp : specs) {
    bool an = false, bn = false;
    if (sp.col == "i") an = !a.i, bn = !b.i;
    else if (sp.col == "d") an = !a.d, bn = !b.d;
    else if (sp.col == "s") an = !a.s, bn = !b.s;
    else if (sp.col == "dt") an = !a.dt, bn = !b.dt;
    else if (sp.col == "dec") an = !a.dec, bn = !b.dec;
    else if (sp.col == "low") an = !a.low, bn = !b.low;
    if (an || bn) {
      if (an && bn) continue;
      return an == sp.nulls_first ? -1 : 1;
    }
    int r = CompareOn(a, b, {sp.col});
    if (r != 0) return sp.desc ? -r : r;
  }
  return 0;
}

std::vector<uint32_t> BruteOrderSpecs(const std::vector<Row>& rows, const std::vector<Spec>& specs) {
  std::vector<uint32_t> perm(rows.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](uint32_t a, uint32_t b) { return CompareSpecs(rows[a], rows[b], specs) < 0; });
  return perm;
}

Result<SortKeyEncoder> EncoderOf(const std::vector<Spec>& specs) {
  c::Schema s = RowSchema();
  std::vector<SortColumn> cols;
  for (const Spec& sp : specs) cols.push_back({s.Find(sp.col), sp.desc, sp.nulls_first});
  return SortKeyEncoder::Make(s, cols);
}

// Large randomized inputs take every path of the radix sort (MSD splits, LSD tails, small
// ranges, runs refined by later 8-byte steps, long-string tie-breaks inside runs).
TEST(SortKey, RadixSortEqualsStableBruteForceOnLargeRandomInputs) {
  auto rows = RandomRows(40000, 11);
  auto batch = ToBatch(rows);
  const std::vector<std::vector<Spec>> cases = {
      {{"i"}},
      {{"d"}},
      {{"s"}},
      {{"s", true, false}},
      {{"low"}, {"dt"}},
      {{"low", true, true}, {"dt", false, false}, {"s"}},
      {{"s"}, {"i", true, false}},
      {{"dec"}, {"d", true, true}, {"i"}},
      {{"dt", false, false}, {"s", true, true}, {"low"}, {"d"}},
      {{"i"}, {"dec"}, {"d"}},  // 27 bytes: several integer steps
  };
  for (const auto& specs : cases) {
    auto enc = EncoderOf(specs);
    ASSERT_TRUE(enc.ok());
    KeyRows keys = enc->Encode(batch);
    std::vector<uint32_t> got = SortKeyRows(keys);
    std::vector<uint32_t> want = BruteOrderSpecs(rows, specs);
    // The same rows split over two threads (normally only from kParallelSortRows rows).
    ASSERT_EQ(SortKeyRows(keys, 64), want) << "two threads, case " << specs[0].col << "/" << specs.size();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << "case " << specs[0].col << "/" << specs.size() << " position " << i << ": "
                                 << RowKey(rows[got[i]]) << " vs " << RowKey(rows[want[i]]);
    }
  }
}

// Strings that share a long prefix force full comparisons; duplicates must keep row order,
// and the column after the string decides among equal strings.
TEST(SortKey, SharedPrefixStringsTieBreakOnlyWithinEqualPrefixRunsAndStayStable) {
  std::mt19937_64 rng(12);
  std::vector<Row> rows(20000);
  const std::vector<std::string> stems = {"prefix-of-fourteen+", "prefix-of-fourteen", "prefix-of-fourtee",
                                          "another-long-shared-prefix-", "x"};
  for (size_t r = 0; r < rows.size(); ++r) {
    rows[r].id = static_cast<int64_t>(r);
    if (rng() % 13 == 0) continue;  // NULL string
    std::string s = stems[rng() % stems.size()];
    int tail = static_cast<int>(rng() % 4);
    for (int k = 0; k < tail; ++k) s.push_back(static_cast<char>('a' + rng() % 3));
    rows[r].s = s;
    if (rng() % 5) rows[r].i = static_cast<int64_t>(rng() % 5) - 2;
  }
  auto batch = ToBatch(rows);
  for (const auto& specs : std::vector<std::vector<Spec>>{{{"s"}, {"i"}}, {{"s", true, false}, {"i", true, true}}}) {
    auto enc = EncoderOf(specs);
    ASSERT_TRUE(enc.ok());
    KeyRows keys = enc->Encode(batch);
    ASSERT_FALSE(keys.tie_breaks.empty());
    EXPECT_EQ(SortKeyRows(keys), BruteOrderSpecs(rows, specs)) << specs[0].desc;
    EXPECT_EQ(SortKeyRows(keys, 64), BruteOrderSpecs(rows, specs)) << "two threads " << specs[0].desc;
  }
}

// Few distinct keys over many rows: long equal runs must come out in arrival order.
TEST(SortKey, LowCardinalityKeysKeepArrivalOrderWithinEqualKeys) {
  auto rows = RandomRows(100000, 13);
  for (auto& r : rows) {
    if (r.dt) r.dt = *r.dt % 3;
    if (r.i) r.i = *r.i % 2;
  }
  auto batch = ToBatch(rows);
  for (const auto& specs : std::vector<std::vector<Spec>>{{{"low"}}, {{"low"}, {"dt"}}, {{"dt"}, {"i"}, {"low"}}}) {
    auto enc = EncoderOf(specs);
    ASSERT_TRUE(enc.ok());
    KeyRows keys = enc->Encode(batch);
    EXPECT_EQ(SortKeyRows(keys), BruteOrderSpecs(rows, specs)) << specs.size();
    EXPECT_EQ(SortKeyRows(keys, 64), BruteOrderSpecs(rows, specs)) << "two threads " << specs.size();
  }
}

TEST(SortKey, EmptyAndSingleRowBatchesSort) {
  for (int64_t n : {0, 1, 2}) {
    auto rows = RandomRows(n, 14);
    auto enc = EncoderOf({{"s"}, {"i"}});
    ASSERT_TRUE(enc.ok());
    auto batch = ToBatch(rows);
    EXPECT_EQ(SortKeyRows(enc->Encode(batch)), BruteOrderSpecs(rows, {{"s"}, {"i"}})) << n;
  }
}

// Z-order keys sort like their 8-byte big-endian z-values under a stable sort.
TEST(ZOrderKey, SortEqualsStableSortOfZValues) {
  auto rows = RandomRows(30000, 15);
  auto batch = ToBatch(rows);
  c::Schema s = RowSchema();
  auto z = ZOrderKeyEncoder::Make(s, ColumnsOf({"low", "dt", "s"}), batch);
  ASSERT_TRUE(z.ok());
  KeyRows keys = z->Encode(batch);
  std::vector<uint32_t> want(rows.size());
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(),
                   [&](uint32_t a, uint32_t b) { return std::memcmp(keys.row(a), keys.row(b), 8) < 0; });
  EXPECT_EQ(SortKeyRows(keys), want);
}

TEST(SortKey, RejectsNestedColumnsAndBadIndexes) {
  c::Schema s;
  s.fields = {{"st", c::Struct({{"x", c::Int32(), true}}), true}, {"l", c::List(c::Int32()), true}};
  EXPECT_EQ(SortKeyEncoder::Make(s, {{0, false, true}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(SortKeyEncoder::Make(s, {{1, false, true}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(SortKeyEncoder::Make(s, {{5, false, true}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(IsSortableType(*c::Map(c::String(), c::Int32())));
  EXPECT_TRUE(IsSortableType(*c::Decimal(30, 2)));
}

TEST(SortKey, WideDecimalsAndSmallIntegersKeepTheirOrder) {
  c::Schema s;
  s.fields = {{"w", c::Decimal(30, 0), true}, {"t", c::Int8(), true}, {"h", c::Int16(), true},
              {"f", c::Float32(), true}};
  auto schema = std::make_shared<c::Schema>(s);
  std::vector<columnar::int128_t> wide = {-(columnar::int128_t(1) << 100), -1, 0, 1, columnar::int128_t(1) << 90};
  std::vector<int8_t> tiny = {-128, -1, 0, 1, 127};
  std::vector<int16_t> half = {-32768, -5, 0, 5, 32767};
  std::vector<float> fl = {-1e30f, -1.5f, 0.0f, 2.0f, std::numeric_limits<float>::infinity()};
  // Rows in reverse order, so a correct sort reverses them.
  auto w = c::Vector::Make(s[0].type), t = c::Vector::Make(s[1].type), h = c::Vector::Make(s[2].type),
       f = c::Vector::Make(s[3].type);
  for (int i = 4; i >= 0; --i) {
    w->Append<columnar::int128_t>(wide[i]);
    t->Append<int8_t>(tiny[i]);
    h->Append<int16_t>(half[i]);
    f->Append<float>(fl[i]);
  }
  c::RecordBatch b(schema, {w, t, h, f}, 5);
  for (int col = 0; col < 4; ++col) {
    auto enc = SortKeyEncoder::Make(s, {{col, false, true}});
    ASSERT_TRUE(enc.ok());
    EXPECT_EQ(SortKeyRows(enc->Encode(b)), (std::vector<uint32_t>{4, 3, 2, 1, 0})) << col;
  }
}

TEST(ZOrderKey, RanksAreMonotoneAndNullRanksLowest) {
  auto rows = RandomRows(3000, 5);
  auto batch = ToBatch(rows);
  c::Schema s = RowSchema();
  auto z = ZOrderKeyEncoder::Make(s, ColumnsOf({"dec", "s"}), batch);
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  for (size_t k = 0; k < 2; ++k) {
    const std::string col = k == 0 ? "dec" : "s";
    auto enc = SortKeyEncoder::Make(s, ColumnsOf({col}));
    KeyRows keys = enc->Encode(batch);
    for (size_t a = 0; a < rows.size(); a += 3) {
      for (size_t b = 0; b < rows.size(); b += 11) {
        uint32_t ra = z->Rank(k, keys, a), rb = z->Rank(k, keys, b);
        int cmp = CompareOn(rows[a], rows[b], {col});
        if (cmp < 0) {
          ASSERT_LE(ra, rb);
        }
        if (cmp == 0 && col == "dec") {
          ASSERT_EQ(ra, rb);
        }
        bool valid = k == 0 ? rows[a].dec.has_value() : rows[a].s.has_value();
        EXPECT_EQ(ra == 0, !valid) << a;
      }
    }
  }
}

// Mean over blocks of `block` consecutive rows (in `order`) of the block's value range.
double MeanBlockRange(const std::vector<int64_t>& v, const std::vector<uint32_t>& order, size_t block) {
  double total = 0;
  size_t blocks = 0;
  for (size_t start = 0; start + block <= order.size(); start += block, ++blocks) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = start; i < start + block; ++i) {
      lo = std::min(lo, v[order[i]]);
      hi = std::max(hi, v[order[i]]);
    }
    total += static_cast<double>(hi - lo);
  }
  return total / static_cast<double>(blocks);
}

TEST(ZOrderKey, ClustersEveryColumnWhereLexicographicClustersOnlyTheFirst) {
  // Two independent uniform columns, the second skewed: half its values are one number.
  const int64_t n = 1 << 15;
  std::mt19937_64 rng(9);
  std::vector<int64_t> a(n), b(n);
  auto va = c::Vector::Make(c::Int64()), vb = c::Vector::Make(c::Int64());
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<int64_t>(rng() % 1000000);
    b[i] = rng() % 2 ? 7 : static_cast<int64_t>(rng() % 1000000);
    va->Append<int64_t>(a[i]);
    vb->Append<int64_t>(b[i]);
  }
  c::Schema s;
  s.fields = {{"a", c::Int64(), true}, {"b", c::Int64(), true}};
  c::RecordBatch batch(std::make_shared<c::Schema>(s), {va, vb}, n);
  auto z = ZOrderKeyEncoder::Make(s, {{0, false, true}, {1, false, true}}, batch);
  ASSERT_TRUE(z.ok());
  auto zperm = SortKeyRows(z->Encode(batch));
  auto lex = SortKeyEncoder::Make(s, {{0, false, true}, {1, false, true}});
  auto lperm = SortKeyRows(lex->Encode(batch));
  std::vector<uint32_t> ident(n);
  std::iota(ident.begin(), ident.end(), 0u);
  const size_t block = 1024;
  double za = MeanBlockRange(a, zperm, block), zb = MeanBlockRange(b, zperm, block);
  double la = MeanBlockRange(a, lperm, block), lb = MeanBlockRange(b, lperm, block);
  double ua = MeanBlockRange(a, ident, block), ub = MeanBlockRange(b, ident, block);
  // Lexicographic: a tight, b as wide as unsorted. Z-order: both well below unsorted.
  EXPECT_LT(la, ua * 0.1);
  EXPECT_GT(lb, ub * 0.9);
  EXPECT_LT(za, ua * 0.5) << za << " " << ua;
  EXPECT_LT(zb, ub * 0.6) << zb << " " << ub;
}

}  // namespace
}  // namespace shoal::table
