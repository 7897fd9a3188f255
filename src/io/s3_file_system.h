// S3FileSystem: the FileSystem interface on S3-compatible object storage, for paths
// `s3://bucket/key...` (doc/object_storage.md).
//
// Object-store semantics, chosen per operation:
// - Directories do not exist as objects: a "directory" exists while some key lies under its
//   prefix. CreateDirs writes nothing (it checks once per bucket that the bucket answers), and
//   SyncDir does nothing (an acknowledged PUT is durable). List of an empty or missing prefix is
//   an empty listing.
// - PutIfAbsent is a PUT with `If-None-Match: *` (412 -> AlreadyExists). When its outcome is
//   unknown (timeout, reset, 5xx after sending) it is never simply sent again: the object is read
//   back and compared with what was written to know whether this writer won.
// - WriteAtomic is a plain PUT (S3 replaces objects atomically); OpenForWrite buffers and
//   writes at Close — one PUT, or a multipart upload once the data exceeds the part size
//   (aborted on failure), so the object never appears partially written.
// - Rename is a server-side copy then a delete of the source: the target appears atomically,
//   but the pair is not atomic (the checkpoint writer, its one caller, tolerates a leftover
//   temporary object). Delete of a missing key succeeds, as S3's DELETE does.
// - A missing key is IOError "...: No such file or directory", as the local file system
//   reports it, so callers behave identically.
//
// Thread-safety: thread-safe; files opened from it are as the interface says.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "io/file_system.h"
#include "io/read_speculation.h"
#include "io/s3_client.h"
#include "io/s3_options.h"
#include "io/s3_uri.h"
#include "io/s3_xml.h"

namespace shoal::io {

class S3FileSystem final : public FileSystem {
 public:
  explicit S3FileSystem(S3Options options);

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  // No HEAD: the size is taken as given (a wrong one makes reads past the real end fail).
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadOfSize(const std::string& path, int64_t size) override;
  bool IsRemote(const std::string&) const override { return true; }
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
  Status SyncDir(const std::string& dir) override { return Status::OK(); }
  // Each read on its own thread, at once (read_speculation.h); writes forget them.
  void Speculate(const std::vector<SpeculativeRead>& reads) override;
  void DropSpeculation() override { speculation_.Clear(); }

  // Requests and bytes per kind since this file system was made.
  S3Stats stats() const { return client_->stats(); }
  void CarryCounters(const S3Stats& earlier) { client_->CarryCounters(earlier); }
  const S3Options& options() const { return client_->options(); }
  // Tests: faults between this file system and the server.
  void SetFaultInjector(std::shared_ptr<S3FaultInjector> faults) { client_->SetFaultInjector(std::move(faults)); }

  // A named IOError for an S3 answer that is not a success: `what` is the operation
  // ("open", "list", ...), `path` the s3:// path. Used by the files this system opens.
  Status ErrorOf(const S3Response& r, std::string_view what, const std::string& path) const;

 private:
  friend class S3WritableFile;
  // Pages through ListObjectsV2 under `prefix` (with delimiter '/' when `delimited`;
  // `start_after` on the first page only) and returns all pages merged; `max_total` > 0 stops
  // once that many entries came back.
  Result<S3ListPage> ListKeys(const std::string& bucket, const std::string& prefix, bool delimited,
                              const std::string& start_after, int max_total);
  Result<std::optional<std::string>> GetObject(const S3Location& loc, const std::string& path);
  Status PutObject(const S3Location& loc, const std::string& path, std::string_view contents);
  Status CheckBucket(const std::string& bucket);
  // Is there any key under "key/"?
  Result<bool> HasKeysUnder(const S3Location& loc);

  // The requests behind ReadAll, Exists and ListFromLimited, without asking the speculation.
  Result<std::string> FetchAll(const std::string& path);
  Result<bool> FetchExists(const std::string& path);
  Result<ListPrefix> FetchListing(const std::string& dir, std::string_view start_name, size_t max_entries);

  std::shared_ptr<S3Client> client_;
  std::mutex mu_;
  std::set<std::string> checked_buckets_;  // GUARDED_BY(mu_)
  // Last member: destroyed first, waiting for its reads while the client is still there.
  ReadSpeculation speculation_;
};

}  // namespace shoal::io
