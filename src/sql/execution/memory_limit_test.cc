// memory_limit through SQL (doc/memory.md), one thread: each operator that holds its whole
// input fails with OutOfMemoryException naming it under a tiny limit, the database stays usable,
// nothing stays reserved after a failed or a finished statement, and under a sufficient limit
// the same query gives the right answer. Threads and several connections: memory_limit_mt_test.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "shoal/database.h"
#include "shoal/result.h"
#include "sql/session/database_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

class MemoryLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 1;
    o.batch_size = 1000;
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    con_ = db_->Connect();
    // Spilling disabled: operators that reach the limit fail (spill_test.cc spills).
    auto r = con_->Query("SET temp_directory = ''");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
  }
  int64_t Reserved() const { return db_->impl().memory->reserved(); }
  void SetLimit(const std::string& size) {
    auto r = con_->Query("SET memory_limit = '" + size + "'");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  // Runs `sql` under a 1 MiB limit: it must fail with OutOfMemoryException naming `op`, leave
  // nothing reserved and the database usable; then under 256 MiB it must give `expected`.
  void ExpectFailsThenSucceeds(const std::string& sql, const std::string& op,
                               const std::vector<std::string>& expected) {
    ExpectFailsThenSucceeds(sql, op, [&](const QueryResult& r) { EXPECT_EQ(Rows(r), expected); });
  }
  void ExpectFailsThenSucceeds(const std::string& sql, const std::string& op,
                               const std::function<void(const QueryResult&)>& check) {
    SetLimit("1MB");
    auto failed = con_->Query(sql);
    ASSERT_FALSE(failed.ok()) << sql;
    const Status& st = failed.status();
    EXPECT_EQ(st.code(), StatusCode::kOutOfMemory) << st.ToString();
    EXPECT_EQ(st.ToString().rfind("OutOfMemoryException: " + op + " needs ", 0), 0u)
        << st.ToString();
    EXPECT_NE(st.message().find("of memory_limit 1.0 MiB in use (SET memory_limit to raise it)"),
              std::string::npos)
        << st.ToString();
    EXPECT_EQ(Reserved(), 0) << "a failed statement left memory reserved";
    {
      auto small = con_->Query("SELECT 42");
      ASSERT_TRUE(small.ok()) << small.status().ToString();
      EXPECT_EQ(Rows(*small), std::vector<std::string>{"42"});
      EXPECT_GT(Reserved(), 0) << "a result holds its rows' bytes";
    }

    SetLimit("256MB");
    {
      auto ok = con_->Query(sql);
      ASSERT_TRUE(ok.ok()) << ok.status().ToString();
      check(*ok);
    }
    EXPECT_EQ(Reserved(), 0) << "a finished statement left memory reserved";
    EXPECT_GT(db_->impl().memory->peak(), int64_t{1} << 20);
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(MemoryLimitTest, HashAggregateWithManyGroups) {
  ExpectFailsThenSucceeds(
      "SELECT count(*), sum(c) FROM (SELECT i % 200000 AS g, count(*) AS c FROM range(400000) r(i) "
      "GROUP BY g) t",
      "HashAggregate", {"200000|400000"});
}

TEST_F(MemoryLimitTest, HashAggregateWithStringKeysAndStates) {
  ExpectFailsThenSucceeds(
      "SELECT count(*), max(m) FROM (SELECT CAST(i % 50000 AS VARCHAR) AS g, min(CAST(i AS "
      "VARCHAR) || "
      "'-padding-padding') AS m FROM range(100000) r(i) GROUP BY g) t",
      "HashAggregate", {"50000|59999-padding-padding"});
}

TEST_F(MemoryLimitTest, HashJoinBuildSide) {
  ExpectFailsThenSucceeds(
      "SELECT count(*), sum(b.j) FROM range(300000) a(i) JOIN range(300000) b(j) ON a.i = b.j",
      "HashJoin build side", {"300000|44999850000"});
}

TEST_F(MemoryLimitTest, OrderBy) {
  ExpectFailsThenSucceeds("SELECT i FROM range(300000) r(i) ORDER BY i % 1000 DESC, i", "Sort",
                          [](const QueryResult& r) {
                            ASSERT_EQ(r.num_rows(), 300000);
                            EXPECT_EQ(r.GetText(0, 0), "999");
                            EXPECT_EQ(r.GetText(1, 0), "1999");
                            EXPECT_EQ(r.GetText(299999, 0), "299000");
                          });
}

TEST_F(MemoryLimitTest, WindowPartitions) {
  ExpectFailsThenSucceeds(
      "SELECT max(w), count(*) FROM (SELECT sum(i) OVER (PARTITION BY i % 10 ORDER BY i) AS w FROM "
      "range(300000) r(i)) t",
      "Window", {"4500120000|300000"});
}

TEST_F(MemoryLimitTest, ExceptBuffersBothInputs) {
  ExpectFailsThenSucceeds(
      "SELECT count(*) FROM (SELECT i FROM range(300000) r(i) EXCEPT SELECT i FROM range(1000) "
      "r(i)) t",
      "Except", {"299000"});
}

TEST_F(MemoryLimitTest, ResultCollection) {
  SetLimit("1MB");
  auto failed = con_->Query("SELECT i, i * 2 AS j FROM range(300000) r(i)");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().ToString().rfind("OutOfMemoryException: QueryResult needs ", 0), 0u)
      << failed.status().ToString();
  EXPECT_EQ(Reserved(), 0);
  SetLimit("256MB");
  {
    auto r = con_->Query("SELECT i, i * 2 AS j FROM range(300000) r(i)");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->num_rows(), 300000);
    EXPECT_EQ(r->GetText(299999, 1), "599998");
    // The result's rows stay reserved while the result lives: two BIGINT columns.
    EXPECT_GE(Reserved(), 300000 * 16);
  }
  EXPECT_EQ(Reserved(), 0);
}

