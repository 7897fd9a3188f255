// memory_limit with several threads and connections (doc/memory.md): the parallel join build,
// partitioned aggregation, parallel sort and window fail with OutOfMemoryException naming
// themselves under a tiny limit and give the right answer under a sufficient one; connections
// share one limit; statements running at once on two connections release everything; hash
// joins and windows that spill give the unspilled answer.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "shoal/database.h"
#include "sql/session/database_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

struct Case {
  const char* sql;
  const char* op;
  std::vector<std::string> expected;
};

// Large enough for the parallel paths: the partitioned merge (over 32Ki groups in several
// local tables), the parallel sort (over 128Ki rows), a partitioned join table.
const Case kCases[] = {
    {"SELECT count(*), sum(c) FROM (SELECT i % 200000 AS g, count(*) AS c FROM range(400000) r(i) "
     "GROUP BY g) t",
     "HashAggregate",
     {"200000|400000"}},
    {"SELECT count(*), sum(b.j) FROM range(300000) a(i) JOIN range(300000) b(j) ON a.i = b.j",
     "HashJoin build side",
     {"300000|44999850000"}},
    {"SELECT max(x), count(*) FROM (SELECT i + 0 * k AS x FROM (SELECT i, i % 1000 AS k FROM "
     "range(300000) r(i) ORDER "
     "BY k DESC, i) s) t",
     "Sort",
     {"299999|300000"}},
    {"SELECT max(w), count(*) FROM (SELECT sum(i) OVER (PARTITION BY i % 10 ORDER BY i) AS w FROM "
     "range(300000) r(i)) t",
     "Window",
     {"4500120000|300000"}},
};

class MemoryLimitMt : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = GetParam();
    o.batch_size = 1000;
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    // Spilling disabled: operators that reach the limit fail (spill_test.cc spills).
    EXPECT_TRUE(db_->impl().spill->SetDirectory("").ok());
  }
  int64_t Reserved() const { return db_->impl().memory->reserved(); }
  // `sql` spills under `small` and gives the rows it gives under 256 MB, leaving no file open and
  // nothing reserved.
  void ExpectSpillsWithSameAnswer(Connection* con, const std::string& sql, const std::string& small) {
    SCOPED_TRACE(sql);
    ASSERT_TRUE(con->Query("SET memory_limit = '256MB'").ok());
    std::vector<std::string> expected;
    {
      auto r = con->Query(sql);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      expected = Rows(*r);
    }
    const int64_t spilled = db_->impl().spill->bytes_written();
    ASSERT_TRUE(con->Query("SET memory_limit = '" + small + "'").ok());
    {
      auto r = con->Query(sql);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(Rows(*r), expected);
    }
    EXPECT_GT(db_->impl().spill->bytes_written(), spilled);
    EXPECT_EQ(db_->impl().spill->files_open(), 0);
    EXPECT_EQ(Reserved(), 0);
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_P(MemoryLimitMt, EachOperatorFailsNamedThenSucceeds) {
  auto con = db_->Connect();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.sql);
    ASSERT_TRUE(con->Query("SET memory_limit = '1MB'").ok());
    auto failed = con->Query(c.sql);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.status().code(), StatusCode::kOutOfMemory) << failed.status().ToString();
    EXPECT_EQ(failed.status().message().rfind(std::string(c.op) + " needs ", 0), 0u)
        << failed.status().ToString();
    EXPECT_EQ(Reserved(), 0);
    ASSERT_TRUE(con->Query("SET memory_limit = '256MB'").ok());
    {
      auto r = con->Query(c.sql);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(Rows(*r), c.expected);
    }
    EXPECT_EQ(Reserved(), 0);
  }
}

