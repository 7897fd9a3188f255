#include "delta/actions.h"

#include <gtest/gtest.h>

namespace shoal::delta {
namespace {

// Lines as Spark / Databricks wrote them (from the golden tables); map keys (configuration,
// tags) are in sorted order, which is how shoal writes them (Spark's order is unspecified).
const char* kSparkLines[] = {
    R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}})",
    R"({"metaData":{"id":"testId","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"value\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{"delta.columnMapping.mode":"none","delta.enableDeletionVectors":"true"},"createdTime":1677811175819}})",
    R"({"add":{"path":"part-00000-fae5310a-a37d-4e51-827b-c3d5516560ca-c000.snappy.parquet","partitionValues":{},"size":635,"modificationTime":1677811178336,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"value\":0},\"maxValues\":{\"value\":9},\"nullCount\":{\"value\":0},\"tightBounds\":false}","tags":{"INSERTION_TIME":"1677811178336000","MAX_INSERTION_TIME":"1677811178336000","MIN_INSERTION_TIME":"1677811178336000","OPTIMIZE_TARGET_SIZE":"268435456"},"deletionVector":{"storageType":"u","pathOrInlineDv":"vBn[lx{q8@P<9BNH/isA","offset":1,"sizeInBytes":36,"cardinality":2}}})",
    R"({"remove":{"path":"part-00000-90177277-75c2-48db-92a2-20dcba39fd06-c000.snappy.parquet","deletionTimestamp":1697571685983,"dataChange":true,"extendedFileMetadata":true,"partitionValues":{},"size":765,"deletionVector":{"storageType":"u","pathOrInlineDv":"h{&8fAg]=QYJvl-}c!yH","offset":1,"sizeInBytes":34,"cardinality":1},"stats":"{\"numRecords\":50}"}})",
    R"({"cdc":{"path":"fake/path/2","partitionValues":{"partition_foo":"partition_bar"},"size":1,"tags":{"tag_foo":"tag_bar"},"dataChange":false}})",
    R"({"txn":{"appId":"fakeAppId","version":3,"lastUpdated":200}})",
    R"({"commitInfo":{"timestamp":1677811178585,"operation":"WRITE","operationParameters":{"mode":"ErrorIfExists","partitionBy":"[]"},"isolationLevel":"WriteSerializable","isBlindAppend":true,"engineInfo":"Databricks-Runtime/<unknown>","txnId":"a6a94671-55ef-450e-9546-b8465b9147de"}})",
    R"({"domainMetadata":{"domain":"delta.clustering","configuration":"{\"clusteringColumns\":[]}","removed":false}})",
    R"({"checkpointMetadata":{"version":6}})",
    R"({"sidecar":{"path":"00000000000000000006.checkpoint.0000000001.0000000002.19af1366-a425-47f4-8fa6-8d6865625573.parquet","sizeInBytes":12276,"modificationTime":1739329708523}})",
    R"({"add":{"path":"a=1/x.parquet","partitionValues":{"a":"1","b":null},"size":1,"modificationTime":2,"dataChange":false,"baseRowId":7,"defaultRowCommitVersion":3,"clusteringProvider":"liquid"}})",
};

TEST(DeltaActions, SparkLinesRoundTripExactly) {
  for (const char* line : kSparkLines) {
    auto parsed = ParseActionLine(line);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString() << " for " << line;
    ASSERT_TRUE(parsed->has_value()) << line;
    EXPECT_EQ(SerializeAction(**parsed), line);
  }
}

TEST(DeltaActions, ParsesTypedFields) {
  auto a = ParseActionLine(kSparkLines[2]);
  ASSERT_TRUE(a.ok());
  const auto& add = std::get<AddFile>(**a);
  EXPECT_EQ(add.size, 635);
  ASSERT_TRUE(add.deletion_vector);
  EXPECT_EQ(add.deletion_vector->storage_type, 'u');
  EXPECT_EQ(add.DvUniqueId(), "uvBn[lx{q8@P<9BNH/isA@1");
  auto b = ParseActionLine(kSparkLines[10]);
  ASSERT_TRUE(b.ok());
  const auto& add2 = std::get<AddFile>(**b);
  EXPECT_EQ(add2.partition_values.at("a"), std::optional<std::string>("1"));
  EXPECT_EQ(add2.partition_values.at("b"), std::nullopt);
  EXPECT_EQ(add2.DvUniqueId(), "");
  auto c = ParseActionLine(kSparkLines[6]);
  const auto& ci = std::get<CommitInfo>(**c);
  EXPECT_EQ(ci.Timestamp(), 1677811178585);
  EXPECT_EQ(ci.Operation(), "WRITE");
  EXPECT_EQ(ci.IsBlindAppend(), true);
  EXPECT_EQ(ci.OperationParameters().at("mode"), "ErrorIfExists");
  EXPECT_EQ(ci.IsolationLevel(), "WriteSerializable");
  EXPECT_FALSE(ci.ReadVersion());
  EXPECT_FALSE(ci.InCommitTimestamp());
}

