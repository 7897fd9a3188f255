#include "delta/table_path.h"

#include <gtest/gtest.h>

namespace shoal::delta {
namespace {

TEST(TablePath, DecodesRelativePaths) {
  EXPECT_EQ(*ResolveTablePath("/t", "a%20b/c%25d+e.parquet"), "/t/a b/c%d+e.parquet");
  EXPECT_EQ(*ResolveTablePath("/t/", "x.parquet"), "/t/x.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "_2=bar+%252521/p.parquet"), "/t/_2=bar+%2521/p.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "./a//b.parquet"), "/t/a/b.parquet");
}

TEST(TablePath, AcceptsFileUrisInsideTheRoot) {
  EXPECT_EQ(*ResolveTablePath("/t", "file:/t/a.parquet"), "/t/a.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "file:///t/sub/a%20b.parquet"), "/t/sub/a b.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "file://localhost/t/a.parquet"), "/t/a.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "/t/a.parquet"), "/t/a.parquet");
}

TEST(TablePath, RejectsEscapes) {
  for (const char* p : {"../x.parquet", "a/../../x", "%2E%2E/x", "file:/etc/passwd", "file:///tt/x",
                        "/etc/passwd", "s3://bucket/t/x", "hdfs:/t/x", "file://evil/t/x", "",
                        "a%00b", "bad%zz", "trailing%2", "file:/t", "file:relative"}) {
    auto r = ResolveTablePath("/t", p);
    ASSERT_FALSE(r.ok()) << p;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << p;
  }
}

TEST(TablePath, RootPrefixMustEndAtASegment) {
  EXPECT_FALSE(ResolveTablePath("/data/t", "file:/data/t2/x").ok());
  EXPECT_TRUE(ResolveTablePath("/data/t", "file:/data/t/x").ok());
}

TEST(TablePath, ColonInsideRelativePathIsNotAScheme) {
  EXPECT_EQ(*ResolveTablePath("/t", "ts=2021-01-01 10%3A00/a.parquet"), "/t/ts=2021-01-01 10:00/a.parquet");
  EXPECT_EQ(*ResolveTablePath("/t", "d/x:y.parquet"), "/t/d/x:y.parquet");
}

TEST(TablePath, EncodeDecodeRoundTrip) {
  std::string raw = "p=a b%c:d/é#x?.parquet";
  std::string enc = PercentEncodePath(raw);
  EXPECT_EQ(enc.find(' '), std::string::npos);
  EXPECT_EQ(*PercentDecode(enc), raw);
}

}  // namespace
}  // namespace shoal::delta
