#include "table/table_creator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "delta/schema_json.h"
#include "delta/table_features.h"
#include "io/memory_file_system.h"
#include "table/protocol_validator.h"
#include "table/table_properties.h"

namespace shoal::table {
namespace {

namespace c = columnar;

c::Schema BasicSchema() {
  c::Schema s;
  s.fields = {{"id", c::Int64(), false}, {"name", c::String(), true}, {"day", c::Date(), true}};
  return s;
}

template <typename T>
const T* Find(const std::vector<delta::Action>& actions) {
  for (const auto& a : actions) {
    if (auto* x = std::get_if<T>(&a)) return x;
  }
  return nullptr;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(TableCreator, DefaultTableUsesOnlyDeletionVectors) {
  auto actions = CreateTableActions("t", BasicSchema(), {}, {});
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  ASSERT_EQ(actions->size(), 3u);
  EXPECT_TRUE(std::holds_alternative<delta::CommitInfo>((*actions)[0]));
  const auto* p = Find<delta::Protocol>(*actions);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->min_reader_version, 3);
  EXPECT_EQ(p->min_writer_version, 7);
  EXPECT_EQ(*p->reader_features, std::vector<std::string>{"deletionVectors"});
  EXPECT_EQ(*p->writer_features, std::vector<std::string>{"deletionVectors"});
  const auto* m = Find<delta::Metadata>(*actions);
  EXPECT_EQ(m->configuration.at("delta.enableDeletionVectors"), "true");
  auto root = delta::ParseSchemaJson(m->schema_string);
  ASSERT_TRUE(root.ok());
  ASSERT_EQ(root->children.size(), 3u);
  EXPECT_EQ(root->children[0].type, "long");
  EXPECT_FALSE(root->children[0].nullable);
  EXPECT_EQ(root->children[2].type, "date");
  const auto* ci = Find<delta::CommitInfo>(*actions);
  EXPECT_EQ(ci->Operation(), "CREATE TABLE");
}

TEST(TableCreator, NoFeaturesGivesReaderVersionOne) {
  auto actions = CreateTableActions("t", BasicSchema(), {}, {{"delta.enableDeletionVectors", "false"}});
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  const auto* p = Find<delta::Protocol>(*actions);
  EXPECT_EQ(p->min_reader_version, 1);
  EXPECT_FALSE(p->reader_features.has_value());
  EXPECT_EQ(p->min_writer_version, 7);
  EXPECT_TRUE(p->writer_features->empty());
}

// delta.checkpointPolicy = v2 turns the v2Checkpoint reader-writer feature on (shoal then writes
// V2 checkpoints); classic leaves it off.
TEST(TableCreator, V2CheckpointPolicyEnablesTheFeature) {
  auto v2 = CreateTableActions("t", BasicSchema(), {}, {{"delta.checkpointPolicy", "v2"}});
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  const auto* p = Find<delta::Protocol>(*v2);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(delta::ProtocolHasReaderFeature(*p, "v2Checkpoint"));
  EXPECT_TRUE(delta::ProtocolHasWriterFeature(*p, "v2Checkpoint"));
  auto classic = CreateTableActions("t", BasicSchema(), {}, {{"delta.checkpointPolicy", "classic"}});
  ASSERT_TRUE(classic.ok());
  ASSERT_NE(Find<delta::Protocol>(*classic), nullptr);
  EXPECT_FALSE(delta::ProtocolHasWriterFeature(*Find<delta::Protocol>(*classic), "v2Checkpoint"));
}

TEST(TableCreator, EveryFeatureIsListedExactlyWhenUsed) {
  c::Schema s = BasicSchema();
  s.fields.push_back({"ntz", c::TimestampNtz(), true});
  s.fields.push_back({"gen", c::Int32(), true});
  s.fields.push_back({"ident", c::Int64(), true});
  CreateTableOptions o;
  o.columns["ident"].identity = IdentitySpec{10, 2, true};
  o.columns["gen"].generation_expression = "CAST(id AS INT)";
  o.columns["name"].comment = "the name";
  o.check_constraints["positive"] = "id > 0";
  auto actions = CreateTableActions("t", s, {"day"},
                                    {{"delta.columnMapping.mode", "name"},
                                     {"delta.enableRowTracking", "true"},
                                     {"delta.appendOnly", "true"},
                                     {"delta.enableInCommitTimestamps", "true"},
                                     {"delta.enableChangeDataFeed", "true"}},
                                    o);
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  const auto* p = Find<delta::Protocol>(*actions);
  EXPECT_EQ(Sorted(*p->writer_features),
            Sorted({"appendOnly", "changeDataFeed", "checkConstraints", "columnMapping", "deletionVectors",
                    "domainMetadata", "generatedColumns", "identityColumns", "inCommitTimestamp", "rowTracking",
                    "timestampNtz"}));
  EXPECT_EQ(Sorted(*p->reader_features), Sorted({"columnMapping", "deletionVectors", "timestampNtz"}));
  const auto* m = Find<delta::Metadata>(*actions);
  EXPECT_EQ(m->configuration.at("delta.constraints.positive"), "id > 0");
  EXPECT_EQ(m->configuration.at("delta.columnMapping.maxColumnId"), "6");
  EXPECT_TRUE(m->configuration.count("delta.rowTracking.materializedRowIdColumnName"));
  auto root = delta::ParseSchemaJson(m->schema_string);
  ASSERT_TRUE(root.ok());
  for (const auto& f : root->children) {
    EXPECT_TRUE(f.ColumnMappingId().has_value()) << f.name;
    EXPECT_TRUE(f.PhysicalName().has_value() && f.PhysicalName()->starts_with("col-")) << f.name;
  }
  EXPECT_EQ(root->children[5].IdentityStart(), 10);
  EXPECT_EQ(root->children[5].IdentityStep(), 2);
  EXPECT_EQ(root->children[4].GenerationExpression(), "CAST(id AS INT)");
  EXPECT_EQ(root->children[1].MetaString("comment"), "the name");
  // In-commit timestamps: commitInfo first, with inCommitTimestamp.
  const auto& ci = std::get<delta::CommitInfo>((*actions)[0]);
  EXPECT_TRUE(ci.InCommitTimestamp().has_value());
}

TEST(TableCreator, NestedColumnsGetMappingIdsToo) {
  c::Schema s;
  s.fields = {{"a", c::Struct({{"x", c::Int32(), true}, {"y", c::List(c::Struct({{"z", c::String(), true}}))}}), true}};
  auto actions = CreateTableActions("t", s, {}, {{"delta.columnMapping.mode", "id"}});
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  const auto* m = Find<delta::Metadata>(*actions);
  EXPECT_EQ(m->configuration.at("delta.columnMapping.maxColumnId"), "4");
  auto root = delta::ParseSchemaJson(m->schema_string);
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->children[0].children[1].children[0].children[0].ColumnMappingId(), 4);
}

TEST(TableCreator, RejectsBadPropertiesAndColumns) {
  EXPECT_EQ(CreateTableActions("t", BasicSchema(), {}, {{"delta.noSuchThing", "1"}}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {}, {{"delta.isolationLevel", "SnapshotIsolation"}}).ok());
  EXPECT_TRUE(CreateTableActions("t", BasicSchema(), {}, {{"delta.isolationLevel", "Serializable"}}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {}, {{"delta.appendOnly", "yes"}}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {}, {{"delta.columnMapping.mode", "names"}}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {}, {{"delta.deletedFileRetentionDuration", "interval 1 month"}}).ok());
  EXPECT_TRUE(CreateTableActions("t", BasicSchema(), {}, {{"my.own.key", "anything"}}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {"nope"}, {}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {"id", "name", "day"}, {}).ok());
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {"id", "ID"}, {}).ok());
  c::Schema dup;
  dup.fields = {{"a", c::Int32(), true}, {"A", c::Int32(), true}};
  EXPECT_FALSE(CreateTableActions("t", dup, {}, {}).ok());
  c::Schema unsigned_col;
  unsigned_col.fields = {{"u", c::UInt64(), true}};
  EXPECT_EQ(CreateTableActions("t", unsigned_col, {}, {}).status().code(), StatusCode::kNotSupported);
  CreateTableOptions o;
  o.columns["name"].identity = IdentitySpec{};
  EXPECT_FALSE(CreateTableActions("t", BasicSchema(), {}, {}, o).ok());
}

