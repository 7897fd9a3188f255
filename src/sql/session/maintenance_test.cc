// End-to-end tests of ALTER TABLE, VACUUM, RESTORE, DESCRIBE HISTORY/DETAIL and COPY through a
// Database connection, on tables set up with the table layer (table/maintenance_test_table.h).
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "sql/session/database_impl.h"
#include "sql/session/maintenance_copy.h"
#include "sql/parser/parser.h"
#include "support/query_rows.h"
#include "support/testdata.h"
#include "table/maintenance_test_table.h"

namespace shoal::sql {
namespace {

using table::testing_support::MaintenanceTable;
using table::testing_support::Props;

class MaintenanceSql : public ::testing::Test {
 protected:
  void Open(MaintenanceTable& t) {
    auto db = Database::Open(t.warehouse());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
  }

  Result<QueryResult> Q(const std::string& sql) { return con_->Query(sql); }

  // Every row as "a|b|c", in result order.
  std::vector<std::string> Rows(const std::string& sql) {
    auto r = Q(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Lines(*r) : std::vector<std::string>{};
  }

  static std::vector<std::string> Lines(const QueryResult& r) { return testing::Rows(r); }

  // DESCRIBE HISTORY / DETAIL straight to their handlers (DESCRIBE dispatch lives elsewhere).
  Result<QueryResult> Describe(const std::string& sql) {
    ASSIGN_OR_RETURN(StatementPtr s, ParseStatement(sql));
    const auto& d = s->As<DescribeStatement>();
    auto& session = con_->impl().session;
    if (d.describe_kind == DescribeStatement::Kind::kHistory) return session.RunDescribeHistory(*s);
    return session.RunDescribeDetail(*s);
  }

  std::string LatestOperation() {
    auto h = Describe("DESCRIBE HISTORY t LIMIT 1");
    EXPECT_TRUE(h.ok()) << h.status().ToString();
    return h.ok() && h->num_rows() == 1 ? h->GetText(0, 4) : "";
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

void ExpectError(const Result<QueryResult>& r, const std::string& name, const std::string& message) {
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.status().ErrorName(), name.c_str()) << r.status().ToString();
  EXPECT_NE(r.status().message().find(message), std::string::npos) << r.status().ToString();
}

TEST_F(MaintenanceSql, AlterAddColumnsCommitsOneMetadataChange) {
  MaintenanceTable t;
  t.Append({1, 2});
  Open(t);
  ASSERT_TRUE(Q("ALTER TABLE t ADD COLUMNS (score DOUBLE COMMENT 'points', tag STRING)").ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY id"), (std::vector<std::string>{"1|n1|NULL|NULL", "2|n2|NULL|NULL"}));
  EXPECT_EQ(LatestOperation(), "ADD COLUMNS");
  EXPECT_EQ(t.Snap()->version(), 2);
  ExpectError(Q("ALTER TABLE t ADD COLUMNS (x INT NOT NULL)"), "NotSupportedException",
              "NOT NULL is not supported for ALTER TABLE ADD COLUMNS");
  ExpectError(Q("ALTER TABLE t ADD COLUMNS (id INT)"), "InvalidInputException",
              "Cannot add column id because it already exists");
  ExpectError(Q("ALTER TABLE nope ADD COLUMNS (x INT)"), "CatalogException", "Table with name nope does not exist!");
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(MaintenanceSql, RenameNeedsColumnMappingThenKeepsData) {
  MaintenanceTable t;
  t.Append({1});
  Open(t);
  ExpectError(Q("ALTER TABLE t RENAME COLUMN name TO label"), "NotSupportedException",
              "Column rename is not supported for your Delta table.");
  ASSERT_TRUE(Q("ALTER TABLE t SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name')").ok());
  EXPECT_EQ(LatestOperation(), "SET TBLPROPERTIES");
  ASSERT_TRUE(Q("ALTER TABLE t RENAME COLUMN name TO label").ok());
  EXPECT_EQ(LatestOperation(), "RENAME COLUMN");
  EXPECT_EQ(Rows("SELECT label, id FROM t"), (std::vector<std::string>{"n1|1"}));
  ASSERT_TRUE(Q("ALTER TABLE t DROP COLUMNS (label)").ok());
  EXPECT_EQ(Rows("SELECT * FROM t"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(MaintenanceSql, PropertiesSetUnsetAndValidate) {
  MaintenanceTable t(Props{{"delta.enableDeletionVectors", "false"}});
  Open(t);
  ASSERT_TRUE(Q("ALTER TABLE t SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'owner' = 'ann')").ok());
  auto snap = t.Snap();
  EXPECT_EQ(snap->metadata().configuration.at("owner"), "ann");
  EXPECT_EQ(snap->protocol().reader_features, (std::vector<std::string>{"deletionVectors"}));
  ExpectError(Q("ALTER TABLE t SET TBLPROPERTIES ('delta.bogus' = '1')"), "InvalidInputException", "delta.bogus");
  ExpectError(Q("ALTER TABLE t UNSET TBLPROPERTIES ('nope')"), "InvalidInputException",
              "Attempted to unset non-existent property 'nope' in table t");
  ASSERT_TRUE(Q("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('nope', 'owner')").ok());
  EXPECT_FALSE(t.Snap()->metadata().configuration.count("owner"));
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(MaintenanceSql, NotNullAndCheckConstraintsScanExistingRows) {
  MaintenanceTable t;
  t.Append({1, 2, -3});  // -3 has a NULL name
  Open(t);
  ExpectError(Q("ALTER TABLE t ALTER COLUMN name SET NOT NULL"), "ConstraintException",
              "1 rows in t violate the new NOT NULL constraint on name");
  ASSERT_TRUE(Q("ALTER TABLE t ALTER COLUMN id SET NOT NULL").ok());
  EXPECT_EQ(LatestOperation(), "CHANGE COLUMN");
  ASSERT_TRUE(Q("ALTER TABLE t ALTER COLUMN id DROP NOT NULL").ok());
  ExpectError(Q("ALTER TABLE t ADD CONSTRAINT pos CHECK (id > 0)"), "ConstraintException",
              "1 rows in t violate the new CHECK constraint ((id > 0))");
  int64_t version = t.Snap()->version();
  ASSERT_TRUE(Q("ALTER TABLE t ADD CONSTRAINT small CHECK (id < 10)").ok());
  EXPECT_EQ(t.Snap()->version(), version + 1);
  EXPECT_EQ(LatestOperation(), "ADD CONSTRAINT");
  EXPECT_TRUE(t.Snap()->metadata().configuration.count("delta.constraints.small"));
  ExpectError(Q("ALTER TABLE t ADD CONSTRAINT small CHECK (id < 5)"), "InvalidInputException",
              "Constraint 'small' already exists.");
  ExpectError(Q("ALTER TABLE t ADD CONSTRAINT bad CHECK (nosuch > 0)"), "BinderException", "nosuch");
  ASSERT_TRUE(Q("ALTER TABLE t DROP CONSTRAINT small").ok());
  EXPECT_EQ(LatestOperation(), "DROP CONSTRAINT");
  ExpectError(Q("ALTER TABLE t DROP CONSTRAINT small"), "InvalidInputException",
              "Cannot drop nonexistent constraint small from table t.");
  ASSERT_TRUE(Q("ALTER TABLE t DROP CONSTRAINT IF EXISTS small").ok());
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(MaintenanceSql, VacuumChecksRetentionAndListsOrDeletes) {
  MaintenanceTable t;
  t.Append({1});
  t.Append({2});
  {
    auto snap = t.Snap();
    auto rm = t.Begin("DELETE");
    ASSERT_TRUE(rm->RemoveFile(snap->files().front()).ok());
    ASSERT_TRUE(rm->Commit().ok());
  }
  Open(t);
  ExpectError(Q("VACUUM t RETAIN 0 HOURS"), "InvalidInputException",
              "Are you sure you would like to vacuum files with such a low retention period?");
  EXPECT_EQ(Rows("VACUUM t").size(), 0u);  // default retention: the tombstone is too young
  ASSERT_TRUE(Q("SET shoal.vacuum.retentionCheck = false").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto dry = Rows("VACUUM t RETAIN 0 HOURS DRY RUN");
  ASSERT_EQ(dry.size(), 1u);
  EXPECT_NE(dry[0].find(".parquet"), std::string::npos);
  EXPECT_EQ(Rows("SELECT * FROM t VERSION AS OF 2 ORDER BY id"), (std::vector<std::string>{"1|n1", "2|n2"}));
  EXPECT_EQ(Rows("VACUUM t RETAIN 0 HOURS"), dry);
  EXPECT_EQ(Rows("SELECT * FROM t"), (std::vector<std::string>{"2|n2"}));
  auto travel = Q("SELECT * FROM t VERSION AS OF 2");
  ASSERT_FALSE(travel.ok());
  EXPECT_NE(travel.status().message().find(io::BaseName(dry[0])), std::string::npos) << travel.status().ToString();
  EXPECT_EQ(Rows("VACUUM t RETAIN 0 HOURS DRY RUN").size(), 0u);
}

TEST_F(MaintenanceSql, RestoreReportsMetricsAndRoundTrips) {
  MaintenanceTable t;
  t.Append({1, 2});  // v1
  t.Append({3});     // v2
  Open(t);
  auto v1 = Rows("SELECT * FROM t VERSION AS OF 1 ORDER BY id");
  auto r = Q("RESTORE TABLE t TO VERSION AS OF 1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->num_rows(), 1);
  EXPECT_EQ(r->column_name(0), "table_size_after_restore");
  EXPECT_EQ(r->GetText(0, 1), "1");  // num_of_files_after_restore
  EXPECT_EQ(r->GetText(0, 2), "1");  // num_removed_files
  EXPECT_EQ(r->GetText(0, 3), "0");  // num_restored_files
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY id"), v1);
  EXPECT_EQ(LatestOperation(), "RESTORE");
  ASSERT_TRUE(Q("RESTORE TABLE t TO VERSION AS OF 2").ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY id"), (std::vector<std::string>{"1|n1", "2|n2", "3|n3"}));
  ExpectError(Q("RESTORE TABLE t TO VERSION AS OF 99"), "InvalidInputException",
              "Cannot restore table to version 99. Available versions: [0, 4].");
  ASSERT_TRUE(Q("RESTORE TABLE t TO TIMESTAMP AS OF '2999-01-01 00:00:00'").ok());
  EXPECT_EQ(t.Violations(), "");
}

TEST_F(MaintenanceSql, DescribeHistoryNewestFirstWithLimit) {
  MaintenanceTable t;
  t.Append({1});
  t.Append({2});
  Open(t);
  auto h = Describe("DESCRIBE HISTORY t");
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ASSERT_EQ(h->num_rows(), 3);
  EXPECT_EQ(h->column_name(0), "version");
  EXPECT_EQ(h->GetText(0, 0), "2");
  EXPECT_EQ(h->GetText(2, 0), "0");
  EXPECT_EQ(h->GetText(2, 4), "CREATE TABLE");
  EXPECT_EQ(h->GetText(0, 4), "WRITE");
  EXPECT_EQ(h->GetText(0, 6), "1");  // readVersion
  EXPECT_EQ(h->GetText(0, 8), "true");  // isBlindAppend
  EXPECT_EQ(h->GetText(0, 11), "shoal/0.1.0");
  EXPECT_FALSE(h->IsNull(0, 1));
  auto limited = Describe("DESCRIBE HISTORY t LIMIT 1");
  ASSERT_TRUE(limited.ok());
  EXPECT_EQ(limited->num_rows(), 1);
}

TEST_F(MaintenanceSql, DescribeDetailDescribesLatestSnapshot) {
  MaintenanceTable t(Props{{"owner", "ann"}}, {"name"});
  t.Append({1});
  t.Append({2});
  Open(t);
  auto d = Describe("DESCRIBE DETAIL t");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_EQ(d->num_rows(), 1);
  std::map<std::string, std::string> row;
  for (int c = 0; c < d->num_columns(); ++c) row[d->column_name(c)] = d->GetText(0, c);
  EXPECT_EQ(row["format"], "delta");
  EXPECT_EQ(row["id"], t.Snap()->metadata().id);
  EXPECT_EQ(row["location"], t.root());
  EXPECT_EQ(row["partitionColumns"], "['name']");
  EXPECT_EQ(row["numFiles"], "2");
  int64_t size = 0;
  auto held = t.Snap();  // a temporary's files() would dangle in the loop
  for (const auto& f : held->files()) size += f.size;
  EXPECT_EQ(row["sizeInBytes"], std::to_string(size));
  EXPECT_NE(row["properties"].find("owner=ann"), std::string::npos) << row["properties"];
  EXPECT_EQ(row["minWriterVersion"], "7");
  EXPECT_NE(row["tableFeatures"].find("deletionVectors"), std::string::npos);
}

TEST_F(MaintenanceSql, CopyToCsvWritesHeaderQuotesAndNulls) {
  MaintenanceTable t;
  t.Append({1, -2});
  Open(t);
  std::string path = t.warehouse() + "/out.csv";
  auto r = Q("COPY (SELECT id, name, 'a,b\"c' AS s FROM t ORDER BY id) TO '" + path + "' (FORMAT CSV, HEADER)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->GetText(0, 0), "2");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "id,name,s\n-2,,\"a,b\"\"c\"\n1,n1,\"a,b\"\"c\"\n");
  ExpectError(Q("COPY t TO '" + path + "' (FORMAT XML)"), "InvalidInputException", "COPY FORMAT XML is not supported");
}

TEST_F(MaintenanceSql, CopyToParquetReadsBackInShoalAndDuckDb) {
  MaintenanceTable t;
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 50; ++i) ids.push_back(i % 7 == 0 ? -i - 1 : i);
  t.Append(ids);
  Open(t);
  std::string path = t.warehouse() + "/out.parquet";
  auto r = Q("COPY (SELECT id, name FROM t WHERE id <> 5 ORDER BY id) TO '" + path +
             "' (FORMAT PARQUET, COMPRESSION zstd, ROW_GROUP_SIZE 8)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->GetText(0, 0), "49");
  auto want = Rows("SELECT id, name FROM t WHERE id <> 5 ORDER BY id");
  EXPECT_EQ(Rows("SELECT * FROM read_parquet('" + path + "')"), want);  // order kept
  auto groups = Rows("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + path + "')");
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0], "7");
  auto copied_table = Q("COPY t TO '" + t.warehouse() + "/all.parquet'");
  ASSERT_TRUE(copied_table.ok()) << copied_table.status().ToString();
  EXPECT_EQ(copied_table->GetText(0, 0), "50");

  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  std::string out;
  int rc = testing::RunCommand(duck + " \"SELECT id, name FROM read_parquet('" + path + "')\" 2>&1", &out);
  ASSERT_EQ(rc, 0) << out;
  std::vector<std::string> got;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) got.push_back(line);
  }
  std::vector<std::string> expected;
  for (const auto& w : want) {
    std::string id = w.substr(0, w.find('|'));
    std::string name = w.substr(w.find('|') + 1);
    expected.push_back("{\"id\":" + id + ",\"name\":" + (name == "NULL" ? "null" : "\"" + name + "\"") + "}");
  }
  EXPECT_EQ(got, expected);
}

TEST(CopyOptions, ParsesFormatsAndRejectsUnknown) {
  std::vector<std::pair<std::string, OptionValue>> none;
  auto csv = ParseCopyOptions("/x/out.csv", none);
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(csv->format, CopyOptions::Format::kCsv);
  auto pq = ParseCopyOptions("/x/OUT.PARQUET", none);
  ASSERT_TRUE(pq.ok());
  EXPECT_EQ(pq->format, CopyOptions::Format::kParquet);
  OptionValue bad;
  bad.kind = OptionValue::Kind::kWord;
  bad.text = "lzo9";
  EXPECT_FALSE(ParseCopyOptions("f", {{"COMPRESSION", bad}}).ok());
  EXPECT_FALSE(ParseCopyOptions("f", {{"FOO", bad}}).ok());
  OptionValue zero;
  zero.kind = OptionValue::Kind::kNumber;
  zero.text = "0";
  EXPECT_FALSE(ParseCopyOptions("f", {{"ROW_GROUP_SIZE", zero}}).ok());
}

TEST(CopyCsv, QuotesOnlyWhenNeeded) {
  std::string out;
  AppendCsvField("plain", ',', '"', &out);
  out += '|';
  AppendCsvField("", ',', '"', &out);
  out += '|';
  AppendCsvField("a\nb", ',', '"', &out);
  out += '|';
  AppendCsvField("say \"hi\"", ',', '"', &out);
  EXPECT_EQ(out, "plain|\"\"|\"a\nb\"|\"say \"\"hi\"\"\"");
}

}  // namespace
}  // namespace shoal::sql
