// SqlTableTest: a GoogleTest fixture for SQL tests on real Delta tables — a Database in a fresh
// temporary directory with one connection, query helpers, and the table's snapshot and
// protocol-validator verdict read back from disk.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/testdata.h"
#include "table/protocol_validator.h"

namespace shoal::testing {

class SqlTableTest : public ::testing::Test {
 protected:
  using Lines = std::vector<std::string>;

  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    conn_ = db_->Connect();
  }
  // The result rows of `sql` (Rows form); a failure is a test failure.
  Lines Q(const std::string& sql) {
    auto r = conn_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return {};
    return Rows(*r);
  }
  // The error of `sql`, which must fail.
  Status Err(const std::string& sql) {
    auto r = conn_->Query(sql);
    EXPECT_FALSE(r.ok()) << sql << " should fail";
    return r.ok() ? Status::OK() : r.status();
  }
  // The latest snapshot of table directory `table` (nullptr, with a test failure, on error).
  std::shared_ptr<const delta::Snapshot> Snap(const std::string& table) {
    auto fs = io::LocalFileSystem();
    delta::SnapshotOptions so;
    so.readers = delta::DefaultCheckpointReaders();
    auto snap = delta::Snapshot::Load(fs, dir_.Join(table), so);
    EXPECT_TRUE(snap.ok()) << snap.status().ToString();
    if (!snap.ok()) return nullptr;
    return std::move(*snap);
  }
  int64_t Version(const std::string& table) {
    auto s = Snap(table);
    return s ? s->version() : -1;
  }
  // Every action of the table's log passes the protocol validator.
  void ExpectValidLog(const std::string& table) {
    auto fs = io::LocalFileSystem();
    auto violations = table::ValidateTableLog(*fs, dir_.Join(table));
    ASSERT_TRUE(violations.ok()) << violations.status().ToString();
    EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
};

}  // namespace shoal::testing
