// FileSystem: every byte shoal reads or writes goes through this interface, so tests can use
// an in-memory or fault-injecting file system and race writers deterministically.
//
// Paths are plain strings; implementations decide their meaning (LocalFileSystem: POSIX paths).
// Thread-safety: implementations are safe for concurrent use by many threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::io {

struct FileInfo {
  std::string name;  // last path component
  int64_t size = 0;
  int64_t mtime_ms = 0;  // modification time, milliseconds since the Unix epoch
  bool is_dir = false;
  // A symbolic link (local file systems); `is_dir`, `size` and `mtime_ms` then describe its
  // target. Walks that delete (VACUUM) never follow or delete links.
  bool is_symlink = false;
};

// One positional read of ReadMany: `length` bytes at `offset` into `out`.
struct ReadRequest {
  int64_t offset = 0;
  int64_t length = 0;
  uint8_t* out = nullptr;
};

// A file opened for positional reads. Thread-safe.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual int64_t Size() const = 0;
  // Reads exactly `length` bytes at `offset` into `out`; reading past the end is Corruption
  // (the caller trusted a length from the file) unless `offset + length <= Size()`.
  virtual Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const = 0;
  // Performs every read of `reqs` (as ReadAt would), stores that may run them concurrently
  // (several requests in flight); the first failure is returned. The default reads in turn.
  virtual Status ReadMany(const std::vector<ReadRequest>& reqs) const;
  // True when each read costs a network round trip (object storage), so callers should read
  // fewer, larger ranges and issue independent reads together (ReadMany); false for local disk.
  virtual bool latency_bound() const { return false; }
  const std::string& path() const { return path_; }

 protected:
  explicit RandomAccessFile(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// A file being written sequentially. Not thread-safe.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(const void* data, size_t length) = 0;
  Status Append(std::string_view s) { return Append(s.data(), s.size()); }
  virtual Status Sync() = 0;   // makes appended data durable
  virtual Status Close() = 0;  // idempotent
  virtual int64_t Tell() const = 0;
};

// A read a latency-bound file system may send before the call that wants it
// (FileSystem::Speculate).
struct SpeculativeRead {
  enum class Kind { kExists, kReadAll, kListFromLimited };
  Kind kind = Kind::kReadAll;
  std::string path;         // the file, or the directory listed
  std::string start_name;   // kListFromLimited: as ListFromLimited's
  size_t max_entries = 0;   // kListFromLimited: as ListFromLimited's
};

// The first entries of a listing in name order, and whether they are all of it.
struct ListPrefix {
  std::vector<FileInfo> entries;
  bool complete = true;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  // OpenForRead for a caller that already knows the file's size (a Delta add action records
  // it): object stores skip the request that asks for it. The default ignores the size.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForReadOfSize(const std::string& path, int64_t size);
  // OpenForReadOfSize (size < 0: unknown) of `path`, a file inside the directory `root`, for
  // files a table's log names: a file that resolves outside `root` (through a symbolic link, in
  // the file or in a directory on the way) is InvalidArgument, so a crafted table cannot make
  // the engine read outside it. `path` must start with `root` + '/'. The default (object stores,
  // which have no links; in-memory) only checks that prefix.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForReadBeneath(const std::string& root,
                                                                       const std::string& path, int64_t size);
  // True when `path` lives on storage where each request costs a network round trip, so
  // callers should issue independent requests concurrently (e.g. the commit files of a log).
  virtual bool IsRemote(const std::string& path) const { return false; }
  // Creates or truncates `path`.
  virtual Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) = 0;

  // Atomically creates `path` with `contents` if it does not exist; returns
  // Status with code kIOError and AlreadyExists()==true if it does. The content is durable
  // (file and directory synced) when this returns OK; readers never see a partial file.
  virtual Status PutIfAbsent(const std::string& path, std::string_view contents) = 0;
  // Atomically replaces `path` with `contents` (temp file + rename), durable on OK.
  virtual Status WriteAtomic(const std::string& path, std::string_view contents) = 0;

  virtual Result<std::string> ReadAll(const std::string& path);
  virtual Result<std::vector<FileInfo>> List(const std::string& dir) = 0;
  // The entries of `dir` whose names sort at or after `start_name` (byte order), in no
  // particular order: a listing that starts somewhere, as object stores list "start after" a
  // key. Stores may skip the names before the start without looking at them (the local file
  // system stats only the entries returned). The default filters List().
  virtual Result<std::vector<FileInfo>> ListFrom(const std::string& dir, std::string_view start_name);
  // ListFrom's entries, sorted by name; when `max_entries` > 0 a store that lists in pages
  // (object storage) may return only the first `max_entries` of them, with `complete` false when
  // more remain. The default lists everything.
  virtual Result<ListPrefix> ListFromLimited(const std::string& dir, std::string_view start_name, size_t max_entries);
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  virtual Result<bool> Exists(const std::string& path) = 0;
  virtual Status CreateDirs(const std::string& path) = 0;
  virtual Status Delete(const std::string& path) = 0;          // file or empty directory
  virtual Status DeleteRecursive(const std::string& path) = 0;  // directory tree
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  virtual Status SyncDir(const std::string& dir) = 0;

  // Speculation, for storage where each request costs a round trip: the answers to `reads` may
  // be fetched now, all at once, and handed to the first later Exists / ReadAll /
  // ListFromLimited with the same arguments (and to OpenForReadOfSize for a kReadAll), which then
  // waits for no request of its own. An answer is as old as this call, so callers speculate
  // only reads whose answer may be that old — a statement's own lookups — and
  // DropSpeculation forgets the unused ones when the statement ends; any write through the
  // file system forgets them too. Hints only: the default does nothing.
  virtual void Speculate(const std::vector<SpeculativeRead>& reads) { (void)reads; }
  virtual void DropSpeculation() {}
};

// True when `st` came from PutIfAbsent finding the file already there.
bool IsAlreadyExists(const Status& st);
Status AlreadyExists(const std::string& path);
// OK when `path` names something inside the directory `root` (starts with `root` + '/');
// InvalidArgument otherwise. Lexical: OpenForReadBeneath also resolves links.
Status CheckBeneath(const std::string& root, const std::string& path);

// The machine's local file system (POSIX).
std::shared_ptr<FileSystem> LocalFileSystem();

// Joins path components with '/'.
std::string JoinPath(std::string_view a, std::string_view b);
// Directory part of a path ("" when none).
std::string DirName(std::string_view path);
std::string BaseName(std::string_view path);

}  // namespace shoal::io
