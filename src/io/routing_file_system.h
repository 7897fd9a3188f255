// RoutingFileSystem: one FileSystem for every path a user gives shoal — `s3://bucket/key` paths
// go to an S3FileSystem (made on first use), every other path to the local file system,
// unchanged. Database::Open and read_parquet use it, so a warehouse, a `delta.`path`` table
// and a Parquet file may each live on local disk or on S3.
//
// Thread-safety: thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "io/file_system.h"
#include "io/s3_file_system.h"

namespace shoal::io {

class RoutingFileSystem final : public FileSystem {
 public:
  // `s3_options` is asked once, when the first s3:// path arrives.
  RoutingFileSystem(std::shared_ptr<FileSystem> local, std::function<S3Options()> s3_options);

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadOfSize(const std::string& path, int64_t size) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadBeneath(const std::string& root, const std::string& path,
                                                               int64_t size) override;
  bool IsRemote(const std::string& path) const override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override;
  Status PutIfAbsent(const std::string& path, std::string_view contents) override;
  Status WriteAtomic(const std::string& path, std::string_view contents) override;
  Result<std::string> ReadAll(const std::string& path) override;
  Result<std::vector<FileInfo>> List(const std::string& dir) override;
  Result<std::vector<FileInfo>> ListFrom(const std::string& dir, std::string_view start_name) override;
  Result<ListPrefix> ListFromLimited(const std::string& dir, std::string_view start_name, size_t max_entries) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status Delete(const std::string& path) override;
  Status DeleteRecursive(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;
  void Speculate(const std::vector<SpeculativeRead>& reads) override;
  void DropSpeculation() override;

  // The S3 half, made on first use (null until then); for its request counters.
  std::shared_ptr<S3FileSystem> s3_if_used() const;
  // The options s3:// paths use (or will use, before the first one).
  S3Options s3_options() const;
  // From now on s3:// paths use `options` (`SET s3_...`): a new S3 file system, which goes on
  // counting requests where the old one stopped; files already open keep the old connection.
  void SetS3Options(S3Options options);

 private:
  // The file system for `path`; shared, so a concurrent SetS3Options cannot pull it away.
  std::shared_ptr<FileSystem> For(const std::string& path);

  std::shared_ptr<FileSystem> local_;
  std::function<S3Options()> s3_options_;
  mutable std::mutex mu_;
  std::shared_ptr<S3FileSystem> s3_;  // GUARDED_BY(mu_)
  std::optional<S3Options> s3_set_;   // GUARDED_BY(mu_): SetS3Options' options, once called
};

// The process-wide file system for user paths: local paths exactly as LocalFileSystem(),
// s3:// paths on S3 configured from the environment (S3Options::FromEnvironment).
std::shared_ptr<FileSystem> DefaultFileSystem();

}  // namespace shoal::io
