#include "table/protocol_validator.h"

#include <gtest/gtest.h>

#include "table/table_creator.h"

namespace shoal::table {
namespace {

namespace c = columnar;

std::string Commit0(const std::vector<std::string>& parts, const std::map<std::string, std::string>& props,
                    c::Schema schema = {}) {
  if (schema.fields.empty()) schema.fields = {{"id", c::Int64(), true}, {"p", c::String(), true}};
  auto actions = CreateTableActions("t", schema, parts, props);
  EXPECT_TRUE(actions.ok()) << actions.status().ToString();
  return delta::SerializeCommit(*actions);
}

bool Mentions(const std::vector<Violation>& vs, const std::string& needle) {
  for (const auto& v : vs) {
    if (v.message.find(needle) != std::string::npos) return true;
  }
  return false;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

const char* kAdd =
    R"({"add":{"path":"p=a/part-0.parquet","partitionValues":{"p":"a"},"size":10,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":2,\"minValues\":{\"id\":1},\"maxValues\":{\"id\":2},\"nullCount\":{\"id\":0}}"}})";

TEST(ProtocolValidator, AcceptsCreatedTablesOfEveryFeatureCombination) {
  const std::vector<std::map<std::string, std::string>> combos = {
      {},
      {{"delta.enableDeletionVectors", "false"}},
      {{"delta.columnMapping.mode", "name"}},
      {{"delta.columnMapping.mode", "id"}, {"delta.enableRowTracking", "true"}},
      {{"delta.appendOnly", "true"}, {"delta.enableChangeDataFeed", "true"}},
      {{"delta.enableInCommitTimestamps", "true"}, {"delta.checkpointPolicy", "v2"}},
      {{"delta.constraints.pos", "id > 0"}, {"delta.isolationLevel", "Serializable"}},
  };
  c::Schema wide;
  wide.fields = {{"id", c::Int64(), true}, {"p", c::String(), true}, {"t", c::TimestampNtz(), true},
                 {"s", c::Struct({{"a", c::Int32(), true}}), true}};
  for (const auto& props : combos) {
    for (bool partitioned : {false, true}) {
      std::vector<std::string> parts;
      if (partitioned) parts = {"p"};
      auto vs = ValidateCommits({{0, Commit0(parts, props, wide)}});
      EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
    }
  }
}

TEST(ProtocolValidator, AcceptsAnAddWithPartitionValuesAndStats) {
  auto vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, std::string(kAdd) + "\n"}});
  EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnMissingFeature) {
  std::string log = Commit0({}, {});
  // Drop deletionVectors from the protocol while the property still enables it.
  log = Replace(log, R"("readerFeatures":["deletionVectors"])", R"("readerFeatures":[])");
  log = Replace(log, R"("writerFeatures":["deletionVectors"])", R"("writerFeatures":[])");
  auto vs = ValidateCommits({{0, log}});
  EXPECT_TRUE(Mentions(vs, "deletionVectors")) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnTimestampNtzWithoutFeature) {
  std::string log = Commit0({}, {{"delta.enableDeletionVectors", "false"}});
  log = Replace(log, R"(\"type\":\"long\")", R"(\"type\":\"timestamp_ntz\")");
  auto vs = ValidateCommits({{0, log}});
  EXPECT_TRUE(Mentions(vs, "timestampNtz")) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnReaderVersionWithoutFeatureList) {
  std::string log = Commit0({}, {});
  log = Replace(log, R"("readerFeatures":["deletionVectors"],)", "");
  auto vs = ValidateCommits({{0, log}});
  EXPECT_TRUE(Mentions(vs, "readerFeatures")) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnMissingPartitionValue) {
  std::string add = Replace(kAdd, R"("partitionValues":{"p":"a"})", R"("partitionValues":{})");
  auto vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, add}});
  EXPECT_TRUE(Mentions(vs, "no partition value for partition column p")) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnBadStatsKey) {
  std::string add = Replace(kAdd, R"(\"minValues\":{\"id\":1})", R"(\"minValues\":{\"nope\":1})");
  auto vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, add}});
  EXPECT_TRUE(Mentions(vs, "unknown column nope")) << FormatViolations(vs);
}

TEST(ProtocolValidator, FailsOnPathsOutsideTheRoot) {
  for (const char* bad : {"../x.parquet", "/abs/x.parquet", "s3://b/x.parquet"}) {
    std::string add = Replace(kAdd, "p=a/part-0.parquet", bad);
    auto vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, add}});
    EXPECT_FALSE(vs.empty()) << bad;
  }
}

TEST(ProtocolValidator, FailsOnGapsDeletionVectorsWithoutFeatureAndBadCommitInfo) {
  std::string base = Commit0({"p"}, {{"delta.enableDeletionVectors", "false"}});
  auto gap = ValidateCommits({{0, base}, {2, std::string(kAdd)}});
  EXPECT_TRUE(Mentions(gap, "not contiguous")) << FormatViolations(gap);
  std::string dv = Replace(kAdd, R"("dataChange":true,)",
                           R"("dataChange":true,"deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":1,"sizeInBytes":36,"cardinality":2},)");
  auto nodv = ValidateCommits({{0, base}, {1, dv}});
  EXPECT_TRUE(Mentions(nodv, "deletionVectors")) << FormatViolations(nodv);
  auto ci = ValidateCommits({{0, base}, {1, R"({"commitInfo":{"timestamp":"yesterday","operation":"WRITE"}})"}});
  EXPECT_TRUE(Mentions(ci, "commitInfo.timestamp")) << FormatViolations(ci);
  auto nometa = ValidateCommits({{0, std::string(kAdd)}});
  EXPECT_FALSE(nometa.empty());
}

}  // namespace
}  // namespace shoal::table
