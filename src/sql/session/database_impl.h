// The data behind shoal::Database and shoal::Connection: the warehouse, options and worker
// pool shared by all connections, and each connection's session.
//
// Both are shared (shared_ptr) with the streams and prepared statements made from them, so
// those stay valid after the Database or Connection object is gone.
//
// Thread-safety: Database::Impl is immutable after Open except for the thread-safe pool and
// memory tracker; Connection::Impl is used by one thread at a time, except `interrupted` and
// `generation`.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "base/memory_tracker.h"
#include "io/file_system.h"
#include "shoal/database.h"
#include "sql/session/session.h"
#include "columnar/time_zone.h"
#include "sql/execution/spill_file.h"
#include "sql/execution/thread_pool.h"

namespace shoal {

struct Database::Impl {
  std::string dir;
  DatabaseOptions options;
  int threads = 1;  // resolved options.threads
  std::shared_ptr<io::FileSystem> fs;
  std::unique_ptr<sql::ThreadPool> pool;  // threads - 1 workers: the caller is the other one
  // memory_limit and the bytes reserved under it, by every connection (SET memory_limit);
  // shared with open results, which hold their rows' reservation.
  std::shared_ptr<MemoryTracker> memory;
  int64_t default_memory_limit = 0;  // resolved options.memory_limit (RESET memory_limit)
  // temp_directory and the spill files in it (SET temp_directory; doc/memory.md, "Spilling").
  std::shared_ptr<sql::SpillManager> spill;
  // resolved options.time_zone: the session zone until SET TIME ZONE (and after LOCAL / RESET)
  const columnar::TimeZone* default_time_zone = nullptr;
};

struct Connection::Impl {
  explicit Impl(std::shared_ptr<Database::Impl> database)
      : db(std::move(database)), session(db.get(), &interrupted) {}
  // Called before each statement: clears an earlier Interrupt() and closes the streams opened
  // inside an explicit transaction (they compare `generation`).
  void StartStatement() {
    interrupted.store(false);
    generation.fetch_add(1);
  }

  std::shared_ptr<Database::Impl> db;
  std::atomic<bool> interrupted{false};
  std::atomic<uint64_t> generation{0};  // statements started on this connection
  sql::Session session;
};

}  // namespace shoal
