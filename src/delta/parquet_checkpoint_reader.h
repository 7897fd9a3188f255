// ParquetCheckpointReader: reads the actions of Parquet checkpoints (classic single-file,
// multi-part, V2 top-level files) and Parquet sidecars. Each row holds one non-null action
// column (add, remove, metaData, protocol, txn, domainMetadata, checkpointMetadata, sidecar).
// add/remove rows are decoded straight from their leaf columns (checkpoint_leaf_scan.h); from
// a row that scan declines, the rest of its row group goes the batch route: assembled column
// vectors, add/remove rows decoded from them (checkpoint_batch_decoder.h), and other rows and
// rows that decoder declines converted to the JSON form of the log and parsed by
// ParseActionJson, so every path shares one set of validation rules. An add whose `stats`
// string is null but which carries `stats_parsed` gets its stats re-serialized from the struct.
//
// The leaf scan decodes leaves on a helper thread while the calling thread builds actions; the
// batch route decodes row groups on background threads (checkpoint_batch_stream.h). The sink
// always runs on the calling thread, in file order.
// Thread-safety: stateless; concurrent Read calls are safe; the sink runs on the calling thread.
#pragma once

#include <cstdint>
#include <string>

#include "delta/checkpoint_reader.h"

namespace shoal::delta {

class ParquetCheckpointReader final : public CheckpointReader {
 public:
  // `generic_rows`: convert every row through JSON (the old path; for comparisons).
  // `threads`: row-group decoding threads of the batch route next to the calling thread; 0:
  // min(hardware threads - 1, 7), at least 1. (The leaf scan always uses one helper thread.)
  explicit ParquetCheckpointReader(bool generic_rows = false, int threads = 0)
      : generic_rows_(generic_rows), threads_(threads) {}
  Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) override;
  // Rows the leaf scan decodes go to `files` as FileLists; rows of the other routes to `sink`.
  Status ReadWithFiles(io::FileSystem& fs, const std::string& path, const ActionSink& sink, const FileListSink& files,
                       int64_t known_size = -1) override;

  // Skips the leaf scan: every row goes the batch route (for comparisons and benchmarks).
  void set_assembled_rows(bool on) { assembled_rows_ = on; }
  // Rows per leaf-scan run; 0: the scan's default (tests use small runs).
  void set_run_rows(int64_t n) { run_rows_ = n; }

 private:
  Status ReadImpl(io::FileSystem& fs, const std::string& path, const ActionSink& sink, const FileListSink* files,
                  int64_t known_size);

  bool generic_rows_;
  int threads_;
  bool assembled_rows_ = false;
  int64_t run_rows_ = 0;
};

// JSON and Parquet readers: what every snapshot load outside tests should use.
CheckpointReaders DefaultCheckpointReaders();

}  // namespace shoal::delta
