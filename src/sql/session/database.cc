#include <algorithm>
#include <cstdlib>
#include <thread>

#include "io/routing_file_system.h"
#include "shoal/allocator.h"
#include "sql/session/database_impl.h"

namespace shoal {

Result<std::unique_ptr<Database>> Database::Open(const std::string& warehouse_dir, DatabaseOptions options) {
  if (warehouse_dir.empty()) return Status::InvalidArgument("warehouse directory must not be empty");
  TuneAllocator();
  auto impl = std::make_shared<Impl>();
  impl->dir = warehouse_dir;
  impl->fs = io::DefaultFileSystem();
  RETURN_NOT_OK(impl->fs->CreateDirs(warehouse_dir).WithContext("opening warehouse " + warehouse_dir));
  if (options.batch_size <= 0) options.batch_size = 2048;
  if (options.memory_limit < 0) {
    return Status::InvalidArgument(
        "memory_limit must be positive (0 = 80% of physical memory), got " +
        std::to_string(options.memory_limit));
  }
  impl->default_memory_limit =
      options.memory_limit > 0 ? options.memory_limit : MemoryTracker::DefaultLimit();
  impl->memory = std::make_shared<MemoryTracker>(impl->default_memory_limit);
  // Spill files go to the warehouse's .tmp/, or to the system's temp directory when the
  // warehouse is not local; a crashed process's files there are removed now.
  std::string temp_dir = io::JoinPath(warehouse_dir, ".tmp");
  if (impl->fs->IsRemote(warehouse_dir)) {
    const char* tmp = std::getenv("TMPDIR");
    temp_dir = io::JoinPath(tmp && *tmp ? tmp : "/tmp", "shoal-tmp");
  }
  (void)sql::SpillManager::RemoveStaleFiles(*impl->fs, temp_dir);
  impl->spill = std::make_shared<sql::SpillManager>(impl->fs, temp_dir);
  const std::string zone = options.time_zone.empty() ? columnar::DefaultTimeZoneName() : options.time_zone;
  auto default_zone = columnar::FindTimeZone(zone);
  if (!default_zone.ok()) return default_zone.status().WithContext("DatabaseOptions::time_zone");
  impl->default_time_zone = *default_zone;
  int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  impl->threads = std::clamp(threads, 1, 256);
  impl->options = std::move(options);
  impl->pool = std::make_unique<sql::ThreadPool>(impl->threads - 1);
  return std::unique_ptr<Database>(new Database(std::move(impl)));
}

Database::Database(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::~Database() = default;

std::unique_ptr<Connection> Database::Connect() {
  return std::make_unique<Connection>(std::make_shared<Connection::Impl>(impl_));
}

const std::string& Database::warehouse_dir() const { return impl_->dir; }
const DatabaseOptions& Database::options() const { return impl_->options; }

}  // namespace shoal
