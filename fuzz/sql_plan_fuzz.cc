// libFuzzer target for the SQL stages after the parser: every SELECT the input parses to is bound
// against a small warehouse (tables of every column kind, a view), optimized and planned —
// `EXPLAIN <query>` through the public Connection API, so the binder, the optimizer's rewrites,
// join ordering and physical planning all see it. Uncorrelated subqueries run while binding; a
// watchdog interrupts any statement after two seconds and the database's memory limit bounds
// them. A crash, a sanitizer report or an InternalException (shoal's "this is a bug" class) is a
// finding; every other error is a fine answer to a malformed query.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "shoal/database.h"
#include "sql/parser/parser.h"

namespace {

// Interrupts the connection's statement when it runs longer than its allowance.
class Watchdog {
 public:
  explicit Watchdog(shoal::Connection* con) : con_(con), thread_([this] { Run(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void Start() {
    std::lock_guard<std::mutex> lock(mu_);
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    armed_ = true;
    cv_.notify_all();
  }
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = false;
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (!armed_) {
        cv_.wait(lock);
        continue;
      }
      if (cv_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_) {
        con_->Interrupt();
        armed_ = false;
      }
    }
  }

  shoal::Connection* con_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool armed_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;  // last: starts after the fields it reads
};

struct Fixture {
  std::unique_ptr<shoal::Database> db;
  std::unique_ptr<shoal::Connection> con;
  std::unique_ptr<Watchdog> watchdog;
};

void MustRun(shoal::Connection& con, const char* sql) {
  auto r = con.Query(sql);
  if (!r.ok()) {
    std::fprintf(stderr, "sql_plan_fuzz setup failed: %s\n%s\n", r.status().ToString().c_str(), sql);
    std::abort();
  }
}

Fixture* Setup() {
  char dir[] = "/tmp/shoal-sql-plan-fuzz-XXXXXX";
  if (!mkdtemp(dir)) std::abort();
  auto f = new Fixture;
  auto db = shoal::Database::Open(dir);
  if (!db.ok()) std::abort();
  f->db = std::move(*db);
  f->con = f->db->Connect();
  shoal::Connection& con = *f->con;
  MustRun(con, "SET memory_limit = '512MB'");
  MustRun(con, "SET temp_directory = ''");
  MustRun(con,
          "CREATE TABLE t1 (a INT, b STRING, c DOUBLE, d DATE, e DECIMAL(10,2), f ARRAY<INT>, "
          "g STRUCT<x: INT, y: STRING>, h MAP<STRING, INT>, i BOOLEAN, j TIMESTAMP)");
  MustRun(con,
          "INSERT INTO t1 VALUES (1, 'one', 1.5, DATE'2024-01-01', 1.25, array(1, 2), named_struct('x', 1, 'y', 'a'), "
          "map('k', 1), true, TIMESTAMP'2024-01-01 10:00:00'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
          "(NULL, '', CAST('NaN' AS DOUBLE), DATE'1970-01-01', -99999999.99, array(), named_struct('x', NULL, 'y', NULL), map(), false, "
          "TIMESTAMP'1970-01-01 00:00:00')");
  MustRun(con, "CREATE TABLE t2 (a BIGINT, b STRING, k INT) PARTITIONED BY (k)");
  MustRun(con, "INSERT INTO t2 VALUES (1, 'one', 0), (1, 'uno', 1), (3, NULL, 1), (NULL, 'x', NULL)");
  MustRun(con, "CREATE TABLE t3 (a INT NOT NULL, v STRING)");
  MustRun(con, "INSERT INTO t3 SELECT id, CAST(id AS STRING) FROM range(100)");
  MustRun(con, "CREATE VIEW v1 AS SELECT a, count(*) AS n FROM t2 GROUP BY a");
  f->watchdog = std::make_unique<Watchdog>(f->con.get());
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = Setup();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = shoal::sql::ParseStatements(text);
  if (!parsed.ok()) return 0;
  for (const auto& stmt : *parsed) {
    if (stmt->kind != shoal::sql::StatementKind::kSelect) continue;
    std::string sql = "EXPLAIN " + stmt->ToString();
    fixture->watchdog->Start();
    auto r = fixture->con->Query(sql);
    fixture->watchdog->Stop();
    if (!r.ok() && r.status().code() == shoal::StatusCode::kInternal) {
      std::fprintf(stderr, "internal error: %s\n%s\n", r.status().ToString().c_str(), sql.c_str());
      std::abort();
    }
  }
  return 0;
}
