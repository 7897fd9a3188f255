#include "delta/table_features.h"

#include <gtest/gtest.h>

namespace shoal::delta {
namespace {

Protocol P(int r, int w, std::optional<std::vector<std::string>> rf = std::nullopt,
           std::optional<std::vector<std::string>> wf = std::nullopt) {
  Protocol p;
  p.min_reader_version = r;
  p.min_writer_version = w;
  p.reader_features = rf;
  p.writer_features = wf;
  return p;
}

TEST(TableFeatures, LegacyVersionsImplyFeatures) {
  EXPECT_TRUE(ProtocolHasReaderFeature(P(2, 5), "columnMapping"));
  EXPECT_FALSE(ProtocolHasReaderFeature(P(1, 2), "columnMapping"));
  EXPECT_TRUE(ProtocolHasWriterFeature(P(1, 4), "changeDataFeed"));
  EXPECT_TRUE(ProtocolHasWriterFeature(P(1, 4), "invariants"));
  EXPECT_FALSE(ProtocolHasWriterFeature(P(1, 4), "columnMapping"));
  EXPECT_TRUE(ProtocolHasWriterFeature(P(1, 6), "identityColumns"));
  EXPECT_TRUE(ProtocolHasWriterFeature(P(3, 7, {{"deletionVectors"}}, {{"rowTracking"}}), "rowTracking"));
  EXPECT_FALSE(ProtocolHasWriterFeature(P(3, 7, {{}}, {{"rowTracking"}}), "appendOnly"));
}

TEST(TableFeatures, V2CheckpointIsReadAndWritten) {
  const TableFeature* f = FindTableFeature("v2Checkpoint");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->shoal_reads);
  EXPECT_TRUE(f->shoal_writes);
  EXPECT_TRUE(CheckCanRead(P(3, 7, {{"v2Checkpoint"}}, {{"v2Checkpoint"}})).ok());
  EXPECT_TRUE(CheckCanWrite(P(3, 7, {{"v2Checkpoint"}}, {{"v2Checkpoint"}})).ok());
}

TEST(TableFeatures, ReadChecks) {
  EXPECT_TRUE(CheckCanRead(P(1, 2)).ok());
  EXPECT_TRUE(CheckCanRead(P(3, 7, {{"deletionVectors", "columnMapping", "timestampNtz", "v2Checkpoint",
                                      "typeWidening", "vacuumProtocolCheck"}}, {{}})).ok());
  auto st = CheckCanRead(P(99, 7, {{}}, {{}}));
  EXPECT_TRUE(st.IsNotSupported());
  EXPECT_NE(st.message().find("99"), std::string::npos);
  st = CheckCanRead(P(3, 7, {{"deletionVectors", "fancyNewThing"}}, {{}}));
  EXPECT_TRUE(st.IsNotSupported());
  EXPECT_NE(st.message().find("table requires reader feature 'fancyNewThing' which shoal does not support"),
            std::string::npos) << st.message();
  EXPECT_TRUE(CheckCanRead(P(0, 2)).IsNotSupported());
}

TEST(TableFeatures, WriteChecks) {
  EXPECT_TRUE(CheckCanWrite(P(1, 6)).ok());
  EXPECT_TRUE(CheckCanWrite(P(3, 7, {{"deletionVectors"}}, {{"deletionVectors", "rowTracking", "domainMetadata",
                                                              "inCommitTimestamp", "appendOnly"}})).ok());
  auto st = CheckCanWrite(P(1, 7, std::nullopt, {{"icebergCompatV2"}}));
  EXPECT_TRUE(st.IsNotSupported());
  EXPECT_NE(st.message().find("writer feature 'icebergCompatV2'"), std::string::npos);
  EXPECT_TRUE(CheckCanWrite(P(1, 8)).IsNotSupported());
  EXPECT_TRUE(CheckCanWrite(P(3, 7, {{"bogus"}}, {{}})).IsNotSupported());
}

}  // namespace
}  // namespace shoal::delta
