#include "delta/stats_json.h"

#include <gtest/gtest.h>

namespace shoal::delta {
namespace {

TEST(StatsJson, ParsesNestedColumnsAndRoundTrips) {
  std::string s =
      R"({"numRecords":10,"minValues":{"a":1,"s":{"b":"x","c":1.5}},"maxValues":{"a":9,"s":{"b":"z","c":2.5}},"nullCount":{"a":0,"s":{"b":3,"c":0}},"tightBounds":false})";
  auto r = ParseStatsJson(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_records, 10);
  EXPECT_FALSE(r->TightBounds());
  EXPECT_EQ(*r->Min({"a"}), 1);
  EXPECT_EQ(*r->Max({"s", "b"}), "z");
  EXPECT_EQ(r->NullCount({"s", "b"}), 3);
  EXPECT_EQ(r->Min({"s"}), nullptr);
  EXPECT_EQ(SerializeStatsJson(*r), s);
}

TEST(StatsJson, AbsentTightBoundsMeansTight) {
  auto r = ParseStatsJson(R"({"numRecords":5})");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->TightBounds());
  EXPECT_TRUE(r->min_values.empty());
}

TEST(StatsJson, RejectsMalformedStats) {
  for (const char* bad : {"", "{", "[]", R"({"numRecords":"10"})", R"({"minValues":[1]})",
                          R"({"tightBounds":1})"}) {
    EXPECT_TRUE(ParseStatsJson(bad).status().IsCorruption()) << bad;
  }
}

}  // namespace
}  // namespace shoal::delta
