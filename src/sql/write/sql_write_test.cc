// Tables written through SQL: log validity, checkpoints, DuckDB as an independent reader of
// the data files, and the read-your-writes view of a transaction.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "delta/deletion_vector.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/table_path.h"
#include "expr/evaluate.h"
#include "io/file_system.h"
#include "shoal/database.h"
#include "sql/binder/table_expression.h"
#include "sql/write/write_transaction.h"
#include "table/protocol_validator.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

using testing::Rows;

std::vector<std::string> MustQuery(Connection& c, const std::string& sql) {
  auto r = c.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  if (!r.ok()) return {};
  return Rows(*r);
}

class SqlWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    conn_ = db_->Connect();
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
};

TEST_F(SqlWrite, PartitionedIdentityTableWithDeletionVectorsIsValidAndReadableByDuckDb) {
  MustQuery(*conn_,
            "CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY, p STRING, v DOUBLE) PARTITIONED BY (p)");
  for (int i = 0; i < 11; ++i) {
    std::string p = i % 2 ? "odd" : "even";
    MustQuery(*conn_, "INSERT INTO t (p, v) VALUES ('" + p + "', " + std::to_string(i) + ".5), ('x', NULL)");
  }
  std::string root = dir_.Join("t");
  auto fs = io::LocalFileSystem();

  // Version 11 exists and a checkpoint was written at version 10.
  auto cp = fs->Exists(root + "/_delta_log/00000000000000000010.checkpoint.parquet");
  ASSERT_TRUE(cp.ok());
  EXPECT_TRUE(*cp);
  auto violations = table::ValidateTableLog(*fs, root);
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);

  auto rows = MustQuery(*conn_, "SELECT id, p, v FROM t ORDER BY id");
  ASSERT_EQ(rows.size(), 22u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].substr(0, rows[i].find('|')), std::to_string(i + 1)) << "identity values are 1..22";
  }

  // The snapshot loads from the checkpoint and a fresh database reads the same rows.
  delta::SnapshotOptions so;
  so.readers = delta::DefaultCheckpointReaders();
  auto snap = delta::Snapshot::Load(fs, root, so);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ((*snap)->version(), 11);
  ASSERT_TRUE((*snap)->segment().checkpoint_version.has_value());
  EXPECT_EQ(*(*snap)->segment().checkpoint_version, 10);
  EXPECT_NE((*snap)->metadata().schema_string.find("\"delta.identity.highWaterMark\":22"), std::string::npos)
      << (*snap)->metadata().schema_string;
  {
    auto db2 = Database::Open(dir_.path());
    ASSERT_TRUE(db2.ok());
    auto c2 = (*db2)->Connect();
    EXPECT_EQ(MustQuery(*c2, "SELECT id, p, v FROM t ORDER BY id"), rows);
    EXPECT_EQ(MustQuery(*c2, "SELECT count(*) FROM t VERSION AS OF 10"), std::vector<std::string>{"20"});
  }

  // Deletion vectors (DELETE, and UPDATE's old row versions) on top: DuckDB must read the data
  // files to shoal's rows once the rows each file's DV marks are left out.
  // A 100-row file, so row deletes land in a deletion vector rather than removing whole files.
  MustQuery(*conn_, "INSERT INTO t (p, v) SELECT 'bulk', i + 0.25 FROM range(100) AS r(i)");
  int deletes = 0, updates = 0;
  for (int id = 1; id <= 122; ++id) {
    if (id % 5 == 0) ++deletes;
    else if (id % 7 == 0) ++updates;
  }
  EXPECT_EQ(MustQuery(*conn_, "DELETE FROM t WHERE id % 5 = 0"), std::vector<std::string>{std::to_string(deletes)});
  EXPECT_EQ(MustQuery(*conn_, "UPDATE t SET v = v + 100 WHERE id % 7 = 0"),
            std::vector<std::string>{std::to_string(updates)});
  rows = MustQuery(*conn_, "SELECT id, p, v FROM t ORDER BY id");
  ASSERT_EQ(rows.size(), static_cast<size_t>(122 - deletes));
  snap = delta::Snapshot::Load(fs, root, so);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  violations = table::ValidateTableLog(*fs, root);
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);

  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  std::string list;
  std::string deleted;  // (file, row) pairs the DVs mark
  int files_with_dv = 0;
  for (const auto& add : (*snap)->files()) {
    auto local = delta::ResolveTablePath(root, add.path);
    ASSERT_TRUE(local.ok());
    list += (list.empty() ? "'" : ", '") + *local + "'";
    if (!add.deletion_vector) continue;
    auto dv = delta::DeletionVector::Load(*fs, root, *add.deletion_vector);
    ASSERT_TRUE(dv.ok()) << dv.status().ToString();
    ++files_with_dv;
    for (uint64_t r : dv->ToVector()) {
      deleted += (deleted.empty() ? "('" : ", ('") + *local + "', " + std::to_string(r) + ")";
    }
  }
  EXPECT_GT(files_with_dv, 0) << "the DELETE and UPDATE should have written deletion vectors";
  if (deleted.empty()) deleted = "('', -1)";
  std::string out;
  std::string sql = "SELECT f.id, f.p, f.v FROM read_parquet([" + list +
                    "], hive_partitioning=true, filename=true, file_row_number=true) AS f LEFT JOIN (VALUES " +
                    deleted +
                    ") AS d(fn, rn) ON f.filename = d.fn AND f.file_row_number = d.rn WHERE d.fn IS NULL ORDER BY f.id";
  ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
  std::vector<std::string> duck_rows;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    std::string v = j["v"].is_null() ? "NULL" : std::to_string(j["v"].get<double>());
    v.erase(v.find_last_not_of('0') + 1);
    if (!v.empty() && v.back() == '.') v.pop_back();
    duck_rows.push_back(std::to_string(j["id"].get<int64_t>()) + "|" + j["p"].get<std::string>() + "|" + v);
  }
  EXPECT_EQ(duck_rows, rows);
}

