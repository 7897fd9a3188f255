#include "table/alter_schema.h"

#include <gtest/gtest.h>

#include "table/maintenance_test_table.h"

namespace shoal::table {
namespace {

using testing_support::MaintenanceTable;
using testing_support::Props;

// Commits an ALTER result as one metadata (and protocol) commit.
int64_t CommitAlter(MaintenanceTable& t, const AlterResult& r) {
  auto txn = t.Begin(r.operation);
  txn->UpdateMetadata(r.metadata);
  if (r.protocol) txn->UpdateProtocol(*r.protocol);
  auto c = txn->Commit();
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? c->version : -1;
}

columnar::Schema OneColumn(const std::string& name, columnar::TypePtr type, bool nullable = true) {
  columnar::Schema s;
  s.fields.push_back({name, std::move(type), nullable});
  return s;
}

TEST(AlterSchema, AddColumnsAppendsNullableFieldAndOldRowsReadNull) {
  MaintenanceTable t;
  t.Append({1, 2});
  auto snap = t.Snap();
  auto r = AddColumns(snap->metadata(), snap->protocol(), OneColumn("score", columnar::Float64()));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->operation, "ADD COLUMNS");
  EXPECT_FALSE(r->protocol.has_value());
  EXPECT_NE(r->parameters["columns"].get<std::string>().find("\"score\""), std::string::npos);
  CommitAlter(t, *r);
  EXPECT_EQ(t.Rows(), (std::vector<std::string>{"1|n1|NULL", "2|n2|NULL"}));
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, AddColumnsRejectsNotNullAndExistingNames) {
  MaintenanceTable t;
  auto snap = t.Snap();
  auto nn = AddColumns(snap->metadata(), snap->protocol(), OneColumn("x", columnar::Int32(), false));
  ASSERT_FALSE(nn.ok());
  EXPECT_TRUE(nn.status().IsNotSupported());
  EXPECT_NE(nn.status().message().find("NOT NULL is not supported for ALTER TABLE ADD COLUMNS"), std::string::npos);
  auto dup = AddColumns(snap->metadata(), snap->protocol(), OneColumn("ID", columnar::Int32()));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "Cannot add column ID because it already exists");
}

TEST(AlterSchema, RenameWithoutColumnMappingFailsWithDeltaMessage) {
  MaintenanceTable t;
  auto snap = t.Snap();
  auto r = RenameColumn(snap->metadata(), snap->protocol(), {"name"}, "label");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with("Column rename is not supported for your Delta table."))
      << r.status().message();
  auto d = DropColumns(snap->metadata(), snap->protocol(), {"name"}, false);
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(d.status().message().starts_with("DROP COLUMN is not supported for your Delta table."));
}

