#include "parquet/record_assembler.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace shoal::parquet {
namespace {

// optional group a (LIST) { repeated group list { optional int32 element; } }
Result<ParquetSchema> ListSchema() {
  SchemaElement root, a, list, el;
  root.name = "schema";
  root.num_children = 1;
  a.name = std::string("a");
  a.repetition = Repetition::kOptional;
  a.converted_type = ConvertedType::kList;
  a.num_children = 1;
  list.name = "list";
  list.repetition = Repetition::kRepeated;
  list.num_children = 1;
  el.name = "element";
  el.repetition = Repetition::kOptional;
  el.type = PhysicalType::kInt32;
  return ParquetSchema::Make({root, a, list, el});
}

using Row = std::optional<std::vector<std::optional<int32_t>>>;

TEST(RecordAssembler, ListOfNullableIntsMatchesBruteForceReference) {
  auto schema = ListSchema();
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const FieldNode& field = schema->fields()[0];
  ASSERT_EQ(field.kind, FieldNode::Kind::kList);
  ASSERT_EQ(schema->leaves()[0].max_def, 3);
  ASSERT_EQ(schema->leaves()[0].max_rep, 1);

  std::mt19937 rng(42);
  std::vector<Row> rows;
  for (int i = 0; i < 500; ++i) {
    int kind = rng() % 5;
    if (kind == 0) {
      rows.push_back(std::nullopt);
    } else {
      std::vector<std::optional<int32_t>> els;
      int n = kind == 1 ? 0 : rng() % 6;
      for (int j = 0; j < n; ++j) {
        if (rng() % 4 == 0) {
          els.push_back(std::nullopt);
        } else {
          els.push_back(static_cast<int32_t>(rng() % 1000));
        }
      }
      rows.push_back(els);
    }
  }
  // Shred to levels (the writer's side of Dremel, by hand).
  LeafLevels lv;
  lv.values = columnar::Vector::Make(columnar::Int32());
  for (const Row& r : rows) {
    if (!r) {
      lv.def.push_back(0);
      lv.rep.push_back(0);
    } else if (r->empty()) {
      lv.def.push_back(1);
      lv.rep.push_back(0);
    } else {
      for (size_t j = 0; j < r->size(); ++j) {
        lv.rep.push_back(j == 0 ? 0 : 1);
        if ((*r)[j]) {
          lv.def.push_back(3);
          lv.values->Append<int32_t>(*(*r)[j]);
        } else {
          lv.def.push_back(2);
        }
      }
    }
  }
  lv.num_entries = static_cast<int64_t>(lv.def.size());
  auto v = AssembleRecords(field, {lv}, schema->leaves(), static_cast<int64_t>(rows.size()));
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  const columnar::Vector& out = **v;
  ASSERT_EQ(out.size(), static_cast<int64_t>(rows.size()));
  const columnar::Vector& child = *out.child(0);
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(out.IsNull(i), !rows[i].has_value()) << i;
    if (!rows[i]) continue;
    int64_t b = out.offsets()[i], e = out.offsets()[i + 1];
    ASSERT_EQ(e - b, static_cast<int64_t>(rows[i]->size())) << i;
    for (int64_t j = b; j < e; ++j) {
      const auto& want = (*rows[i])[j - b];
      ASSERT_EQ(child.IsNull(j), !want.has_value());
      if (want) {
        EXPECT_EQ(child.Get<int32_t>(j), *want);
      }
    }
  }
}

TEST(RecordAssembler, InconsistentLevelsAreCorruption) {
  auto schema = ListSchema();
  ASSERT_TRUE(schema.ok());
  LeafLevels lv;
  lv.values = columnar::Vector::Make(columnar::Int32());
  lv.def = {3, 3};
  lv.rep = {0, 1};
  lv.num_entries = 2;
  lv.values->Append<int32_t>(1);  // two defined entries, one value
  auto v = AssembleRecords(schema->fields()[0], {lv}, schema->leaves(), 1);
  ASSERT_FALSE(v.ok());
  EXPECT_TRUE(v.status().IsCorruption());
  // More records asked than levels hold.
  lv.values->Append<int32_t>(2);
  auto w = AssembleRecords(schema->fields()[0], {lv}, schema->leaves(), 2);
  ASSERT_FALSE(w.ok());
  EXPECT_TRUE(w.status().IsCorruption());
}

TEST(ParquetSchemaMapping, LegacyTwoLevelListAndRepeatedFieldWithoutAnnotation) {
  // optional group l (LIST) { repeated int32 array; } and repeated int64 r;
  SchemaElement root, l, arr, r;
  root.name = "schema";
  root.num_children = 2;
  l.name = "l";
  l.repetition = Repetition::kOptional;
  l.converted_type = ConvertedType::kList;
  l.num_children = 1;
  arr.name = "array";
  arr.repetition = Repetition::kRepeated;
  arr.type = PhysicalType::kInt32;
  r.name = "r";
  r.repetition = Repetition::kRepeated;
  r.type = PhysicalType::kInt64;
  auto s = ParquetSchema::Make({root, l, arr, r});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->columnar_schema().fields[0].type->ToString(), columnar::List(columnar::Int32(), false)->ToString());
  EXPECT_EQ(s->columnar_schema().fields[1].type->ToString(), columnar::List(columnar::Int64(), false)->ToString());
  EXPECT_FALSE(s->columnar_schema().fields[1].nullable);
  EXPECT_EQ(s->leaves()[0].max_def, 2);
  EXPECT_EQ(s->leaves()[1].max_def, 1);
}

TEST(ParquetSchemaMapping, RejectsMalformedTrees) {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 3;  // but no children follow
  EXPECT_TRUE(ParquetSchema::Make({root}).status().IsCorruption());
  SchemaElement bad;
  bad.name = "d";
  bad.type = PhysicalType::kInt32;
  bad.converted_type = ConvertedType::kDecimal;
  bad.precision = 0;
  root.num_children = 1;
  EXPECT_FALSE(ParquetSchema::Make({root, bad}).ok());
}

}  // namespace
}  // namespace shoal::parquet
