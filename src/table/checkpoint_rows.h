// CheckpointRows: one Parquet checkpoint file's rows under construction (PROTOCOL.md "Checkpoint
// Schema"): one row per action, each action kind in its own nullable struct column, stats as a
// JSON string, partitionValues as map<string,string>. A file holds a chosen subset of the action
// columns: classic checkpoints all of them, V2 sidecars only `add` and `remove`.
//
// Thread-safety: one thread builds it. Copies share the column vectors (move, don't copy).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "columnar/vector.h"
#include "delta/actions.h"

namespace shoal::table {

// The action columns of a checkpoint file, in classic column order.
enum class CheckpointColumn { kTxn, kAdd, kRemove, kMetaData, kProtocol, kDomainMetadata };

class CheckpointRows {
 public:
  // Rows with the given columns (in this order).
  explicit CheckpointRows(std::vector<CheckpointColumn> columns);
  // All six columns of a classic (V1) checkpoint.
  static CheckpointRows Classic();
  // `add` and `remove`: a V2 sidecar file.
  static CheckpointRows Sidecar();

  // Appends one row; the action's column must be among this file's columns (else false).
  // protocol, metaData, txn, domainMetadata, add (written with dataChange=false), remove.
  bool Append(const delta::Action& action);
  bool Append(const delta::AddFile& add);
  bool Append(const delta::RemoveFile& remove);

  int64_t rows() const { return rows_; }
  std::shared_ptr<columnar::Schema> schema() const { return schema_; }
  // The rows as one batch (the vectors are shared, not copied).
  columnar::RecordBatch Batch() const;

 private:
  // Appends a row whose column `kind` is filled by `fill` and the others are null.
  bool Put(CheckpointColumn kind, const std::function<void(columnar::Vector*)>& fill);

  std::shared_ptr<columnar::Schema> schema_;
  std::vector<CheckpointColumn> kinds_;
  std::vector<columnar::VectorPtr> cols_;
  int64_t rows_ = 0;
};

// The columnar schema of a classic checkpoint file.
columnar::Schema CheckpointSchema();

}  // namespace shoal::table