TEST_F(SqlWrite, StagedWritesAreVisibleThroughTheTransactionView) {
  MustQuery(*conn_, "CREATE TABLE s (a INT)");
  MustQuery(*conn_, "INSERT INTO s VALUES (1), (2), (3)");
  MustQuery(*conn_, "INSERT INTO s VALUES (10)");
  auto fs = io::LocalFileSystem();
  std::string root = dir_.Join("s");
  auto table = scan::DeltaTable::Open(fs, root);
  ASSERT_TRUE(table.ok());
  auto t = txn::Transaction::Begin(fs, root, (*table)->snapshot());
  ASSERT_TRUE(t.ok());
  const auto& files = (*table)->snapshot()->files();
  ASSERT_EQ(files.size(), 2u);
  const delta::AddFile* three = nullptr;
  const delta::AddFile* one = nullptr;
  for (const auto& f : files) (f.stats->find("\"numRecords\":3") != std::string::npos ? three : one) = &f;
  ASSERT_TRUE(three && one);
  delta::DeletionVector dv;
  dv.Add(1);
  ASSERT_TRUE((*t)->DeleteRows(*three, dv).ok());
  ASSERT_TRUE((*t)->RemoveFile(*one).ok());
  auto view = TableWithStagedWrites(fs, *(*table)->snapshot(), **t);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ASSERT_EQ((*view)->snapshot()->files().size(), 1u);
  const auto& shown = (*view)->snapshot()->files()[0];
  ASSERT_TRUE(shown.deletion_vector.has_value());
  EXPECT_EQ(shown.deletion_vector->storage_type, 'i');
  EXPECT_EQ(shown.deletion_vector->cardinality, 1);
  EXPECT_EQ(*(*view)->EstimatedRows(), 2);
}

