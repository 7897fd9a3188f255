// Decodes the `add` / `remove` struct columns of a Parquet checkpoint batch straight into
// AddFile / RemoveFile, without boxing each row as JSON: checkpoints of large tables are
// almost all add rows, and this is their hot path.
//
// Like the JSON fast path it never decides an error: a row it cannot decode with certainty
// (a required field null, an unexpected column type, a duplicate map key, an out-of-range DV
// field) is declined, and the caller converts that row through the generic JSON route, which
// produces the usual named error or result.
// Thread-safety: a decoder is bound to one batch's column and used by one thread.
#pragma once

#include <cstdint>
#include <optional>

#include "columnar/vector.h"
#include "delta/actions.h"

namespace shoal::delta {

class FileActionColumnDecoder {
 public:
  // `column` is the checkpoint's `add` (is_add) or `remove` struct column of one batch.
  FileActionColumnDecoder(const columnar::Vector& column, bool is_add);

  // Decodes row `row` (which must be non-null); std::nullopt when the generic route must
  // handle it.
  std::optional<Action> Decode(int64_t row) const;

 private:
  bool DecodeAdd(int64_t row, AddFile* out) const;
  bool DecodeRemove(int64_t row, RemoveFile* out) const;
  bool Stats(int64_t row, std::optional<std::string>* out) const;
  bool Dv(int64_t row, std::optional<DeletionVectorDescriptor>* out) const;

  const columnar::Vector& column_;
  bool is_add_;
  bool usable_ = true;  // false when the struct's shape is unexpected: every row declines
  // Child indexes by field name; -1 when absent.
  int path_ = -1, partition_values_ = -1, size_ = -1, modification_time_ = -1, data_change_ = -1,
      stats_ = -1, stats_parsed_ = -1, tags_ = -1, deletion_vector_ = -1, base_row_id_ = -1,
      default_row_commit_version_ = -1, clustering_provider_ = -1, deletion_timestamp_ = -1,
      extended_file_metadata_ = -1;
  // deletionVector children
  int dv_storage_type_ = -1, dv_path_ = -1, dv_offset_ = -1, dv_size_ = -1, dv_cardinality_ = -1,
      dv_max_row_index_ = -1;
};

}  // namespace shoal::delta
