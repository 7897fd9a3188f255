#include "sql/execution/group_hash_table.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>

#include "columnar/value.h"

namespace shoal::sql {
namespace {

using columnar::Vector;
using Key = std::pair<std::optional<int64_t>, std::optional<std::string>>;

TEST(GroupHashTable, AssignsDenseIdsMatchingABruteForceMap) {
  std::mt19937 rng(7);
  GroupHashTable table({columnar::Int64(), columnar::String()});
  std::map<Key, uint32_t> reference;
  std::vector<Key> first_key;
  for (int batch = 0; batch < 20; ++batch) {
    const int n = 1 + static_cast<int>(rng() % 500);
    auto a = Vector::Make(columnar::Int64());
    auto b = Vector::Make(columnar::String());
    std::vector<Key> keys;
    for (int i = 0; i < n; ++i) {
      Key k;
      if (rng() % 10 == 0) {
        a->AppendNull();
      } else {
        int64_t x = static_cast<int64_t>(rng() % 50) - 25;
        a->Append<int64_t>(x);
        k.first = x;
      }
      if (rng() % 8 == 0) {
        b->AppendNull();
      } else {
        std::string s(rng() % 4, static_cast<char>('a' + rng() % 3));
        b->AppendString(s);
        k.second = s;
      }
      keys.push_back(k);
    }
    std::vector<uint32_t> ids(n);
    table.FindOrInsert({a.get(), b.get()}, n, ids.data());
    for (int i = 0; i < n; ++i) {
      auto it = reference.find(keys[i]);
      if (it == reference.end()) {
        ASSERT_EQ(ids[i], reference.size()) << "new groups get the next dense id";
        reference[keys[i]] = ids[i];
        first_key.push_back(keys[i]);
      } else {
        ASSERT_EQ(ids[i], it->second);
      }
    }
  }
  ASSERT_EQ(table.size(), static_cast<int64_t>(reference.size()));
  const auto& cols = table.key_columns();
  for (int64_t g = 0; g < table.size(); ++g) {
    const Key& k = first_key[g];
    EXPECT_EQ(cols[0]->IsNull(g), !k.first.has_value());
    if (k.first) {
      EXPECT_EQ(cols[0]->Get<int64_t>(g), *k.first);
    }
    EXPECT_EQ(cols[1]->IsNull(g), !k.second.has_value());
    if (k.second) {
      EXPECT_EQ(cols[1]->GetString(g), *k.second);
    }
  }
}

// Fixed-width keys take the offset-free layout; hundreds of thousands of groups make the table
// grow many times, and batches of only new keys append their key columns whole.
TEST(GroupHashTable, ManyFixedWidthGroupsKeepDenseIdsAndKeys) {
  std::mt19937_64 rng(11);
  GroupHashTable table({columnar::Int64(), columnar::Int32()});
  std::map<std::pair<std::optional<int64_t>, int32_t>, uint32_t> reference;
  std::vector<std::pair<std::optional<int64_t>, int32_t>> first_key;
  for (int batch = 0; batch < 150; ++batch) {
    const int n = 2048;
    auto a = Vector::Make(columnar::Int64());
    auto b = Vector::Make(columnar::Int32());
    std::vector<std::pair<std::optional<int64_t>, int32_t>> keys;
    const bool fresh = batch % 10 == 0;  // every key new: the whole batch is appended at once
    for (int i = 0; i < n; ++i) {
      std::pair<std::optional<int64_t>, int32_t> k;
      if (!fresh && rng() % 100 == 0) {
        a->AppendNull();
      } else {
        int64_t x = fresh ? (int64_t{1} << 40) + batch * n + i : static_cast<int64_t>(rng() % 150000);
        a->Append<int64_t>(x);
        k.first = x;
      }
      k.second = static_cast<int32_t>(fresh ? 0 : rng() % 3);
      b->Append<int32_t>(k.second);
      keys.push_back(k);
    }
    std::vector<uint32_t> ids(n);
    table.FindOrInsert({a.get(), b.get()}, n, ids.data());
    for (int i = 0; i < n; ++i) {
      auto it = reference.find(keys[i]);
      if (it == reference.end()) {
        ASSERT_EQ(ids[i], reference.size());
        reference[keys[i]] = ids[i];
        first_key.push_back(keys[i]);
      } else {
        ASSERT_EQ(ids[i], it->second);
      }
    }
  }
  ASSERT_GT(table.size(), 200000);
  ASSERT_EQ(table.size(), static_cast<int64_t>(reference.size()));
  const auto& cols = table.key_columns();
  ASSERT_EQ(cols[0]->size(), table.size());
  for (int64_t g = 0; g < table.size(); ++g) {
    ASSERT_EQ(cols[0]->IsNull(g), !first_key[g].first.has_value());
    if (first_key[g].first) {
      ASSERT_EQ(cols[0]->Get<int64_t>(g), *first_key[g].first);
    }
    ASSERT_EQ(cols[1]->Get<int32_t>(g), first_key[g].second);
  }
}

TEST(GroupHashTable, NormalizesFloatsAndFindsWithoutInserting) {
  GroupHashTable table({columnar::Float64()});
  auto v = Vector::Make(columnar::Float64());
  for (double d : {0.0, -0.0, std::nan("1"), -std::nan("2"), 1.5}) v->Append<double>(d);
  std::vector<uint32_t> ids(5);
  table.FindOrInsert({v.get()}, 5, ids.data());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 1, 2}));
  auto probe = Vector::Make(columnar::Float64());
  probe->Append<double>(1.5);
  probe->Append<double>(7.0);
  probe->AppendNull();
  RowKeys enc;
  enc.Encode({probe.get()}, 3);
  std::vector<int64_t> found(3);
  table.Find(enc, /*skip_null=*/true, found.data());
  EXPECT_EQ(found, (std::vector<int64_t>{2, -1, -1}));
  EXPECT_TRUE(enc.has_null(2));
  EXPECT_EQ(table.size(), 3);
}

TEST(GroupHashTable, GrowsPastItsInitialCapacity) {
  GroupHashTable table({columnar::Int32()});
  auto v = Vector::Make(columnar::Int32());
  const int n = 100000;
  for (int i = 0; i < n; ++i) v->Append<int32_t>(i * 7);
  std::vector<uint32_t> ids(n);
  table.FindOrInsert({v.get()}, n, ids.data());
  table.FindOrInsert({v.get()}, n, ids.data());
  EXPECT_EQ(table.size(), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(ids[i], static_cast<uint32_t>(i));
}

}  // namespace
}  // namespace shoal::sql