TEST_F(SqlWrite, FoldsRemovesAndRowDeletesOfOwnAddsIntoTheAdds) {
  MustQuery(*conn_, "CREATE TABLE f (a INT)");
  MustQuery(*conn_, "BEGIN");
  MustQuery(*conn_, "INSERT INTO f VALUES (1), (2), (3)");
  MustQuery(*conn_, "INSERT INTO f VALUES (4)");
  // Nothing committed yet; both files visible inside the transaction.
  EXPECT_EQ(MustQuery(*conn_, "SELECT count(*) FROM f"), std::vector<std::string>{"4"});
  MustQuery(*conn_, "COMMIT");
  EXPECT_EQ(MustQuery(*conn_, "SELECT sum(a) FROM f"), std::vector<std::string>{"10"});

  auto fs = io::LocalFileSystem();
  std::string root = dir_.Join("f");
  auto table = scan::DeltaTable::Open(fs, root);
  ASSERT_TRUE(table.ok());
  auto t = txn::Transaction::Begin(fs, root, (*table)->snapshot());
  ASSERT_TRUE(t.ok());
  delta::AddFile own_a = (*table)->snapshot()->files()[0];
  own_a.path = "own-a.parquet";
  delta::AddFile own_b = own_a;
  own_b.path = "own-b.parquet";
  (*t)->AddFile(own_a);
  (*t)->AddFile(own_b);
  ASSERT_TRUE((*t)->RemoveFile(own_a).ok());
  delta::DeletionVector dv;
  dv.Add(0);
  ASSERT_TRUE((*t)->DeleteRows(own_b, dv).ok());
  // Both adds are files this transaction wrote (only those count as its own).
  std::vector<std::string> staged = {root + "/own-a.parquet", root + "/own-b.parquet"};
  ASSERT_TRUE(FoldOwnFileChanges(t->get(), &staged).ok());
  const auto& w = (*t)->write_set();
  ASSERT_EQ(w.adds.size(), 1u);
  EXPECT_EQ(w.adds[0].path, "own-b.parquet");
  ASSERT_TRUE(w.adds[0].deletion_vector.has_value());
  EXPECT_EQ(w.adds[0].deletion_vector->cardinality, 1);
  EXPECT_TRUE(w.removes.empty());
  EXPECT_TRUE(w.row_deletes.empty());
  EXPECT_EQ(staged, std::vector<std::string>{root + "/own-b.parquet"});  // own-a was dropped
}

TEST_F(SqlWrite, ReAddOfAnExistingFileIsNotTheTransactionsOwn) {
  // RESTORE and DV updates re-add a file the table already had: removing it again in the same
  // transaction must never delete the data file.
  MustQuery(*conn_, "CREATE TABLE g (a INT)");
  MustQuery(*conn_, "INSERT INTO g VALUES (1), (2)");
  auto fs = io::LocalFileSystem();
  std::string root = dir_.Join("g");
  auto table = scan::DeltaTable::Open(fs, root);
  ASSERT_TRUE(table.ok());
  auto t = txn::Transaction::Begin(fs, root, (*table)->snapshot());
  ASSERT_TRUE(t.ok());
  delta::AddFile existing = (*table)->snapshot()->files()[0];
  (*t)->AddFile(existing);
  ASSERT_TRUE((*t)->RemoveFile(existing).ok());
  std::vector<std::string> staged;
  ASSERT_TRUE(FoldOwnFileChanges(t->get(), &staged).ok());
  auto data = delta::ResolveTablePath(root, existing.path);
  ASSERT_TRUE(data.ok());
  auto exists = fs->Exists(*data);
  ASSERT_TRUE(exists.ok());
  EXPECT_TRUE(*exists) << "the table's data file was deleted";
}