TEST(AlterSchema, RenameUnderColumnMappingKeepsPhysicalNameAndData) {
  MaintenanceTable t(Props{{"delta.columnMapping.mode", "name"}});
  t.Append({1, 2});
  auto snap = t.Snap();
  auto before = delta::ParseSchemaJson(snap->metadata().schema_string);
  ASSERT_TRUE(before.ok());
  auto r = RenameColumn(snap->metadata(), snap->protocol(), {"name"}, "label");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->parameters["oldColumnPath"], "name");
  EXPECT_EQ(r->parameters["newColumnPath"], "label");
  auto after = delta::ParseSchemaJson(r->metadata.schema_string);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->children[1].name, "label");
  EXPECT_EQ(after->children[1].PhysicalName(), before->children[1].PhysicalName());
  CommitAlter(t, *r);
  EXPECT_EQ(t.Rows(), (std::vector<std::string>{"1|n1", "2|n2"}));
  EXPECT_EQ(t.Snap()->metadata().schema_string.find("\"name\":\"name\""), std::string::npos);
  // The new name collides case-insensitively with an existing one.
  auto dup = RenameColumn(t.Snap()->metadata(), t.Snap()->protocol(), {"label"}, "ID");
  EXPECT_FALSE(dup.ok());
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, EnablingColumnMappingUpgradesProtocolAndKeepsFilesReadable) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "false"}});
  t.Append({5});
  auto snap = t.Snap();
  ASSERT_EQ(snap->protocol().min_reader_version, 1);
  auto r = SetProperties(snap->metadata(), snap->protocol(), {{"delta.columnMapping.mode", "name"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->protocol.has_value());
  EXPECT_EQ(r->protocol->min_reader_version, 3);
  EXPECT_EQ(r->protocol->min_writer_version, 7);
  EXPECT_EQ(r->protocol->reader_features, (std::vector<std::string>{"columnMapping"}));
  EXPECT_EQ(r->protocol->writer_features, (std::vector<std::string>{"columnMapping"}));
  auto root = delta::ParseSchemaJson(r->metadata.schema_string);
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->children[0].PhysicalName(), "id");
  EXPECT_EQ(root->children[1].ColumnMappingId(), 2);
  EXPECT_EQ(r->metadata.configuration.at("delta.columnMapping.maxColumnId"), "2");
  CommitAlter(t, *r);
  auto rn = RenameColumn(t.Snap()->metadata(), t.Snap()->protocol(), {"id"}, "key");
  ASSERT_TRUE(rn.ok()) << rn.status().ToString();
  CommitAlter(t, *rn);
  EXPECT_EQ(t.Rows(), (std::vector<std::string>{"5|n5"}));
  // Switching back is refused.
  auto back = SetProperties(t.Snap()->metadata(), t.Snap()->protocol(), {{"delta.columnMapping.mode", "none"}});
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().message(), "Changing column mapping mode from 'name' to 'none' is not supported.");
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, SetDeletionVectorsAddsExactlyThatFeature) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "false"}});
  auto snap = t.Snap();
  auto r = SetProperties(snap->metadata(), snap->protocol(), {{"delta.enableDeletionVectors", "true"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->protocol.has_value());
  EXPECT_EQ(r->protocol->reader_features, (std::vector<std::string>{"deletionVectors"}));
  EXPECT_EQ(r->protocol->writer_features, (std::vector<std::string>{"deletionVectors"}));
  EXPECT_EQ(r->metadata.configuration.at("delta.enableDeletionVectors"), "true");
  EXPECT_EQ(r->parameters["properties"], "{\"delta.enableDeletionVectors\":\"true\"}");
  CommitAlter(t, *r);
  // Setting a plain property changes no protocol.
  auto p = SetProperties(t.Snap()->metadata(), t.Snap()->protocol(), {{"owner", "me"}});
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->protocol.has_value());
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, SetPropertiesValidatesAsCreateTable) {
  MaintenanceTable t;
  auto snap = t.Snap();
  auto bad = SetProperties(snap->metadata(), snap->protocol(), {{"delta.noSuchThing", "1"}});
  EXPECT_FALSE(bad.ok());
  auto bad_value = SetProperties(snap->metadata(), snap->protocol(), {{"delta.appendOnly", "maybe"}});
  EXPECT_FALSE(bad_value.ok());
  auto feature = SetProperties(snap->metadata(), snap->protocol(), {{"delta.feature.appendOnly", "supported"}});
  ASSERT_TRUE(feature.ok()) << feature.status().ToString();
  ASSERT_TRUE(feature->protocol.has_value());
  auto wf = *feature->protocol->writer_features;
  EXPECT_NE(std::find(wf.begin(), wf.end(), "appendOnly"), wf.end());
  EXPECT_FALSE(feature->metadata.configuration.count("delta.feature.appendOnly"));
}

TEST(AlterSchema, UnsetPropertiesNeedsIfExistsForMissingKeys) {
  MaintenanceTable t(Props{{"owner", "me"}});
  auto snap = t.Snap();
  auto missing = UnsetProperties(snap->metadata(), snap->protocol(), {"nope"}, false, "t");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "Attempted to unset non-existent property 'nope' in table t");
  auto ok = UnsetProperties(snap->metadata(), snap->protocol(), {"nope", "owner"}, true, "t");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->metadata.configuration.count("owner"));
  EXPECT_FALSE(ok->protocol.has_value());
}

