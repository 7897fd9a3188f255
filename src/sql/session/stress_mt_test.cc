// Runs many writer threads in ONE process, each with its own Connection on one Database, against
// one Delta table, and checks the final table against what each thread was told — the in-process
// variant of cli/stress_e2e_test.cc (issue #5's stress acceptance), built as shoal_sql_mt_test so
// `make tsan-test` runs it under ThreadSanitizer:
//  - AppendAndCounter*: 8 threads x 50 blind appends and 4 threads x 50
//    `UPDATE t SET c = c + 1 WHERE id = k`, each retried on conflict until it commits; every
//    acknowledged append is present exactly once, no append reported failed is present, and each
//    counter equals its acknowledged increments. Once per isolation level.
//  - RowLevelDmlWithOptimizeNeverAborts: 4 threads x 100 UPDATE/DELETE/MERGE commits on disjoint
//    random rows of the same 4 files while another thread runs OPTIMIZE in a loop; with row-level
//    concurrency nothing aborts and the final table is exactly the expected one.
//
// Under sanitizers (SHOAL_SANITIZED) the statement counts are scaled by 0.2: TSan makes every
// commit many times slower, and the thread counts (what the races depend on) stay the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "shoal/database.h"
#include "support/stress_row_ops.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

// A statement count of the size, scaled down under sanitizers (see the file comment).
int Scaled(int full) {
#ifdef SHOAL_SANITIZED
  return std::max(1, full / 5);
#else
  return full;
#endif
}

std::unique_ptr<Database> OpenDb(const std::string& dir) {
  DatabaseOptions o;
  o.threads = 2;  // scans use the shared pool: threads of different connections meet there too
  auto db = Database::Open(dir, o);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(*db) : nullptr;
}

// Outcome of one statement run by a worker thread.
enum class Outcome { kCommitted, kConflict, kError };

Outcome RunStatement(Connection& con, const std::string& sql, std::string* error) {
  auto r = con.Query(sql);
  if (r.ok()) return Outcome::kCommitted;
  if (r.status().IsConflict()) return Outcome::kConflict;
  *error = sql + ": " + r.status().ToString();
  return Outcome::kError;
}

class StressMT : public ::testing::Test {
 protected:
  void SetUp() override { db_ = OpenDb(dir_.path()); }

  void Sql(const std::string& sql) {
    auto con = db_->Connect();
    auto r = con->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }

  // `SELECT a, b ... ` with two BIGINT columns, as pairs.
  std::vector<std::pair<int64_t, int64_t>> Pairs(const std::string& sql) {
    auto con = db_->Connect();
    auto r = con->Query(sql);
    std::vector<std::pair<int64_t, int64_t>> rows;
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return rows;
    for (int64_t i = 0; i < r->num_rows(); ++i)
      rows.emplace_back(std::stoll(r->GetText(i, 0)), std::stoll(r->GetText(i, 1)));
    return rows;
  }

