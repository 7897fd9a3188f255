// Generated columns and column defaults enforced on write, through SQL: computed values,
// mismatches that leave the table unchanged, UPDATE recompute, MERGE, DEFAULT keyword, ALTER
// SET/DROP DEFAULT, and the protocol features present exactly when used.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "delta/table_path.h"
#include "io/file_system.h"
#include "shoal/database.h"
#include "sql/write/column_defaults.h"
#include "sql/write/generated_columns.h"
#include "sql/parser/parser.h"
#include "table/protocol_validator.h"
#include "support/sql_table_fixture.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

using testing::Rows;

using Lines = std::vector<std::string>;

class GeneratedColumnsSql : public testing::SqlTableTest {
 protected:
  void Fails(const std::string& sql) { (void)Err(sql); }
  delta::Protocol ProtocolOf(const std::string& table) {
    auto s = Snap(table);
    return s ? s->protocol() : delta::Protocol();
  }
  bool HasWriterFeature(const std::string& table, const std::string& f) {
    auto p = ProtocolOf(table);
    return p.writer_features && std::count(p.writer_features->begin(), p.writer_features->end(), f) > 0;
  }
};

TEST_F(GeneratedColumnsSql, InsertComputesOmittedGeneratedColumn) {
  Q("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a * 2), c STRING GENERATED ALWAYS AS ('x' || CAST(a AS STRING)))");
  Q("INSERT INTO t VALUES (1), (NULL)");                 // no column list: generated columns omitted
  Q("INSERT INTO t (a) SELECT i FROM range(3, 5) AS r(i)");
  Q("INSERT INTO t VALUES (10, 20, 'x10')");             // all columns, consistent
  Q("INSERT INTO t (b, a) VALUES (14, 7)");              // a list with a consistent generated value
  EXPECT_EQ(Q("SELECT a, b, c FROM t ORDER BY a NULLS FIRST"),
            (Lines{"NULL|NULL|NULL", "1|2|x1", "3|6|x3", "4|8|x4", "7|14|x7", "10|20|x10"}));
  ExpectValidLog("t");
  EXPECT_TRUE(HasWriterFeature("t", "generatedColumns"));
}