TEST(AlterSchema, SetColumnNullableFlipsNullability) {
  MaintenanceTable t;
  auto snap = t.Snap();
  auto r = SetColumnNullable(snap->metadata(), snap->protocol(), "ID", false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->operation, "CHANGE COLUMN");
  auto root = delta::ParseSchemaJson(r->metadata.schema_string);
  EXPECT_FALSE(root->children[0].nullable);
  CommitAlter(t, *r);
  auto back = SetColumnNullable(t.Snap()->metadata(), t.Snap()->protocol(), "id", true);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(delta::ParseSchemaJson(back->metadata.schema_string)->children[0].nullable);
  EXPECT_FALSE(SetColumnNullable(snap->metadata(), snap->protocol(), "zzz", true).ok());
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, CheckConstraintsAddUpgradeAndDrop) {
  MaintenanceTable t;
  auto snap = t.Snap();
  auto r = AddCheckConstraint(snap->metadata(), snap->protocol(), "Positive", "id > 0");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->metadata.configuration.at("delta.constraints.positive"), "id > 0");
  ASSERT_TRUE(r->protocol.has_value());
  auto wf = *r->protocol->writer_features;
  EXPECT_NE(std::find(wf.begin(), wf.end(), "checkConstraints"), wf.end());
  CommitAlter(t, *r);
  auto dup = AddCheckConstraint(t.Snap()->metadata(), t.Snap()->protocol(), "positive", "id > 1");
  ASSERT_FALSE(dup.ok());
  EXPECT_TRUE(dup.status().message().starts_with("Constraint 'positive' already exists."));
  auto drop = DropCheckConstraint(t.Snap()->metadata(), t.Snap()->protocol(), "POSITIVE", false, "t");
  ASSERT_TRUE(drop.ok());
  EXPECT_FALSE(drop->metadata.configuration.count("delta.constraints.positive"));
  EXPECT_FALSE(drop->protocol.has_value());  // never downgraded
  CommitAlter(t, *drop);
  auto missing = DropCheckConstraint(t.Snap()->metadata(), t.Snap()->protocol(), "positive", false, "t");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().message().starts_with("Cannot drop nonexistent constraint positive from table t."));
  EXPECT_TRUE(DropCheckConstraint(t.Snap()->metadata(), t.Snap()->protocol(), "positive", true, "t").ok());
  EXPECT_EQ(t.Violations(), "");
}

TEST(AlterSchema, DropColumnsUnderMappingHidesDataAndProtectsPartitions) {
  MaintenanceTable t(Props{{"delta.columnMapping.mode", "name"}});
  t.Append({3});
  auto snap = t.Snap();
  auto r = DropColumns(snap->metadata(), snap->protocol(), {"name"}, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->parameters["columns"], "[\"name\"]");
  CommitAlter(t, *r);
  EXPECT_EQ(t.Rows(), (std::vector<std::string>{"3"}));
  EXPECT_FALSE(DropColumns(t.Snap()->metadata(), t.Snap()->protocol(), {"id"}, false).ok());  // last column
  EXPECT_FALSE(DropColumns(t.Snap()->metadata(), t.Snap()->protocol(), {"gone"}, false).ok());
  EXPECT_TRUE(DropColumns(t.Snap()->metadata(), t.Snap()->protocol(), {"gone"}, true).ok());

  MaintenanceTable p(Props{{"delta.columnMapping.mode", "name"}}, {"name"});
  auto ps = p.Snap();
  auto part = DropColumns(ps->metadata(), ps->protocol(), {"name"}, false);
  ASSERT_FALSE(part.ok());
  EXPECT_EQ(part.status().message(), "Dropping partition columns (name) is not allowed.");
  EXPECT_EQ(t.Violations(), "");
}

}  // namespace
}  // namespace shoal::table
