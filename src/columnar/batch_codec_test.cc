#include "columnar/batch_codec.h"

#include <gtest/gtest.h>

#include <random>

#include "columnar/value_text.h"

namespace shoal::columnar {
namespace {

std::string Rows(const RecordBatch& b) {
  std::string s;
  for (int64_t r = 0; r < b.num_rows; ++r) {
    for (const auto& c : b.columns) {
      AppendJson(*c, r, &s);
      s += ",";
    }
    s += "\n";
  }
  return s;
}

// Every supported layout: fixed widths with NULLs, wide decimals, strings (one coded), lists,
// structs and maps, with NULLs at both levels.
BatchPtr MixedBatch(int64_t n) {
  auto ints = Vector::Make(Int64());
  auto wide = Vector::Make(Decimal(30, 2));
  auto strs = Vector::Make(String());
  auto list = Vector::Make(List(String()));
  auto st = Vector::Make(Struct({{"a", Int32()}, {"b", String()}}));
  auto map = Vector::Make(Map(String(), Float64()));
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 == 3) {
      ints->AppendNull();
    } else {
      ints->Append<int64_t>(i * 1000003 - 5);
    }
    wide->Append<int128_t>(static_cast<int128_t>(i) * 100000000000000000LL);
    std::string text(static_cast<size_t>(i % 13), 'x');
    text.append(std::to_string(i));
    if (i % 5 == 0) {
      strs->AppendNull();
    } else {
      strs->AppendString(text);
    }
    if (i % 6 == 1) {
      list->AppendNull();
    } else {
      for (int64_t k = 0; k < i % 4; ++k) list->children()[0]->AppendString(std::string(static_cast<size_t>(k + 1), 'e'));
      list->AppendListEnd();
    }
    st->children()[0]->Append<int32_t>(static_cast<int32_t>(i));
    if (i % 2) {
      st->children()[1]->AppendNull();
    } else {
      st->children()[1]->AppendString("s");
    }
    st->AppendStructRow();
    auto& entries = *map->children()[0];
    for (int64_t k = 0; k < i % 3; ++k) {
      entries.children()[0]->AppendString(std::string(static_cast<size_t>(k + 1), 'k'));
      entries.children()[1]->Append<double>(0.5 * static_cast<double>(k));
      entries.AppendStructRow();
    }
    map->AppendListEnd();
  }
  // A dictionary-coded copy of the strings: written decoded.
  auto dict = Vector::Make(String());
  dict->AppendString("red");
  dict->AppendString("");
  auto coded = Vector::MakeCoded(dict, n);
  for (int64_t i = 0; i < n; ++i) coded->mutable_codes()[i] = static_cast<int32_t>(i % 2);
  auto schema = std::make_shared<Schema>(Schema{{{"i", Int64()}, {"d", Decimal(30, 2)}, {"s", String()},
                                                 {"l", List(String())}, {"st", st->type()},
                                                 {"m", map->type()}, {"c", String()}}});
  return std::make_shared<RecordBatch>(schema, std::vector<VectorPtr>{ints, wide, strs, list, st, map, coded}, n);
}

TEST(BatchCodec, RoundTripsEveryLayout) {
  for (int64_t n : {0, 1, 100}) {
    auto b = MixedBatch(n);
    std::string bytes;
    SerializeBatch(*b, &bytes);
    auto back = DeserializeBatch(b->schema, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t");
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ((*back)->num_rows, n);
    EXPECT_FALSE((*back)->columns[6]->IsDictionary());
    EXPECT_EQ(Rows(**back), Rows(*b));
  }
}

TEST(BatchCodec, EstimateMatchesFlatBatches) {
  auto b = MixedBatch(50);
  b->columns.pop_back();
  auto schema = std::make_shared<Schema>(Schema{std::vector<Field>(b->schema->fields.begin(), b->schema->fields.end() - 1)});
  b->schema = schema;
  std::string bytes;
  SerializeBatch(*b, &bytes);
  EXPECT_EQ(SerializedSize(*b), static_cast<int64_t>(bytes.size()));
}

TEST(BatchCodec, EveryTruncationIsCorruption) {
  auto b = MixedBatch(20);
  std::string bytes;
  SerializeBatch(*b, &bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = DeserializeBatch(b->schema, reinterpret_cast<const uint8_t*>(bytes.data()), n, "t");
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
  }
  bytes += "x";
  EXPECT_TRUE(DeserializeBatch(b->schema, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t")
                  .status()
                  .IsCorruption());
}

TEST(BatchCodec, FlippedBytesNeverCrash) {
  auto b = MixedBatch(30);
  std::string bytes;
  SerializeBatch(*b, &bytes);
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::string bad = bytes;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    auto r = DeserializeBatch(b->schema, reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), "t");
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
    }
  }
}

TEST(BatchCodec, WrongSchemaIsCorruption) {
  auto b = MixedBatch(3);
  std::string bytes;
  SerializeBatch(*b, &bytes);
  auto other = std::make_shared<Schema>(Schema{{{"i", Int64()}}});
  EXPECT_TRUE(DeserializeBatch(other, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t")
                  .status()
                  .IsCorruption());
}

}  // namespace
}  // namespace shoal::columnar
