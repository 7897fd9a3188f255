#include "delta/schema_json.h"

#include <gtest/gtest.h>

namespace shoal::delta {
namespace {

TEST(SchemaJson, ParsesNestedTypesAndRoundTrips) {
  std::string s =
      R"J({"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}},)J"
      R"J({"name":"d","type":"decimal(10,2)","nullable":true,"metadata":{}},)J"
      R"J({"name":"arr","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},)J"
      R"J({"name":"m","type":{"type":"map","keyType":"string","valueType":{"type":"struct","fields":[{"name":"x","type":"timestamp_ntz","nullable":true,"metadata":{}}]},"valueContainsNull":false},"nullable":true,"metadata":{}}]})J";
  auto r = ParseSchemaJson(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->children.size(), 4u);
  EXPECT_EQ(r->children[0].type, "long");
  EXPECT_FALSE(r->children[0].nullable);
  EXPECT_EQ(r->children[1].type, "decimal");
  EXPECT_EQ(r->children[1].precision, 10);
  EXPECT_EQ(r->children[1].scale, 2);
  EXPECT_TRUE(r->children[2].IsArray());
  EXPECT_TRUE(r->children[2].children[0].nullable);
  const auto& m = r->children[3];
  ASSERT_TRUE(m.IsMap());
  EXPECT_FALSE(m.children[1].nullable);
  EXPECT_EQ(m.children[1].children[0].type, "timestamp_ntz");
  EXPECT_EQ(SerializeSchemaJson(*r), s);
  EXPECT_EQ(FindField(*r, {"m", "value", "x"})->type, "timestamp_ntz");
}

TEST(SchemaJson, ExposesColumnMetadata) {
  std::string s =
      R"J({"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{)J"
      R"J("delta.columnMapping.id":5,"delta.columnMapping.physicalName":"col-abc",)J"
      R"J("delta.identity.start":1,"delta.identity.step":2,"delta.identity.highWaterMark":9,"delta.identity.allowExplicitInsert":false,)J"
      R"J("delta.generationExpression":"b + 1","delta.typeChanges":[{"fromType":"integer","toType":"long"}],)J"
      R"J("delta.invariants":"{\"expression\":{\"expression\":\"a > 0\"}}"}}]})J";
  auto r = ParseSchemaJson(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& f = r->children[0];
  EXPECT_EQ(f.ColumnMappingId(), 5);
  EXPECT_EQ(f.PhysicalName(), "col-abc");
  EXPECT_TRUE(f.IsIdentityColumn());
  EXPECT_EQ(f.IdentityStep(), 2);
  EXPECT_EQ(f.IdentityHighWaterMark(), 9);
  EXPECT_EQ(f.IdentityAllowExplicitInsert(), false);
  EXPECT_EQ(f.GenerationExpression(), "b + 1");
  ASSERT_NE(f.TypeChanges(), nullptr);
  EXPECT_EQ(f.TypeChanges()->size(), 1u);
  EXPECT_EQ(f.Invariant(), "a > 0");
  EXPECT_EQ(SerializeSchemaJson(*r), s);
}

TEST(SchemaJson, RejectsMalformedSchemas) {
  for (const char* bad : {"", "[]", R"J({"type":"array"})J", R"J({"type":"struct"})J",
                          R"J({"type":"struct","fields":[{"name":"a","nullable":true}]})J",
                          R"J({"type":"struct","fields":[{"name":"a","type":"decimal(50,2)","nullable":true}]})J",
                          R"J({"type":"struct","fields":[{"name":"a","type":"decimal(5","nullable":true}]})J",
                          R"J({"type":"struct","fields":[{"name":"a","type":{"type":"map","keyType":"string"},"nullable":true}]})J",
                          R"J({"type":"struct","fields":[{"name":"a","type":"lo ng","nullable":true}]})J"}) {
    auto r = ParseSchemaJson(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(r.status().IsCorruption()) << bad;
  }
}

TEST(SchemaJson, DeepNestingIsRejectedNotOverflowed) {
  std::string s = R"J({"type":"struct","fields":[{"name":"a","nullable":true,"type":)J";
  std::string tail = "}]}";
  for (int i = 0; i < 2000; ++i) s += R"J({"type":"array","containsNull":true,"elementType":)J";
  s += "\"long\"";
  for (int i = 0; i < 2000; ++i) s += "}";
  s += tail;
  EXPECT_FALSE(ParseSchemaJson(s).ok());
}

}  // namespace
}  // namespace shoal::delta
