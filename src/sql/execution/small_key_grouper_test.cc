#include "sql/execution/small_key_grouper.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>

namespace shoal::sql {
namespace {

using columnar::Vector;
using columnar::VectorPtr;

// Checks that ids_a and ids_b induce the same partition of the rows seen so far.
class PartitionCheck {
 public:
  void Add(const uint32_t* a, const uint32_t* b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      auto [ita, new_a] = a_to_b_.emplace(a[i], b[i]);
      auto [itb, new_b] = b_to_a_.emplace(b[i], a[i]);
      ASSERT_EQ(ita->second, b[i]) << "fast group " << a[i] << " holds two reference groups";
      ASSERT_EQ(itb->second, a[i]) << "reference group " << b[i] << " split by the fast path";
    }
  }

 private:
  std::map<uint32_t, uint32_t> a_to_b_, b_to_a_;
};

// Short strings, including the empty string, 7 and 8 bytes, an embedded NUL and high bytes.
std::string PickWord(std::mt19937& rng) {
  static const std::string kWords[] = {"", "A", "N", "R", "AB", "REG AIR", "12345678", "1234567",
                                       std::string("A\0", 2), std::string("\0", 1), "\xff\xfe"};
  return kWords[rng() % 11];
}

std::vector<const Vector*> Ptrs(const std::vector<VectorPtr>& v) {
  std::vector<const Vector*> p;
  for (const auto& x : v) p.push_back(x.get());
  return p;
}

TEST(SmallKeyGrouper, AssignsTheSameGroupsAsTheHashTable) {
  std::mt19937 rng(17);
  std::vector<columnar::TypePtr> types = {columnar::String(), columnar::Int32(), columnar::Float64(),
                                          columnar::Boolean()};
  ASSERT_TRUE(SmallKeyGrouper::Supports(types));
  GroupHashTable fast_table(types), reference(types);
  SmallKeyGrouper grouper(types.size());
  PartitionCheck check;
  for (int batch = 0; batch < 40; ++batch) {
    const int n = batch == 7 ? 0 : 1 + static_cast<int>(rng() % 700);
    std::vector<VectorPtr> cols;
    for (const auto& t : types) cols.push_back(Vector::Make(t));
    for (int i = 0; i < n; ++i) {
      if (rng() % 11 == 0) cols[0]->AppendNull();
      else cols[0]->AppendString(PickWord(rng));
      if (rng() % 13 == 0) cols[1]->AppendNull();
      else cols[1]->Append<int32_t>(static_cast<int32_t>(rng() % 5) - 2);
      const double dv[] = {0.0, -0.0, std::nan(""), -std::nan(""), 1.5, -1.5};
      if (rng() % 17 == 0) cols[2]->AppendNull();
      else cols[2]->Append<double>(dv[rng() % 6]);
      if (rng() % 19 == 0) cols[3]->AppendNull();
      else cols[3]->Append<uint8_t>(rng() % 2);
    }
    std::vector<uint32_t> a(n), b(n);
    ASSERT_TRUE(grouper.Map(Ptrs(cols), n, &fast_table, a.data())) << "batch " << batch;
    reference.FindOrInsert(Ptrs(cols), n, b.data());
    check.Add(a.data(), b.data(), n);
    ASSERT_EQ(fast_table.size(), reference.size());
  }
  EXPECT_GT(reference.size(), 50);
  EXPECT_FALSE(grouper.disabled());
}

// Far more distinct values than the per-call cache of recent codes has slots, in random and
// alternating order, so slots are evicted and re-filled all the time: the groups must still be
// exactly the hash table's.
TEST(SmallKeyGrouper, ManyDistinctValuesThroughTheRecentCodesCacheMatchTheHashTable) {
  std::mt19937 rng(29);
  std::vector<columnar::TypePtr> types = {columnar::String(), columnar::Int64()};
  GroupHashTable fast_table(types), reference(types);
  SmallKeyGrouper grouper(types.size());
  PartitionCheck check;
  for (int batch = 0; batch < 30; ++batch) {
    const int n = 2048;
    std::vector<VectorPtr> cols = {Vector::Make(types[0]), Vector::Make(types[1])};
    for (int i = 0; i < n; ++i) {
      // Odd batches alternate between two values; even ones draw from ~300 of each column.
      const uint32_t s = batch % 2 ? static_cast<uint32_t>(i % 2) : rng() % 300;
      cols[0]->AppendString(std::string("k").append(std::to_string(s)));  // at most 4 bytes
      cols[1]->Append<int64_t>(batch % 2 ? (i % 2) * 1000003 : static_cast<int64_t>(rng() % 250) * 7919);
    }
    std::vector<uint32_t> a(n), b(n);
    ASSERT_TRUE(grouper.Map(Ptrs(cols), n, &fast_table, a.data())) << "batch " << batch;
    reference.FindOrInsert(Ptrs(cols), n, b.data());
    check.Add(a.data(), b.data(), n);
    ASSERT_EQ(fast_table.size(), reference.size());
  }
  EXPECT_GT(reference.size(), 10000);
  EXPECT_FALSE(grouper.disabled());
}

// Strings of at most one byte take a direct table (every byte value, the empty string and
// NULL), mixed in one column with longer strings that take the hashed path; the second key
// column is one-byte flags alone. The groups must be exactly the hash table's.
TEST(SmallKeyGrouper, OneByteStringsThroughTheDirectTableMatchTheHashTable) {
  std::mt19937 rng(31);
  std::vector<columnar::TypePtr> types = {columnar::String(), columnar::String()};
  GroupHashTable fast_table(types), reference(types);
  SmallKeyGrouper grouper(types.size());
  PartitionCheck check;
  for (int batch = 0; batch < 12; ++batch) {
    const int n = 1500;
    std::vector<VectorPtr> cols = {Vector::Make(types[0]), Vector::Make(types[1])};
    for (int i = 0; i < n; ++i) {
      const uint32_t r = rng() % 300;
      if (r == 299) cols[0]->AppendNull();
      else if (r == 298) cols[0]->AppendString("");
      else if (r >= 256) cols[0]->AppendString(std::string(1, static_cast<char>(r)) + "xy");
      else cols[0]->AppendString(std::string(1, static_cast<char>(r)));
      cols[1]->AppendString(rng() % 2 ? "O" : "F");
    }
    std::vector<uint32_t> a(n), b(n);
    ASSERT_TRUE(grouper.Map(Ptrs(cols), n, &fast_table, a.data())) << "batch " << batch;
    reference.FindOrInsert(Ptrs(cols), n, b.data());
    check.Add(a.data(), b.data(), n);
    ASSERT_EQ(fast_table.size(), reference.size());
  }
  EXPECT_GT(reference.size(), 2 * 256);
  EXPECT_FALSE(grouper.disabled());
}

TEST(SmallKeyGrouper, StringLongerThanEightBytesFallsBackWithoutTouchingTheTable) {
  std::vector<columnar::TypePtr> types = {columnar::String()};
  GroupHashTable table(types);
  SmallKeyGrouper grouper(1);
  auto v = Vector::Make(columnar::String());
  v->AppendString("short");
  std::vector<uint32_t> ids(2);
  ASSERT_TRUE(grouper.Map({v.get()}, 1, &table, ids.data()));
  EXPECT_EQ(table.size(), 1);
  v->AppendString("123456789");
  EXPECT_FALSE(grouper.Map({v.get()}, 2, &table, ids.data()));
  EXPECT_EQ(table.size(), 1);
  EXPECT_TRUE(grouper.disabled());
  // Later batches go to the table directly and keep the ids the fast path handed out.
  table.FindOrInsert({v.get()}, 2, ids.data());
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(ids[1], 1u);
}

TEST(SmallKeyGrouper, ColumnWithTooManyDistinctValuesFallsBackAndStaysConsistent) {
  std::vector<columnar::TypePtr> types = {columnar::Int64(), columnar::String()};
  GroupHashTable table(types), reference(types);
  SmallKeyGrouper grouper(2);
  PartitionCheck check;
  bool fell_back = false;
  int64_t next = 0;
  for (int batch = 0; batch < 40; ++batch) {
    const int n = 2048;
    auto k = Vector::Make(columnar::Int64());
    auto s = Vector::Make(columnar::String());
    for (int i = 0; i < n; ++i) {
      k->Append<int64_t>(next++ % 90000);
      s->AppendString(i % 2 ? "x" : "y");
    }
    std::vector<const Vector*> keys = {k.get(), s.get()};
    std::vector<uint32_t> a(n), b(n);
    int64_t before = table.size();
    if (!grouper.Map(keys, n, &table, a.data())) {
      fell_back = true;
      EXPECT_EQ(table.size(), before);
      table.FindOrInsert(keys, n, a.data());
    }
    reference.FindOrInsert(keys, n, b.data());
    check.Add(a.data(), b.data(), n);
  }
  EXPECT_TRUE(fell_back);
  EXPECT_EQ(table.size(), reference.size());
}

TEST(SmallKeyGrouper, SupportsOnlySmallFixedAndStringKeys) {
  EXPECT_TRUE(SmallKeyGrouper::Supports({columnar::Decimal(15, 2), columnar::Date()}));
  EXPECT_FALSE(SmallKeyGrouper::Supports({columnar::Decimal(30, 2)}));
  EXPECT_FALSE(SmallKeyGrouper::Supports({}));
  EXPECT_FALSE(SmallKeyGrouper::Supports({columnar::Int8(), columnar::Int8(), columnar::Int8(), columnar::Int8(),
                                          columnar::Int8()}));
  EXPECT_FALSE(SmallKeyGrouper::Supports({columnar::List(columnar::Int32())}));
}

}  // namespace
}  // namespace shoal::sql