TEST_P(MemoryLimitMt, ConnectionsShareOneLimit) {
  auto a = db_->Connect();
  auto b = db_->Connect();
  const std::string sql = "SELECT i, i * 2 AS j FROM range(300000) r(i)";
  ASSERT_TRUE(a->Query("SET memory_limit = '256MB'").ok());
  auto held = a->Query(sql);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  const int64_t one = Reserved();
  ASSERT_GT(one, 300000 * 16);
  // Room for one such result but not two: b's statement fails while a's result is held.
  ASSERT_TRUE(b->Query("SET memory_limit = " + std::to_string(one + (int64_t{1} << 19))).ok());
  auto shown = a->Query("SHOW memory_limit");
  ASSERT_TRUE(shown.ok());
  EXPECT_NE(Rows(*shown)[0], "256.0 MiB") << "SET on one connection sets the database's limit";
  auto second = b->Query(sql);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kOutOfMemory) << second.status().ToString();
  held = QueryResult();
  EXPECT_EQ(Reserved(), 0);
  auto third = b->Query(sql);
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(third->num_rows(), 300000);
}

TEST_P(MemoryLimitMt, StatementsOnTwoConnectionsAtOnceReleaseEverything) {
  for (const char* limit : {"'256MB'", "'6MB'"}) {
    {
      auto con = db_->Connect();
      ASSERT_TRUE(con->Query(std::string("SET memory_limit = ") + limit).ok());
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        auto con = db_->Connect();
        for (int round = 0; round < 3; ++round) {
          const Case& c = kCases[(t + round) % 4];
          auto r = con->Query(c.sql);
          // Under the small limit a statement may fail, but only with the named error.
          if (r.ok()) {
            EXPECT_EQ(Rows(*r), c.expected) << c.sql;
          } else {
            EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(Reserved(), 0) << limit;
    EXPECT_LE(db_->impl().memory->peak(), int64_t{256} << 20);
  }
}

TEST_P(MemoryLimitMt, SpillingJoinsGiveTheUnspilledAnswer) {
  // Workers partition the build side, write spilled partitions and defer probe rows at once
  // (join_spill_test.cc checks each kind with 1 and 2 threads; this one runs under TSan).
  db_->impl().spill->ResetDirectory();
  auto con = db_->Connect();
  const std::string with =
      "WITH a AS (SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 104729) % 60000 END AS k, i AS w "
      "FROM range(100000) r(i)), b AS (SELECT CASE WHEN j % 17 = 0 THEN NULL ELSE (j * 7919) % 40000 END AS k, "
      "j AS v, 'b' || CAST(j AS VARCHAR) AS s FROM range(120000) r(j)) ";
  for (const char* q : {"SELECT count(*), sum(a.w), sum(b.v), max(b.s) FROM a JOIN b ON a.k = b.k",
                        "SELECT count(*), sum(a.w), sum(b.v), count(b.s) FROM a FULL JOIN b ON a.k = b.k",
                        "SELECT count(*), sum(w) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k "
                        "AND b.v % 3 = 0)"}) {
    ExpectSpillsWithSameAnswer(con.get(), with + q, "6MB");
  }
}

TEST_P(MemoryLimitMt, SpillingWindowsGiveTheUnspilledAnswer) {
  // Workers route their rows to partition files at once, the first to spill making the others
  // follow (window_spill_test.cc checks each function with 1 and 2 threads; this one runs under
  // TSan).
  db_->impl().spill->ResetDirectory();
  auto con = db_->Connect();
  const std::string with =
      "WITH t AS (SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 104729) % 401 END AS g, (i * 7919) % 41000 "
      "AS x, 's' || CAST(i % 977 AS VARCHAR) AS s FROM range(120000) r(i)) ";
  for (const char* q : {"SELECT i, row_number() OVER (PARTITION BY g ORDER BY x, i), sum(x) OVER (PARTITION BY g "
                        "ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), lag(s) OVER (PARTITION BY g ORDER BY "
                        "x, i) FROM t ORDER BY i",
                        "SELECT g, count(*), sum(r) FROM (SELECT g, rank() OVER (PARTITION BY g, s ORDER BY x) AS r "
                        "FROM t) q GROUP BY g ORDER BY g"}) {
    ExpectSpillsWithSameAnswer(con.get(), with + q, "10MB");
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, MemoryLimitMt, ::testing::Values(2, 4));

}  // namespace
}  // namespace shoal
