// ParquetCheckpointReader: reads the actions of Parquet checkpoints (classic single-file,
// multi-part, V2 top-level files) and Parquet sidecars. Each row holds one non-null action
// column (add, remove, metaData, protocol, txn, domainMetadata, checkpointMetadata, sidecar);
// the row's struct is converted to the JSON form of the log and parsed by ParseActionJson, so
// both paths share one set of validation rules. An add whose `stats` string is null but which
// carries `stats_parsed` gets its stats re-serialized from the struct.
//
// Thread-safety: stateless; concurrent Read calls are safe.
#pragma once

#include <string>

#include "delta/checkpoint_reader.h"

namespace shoal::delta {

class ParquetCheckpointReader final : public CheckpointReader {
 public:
  Status Read(io::FileSystem& fs, const std::string& path, const ActionSink& sink) override;
};

// JSON and Parquet readers: what every snapshot load outside tests should use.
CheckpointReaders DefaultCheckpointReaders();

}  // namespace shoal::delta
