// The data behind shoal::Database and shoal::Connection: the warehouse, options and worker
// pool shared by all connections, and each connection's session.
//
// Thread-safety: Database::Impl is immutable after Open except for the thread-safe pool;
// Connection::Impl is used by one thread at a time, except `interrupted`.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "io/file_system.h"
#include "shoal/database.h"
#include "sql/session/session.h"
#include "sql/execution/thread_pool.h"

namespace shoal {

struct Database::Impl {
  std::string dir;
  DatabaseOptions options;
  int threads = 1;  // resolved options.threads
  std::shared_ptr<io::FileSystem> fs;
  std::unique_ptr<sql::ThreadPool> pool;  // threads - 1 workers: the caller is the other one
};

struct Connection::Impl {
  explicit Impl(Database::Impl* db) : session(db, &interrupted) {}
  std::atomic<bool> interrupted{false};
  sql::Session session;
};

}  // namespace shoal
