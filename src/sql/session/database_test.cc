// End-to-end tests of Database / Connection: statements, results, settings, errors and
// parallel execution.
#include "shoal/database.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

std::unique_ptr<Database> OpenDb(const std::string& dir, int threads = 2, int batch = 2048) {
  DatabaseOptions o;
  o.threads = threads;
  o.batch_size = batch;
  auto db = Database::Open(dir, o);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return std::move(db).value();
}

// All rows as "a|b|c" lines.
using testing::Rows;

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenDb(dir_.path());
    con_ = db_->Connect();
  }
  std::vector<std::string> Q(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return {};
    return Rows(*r);
  }
  Status Err(const std::string& sql) {
    auto r = con_->Query(sql);
    return r.ok() ? Status::OK() : r.status();
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(DatabaseTest, SelectsAnExpression) {
  auto r = con_->Query("SELECT 1 + 1 AS two");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_columns(), 1);
  EXPECT_EQ(r->column_name(0), "two");
  EXPECT_EQ(r->column_type(0), "INT");
  EXPECT_EQ(Rows(*r), std::vector<std::string>{"2"});
  EXPECT_EQ(r->statement_type(), "SELECT");
  EXPECT_EQ(r->metrics().rows_returned, 1);
}

TEST_F(DatabaseTest, OpenCreatesTheWarehouseDirectory) {
  std::string sub = dir_.Join("a/b");
  auto db = Database::Open(sub);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ((*db)->warehouse_dir(), sub);
}

TEST_F(DatabaseTest, QueryReturnsTheLastStatementsResult) {
  EXPECT_EQ(Q("SELECT 1; SELECT 2"), std::vector<std::string>{"2"});
}

TEST_F(DatabaseTest, ExecuteStopsAtTheFirstError) {
  int seen = 0;
  Status st = con_->Execute("SELECT 1; SELECT nope; SELECT 3", [&](const std::string&, QueryResult&) {
    ++seen;
    return Status::OK();
  });
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(st.code(), StatusCode::kBinder);
}

TEST_F(DatabaseTest, SetAndResetReturnEmptyResults) {
  auto r = con_->Query("SET shoal.prewhere = 'off'");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_columns(), 0);
  EXPECT_EQ(r->statement_type(), "SET");
  auto r2 = con_->Query("RESET shoal.prewhere");
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(r2->statement_type(), "RESET");
}

TEST_F(DatabaseTest, DescribeLayoutOfAMissingTableNamesIt) {
  Status st = Err("DESCRIBE LAYOUT no_such_table");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("no_such_table"), std::string::npos) << st.ToString();
}

TEST_F(DatabaseTest, ErrorsNameTheProblem) {
  Status st = Err("SELECT nope FROM range(3) AS r(i)");
  EXPECT_EQ(st.code(), StatusCode::kBinder);
  EXPECT_EQ(st.message(), "Referenced column \"nope\" not found. Candidates: i");
  st = Err("SELECT * FROM no_such_table");
  EXPECT_NE(st.message().find("Table with name no_such_table does not exist"), std::string::npos) << st.ToString();
  st = Err("SELECT sum(i), i FROM range(3) AS r(i)");
  EXPECT_EQ(st.code(), StatusCode::kBinder) << st.ToString();
  st = Err("SELECT * FROM range(1, 10, 0)");
  EXPECT_FALSE(st.ok());
}

TEST_F(DatabaseTest, ShowTablesListsDeltaTables) {
  std::filesystem::create_directories(dir_.Join("t1/_delta_log"));
  std::filesystem::create_directories(dir_.Join("not_a_table"));
  EXPECT_EQ(Q("SHOW TABLES"), std::vector<std::string>{"t1"});
}

TEST_F(DatabaseTest, RangeAndGenerateSeries) {
  EXPECT_EQ(Q("SELECT * FROM range(3)"), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(Q("SELECT * FROM generate_series(1, 3)"), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(Q("SELECT * FROM range(5, 0, -2)"), (std::vector<std::string>{"5", "3", "1"}));
  EXPECT_EQ(Q("SELECT * FROM generate_series(5, 1, -2)"), (std::vector<std::string>{"5", "3", "1"}));
  EXPECT_EQ(Q("SELECT count(*) FROM range(0)"), std::vector<std::string>{"0"});
}

TEST_F(DatabaseTest, ExplainShowsOperatorsAndAnalyzeCountsRows) {
  auto plan = Q("EXPLAIN SELECT i FROM range(10) AS r(i) WHERE i > 5");
  std::string all;
  for (const auto& l : plan) all += l + "\n";
  EXPECT_NE(all.find("Filter"), std::string::npos) << all;
  EXPECT_NE(all.find("TableScan"), std::string::npos) << all;
  auto analyzed = Q("EXPLAIN ANALYZE SELECT count(*) FROM range(1000) AS r(i) WHERE i % 2 = 0");
  all.clear();
  for (const auto& l : analyzed) all += l + "\n";
  EXPECT_NE(all.find("rows=500"), std::string::npos) << all;
  EXPECT_NE(all.find("ScanMetrics"), std::string::npos) << all;
}

TEST_F(DatabaseTest, LimitWithoutOrderStopsEarlyAndKeepsSourceOrder) {
  EXPECT_EQ(Q("SELECT * FROM range(1000000000000) LIMIT 3"), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(Q("SELECT * FROM range(100) WHERE id % 7 = 3 LIMIT 2 OFFSET 1"),
            (std::vector<std::string>{"10", "17"}));
}

TEST_F(DatabaseTest, InterruptBeforeRunStopsNothing) {
  con_->Interrupt();  // cleared when the next statement starts
  EXPECT_EQ(Q("SELECT 1"), std::vector<std::string>{"1"});
}

TEST_F(DatabaseTest, InterruptCancelsALongQuery) {
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    con_->Interrupt();
  });
  auto r = con_->Query("SELECT count(*) FROM range(1000000) AS a(i), range(1000000) AS b(j) WHERE i + j = -1");
  t.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInterrupted);
}

// Same results with 1 and 4 threads (and small batches) over 1M rows.
TEST(ParallelExecution, SameResultsWithOneAndFourThreads) {
  testing::TempDir dir;
  const char* queries[] = {
      "SELECT sum(i), count(*), min(i), max(i) FROM range(1000000) AS r(i) WHERE i % 3 = 0",
      "SELECT i % 7 AS k, count(*), sum(i) FROM range(1000000) AS r(i) GROUP BY k ORDER BY k",
      "SELECT i FROM range(1000000) AS r(i) ORDER BY i % 1000 DESC, i LIMIT 5",
      "SELECT i FROM range(1000000) AS r(i) WHERE i % 99991 = 5",
      "SELECT count(*) FROM range(1000000) AS a(i) JOIN range(500000) AS b(j) ON i = j * 2",
      "SELECT count(DISTINCT i % 1000) FROM range(1000000) AS r(i)",
  };
  auto one = OpenDb(dir.path(), 1);
  auto four = OpenDb(dir.path(), 4, 1000);
  auto c1 = one->Connect();
  auto c4 = four->Connect();
  for (const char* q : queries) {
    auto a = c1->Query(q);
    auto b = c4->Query(q);
    ASSERT_TRUE(a.ok()) << q << ": " << a.status().ToString();
    ASSERT_TRUE(b.ok()) << q << ": " << b.status().ToString();
    EXPECT_EQ(Rows(*a), Rows(*b)) << q;
    EXPECT_GT(a->num_rows(), 0) << q;
  }
}

}  // namespace
}  // namespace shoal
