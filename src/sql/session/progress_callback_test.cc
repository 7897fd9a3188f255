// DatabaseOptions::progress: every statement kind that runs a plan (SELECT with scans, joins,
// aggregates and sorts, CTAS, INSERT, COPY, UPDATE, DELETE, MERGE), OPTIMIZE, VACUUM,
// OPTIMIZE ... COMPACT LOG, CHECKPOINT and the statements that only open a table's log report a monotone
// fraction that ends at 1.0; SET enable_progress_bar = false silences it.
#include <gtest/gtest.h>

#include <mutex>

#include "shoal/database.h"
#include "support/testdata.h"

namespace shoal {
namespace {

class ProgressCallbackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    o.batch_size = 1024;
    o.progress = [this](double f, const std::string&) {
      std::lock_guard<std::mutex> lock(mu_);
      calls_.push_back(f);
    };
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
    // Several files, so scans have several units of work.
    Ok("CREATE TABLE t AS SELECT id, id % 7 AS k FROM range(0, 20000) AS r(id)");
    for (int i = 1; i < 4; ++i) {
      Ok("INSERT INTO t SELECT id, id % 7 FROM range(" + std::to_string(i * 20000) + ", " +
         std::to_string((i + 1) * 20000) + ") AS r(id)");
    }
  }
  void Ok(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  // The fractions `sql` reported.
  std::vector<double> Run(const std::string& sql) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      calls_.clear();
    }
    Ok(sql);
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }
  void ExpectMonotoneToOne(const std::string& sql) {
    std::vector<double> f = Run(sql);
    ASSERT_FALSE(f.empty()) << sql;
    for (size_t i = 1; i < f.size(); ++i) EXPECT_GE(f[i], f[i - 1]) << sql << " call " << i;
    for (double x : f) {
      EXPECT_GE(x, 0.0) << sql;
      EXPECT_LE(x, 1.0) << sql;
    }
    EXPECT_DOUBLE_EQ(f.back(), 1.0) << sql;
  }

  testing::TempDir dir_;
  std::mutex mu_;
  std::vector<double> calls_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(ProgressCallbackTest, SelectsReportMonotoneFractionsEndingAtOne) {
  ExpectMonotoneToOne("SELECT count(*) FROM t WHERE k = 3");
  ExpectMonotoneToOne("SELECT k, sum(id) FROM t GROUP BY k");
  ExpectMonotoneToOne("SELECT id FROM t ORDER BY id DESC LIMIT 5");
  ExpectMonotoneToOne("SELECT count(*) FROM t a JOIN t b ON a.id = b.id");
}

TEST_F(ProgressCallbackTest, WritesReportMonotoneFractionsEndingAtOne) {
  ExpectMonotoneToOne("CREATE TABLE u AS SELECT * FROM t WHERE k < 3");
  ExpectMonotoneToOne("INSERT INTO u SELECT * FROM t WHERE k = 5");
  ExpectMonotoneToOne("COPY (SELECT * FROM t) TO '" + dir_.Join("out.parquet") + "' (FORMAT PARQUET)");
  ExpectMonotoneToOne("UPDATE u SET k = k + 10 WHERE id % 2 = 0");
  ExpectMonotoneToOne("DELETE FROM u WHERE id % 3 = 0");
  ExpectMonotoneToOne("MERGE INTO u USING (SELECT * FROM t WHERE id < 100) AS s ON u.id = s.id "
                      "WHEN MATCHED THEN UPDATE SET k = s.k WHEN NOT MATCHED THEN INSERT *");
  ExpectMonotoneToOne("OPTIMIZE t");
}

TEST_F(ProgressCallbackTest, MaintenanceAndLogLoadsReportMonotoneFractionsEndingAtOne) {
  Ok("SET shoal.vacuum.retentionCheck = false");
  ExpectMonotoneToOne("VACUUM t RETAIN 0 HOURS DRY RUN");
  ExpectMonotoneToOne("VACUUM t RETAIN 0 HOURS");
  ExpectMonotoneToOne("OPTIMIZE t COMPACT LOG");
  ExpectMonotoneToOne("CHECKPOINT t");
  ExpectMonotoneToOne("CHECKPOINT t");  // the version has one now: only the log's load
  // Statements whose work is the log's load: the opening phase alone.
  ExpectMonotoneToOne("DESCRIBE HISTORY t");
  for (int i = 0; i < 70; ++i) Ok("INSERT INTO t VALUES (" + std::to_string(i) + ", 1)");
  ExpectMonotoneToOne("SELECT count(*) FROM t");
  ExpectMonotoneToOne("DESCRIBE DETAIL t");
}

TEST_F(ProgressCallbackTest, DisabledBySetting) {
  Ok("SET enable_progress_bar = false");
  EXPECT_TRUE(Run("SELECT k, count(*) FROM t GROUP BY k").empty());
  Ok("SET enable_progress_bar = true");
  EXPECT_FALSE(Run("SELECT k, count(*) FROM t GROUP BY k").empty());
}

}  // namespace
}  // namespace shoal