// PROTOCOL.md "Add CDC File": path, partitionValues, size and dataChange are required; tags is
// optional; a change data file never counts as a data change.
TEST(DeltaActions, CdcActionFieldsPerProtocol) {
  AddCdcFile c;
  c.path = "_change_data/p=1/part-00000-x.c000.snappy.parquet";
  c.partition_values = {{"p", "1"}, {"q", std::nullopt}};
  c.size = 812;
  EXPECT_EQ(SerializeAction(c),
            R"({"cdc":{"path":"_change_data/p=1/part-00000-x.c000.snappy.parquet","partitionValues":{"p":"1","q":null},"size":812,"dataChange":false}})");
  auto back = ParseActionLine(SerializeAction(c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(std::get<AddCdcFile>(**back), c);
  EXPECT_STREQ(ActionKindName(Action(c)), "cdc");
  for (const char* missing : {
           R"({"cdc":{"partitionValues":{},"size":1,"dataChange":false}})",
           R"({"cdc":{"path":"a","size":1,"dataChange":false}})",
           R"({"cdc":{"path":"a","partitionValues":{},"dataChange":false}})",
           R"({"cdc":{"path":"a","partitionValues":{},"size":1}})",
           R"({"cdc":{"path":"a","partitionValues":{},"size":"1","dataChange":false}})",
           R"({"cdc":[]})",
       }) {
    auto r = ParseActionLine(missing);
    EXPECT_TRUE(r.status().IsCorruption()) << missing << ": " << r.status().ToString();
  }
}

TEST(DeltaActions, InlineDvUniqueIdHasNoOffset) {
  DeletionVectorDescriptor d;
  d.storage_type = 'i';
  d.path_or_inline_dv = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
  EXPECT_EQ(d.UniqueId(), "iwi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L");
}

TEST(DeltaActions, SkipsUnknownActionsFieldsAndBlankLines) {
  std::string text =
      "{\"futureAction\":{\"x\":1}}\n\n"
      "{\"txn\":{\"appId\":\"a\",\"version\":1,\"newField\":[1,2]}}\n   \n";
  auto actions = ParseCommitFile(text, "00.json");
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  ASSERT_EQ(actions->size(), 1u);
  EXPECT_EQ(std::get<Txn>((*actions)[0]).app_id, "a");
}

TEST(DeltaActions, MissingRequiredFieldIsCorruptionWithFileAndLine) {
  std::string text = "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n{\"add\":{\"partitionValues\":{},\"size\":1}}\n";
  auto r = ParseCommitFile(text, "/t/_delta_log/00000000000000000003.json");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_NE(r.status().message().find("00000000000000000003.json: line 2"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("'path'"), std::string::npos);
}

TEST(DeltaActions, WrongTypesAndBadJsonAreCorruption) {
  for (const char* bad : {R"({"add":{"path":5,"partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})",
                          R"({"add":{"path":"p","partitionValues":{"a":1},"size":1,"modificationTime":1,"dataChange":true}})",
                          R"({"protocol":{"minReaderVersion":"3","minWriterVersion":7}})",
                          R"({"protocol":{"minReaderVersion":99999999999,"minWriterVersion":7}})",
                          R"({"add":{"path":"p","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"deletionVector":{"storageType":"x","pathOrInlineDv":"","sizeInBytes":1,"cardinality":1}}})",
                          R"({"add":"notanobject"})", R"({"add":{)", R"([1,2])"}) {
    auto r = ParseActionLine(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(r.status().IsCorruption()) << bad;
  }
}

TEST(DeltaActions, SerializeOmitsAbsentOptionals) {
  RemoveFile rm;
  rm.path = "p";
  rm.data_change = false;
  EXPECT_EQ(SerializeAction(rm), R"({"remove":{"path":"p","dataChange":false}})");
  Metadata m;
  m.id = "x";
  m.schema_string = "{}";
  EXPECT_EQ(SerializeAction(m),
            R"({"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{}","partitionColumns":[],"configuration":{}}})");
  Protocol p;
  p.min_reader_version = 1;
  p.min_writer_version = 2;
  EXPECT_EQ(SerializeAction(p), R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})");
}

TEST(DeltaActions, SerializeCommitIsNewlineDelimitedAndReparses) {
  std::vector<Action> actions;
  for (const char* line : kSparkLines) actions.push_back(**ParseActionLine(line));
  std::string text = SerializeCommit(actions);
  auto back = ParseCommitFile(text, "c.json");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, actions);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), static_cast<long>(actions.size()));
}

}  // namespace
}  // namespace shoal::delta
