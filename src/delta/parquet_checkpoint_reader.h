// ParquetCheckpointReader: reads the actions of Parquet checkpoints (classic single-file,
// multi-part, V2 top-level files) and Parquet sidecars. Each row holds one non-null action
// column (add, remove, metaData, protocol, txn, domainMetadata, checkpointMetadata, sidecar).
// add/remove rows are decoded straight from the columns (checkpoint_batch_decoder.h); other
// rows, and any add/remove row that decoder declines, are converted to the JSON form of the log
// and parsed by ParseActionJson, so both paths share one set of validation rules. An add whose `stats` string is null but which
// carries `stats_parsed` gets its stats re-serialized from the struct.
//
// Row groups are decoded on background threads (checkpoint_batch_stream.h) while the calling
// thread converts rows and calls the sink, in file order.
// Thread-safety: stateless; concurrent Read calls are safe; the sink runs on the calling thread.
#pragma once

#include <string>

#include "delta/checkpoint_reader.h"

namespace shoal::delta {

class ParquetCheckpointReader final : public CheckpointReader {
 public:
  // `generic_rows`: convert every row through JSON (the old path; for comparisons).
  // `threads`: row-group decoding threads next to the calling thread; 0: min(hardware threads
  // - 1, 7), at least 1.
  explicit ParquetCheckpointReader(bool generic_rows = false, int threads = 0)
      : generic_rows_(generic_rows), threads_(threads) {}
  Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) override;

 private:
  bool generic_rows_;
  int threads_;
};

// JSON and Parquet readers: what every snapshot load outside tests should use.
CheckpointReaders DefaultCheckpointReaders();

}  // namespace shoal::delta
