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
      {{"delta.enableInCommitTimestamps", "true"}, {"delta.checkpointPolicy", "classic"}},
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

TEST(ProtocolValidator, CdcActionsNeedTheFeatureAndNoDataChange) {
  const std::string cdc = R"({"cdc":{"path":"_change_data/p=a/c.parquet","partitionValues":{"p":"a"},"size":5,"dataChange":false}})";
  auto vs = ValidateCommits({{0, Commit0({"p"}, {{"delta.enableChangeDataFeed", "true"}})}, {1, cdc + "\n"}});
  EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
  vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, cdc + "\n"}});
  EXPECT_TRUE(Mentions(vs, "changeDataFeed")) << FormatViolations(vs);
  vs = ValidateCommits({{0, Commit0({"p"}, {{"delta.enableChangeDataFeed", "true"}})},
                        {1, Replace(cdc, "\"dataChange\":false", "\"dataChange\":true") + "\n"}});
  EXPECT_TRUE(Mentions(vs, "dataChange = true")) << FormatViolations(vs);
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


// kAdd (2 records) with row ids base..base+1 assigned in `version`.
std::string AddWithRowIds(const std::string& path, int64_t base, int64_t version) {
  std::string a = Replace(kAdd, "p=a/part-0.parquet", path);
  return Replace(a, R"("dataChange":true,)", R"("dataChange":true,"baseRowId":)" + std::to_string(base) +
                                                 R"(,"defaultRowCommitVersion":)" + std::to_string(version) + ",");
}

std::string RowIdMark(int64_t hwm) {
  return R"({"domainMetadata":{"domain":"delta.rowTracking","configuration":"{\"rowIdHighWaterMark\":)" +
         std::to_string(hwm) + R"(}","removed":false}})";
}

TEST(ProtocolValidator, RowTrackingAcceptsAddsWithFreshRowIdsBelowTheHighWaterMark) {
  std::string c0 = Commit0({"p"}, {{"delta.enableRowTracking", "true"}});
  std::string c1 = AddWithRowIds("p=a/part-0.parquet", 0, 1) + "\n" + RowIdMark(1) + "\n";
  std::string c2 = AddWithRowIds("p=a/part-1.parquet", 2, 2) + "\n" + RowIdMark(3) + "\n";
  auto vs = ValidateCommits({{0, c0}, {1, c1}, {2, c2}});
  EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
}

TEST(ProtocolValidator, RowTrackingRejectsAnAddWithoutBaseRowId) {
  std::string c0 = Commit0({"p"}, {{"delta.enableRowTracking", "true"}});
  auto vs = ValidateCommits({{0, c0}, {1, std::string(kAdd) + "\n"}});
  EXPECT_TRUE(Mentions(vs, "row tracking: add p=a/part-0.parquet has no baseRowId")) << FormatViolations(vs);
  EXPECT_TRUE(Mentions(vs, "has no defaultRowCommitVersion")) << FormatViolations(vs);
  // Supported but suspended: writers must not assign ids, so none are required.
  std::string suspended = Replace(c0, R"("delta.enableRowTracking":"true")",
                                  R"("delta.enableRowTracking":"true","delta.rowTrackingSuspended":"true")");
  vs = ValidateCommits({{0, suspended}, {1, std::string(kAdd) + "\n"}});
  EXPECT_FALSE(Mentions(vs, "row tracking")) << FormatViolations(vs);
  // Without the feature nothing is required.
  vs = ValidateCommits({{0, Commit0({"p"}, {})}, {1, std::string(kAdd) + "\n"}});
  EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
}

TEST(ProtocolValidator, RowTrackingRejectsRowIdsAboveTheHighWaterMarkOrShared) {
  std::string c0 = Commit0({"p"}, {{"delta.enableRowTracking", "true"}});
  auto vs = ValidateCommits({{0, c0}, {1, AddWithRowIds("p=a/part-0.parquet", 0, 1) + "\n"}});
  EXPECT_TRUE(Mentions(vs, "above the delta.rowTracking rowIdHighWaterMark")) << FormatViolations(vs);
  std::string c1 = AddWithRowIds("p=a/part-0.parquet", 0, 1) + "\n" + RowIdMark(1) + "\n";
  std::string c2 = AddWithRowIds("p=a/part-1.parquet", 1, 2) + "\n" + RowIdMark(2) + "\n";
  vs = ValidateCommits({{0, c0}, {1, c1}, {2, c2}});
  EXPECT_TRUE(Mentions(vs, "overlap")) << FormatViolations(vs);
  std::string future = AddWithRowIds("p=a/part-0.parquet", 0, 7) + "\n" + RowIdMark(1) + "\n";
  vs = ValidateCommits({{0, c0}, {1, future}});
  EXPECT_TRUE(Mentions(vs, "defaultRowCommitVersion 7 outside 0..1")) << FormatViolations(vs);
  std::string back = AddWithRowIds("p=a/part-1.parquet", 2, 2) + "\n" + RowIdMark(0) + "\n";
  vs = ValidateCommits({{0, c0}, {1, c1}, {2, back}});
  EXPECT_TRUE(Mentions(vs, "rowIdHighWaterMark moves back")) << FormatViolations(vs);
}

TEST(ProtocolValidator, RowTrackingEnabledRequiresIdsOnEveryActiveFile) {
  // v1 adds a file without row ids; v2 turns row tracking on without backfilling it.
  std::string c0 = Commit0({"p"}, {});
  std::string enable = Commit0({"p"}, {{"delta.enableRowTracking", "true"}});
  auto vs = ValidateCommits({{0, c0}, {1, std::string(kAdd) + "\n"}, {2, enable}});
  EXPECT_TRUE(Mentions(vs, "row tracking: enabled but active file p=a/part-0.parquet has no baseRowId"))
      << FormatViolations(vs);
  // Backfilled in the enabling commit: a re-add with ids.
  std::string backfill = Replace(AddWithRowIds("p=a/part-0.parquet", 0, 2), R"("dataChange":true)",
                                 R"("dataChange":false)");
  vs = ValidateCommits({{0, c0}, {1, std::string(kAdd) + "\n"}, {2, enable + backfill + "\n" + RowIdMark(1) + "\n"}});
  EXPECT_TRUE(vs.empty()) << FormatViolations(vs);
}

}  // namespace
}  // namespace shoal::table
