// Temporary files of operators that spill under memory_limit (doc/memory.md, "Spilling").
//
// A SpillManager, one per Database, knows the temp_directory ("" = spilling disabled), names
// files uniquely in the process (shoal-spill-<pid>-<counter>.bin), counts the bytes written, and
// deletes what is left when it is destroyed (with the directory, when it made it). Stale files
// of crashed processes — only names of that pattern whose pid is not running — are removed when
// a directory is first used (Database::Open for the default, SET temp_directory for another).
//
// A SpillFile is one file of record batches of one schema: appended (in blocks collected into
// large sequential writes), then read back in the same order in large reads. It deletes its file
// when destroyed, so an operator's files go with its state on success, error and cancel. Each
// block is a 16-byte header (magic "SHSP", CRC-32 of the payload, payload length) and the
// batch's raw columns (columnar/batch_codec.h); a short, torn or corrupted file reads as a named
// IOError.
//
// Thread-safety: SpillManager is thread-safe; a SpillFile is used by one thread at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::sql {

class SpillFile;

class SpillManager : public std::enable_shared_from_this<SpillManager> {
 public:
  // `fs` serves the directory's paths; `default_dir` is the temp_directory until SET ("" = none).
  SpillManager(std::shared_ptr<io::FileSystem> fs, std::string default_dir);
  ~SpillManager();
  SpillManager(const SpillManager&) = delete;
  SpillManager& operator=(const SpillManager&) = delete;

  // SET temp_directory: "" disables spilling; a directory's stale files are removed.
  Status SetDirectory(const std::string& dir);
  void ResetDirectory();
  std::string directory() const;
  const std::string& default_directory() const { return default_dir_; }
  bool enabled() const;

  // A new, empty file for batches of `schema` in the current directory (created when needed);
  // NotSupported when spilling is disabled. `buffer_bytes`: the size of its write and read
  // blocks. Its bytes are added to `*spilled` too when given.
  Result<std::unique_ptr<SpillFile>> Create(columnar::SchemaPtr schema, int64_t buffer_bytes,
                                            std::atomic<int64_t>* spilled = nullptr);

  int64_t bytes_written() const { return bytes_written_.load(std::memory_order_relaxed); }
  int64_t files_created() const { return files_created_.load(std::memory_order_relaxed); }
  int64_t files_open() const;

  // Deletes the files named shoal-spill-<pid>-<n>.bin in `dir` whose process is gone (not this
  // one); how many. A missing directory has none.
  static Result<int> RemoveStaleFiles(io::FileSystem& fs, const std::string& dir);

 private:
  friend class SpillFile;
  void Forget(const std::string& path);

  std::shared_ptr<io::FileSystem> fs_;
  const std::string default_dir_;
  mutable std::mutex mu_;
  std::string dir_;                // GUARDED_BY(mu_)
  std::set<std::string> made_dirs_;  // GUARDED_BY(mu_): directories this manager created
  std::set<std::string> open_;     // GUARDED_BY(mu_): files not yet deleted
  std::atomic<int64_t> bytes_written_{0};
  std::atomic<int64_t> files_created_{0};
};

class SpillFile {
 public:
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends one batch (of the file's schema); only before FinishWriting. Batches of fewer than
  // min_block_rows rows are collected (by reference) and written as one block.
  Status Append(const columnar::RecordBatch& b);
  void set_min_block_rows(int64_t rows) { min_block_rows_ = rows; }
  // Writes what is buffered and closes the file for writing; then Next reads from the start.
  Status FinishWriting();
  // The next batch in the order appended; null after the last.
  Result<columnar::BatchPtr> Next();

  const std::string& path() const { return path_; }
  const columnar::SchemaPtr& schema() const { return schema_; }
  int64_t rows() const { return rows_; }
  int64_t bytes() const { return file_size_; }
  // Sets the size of the blocks it reads (e.g. smaller when many files are read at once).
  void set_buffer_bytes(int64_t bytes) { buffer_bytes_ = std::max<int64_t>(bytes, 4096); }
  // Bytes its buffers hold (for memory accounting).
  int64_t MemoryBytes() const { return static_cast<int64_t>(buffer_.capacity()); }

 private:
  friend class SpillManager;
  SpillFile(std::shared_ptr<SpillManager> manager, std::string path, columnar::SchemaPtr schema,
            int64_t buffer_bytes, std::atomic<int64_t>* spilled);
  Status Flush();
  Status AppendBlock(const columnar::RecordBatch& b);
  Status AppendPending();
  // Makes buffer_[pos_, pos_ + n) hold the file's next n bytes; IOError at the file's end.
  Status Fill(size_t n);

  std::shared_ptr<SpillManager> manager_;
  std::string path_;
  columnar::SchemaPtr schema_;
  int64_t buffer_bytes_;
  std::atomic<int64_t>* spilled_;
  std::unique_ptr<io::WritableFile> out_;
  std::unique_ptr<io::RandomAccessFile> in_;
  std::string buffer_;       // write: blocks not yet written; read: bytes read ahead
  size_t pos_ = 0;           // read: next byte of buffer_
  int64_t read_offset_ = 0;  // read: file offset of buffer_'s end
  int64_t file_size_ = 0;
  int64_t rows_ = 0;
  int64_t blocks_ = 0, blocks_read_ = 0;
  int64_t min_block_rows_ = 0;
  std::vector<columnar::BatchPtr> pending_;  // write: small batches not yet in a block
  int64_t pending_rows_ = 0;
};

// Appends to (*files)[p] the rows of `rows` that sel[p] selects, for every p with rows (the whole
// batch, without a copy, when one p has them all); (*files)[p] is made by `create` when first
// needed, and `files` grows to sel.size().
Status AppendToPartitions(const columnar::RecordBatch& rows, const std::vector<std::vector<uint32_t>>& sel,
                          std::vector<std::unique_ptr<SpillFile>>* files,
                          const std::function<Result<std::unique_ptr<SpillFile>>()>& create);

}  // namespace shoal::sql