  void AppendAndCounter(const std::string& isolation);

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

// ---------------------------------------------------------------------------------------------
// Blind appends and read-modify-write counters.

constexpr int64_t kCounters = 4;

// A unique id per append attempt, so a retried append never collides with its failed attempt.
int64_t AppendId(int worker, int stmt, int attempt) {
  return 1000000 + worker * 100000 + static_cast<int64_t>(stmt) * 100 + attempt;
}

struct AppendWorker {
  std::vector<int64_t> acked;   // ids of acknowledged appends
  std::vector<int64_t> failed;  // ids of appends reported as conflicts
  std::string error;
};

struct CounterWorker {
  std::vector<int64_t> keys;     // the counter each statement increments
  std::vector<bool> acked;
  int conflicts = 0;
  std::string error;
};

void StressMT::AppendAndCounter(const std::string& isolation) {
  ASSERT_TRUE(db_);
  const int appenders = 8, appends = Scaled(50), incrementers = 4, increments = Scaled(50);
  Sql("CREATE TABLE t (id BIGINT, c BIGINT) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
      "'delta.isolationLevel' = '" + isolation + "')");
  Sql("INSERT INTO t VALUES (1, 0), (2, 0), (3, 0), (4, 0)");

  std::vector<AppendWorker> append_workers(appenders);
  std::vector<CounterWorker> counter_workers(incrementers);
  std::vector<std::thread> threads;
  for (int w = 0; w < appenders; ++w) {
    threads.emplace_back([this, w, appends, &append_workers] {
      AppendWorker& me = append_workers[static_cast<size_t>(w)];
      auto con = db_->Connect();
      for (int i = 0; i < appends && me.error.empty(); ++i) {
        for (int attempt = 0; attempt < 100; ++attempt) {
          int64_t id = AppendId(w, i, attempt);
          Outcome o = RunStatement(*con, "INSERT INTO t VALUES (" + std::to_string(id) + ", -1)", &me.error);
          if (o == Outcome::kCommitted) me.acked.push_back(id);
          if (o == Outcome::kConflict) me.failed.push_back(id);
          if (o != Outcome::kConflict) break;
        }
      }
    });
  }
  for (int w = 0; w < incrementers; ++w) {
    CounterWorker& me = counter_workers[static_cast<size_t>(w)];
    std::mt19937_64 rng(1234 + w);
    for (int i = 0; i < increments; ++i) me.keys.push_back(1 + static_cast<int64_t>(rng() % kCounters));
    me.acked.assign(me.keys.size(), false);
    threads.emplace_back([this, &me] {
      auto con = db_->Connect();
      for (size_t i = 0; i < me.keys.size() && me.error.empty(); ++i) {
        std::string sql = "UPDATE t SET c = c + 1 WHERE id = " + std::to_string(me.keys[i]);
        for (int attempt = 0; attempt < 1000; ++attempt) {  // a livelock leaves it unacknowledged
          Outcome o = RunStatement(*con, sql, &me.error);
          if (o == Outcome::kCommitted) me.acked[i] = true;
          if (o != Outcome::kConflict) break;
          ++me.conflicts;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();

  size_t append_conflicts = 0;
  int counter_conflicts = 0;
  std::map<int64_t, int64_t> expected;  // oracle: acknowledged appends once, increments per counter
  for (int64_t k = 1; k <= kCounters; ++k) expected[k] = 0;
  std::set<int64_t> failed_ids;
  for (size_t w = 0; w < append_workers.size(); ++w) {
    const AppendWorker& me = append_workers[w];
    ASSERT_EQ(me.error, "") << "append thread " << w;
    append_conflicts += me.failed.size();
    EXPECT_EQ(me.acked.size(), static_cast<size_t>(appends)) << "append thread " << w << " gave up";
    for (int64_t id : me.acked) EXPECT_TRUE(expected.emplace(id, -1).second) << id;
    failed_ids.insert(me.failed.begin(), me.failed.end());
  }
  for (size_t w = 0; w < counter_workers.size(); ++w) {
    const CounterWorker& me = counter_workers[w];
    ASSERT_EQ(me.error, "") << "counter thread " << w;
    counter_conflicts += me.conflicts;
    for (size_t i = 0; i < me.keys.size(); ++i) {
      EXPECT_TRUE(me.acked[i]) << "counter thread " << w << " gave up statement " << i;
      if (me.acked[i]) ++expected[me.keys[i]];
    }
  }
  std::printf("[ stress   ] in-process %s: %zu append conflicts, %d counter conflicts (retried)\n",
              isolation.c_str(), append_conflicts, counter_conflicts);
  EXPECT_EQ(expected.size(), static_cast<size_t>(kCounters + appenders * appends));

  std::vector<std::pair<int64_t, int64_t>> rows = Pairs("SELECT id, c FROM t ORDER BY id, c");
  for (const auto& [id, c] : rows)
    EXPECT_EQ(failed_ids.count(id), 0u) << "append reported failed is present: " << id;
  std::vector<std::pair<int64_t, int64_t>> want(expected.begin(), expected.end());
  ASSERT_EQ(rows.size(), want.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i], want[i]) << "row " << i;
}

TEST_F(StressMT, AppendAndCounterWriteSerializableLosesNoWrite) { AppendAndCounter("WriteSerializable"); }

TEST_F(StressMT, AppendAndCounterSerializableLosesNoWrite) { AppendAndCounter("Serializable"); }

// ---------------------------------------------------------------------------------------------
// Row-level DML on disjoint rows of the same files, with OPTIMIZE in a loop.

using testing::GenerateOps;
using testing::kDmlWorkers;
using testing::kFiles;
using testing::kRowsPerFile;
using testing::RowOp;

TEST_F(StressMT, RowLevelDmlWithOptimizeNeverAborts) {
  ASSERT_TRUE(db_);
  const int commits = Scaled(100);
  Sql("CREATE TABLE t (id BIGINT, v BIGINT) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
  std::map<int64_t, int64_t> expected;
  for (int64_t f = 0; f < kFiles; ++f) {  // one INSERT per file
    std::string values;
    for (int64_t id = f * kRowsPerFile; id < (f + 1) * kRowsPerFile; ++id) {
      values += (values.empty() ? "(" : ", (") + std::to_string(id) + ", " + std::to_string(id) + ")";
      expected[id] = id;
    }
    Sql("INSERT INTO t VALUES " + values);
  }

  struct DmlWorker {
    std::vector<RowOp> ops;
    std::vector<bool> acked;
    std::vector<std::string> conflicts;
    std::string error;
  };
  std::vector<DmlWorker> workers(kDmlWorkers);
  std::atomic<int> running{kDmlWorkers};
  std::vector<std::thread> threads;
  for (int w = 0; w < kDmlWorkers; ++w) {
    DmlWorker& me = workers[static_cast<size_t>(w)];
    me.ops = GenerateOps(w, commits);
    me.acked.assign(me.ops.size(), false);
    threads.emplace_back([this, &me, &running] {
      auto con = db_->Connect();
      for (size_t i = 0; i < me.ops.size() && me.error.empty(); ++i) {
        std::string sql = me.ops[i].Sql();
        auto r = con->Query(sql);
        if (r.ok()) {
          me.acked[i] = true;
        } else if (r.status().IsConflict()) {
          me.conflicts.push_back(sql + " -> " + r.status().ToString());  // final: not retried
        } else {
          me.error = sql + ": " + r.status().ToString();
        }
      }
      --running;
    });
  }
  int optimizes = 0;
  std::vector<std::string> optimize_conflicts;
  std::string optimize_error;
  std::thread optimizer([&] {
    auto con = db_->Connect();
    while (running.load() > 0 && optimize_error.empty()) {
      Outcome o = RunStatement(*con, "OPTIMIZE t", &optimize_error);
      ++optimizes;
      if (o == Outcome::kConflict) optimize_conflicts.push_back("OPTIMIZE t");
    }
  });
  for (std::thread& t : threads) t.join();
  optimizer.join();

  ASSERT_EQ(optimize_error, "");
  int acked = 0;
  for (size_t w = 0; w < workers.size(); ++w) {
    const DmlWorker& me = workers[w];
    ASSERT_EQ(me.error, "") << "DML thread " << w;
    EXPECT_TRUE(me.conflicts.empty()) << "row-level concurrency: disjoint rows must not conflict; first: "
                                      << (me.conflicts.empty() ? "" : me.conflicts.front());
    for (size_t i = 0; i < me.ops.size(); ++i) {
      if (!me.acked[i]) continue;
      ++acked;
      me.ops[i].Apply(&expected);
    }
  }
  EXPECT_TRUE(optimize_conflicts.empty()) << "OPTIMIZE must not abort against row-level DML";
  EXPECT_GT(optimizes, 0);
  std::printf("[ stress   ] in-process row level: %d DML commits, %d OPTIMIZE runs\n", acked, optimizes);

  std::vector<std::pair<int64_t, int64_t>> rows = Pairs("SELECT id, v FROM t ORDER BY id, v");
  std::vector<std::pair<int64_t, int64_t>> want(expected.begin(), expected.end());
  ASSERT_EQ(rows.size(), want.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < rows.size() && mismatches < 20; ++i) {
    if (rows[i] != want[i]) {
      ++mismatches;
      ADD_FAILURE() << "row " << i << ": got (" << rows[i].first << ", " << rows[i].second << "), want ("
                    << want[i].first << ", " << want[i].second << ")";
    }
  }
}

}  // namespace
}  // namespace shoal::sql
