// Elle-style history test (issue #9): several `shoal` processes run random read-modify-write
// transactions on a list-append table `t (k INT, v STRING)` — each key's v is a list of unique
// elements ",e1,e2,..." — mixing SELECT, UPDATE v = v || ..., MERGE, DELETE+INSERT moves,
// blind INSERTs of new keys and OPTIMIZE, and log what each transaction read, appended and how
// its COMMIT ended. The history checker (test/support/history_checker.h) then verifies the
// history against the table's isolation level. doc/reliability.md ("History checker").
//
// Size: SHOAL_HISTORY_TXNS transactions per process (default 30; 10 under sanitizers),
// SHOAL_HISTORY_PROCS processes (default 4), SHOAL_HISTORY_KEYS keys (default 8),
// SHOAL_HISTORY_KILL_PERCENT: the chance that a COMMIT's process is killed right after sending it
// (outcome unknown; default 3). A failing run writes its history to $SHOAL_HISTORY_DIR (default:
// the build dir)/history-<level>.txt.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "io/file_system.h"
#include "io/s3_file_system.h"
#include "support/history_checker.h"
#include "support/history_worker.h"
#include "support/s3_test_server.h"
#include "support/shell_session.h"
#include "support/shell_warehouse_fixture.h"
#include "support/testdata.h"
#include "table/protocol_validator.h"

namespace shoal::cli {
namespace {

using testing::History;
using testing::HistoryOp;
using testing::HistoryKnobs;
using testing::HistoryTxn;
using testing::HistoryWorker;
using testing::ShellSession;
using testing::StatementResult;

class HistoryE2E : public testing::ShellWarehouseTest {
 protected:
  const std::string& Warehouse() const { return warehouse_; }

  // Runs `sql` in a fresh shell; returns its JSON rows (failing the test on an error).
  std::vector<nlohmann::json> Sql(const std::string& sql) {
    ShellSession s(binary_, Warehouse(), dir_.Join("sql.err"));
    StatementResult r = s.Exec(sql, 120000);
    EXPECT_EQ(r.status, StatementResult::Status::kOk) << sql << ": " << r.error;
    return r.rows;
  }

