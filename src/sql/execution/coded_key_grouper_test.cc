#include "sql/execution/coded_key_grouper.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

namespace shoal::sql {
namespace {

using columnar::Vector;
using columnar::VectorPtr;

VectorPtr Dictionary(std::mt19937& rng, int size) {
  static const char* kWords[] = {"", "A", "N", "R", "AIR", "REG AIR", "a value longer than sixteen bytes", "MAIL",
                                 "SHIP", "TRUCK"};
  auto d = Vector::Make(columnar::String());
  // Duplicate entries on purpose: two codes of one value must land in one group.
  for (int i = 0; i < size; ++i) d->AppendString(kWords[rng() % 10]);
  return d;
}

VectorPtr Coded(std::mt19937& rng, const VectorPtr& dict, int n) {
  auto v = Vector::MakeCoded(dict, n);
  uint8_t* valid = v->MutableValidity();
  for (int i = 0; i < n; ++i) {
    const bool null = dict->size() == 0 || rng() % 9 == 0;
    v->mutable_codes()[i] = null ? 0 : static_cast<int32_t>(rng() % dict->size());
    valid[i] = null ? 0 : 1;
  }
  return v;
}

TEST(CodedKeyGrouper, AssignsTheGroupsOfTheHashTableOnDecodedKeys) {
  std::mt19937 rng(23);
  std::vector<columnar::TypePtr> types = {columnar::String(), columnar::String()};
  GroupHashTable coded_table(types), reference(types);
  CodedKeyGrouper grouper;
  std::vector<VectorPtr> dicts = {Dictionary(rng, 7), Dictionary(rng, 3)};
  for (int batch = 0; batch < 60; ++batch) {
    if (batch % 10 == 9) dicts[rng() % 2] = Dictionary(rng, 1 + static_cast<int>(rng() % 12));  // a new chunk
    const int n = 1 + static_cast<int>(rng() % 600);
    std::vector<VectorPtr> keys = {Coded(rng, dicts[0], n), Coded(rng, dicts[1], n)};
    std::vector<VectorPtr> flat = {columnar::Decode(keys[0]), columnar::Decode(keys[1])};
    std::vector<uint32_t> ids(n), want(n);
    ASSERT_TRUE(grouper.Map({keys[0].get(), keys[1].get()}, n, &coded_table, ids.data()));
    reference.FindOrInsert({flat[0].get(), flat[1].get()}, n, want.data());
    // Both tables see groups in the same first-seen order, so the ids themselves agree.
    ASSERT_EQ(ids, want) << "batch " << batch;
  }
  ASSERT_EQ(coded_table.size(), reference.size());
  for (size_t k = 0; k < 2; ++k) {
    const Vector& a = *coded_table.key_columns()[k];
    const Vector& b = *reference.key_columns()[k];
    for (int64_t g = 0; g < a.size(); ++g) {
      ASSERT_EQ(a.IsNull(g), b.IsNull(g));
      if (!a.IsNull(g)) {
        ASSERT_EQ(a.GetString(g), b.GetString(g));
      }
    }
  }
}

TEST(CodedKeyGrouper, DeclinesFlatKeysAndTooManyCombinations) {
  std::mt19937 rng(5);
  std::vector<columnar::TypePtr> types = {columnar::String(), columnar::String()};
  GroupHashTable table(types);
  CodedKeyGrouper grouper;
  auto small = Dictionary(rng, 4);
  auto coded = Coded(rng, small, 10);
  auto flat = columnar::Decode(coded);
  std::vector<uint32_t> ids(10);
  EXPECT_FALSE(grouper.Map({coded.get(), flat.get()}, 10, &table, ids.data()));
  auto big = Vector::Make(columnar::String());
  for (int i = 0; i < 300; ++i) big->AppendString(std::to_string(i));
  auto wide = Coded(rng, big, 10);
  EXPECT_FALSE(grouper.Map({wide.get(), wide.get()}, 10, &table, ids.data()));  // 301 * 301 > 65,536
  EXPECT_EQ(table.size(), 0);
  EXPECT_TRUE(grouper.Map({wide.get(), coded.get()}, 10, &table, ids.data()));
}

}  // namespace
}  // namespace shoal::sql