// An INSERT that fails part-way (a NOT NULL violation near the end, after the writers have closed
// files) deletes every data file and spilled run it wrote, whichever worker failed and whatever
// the LocalSort scope: a failing worker's own writer never reaches Combine, and the shared
// writer of write scope never reaches Finalize. The table keeps its committed rows.
TEST_F(SqlWrite, FailedInsertLeavesNoFilesBehindInAnyLocalSortScope) {
  const std::vector<std::pair<std::string, std::string>> tables = {
      {"plain", ""},
      {"file_scope", ", 'shoal.localSort.columns' = 'k', 'shoal.localSort.memoryLimit' = '1m'"},
      {"write_scope",
       ", 'shoal.localSort.columns' = 'k', 'shoal.localSort.scope' = 'write', 'shoal.localSort.memoryLimit' = '1m'"}};
  for (const auto& [name, props] : tables) {
    SCOPED_TRACE(name);
    MustQuery(*conn_, "CREATE TABLE " + name + " (k BIGINT NOT NULL, s VARCHAR) TBLPROPERTIES ('delta.targetFileSize' = '64k'" +
                          props + ")");
    MustQuery(*conn_, "INSERT INTO " + name + " VALUES (1, 'kept')");
    const std::string root = dir_.Join(name);
    auto data_files = [&] {
      std::vector<std::string> out;
      for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        const std::string p = e.path().string();
        if (e.is_regular_file() && p.find("_delta_log") == std::string::npos) out.push_back(p);
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    const std::vector<std::string> before = data_files();
    ASSERT_EQ(before.size(), 1u);
    for (int threads : {1, 2}) {
      DatabaseOptions options;
      options.threads = threads;
      auto db = Database::Open(dir_.path(), options);
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      auto conn = (*db)->Connect();
      auto r = conn->Query("INSERT INTO " + name +
                            " SELECT CASE WHEN i = 250000 THEN NULL ELSE (i * 7919) % 300000 END, 'row ' || i "
                            "FROM range(300000) r(i)");
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.status().ToString().find("NULL"), std::string::npos) << r.status().ToString();
      EXPECT_EQ(data_files(), before) << threads << " threads";
    }
    EXPECT_EQ(MustQuery(*conn_, "SELECT count(*), min(s) FROM " + name), std::vector<std::string>{"1|kept"});
  }
}

// UPDATE and MERGE write their new rows through the same writer: one that fails on a NOT NULL
// violation after files were closed leaves only the table's committed files (copy-on-write and
// deletion vectors), and the rows are unchanged.
TEST_F(SqlWrite, FailedUpdateAndMergeLeaveNoFilesBehind) {
  for (const std::string dv : {"false", "true"}) {
    SCOPED_TRACE("deletion vectors " + dv);
    const std::string name = "u_" + dv;
    MustQuery(*conn_, "CREATE TABLE " + name + " (k BIGINT NOT NULL, v BIGINT) TBLPROPERTIES ('delta.targetFileSize' = '64k', "
                      "'delta.enableDeletionVectors' = '" + dv + "')");
    MustQuery(*conn_, "INSERT INTO " + name + " SELECT i, i FROM range(300000) r(i)");
    const std::string root = dir_.Join(name);
    auto files = [&] {
      std::vector<std::string> out;
      for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        if (e.is_regular_file() && e.path().string().find("_delta_log") == std::string::npos) {
          out.push_back(e.path().string());
        }
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    const std::vector<std::string> before = files();
    ASSERT_FALSE(before.empty());
    auto u = conn_->Query("UPDATE " + name + " SET k = CASE WHEN v = 250000 THEN NULL ELSE k + 1 END");
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(files(), before);
    auto m = conn_->Query("MERGE INTO " + name + " t USING (SELECT i FROM range(300000) r(i)) s ON t.v = s.i "
                          "WHEN MATCHED THEN UPDATE SET k = CASE WHEN s.i = 250000 THEN NULL ELSE t.k + 1 END");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(files(), before);
    EXPECT_EQ(MustQuery(*conn_, "SELECT count(*), sum(k) FROM " + name),
              std::vector<std::string>{"300000|44999850000"});
  }
}

TEST(TableExpression, BindsColumnsByNameToSchemaIndices) {
  columnar::Schema schema;
  schema.fields.push_back({"Id", columnar::Int32(), true});
  schema.fields.push_back({"s", columnar::String(), true});
  auto e = BindTableExpression("id > 1 AND s = 'a'", schema);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(expr::CollectColumns(**e), (std::vector<int>{0, 1}));
  auto ids = columnar::Vector::Make(columnar::Int32(), 3);
  auto ss = columnar::Vector::Make(columnar::String(), 3);
  for (int i = 0; i < 3; ++i) {
    ids->Append<int32_t>(i);
    ss->AppendString(i == 1 ? "b" : "a");
  }
  columnar::RecordBatch batch(std::make_shared<columnar::Schema>(schema), {ids, ss}, 3);
  expr::EvalContext ctx;
  std::vector<uint32_t> sel;
  auto n = expr::EvaluateFilter(**e, batch, ctx, &sel);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{2}));
  EXPECT_FALSE(BindTableExpression("nope = 1", schema).ok());
  EXPECT_FALSE(BindTableExpression("1) FROM x; SELECT (1", schema).ok());
}

}  // namespace
}  // namespace shoal::sql