TEST(TableProperties, ParsesIntervalsAndSizes) {
  EXPECT_EQ(*ParseIntervalMillis("interval 7 days"), 7LL * 86400000);
  EXPECT_EQ(*ParseIntervalMillis("interval 1 week"), 7LL * 86400000);
  EXPECT_EQ(*ParseIntervalMillis("2 hours"), 7200000);
  EXPECT_FALSE(ParseIntervalMillis("interval seven days").ok());
  EXPECT_EQ(*ParseByteSize("128mb"), 128LL << 20);
  EXPECT_EQ(*ParseByteSize("1000"), 1000);
  EXPECT_FALSE(ParseByteSize("-5").ok());
  auto p = ParseTableProperties({{"delta.dataSkippingStatsColumns", "a, b.c"}, {"delta.targetFileSize", "1g"}});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p->stats_columns, (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(p->target_file_size, 1LL << 30);
}

// A file system that answers "no log yet" however many commits exist: the window between the
// existence check and the put in which another writer creates the same table.
class RacingCreates : public io::MemoryFileSystem {
 public:
  Result<bool> Exists(const std::string& path) override {
    if (path.ends_with("_delta_log")) return false;
    return io::MemoryFileSystem::Exists(path);
  }
};

TEST(TableCreator, LosingARaceToCreateIsProtocolChanged) {
  auto fs = std::make_shared<RacingCreates>();
  ASSERT_TRUE(CreateTable(fs, "/t", "t", BasicSchema(), {}, {}).ok());
  auto loser = CreateTable(fs, "/t", "t", BasicSchema(), {}, {});
  ASSERT_FALSE(loser.ok());
  EXPECT_EQ(loser.status().conflict(), ConflictKind::kProtocolChanged) << loser.status().ToString();
  EXPECT_NE(loser.status().message().find("multiple writers are writing to an empty directory"), std::string::npos);
  auto versions = fs->List("/t/_delta_log");
  ASSERT_TRUE(versions.ok());
  EXPECT_EQ(versions->size(), 1u) << "the loser wrote nothing";
}

TEST(TableCreator, CreateTableWritesVersionZeroOnce) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto r = CreateTable(fs, "/t", "t", BasicSchema(), {"day"}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto text = fs->ReadAll("/t/_delta_log/00000000000000000000.json");
  ASSERT_TRUE(text.ok());
  auto again = CreateTable(fs, "/t", "t", BasicSchema(), {}, {});
  EXPECT_EQ(again.status().code(), StatusCode::kCatalog);
  EXPECT_NE(again.status().message().find("already exists"), std::string::npos);
  auto violations = ValidateTableLog(*fs, "/t");
  ASSERT_TRUE(violations.ok());
  EXPECT_TRUE(violations->empty()) << FormatViolations(*violations);
}

TEST(TableCreator, ConcurrentCreateHasExactlyOneWinner) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  // A loser that looked after the winner's commit finds the table (CatalogException, as Spark's
  // TABLE_OR_VIEW_ALREADY_EXISTS); one that looked before loses the put (ProtocolChanged).
  std::atomic<int> wins{0}, lost{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      auto r = CreateTable(fs, "/race", "t", BasicSchema(), {}, {});
      if (r.ok()) ++wins;
      else if (r.status().code() == StatusCode::kCatalog || r.status().conflict() == ConflictKind::kProtocolChanged) ++lost;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(lost.load(), 7);
}

}  // namespace
}  // namespace shoal::table