  void RunHistory(const std::string& isolation);
};

void HistoryE2E::RunHistory(const std::string& isolation) {
  HistoryKnobs knobs;
  Sql("CREATE TABLE t (k INT, v STRING) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
      "'delta.isolationLevel' = '" +
      isolation + "')");
  History history;
  std::string values;
  for (int64_t k = 1; k <= knobs.keys; ++k) {
    values += (values.empty() ? "(" : ", (") + std::to_string(k) + ", '')";
    history.initial_keys.insert(k);
  }
  Sql("INSERT INTO t VALUES " + values);  // one file: row-level concurrency decides conflicts

  auto start = std::chrono::steady_clock::now();
  std::atomic<int64_t> next_element{1}, next_txn{1};
  std::vector<std::unique_ptr<HistoryWorker>> workers;
  for (int p = 0; p < knobs.procs; ++p) {
    workers.push_back(std::make_unique<HistoryWorker>(p, knobs, binary_, Warehouse(),
                                                      dir_.Join("p" + std::to_string(p)),
                                                      &next_element, &next_txn));
  }
  std::vector<std::thread> threads;
  for (auto& w : workers) threads.emplace_back([&w] { w->Run(); });
  for (std::thread& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  int optimize_ok = 0, optimize_conflicts = 0, statements = 0;
  std::string optimize_conflict;
  for (auto& w : workers) {
    if (optimize_conflict.empty()) optimize_conflict = w->optimize_conflict();
    for (const std::string& e : w->errors()) ADD_FAILURE() << e;
    for (HistoryTxn& t : w->txns()) history.txns.push_back(std::move(t));
    optimize_ok += w->optimize_ok();
    optimize_conflicts += w->optimize_conflicts();
    statements += w->statements();
  }

  for (const nlohmann::json& row : Sql("SELECT k, v FROM t ORDER BY k")) {
    std::vector<int64_t> list;
    ASSERT_TRUE(testing::ParseList(row["v"].get<std::string>(), &list)) << row.dump();
    history.final_rows[row["k"].get<int64_t>()].push_back(std::move(list));
  }

  testing::CheckedIsolation level = isolation == "Serializable"
                                        ? testing::CheckedIsolation::kSerializable
                                        : testing::CheckedIsolation::kWriteSerializable;
  testing::CheckReport report = testing::CheckHistory(history, level);
  std::printf(
      "[ history  ] %s: %d processes, %zu transactions, %d statements, OPTIMIZE ok=%d "
      "conflicts=%d, %.1f s\n"
      "[ history  ] %s\n",
      isolation.c_str(), knobs.procs, history.txns.size(), statements, optimize_ok,
      optimize_conflicts, seconds, report.Summary().c_str());
  // OPTIMIZE is not part of the history: its conflicts are allowed, but shown.
  if (!optimize_conflict.empty())
    std::printf("[ history  ] first OPTIMIZE conflict: %s\n", optimize_conflict.c_str());
  if (!report.valid()) {
    // Keep the history for minimizing: one transaction per line.
    const char* dir = std::getenv("SHOAL_HISTORY_DIR");
    std::string path = std::string(dir && *dir ? dir : testing::BinaryDir().c_str()) + "/history-" +
                       isolation + ".txt";
    std::ofstream out(path);
    for (const HistoryTxn& t : history.txns) {
      out << "T" << t.id << " p" << t.process << " "
          << (t.outcome == HistoryTxn::Outcome::kOk        ? "ok"
              : t.outcome == HistoryTxn::Outcome::kAborted ? "aborted"
                                                           : "unknown")
          << (t.blind_append ? " blind" : "") << ": " << t.label << "\n";
    }
    for (const auto& [k, rows] : history.final_rows) {
      for (const auto& list : rows)
        out << "final " << k << " = " << testing::FormatList(list) << "\n";
    }
    ADD_FAILURE() << report.Describe(30) << "\nhistory written to " << path;
  }
  EXPECT_GT(report.ok, 0);

  // The checker is not blind on this history: dropping an acknowledged transaction's element
  // from the final table is reported as a lost update.
  History broken = history;
  bool dropped = false;
  for (auto& [k, rows] : broken.final_rows) {
    if (dropped || rows.size() != 1 || rows[0].empty()) continue;
    int64_t last = rows[0].back();
    for (const HistoryTxn& t : broken.txns) {
      for (const HistoryOp& op : t.ops) {
        if (!dropped && op.kind == HistoryOp::Kind::kAppend && op.element == last &&
            t.outcome == HistoryTxn::Outcome::kOk) {
          rows[0].pop_back();
          dropped = true;
        }
      }
    }
  }
  if (dropped) {
    testing::CheckReport bad = testing::CheckHistory(broken, level);
    EXPECT_FALSE(bad.valid()) << "a dropped acknowledged element went unnoticed";
  }

  auto violations = table::ValidateTableLog(*fs_, Warehouse() + "/t");
  ASSERT_TRUE(violations.ok()) << violations.status().ToString();
  EXPECT_TRUE(violations->empty()) << table::FormatViolations(*violations);
}

TEST_F(HistoryE2E, WriteSerializableHistoryHasNoAnomaly) { RunHistory("WriteSerializable"); }

TEST_F(HistoryE2E, SerializableHistoryHasNoAnomaly) { RunHistory("Serializable"); }

// The same histories with the warehouse on S3: commits are conditional PUTs, and a shell killed
// mid-transaction leaves no torn log entry and loses no acknowledged commit there either.
TEST_F(HistoryE2E, WriteSerializableHistoryOnS3HasNoAnomaly) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server, "history");
  RunHistory("WriteSerializable");
}

TEST_F(HistoryE2E, SerializableHistoryOnS3HasNoAnomaly) {
  SHOAL_REQUIRE_S3(server);
  UseS3(server, "history");
  RunHistory("Serializable");
}

}  // namespace
}  // namespace shoal::cli
