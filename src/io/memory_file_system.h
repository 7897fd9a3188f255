// MemoryFileSystem: a FileSystem held in memory, for tests — fast, isolated, and with the same
// atomicity contract as the local one (PutIfAbsent is atomic across threads).
//
// Thread-safety: thread-safe (one mutex).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "io/file_system.h"

namespace shoal::io {

// A read-only file over bytes held in memory (not latency-bound).
std::unique_ptr<RandomAccessFile> MakeMemoryFile(std::string path, std::shared_ptr<const std::string> data);

class MemoryFileSystem : public FileSystem {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override;
  Status PutIfAbsent(const std::string& path, std::string_view contents) override;
  Status WriteAtomic(const std::string& path, std::string_view contents) override;
  Result<std::vector<FileInfo>> List(const std::string& dir) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status Delete(const std::string& path) override;
  Status DeleteRecursive(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override { return Status::OK(); }

  // Replaces a file's contents (tests that corrupt files).
  void SetContents(const std::string& path, std::string contents);

 private:
  friend class MemoryWritableFile;
  struct Entry {
    std::shared_ptr<const std::string> data;
    int64_t mtime_ms = 0;
  };
  static std::string Normalize(const std::string& path);
  void Store(const std::string& path, std::string data);
  bool IsDirLocked(const std::string& path) const;

  mutable std::mutex mu_;
  std::map<std::string, Entry> files_;  // GUARDED_BY(mu_)
  std::map<std::string, int> dirs_;     // GUARDED_BY(mu_) explicit directories
  int64_t clock_ = 1;                   // GUARDED_BY(mu_) logical mtime
};

}  // namespace shoal::io