TEST_F(GeneratedColumnsSql, MismatchedValueFailsAndWritesNothing) {
  Q("CREATE TABLE t (a INT, b BIGINT GENERATED ALWAYS AS (a + 1))");
  Q("INSERT INTO t VALUES (1, 2)");
  int64_t before = Version("t");
  Status st = Err("INSERT INTO t VALUES (2, 3), (5, 7)");
  EXPECT_EQ(st.code(), StatusCode::kConstraint);
  EXPECT_NE(st.message().find("DeltaInvariantViolationException"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("Generated Column"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("(a + 1)"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("b : 7"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("a : 5"), std::string::npos) << st.ToString();
  // NULL-safe: a NULL where the expression is not NULL is a mismatch, NULL for NULL is fine.
  Fails("INSERT INTO t VALUES (3, NULL)");
  Q("INSERT INTO t VALUES (NULL, NULL)");
  EXPECT_EQ(Version("t"), before + 1);
  EXPECT_EQ(Q("SELECT a, b FROM t ORDER BY a NULLS LAST"), (Lines{"1|2", "NULL|NULL"}));
  // Values are compared after the cast to the column type.
  Q("INSERT INTO t VALUES (4, 5.0)");
  EXPECT_EQ(Q("SELECT b FROM t WHERE a = 4"), (Lines{"5"}));
}

TEST_F(GeneratedColumnsSql, UpdateRecomputesAndChecksExplicitSet) {
  Q("CREATE TABLE t (id INT, a INT, b INT GENERATED ALWAYS AS (a * 10))");
  Q("INSERT INTO t (id, a) VALUES (1, 1), (2, 2), (3, 3)");
  Q("UPDATE t SET a = a + 5 WHERE id >= 2");
  EXPECT_EQ(Q("SELECT id, a, b FROM t ORDER BY id"), (Lines{"1|1|10", "2|7|70", "3|8|80"}));
  Q("UPDATE t SET a = 0, b = 0 WHERE id = 1");  // explicit and consistent
  int64_t before = Version("t");
  Status st = Err("UPDATE t SET b = 5 WHERE id = 2");
  EXPECT_EQ(st.code(), StatusCode::kConstraint) << st.ToString();
  Fails("UPDATE t SET a = 1, b = 11 WHERE id = 3");
  EXPECT_EQ(Version("t"), before);
  Q("UPDATE t SET b = DEFAULT, a = 4 WHERE id = 3");  // DEFAULT on a generated column: recompute
  EXPECT_EQ(Q("SELECT id, a, b FROM t ORDER BY id"), (Lines{"1|0|0", "2|7|70", "3|4|40"}));
  ExpectValidLog("t");
}

TEST_F(GeneratedColumnsSql, MergeComputesAndChecksInUpdateAndInsertClauses) {
  Q("CREATE TABLE t (k INT, a INT, b INT GENERATED ALWAYS AS (a - k))");
  Q("INSERT INTO t (k, a) VALUES (1, 10), (2, 20)");
  Q("MERGE INTO t USING (VALUES (2, 25), (3, 33)) AS s(k, a) ON t.k = s.k "
    "WHEN MATCHED THEN UPDATE SET a = s.a WHEN NOT MATCHED THEN INSERT (k, a) VALUES (s.k, s.a)");
  EXPECT_EQ(Q("SELECT k, a, b FROM t ORDER BY k"), (Lines{"1|10|9", "2|25|23", "3|33|30"}));
  // UPDATE SET * / INSERT * from a source without the generated column compute it.
  Q("MERGE INTO t USING (VALUES (3, 40), (4, 44)) AS s(k, a) ON t.k = s.k "
    "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
  EXPECT_EQ(Q("SELECT k, a, b FROM t ORDER BY k"), (Lines{"1|10|9", "2|25|23", "3|40|37", "4|44|40"}));
  int64_t before = Version("t");
  Status st = Err("MERGE INTO t USING (VALUES (5, 50, 1)) AS s(k, a, b) ON t.k = s.k "
                    "WHEN NOT MATCHED THEN INSERT *");
  EXPECT_EQ(st.code(), StatusCode::kConstraint) << st.ToString();
  Fails("MERGE INTO t USING (VALUES (1, 7)) AS s(k, b) ON t.k = s.k WHEN MATCHED THEN UPDATE SET b = s.b");
  EXPECT_EQ(Version("t"), before);
  ExpectValidLog("t");
}

TEST_F(GeneratedColumnsSql, OverwriteAndReplaceWhereCompute) {
  Q("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a % 3))");
  Q("INSERT INTO t (a) VALUES (1), (2), (3)");
  Q("INSERT OVERWRITE t (a) VALUES (4), (5)");
  EXPECT_EQ(Q("SELECT a, b FROM t ORDER BY a"), (Lines{"4|1", "5|2"}));
  Q("INSERT INTO t (a) REPLACE WHERE a >= 5 VALUES (8)");
  EXPECT_EQ(Q("SELECT a, b FROM t ORDER BY a"), (Lines{"4|1", "8|2"}));
  Fails("INSERT OVERWRITE t VALUES (9, 9)");
  EXPECT_EQ(Q("SELECT a, b FROM t ORDER BY a"), (Lines{"4|1", "8|2"}));
}

TEST_F(GeneratedColumnsSql, CreateRejectsInvalidExpressions) {
  auto bad = [&](const std::string& sql, const std::string& needle) {
    Status st = Err(sql);
    EXPECT_NE(st.message().find(needle), std::string::npos) << sql << ": " << st.ToString();
  };
  bad("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (c + 1))", "b");
  bad("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 1), c INT GENERATED ALWAYS AS (b + 1))",
      "references generated column b");
  bad("CREATE TABLE t (a INT, b TIMESTAMP GENERATED ALWAYS AS (now()))", "not deterministic");
  bad("CREATE TABLE t (a INT, b DATE GENERATED ALWAYS AS (current_date()))", "not deterministic");
  bad("CREATE TABLE t (a INT, b BIGINT GENERATED ALWAYS AS (sum(a)))", "b");
  bad("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS ((SELECT 1)))", "b");
  bad("CREATE TABLE t (a INT, b ARRAY<INT> GENERATED ALWAYS AS (a))", "does not cast");
  EXPECT_TRUE(Q("SHOW TABLES").empty());
}

TEST_F(GeneratedColumnsSql, TableWithoutGeneratedColumnsHasNoFeature) {
  Q("CREATE TABLE t (a INT, b STRING)");
  EXPECT_FALSE(HasWriterFeature("t", "generatedColumns"));
  EXPECT_FALSE(HasWriterFeature("t", "allowColumnDefaults"));
}

TEST_F(GeneratedColumnsSql, ColumnMappingTablesUseLogicalNames) {
  Q("CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 100)) TBLPROPERTIES ('delta.columnMapping.mode' = 'name')");
  Q("INSERT INTO t (a) VALUES (1)");
  Q("ALTER TABLE t RENAME COLUMN b TO bb");
  Q("INSERT INTO t (a) VALUES (2)");
  EXPECT_EQ(Q("SELECT a, bb FROM t ORDER BY a"), (Lines{"1|101", "2|102"}));
  Fails("INSERT INTO t VALUES (3, 3)");
}

// A table whose log was written as Spark writes one (generation expression in Spark's SQL
// spelling, writer version 4 without table features) is writable with enforcement.
TEST_F(GeneratedColumnsSql, SparkStyleLegacyTableIsEnforced) {
  std::string root = dir_.Join("spark_gen");
  auto fs = io::LocalFileSystem();
  ASSERT_TRUE(fs->CreateDirs(root + "/_delta_log").ok());
  nlohmann::json schema = {
      {"type", "struct"},
      {"fields",
       {{{"name", "ts"}, {"type", "timestamp"}, {"nullable", true}, {"metadata", nlohmann::json::object()}},
        {{"name", "d"},
         {"type", "date"},
         {"nullable", true},
         {"metadata", {{"delta.generationExpression", "CAST(ts AS DATE)"}}}}}}};
  nlohmann::json meta = {{"metaData",
                          {{"id", "3f0c6c4c-6a59-4f1a-9d0e-000000000001"},
                           {"format", {{"provider", "parquet"}, {"options", nlohmann::json::object()}}},
                           {"schemaString", schema.dump()},
                           {"partitionColumns", nlohmann::json::array()},
                           {"configuration", nlohmann::json::object()},
                           {"createdTime", 1700000000000}}}};
  nlohmann::json protocol = {{"protocol", {{"minReaderVersion", 1}, {"minWriterVersion", 4}}}};
  nlohmann::json ci = {{"commitInfo", {{"timestamp", 1700000000000}, {"operation", "CREATE TABLE"}}}};
  std::string text = ci.dump() + "\n" + protocol.dump() + "\n" + meta.dump() + "\n";
  ASSERT_TRUE(fs->PutIfAbsent(root + "/_delta_log/00000000000000000000.json", text).ok());
  std::string t = "delta.`" + root + "`";
  Q("INSERT INTO " + t + " (ts) VALUES (TIMESTAMP '2024-03-05 10:11:12')");
  Fails("INSERT INTO " + t + " VALUES (TIMESTAMP '2024-03-05 10:11:12', DATE '2024-01-01')");
  EXPECT_EQ(Q("SELECT CAST(d AS STRING) FROM " + t), (Lines{"2024-03-05"}));
}

// DuckDB, an independent Parquet reader, sees the computed values in the data files.
TEST_F(GeneratedColumnsSql, DuckDbReadsComputedValues) {
  Q("CREATE TABLE t (a INT, b BIGINT GENERATED ALWAYS AS (a * 3), s STRING DEFAULT 'd')");
  Q("INSERT INTO t (a) SELECT i FROM range(5) AS r(i)");
  Q("UPDATE t SET a = a + 100 WHERE a = 4");  // rewrites the row: b recomputed in a new file
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  auto fs = io::LocalFileSystem();
  delta::SnapshotOptions so;
  so.readers = delta::DefaultCheckpointReaders();
  auto snap = delta::Snapshot::Load(fs, dir_.Join("t"), so);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  std::string list;
  for (const auto& add : (*snap)->files()) {
    auto local = delta::ResolveTablePath(dir_.Join("t"), add.path);
    ASSERT_TRUE(local.ok());
    list += (list.empty() ? "'" : ", '") + *local + "'";
  }
  // Every row DuckDB reads (also the old version of the updated row, masked by a deletion
  // vector in shoal) has b = a * 3 and the default s.
  std::string out;
  std::string sql = "SELECT count(*) AS n, count(*) FILTER (WHERE b = a * 3 AND s = 'd') AS ok FROM read_parquet([" +
                    list + "])";
  ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
  auto j = nlohmann::json::parse(out.substr(0, out.find('\n')));
  EXPECT_EQ(j["n"].get<int64_t>(), 6);
  EXPECT_EQ(j["ok"].get<int64_t>(), 6);
}

TEST_F(GeneratedColumnsSql, BoundExpressionsCheckBatches) {
  delta::Metadata m;
  m.schema_string =
      R"({"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}},)"
      R"({"name":"b","type":"long","nullable":true,"metadata":{"delta.generationExpression":"a * 3"}}]})";
  columnar::Schema s;
  s.fields.push_back({"a", columnar::Int32(), true});
  s.fields.push_back({"b", columnar::Int64(), true});
  auto g = GeneratedColumns::Bind(m, s);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  ASSERT_TRUE(*g);
  EXPECT_FALSE((*g)->IsGenerated(0));
  EXPECT_TRUE((*g)->IsGenerated(1));
  auto a = columnar::Vector::Make(columnar::Int32(), 3);
  for (int32_t v : {1, 2, 3}) a->Append<int32_t>(v);
  columnar::RecordBatch batch(std::make_shared<columnar::Schema>(s), {a, columnar::Vector::MakeNull(columnar::Int64(), 3)}, 3);
  expr::EvalContext ctx(0);
  EXPECT_EQ((*g)->Check(batch, ctx).code(), StatusCode::kConstraint);
  ASSERT_TRUE((*g)->Apply(&batch, {true, false}, ctx).ok());
  EXPECT_TRUE((*g)->Check(batch, ctx).ok());
  EXPECT_EQ(columnar::Value::FromVector(*batch.columns[1], 2).ToString(), "9");
}

// ---- column defaults

TEST_F(GeneratedColumnsSql, DefaultsFillOmittedColumnsAndTheDefaultKeyword) {
  Q("CREATE TABLE t (a INT, b STRING DEFAULT 'x', c INT DEFAULT 40 + 2, d DOUBLE)");
  EXPECT_TRUE(HasWriterFeature("t", "allowColumnDefaults"));
  ExpectValidLog("t");
  Q("INSERT INTO t (a) VALUES (1)");
  Q("INSERT INTO t VALUES (2, DEFAULT, DEFAULT, DEFAULT)");
  Q("INSERT INTO t VALUES (3, 'y', DEFAULT, 1.5), (4, DEFAULT, 7, 2.5)");
  Q("INSERT INTO t (c, a) VALUES (DEFAULT, 5)");
  Q("INSERT INTO t (a, b) SELECT i, 'q' FROM range(6, 7) AS r(i)");
  EXPECT_EQ(Q("SELECT a, b, c, d FROM t ORDER BY a"),
            (Lines{"1|x|42|NULL", "2|x|42|NULL", "3|y|42|1.5", "4|x|7|2.5", "5|x|42|NULL", "6|q|42|NULL"}));
  Q("UPDATE t SET b = DEFAULT, c = DEFAULT, d = DEFAULT WHERE a IN (3, 4)");
  EXPECT_EQ(Q("SELECT a, b, c, d FROM t WHERE a IN (3, 4) ORDER BY a"), (Lines{"3|x|42|NULL", "4|x|42|NULL"}));
  Q("MERGE INTO t USING (VALUES (1, 'm'), (9, 'n')) AS s(a, b) ON t.a = s.a "
    "WHEN MATCHED THEN UPDATE SET c = DEFAULT, b = s.b WHEN NOT MATCHED THEN INSERT (a) VALUES (s.a)");
  EXPECT_EQ(Q("SELECT a, b, c FROM t WHERE a IN (1, 9) ORDER BY a"), (Lines{"1|m|42", "9|x|42"}));
}

TEST_F(GeneratedColumnsSql, AlterSetAndDropDefault) {
  Q("CREATE TABLE t (a INT, b STRING)");
  EXPECT_FALSE(HasWriterFeature("t", "allowColumnDefaults"));
  Q("ALTER TABLE t ALTER COLUMN b SET DEFAULT 'abc'");
  EXPECT_TRUE(HasWriterFeature("t", "allowColumnDefaults"));
  ExpectValidLog("t");
  Q("INSERT INTO t (a) VALUES (1)");
  Q("ALTER TABLE t ALTER COLUMN b DROP DEFAULT");
  Q("INSERT INTO t (a) VALUES (2)");
  EXPECT_EQ(Q("SELECT a, b FROM t ORDER BY a"), (Lines{"1|abc", "2|NULL"}));
  EXPECT_TRUE(HasWriterFeature("t", "allowColumnDefaults"));  // features are never removed implicitly
  Fails("ALTER TABLE t ALTER COLUMN a SET DEFAULT 'not a number'");
  Fails("ALTER TABLE t ALTER COLUMN a SET DEFAULT a + 1");
  Fails("ALTER TABLE t ALTER COLUMN zz SET DEFAULT 1");
  ExpectValidLog("t");
}

TEST_F(GeneratedColumnsSql, CreateRejectsInvalidDefaults) {
  Fails("CREATE TABLE t (a INT DEFAULT 'abc')");
  Fails("CREATE TABLE t (a INT, b INT DEFAULT a)");
  Fails("CREATE TABLE t (a INT, b INT DEFAULT 1 GENERATED ALWAYS AS (a))");
  Fails("SELECT DEFAULT");
  EXPECT_TRUE(Q("SHOW TABLES").empty());
}

TEST_F(GeneratedColumnsSql, DefaultKeywordOnGeneratedAndIdentityColumns) {
  Q("CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY, a INT, b INT GENERATED ALWAYS AS (a + 1))");
  Q("INSERT INTO t VALUES (DEFAULT, 1, DEFAULT), (DEFAULT, 2, DEFAULT)");
  EXPECT_EQ(Q("SELECT id, a, b FROM t ORDER BY id"), (Lines{"1|1|2", "2|2|3"}));
  // DEFAULT in some rows only: the rows are written group by group in one commit.
  Q("INSERT INTO t VALUES (DEFAULT, 3, DEFAULT), (DEFAULT, 4, 5), (DEFAULT, 5, DEFAULT)");
  EXPECT_EQ(Q("SELECT id, a, b FROM t ORDER BY a"), (Lines{"1|1|2", "2|2|3", "3|3|4", "5|4|5", "4|5|6"}));
  // An explicit value that contradicts the generation expression fails the whole statement,
  // also the rows of the other group.
  EXPECT_FALSE(Err("INSERT INTO t VALUES (DEFAULT, 6, DEFAULT), (DEFAULT, 7, 99)").ok());
  EXPECT_EQ(Q("SELECT count(*) FROM t"), (Lines{"5"}));
  // GENERATED ALWAYS identity: an explicit value in any row is refused, as for a whole column.
  EXPECT_FALSE(Err("INSERT INTO t VALUES (DEFAULT, 8, DEFAULT), (42, 9, DEFAULT)").ok());
  EXPECT_EQ(Q("SELECT count(*) FROM t"), (Lines{"5"}));
  EXPECT_EQ(Q("DESCRIBE HISTORY t").size(), 3u);  // CREATE and two INSERTs: the failed ones left nothing
  ExpectValidLog("t");
}

TEST_F(GeneratedColumnsSql, DefaultInSomeRowsOfAByDefaultIdentityColumn) {
  Q("CREATE TABLE u (id BIGINT GENERATED BY DEFAULT AS IDENTITY (START WITH 10 INCREMENT BY 5), v STRING)");
  EXPECT_EQ(Q("INSERT INTO u VALUES (DEFAULT, 'a'), (7, 'b'), (DEFAULT, 'c'), (8, 'd')"), (Lines{"4|4"}));
  EXPECT_EQ(Q("SELECT v, id FROM u ORDER BY v"), (Lines{"a|10", "b|7", "c|15", "d|8"}));
  // The next generated values continue after those of the mixed statement.
  Q("INSERT INTO u (v) VALUES ('e')");
  EXPECT_EQ(Q("SELECT id FROM u WHERE v = 'e'"), (Lines{"20"}));
  ExpectValidLog("u");
}

TEST(ColumnDefaultsParse, DefaultRoundTripsThroughToString) {
  auto st = ParseStatement("CREATE TABLE t (a INT DEFAULT 5, b STRING DEFAULT 'x' NOT NULL)");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  auto again = ParseStatement((*st)->ToString());
  ASSERT_TRUE(again.ok()) << (*st)->ToString();
  EXPECT_EQ((*again)->ToString(), (*st)->ToString());
  auto alter = ParseStatement("ALTER TABLE t ALTER COLUMN b SET DEFAULT 'y'");
  ASSERT_TRUE(alter.ok());
  EXPECT_EQ((*alter)->ToString(), "ALTER TABLE t ALTER COLUMN b SET DEFAULT 'y'");
  auto drop = ParseStatement("ALTER TABLE t ALTER COLUMN b DROP DEFAULT");
  ASSERT_TRUE(drop.ok());
  EXPECT_EQ((*drop)->ToString(), "ALTER TABLE t ALTER COLUMN b DROP DEFAULT");
  auto ins = ParseStatement("INSERT INTO t VALUES (1, DEFAULT)");
  ASSERT_TRUE(ins.ok());
  EXPECT_NE((*ins)->ToString().find("DEFAULT"), std::string::npos);
}

}  // namespace
}  // namespace shoal::sql