TEST_F(MemoryLimitTest, AStreamedResultHoldsOnlyItsSinksAndReleasesThem) {
  SetLimit("1MB");
  auto failed = con_->Stream("SELECT i FROM range(300000) r(i) ORDER BY -i");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(Reserved(), 0);
  SetLimit("256MB");
  {
    auto s = con_->Stream("SELECT i FROM range(300000) r(i) ORDER BY -i");
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_GT(Reserved(), 0);  // the sorted rows, until they are handed out
    int64_t rows = 0;
    ResultBatch b;
    for (;;) {
      auto more = (*s)->Next(&b);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      rows += b.num_rows();
    }
    EXPECT_EQ(rows, 300000);
  }
  EXPECT_EQ(Reserved(), 0);
}

TEST_F(MemoryLimitTest, SmallQueriesRunUnderATinyLimit) {
  SetLimit("1MB");
  auto r = con_->Query(
      "SELECT g, count(*) FROM (SELECT i % 3 AS g FROM range(100000) r(i)) t GROUP BY g ORDER BY "
      "g");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Rows(*r), (std::vector<std::string>{"0|33334", "1|33333", "2|33333"}));
}

TEST_F(MemoryLimitTest, DatabaseOptionSetsTheLimitAndResetReturnsToIt) {
  DatabaseOptions o;
  o.threads = 1;
  o.memory_limit = int64_t{3} << 20;
  testing::TempDir dir;
  auto db = Database::Open(dir.path(), o).ValueOrDie();
  auto con = db->Connect();
  auto show = [&] {
    auto r = con->Query("SHOW memory_limit");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  };
  EXPECT_EQ(show(), std::vector<std::string>{"3.0 MiB"});
  ASSERT_TRUE(con->Query("SET temp_directory = ''").ok());
  auto failed = con->Query(
      "SELECT count(*) FROM (SELECT i % 200000 AS g FROM range(400000) r(i) GROUP BY g) t");
  EXPECT_EQ(failed.status().code(), StatusCode::kOutOfMemory);
  ASSERT_TRUE(con->Query("SET memory_limit = '1.5GB'").ok());
  EXPECT_EQ(show(), std::vector<std::string>{"1.5 GiB"});
  ASSERT_TRUE(con->Query("RESET memory_limit").ok());
  EXPECT_EQ(show(), std::vector<std::string>{"3.0 MiB"});

  o.memory_limit = -1;
  EXPECT_EQ(Database::Open(dir.path(), o).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal
