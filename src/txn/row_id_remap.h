// Stable row ids of data files (PROTOCOL.md "Row Tracking": the materialized row id column's
// value where not null, else baseRowId + the row's position; the row commit version likewise
// from its materialized column or defaultRowCommitVersion), and the translation of row
// positions between the files of a rewrite that permuted rows (ZORDER, a LocalSort merge)
// through those ids: source file + position -> row id -> output file + position.
//
// Thread-safety: the functions are pure; a RowIdIndex is immutable after Build and may be
// read from many threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::txn {

// `metadata` with the materialized row id and row commit version columns appended to its
// schema (nullable BIGINT, hidden from readers of the logical schema), or nullopt when the
// table does not materialize row ids (row tracking not enabled or the names not configured).
Result<std::optional<delta::Metadata>> MetadataWithRowIdColumns(const delta::Protocol& protocol,
                                                                const delta::Metadata& metadata);

// Row id and row commit version of every physical row of one file (deleted rows included).
struct FileRowIds {
  std::vector<int64_t> ids;
  std::vector<int64_t> versions;  // -1 where neither materialized nor defaulted
};

// Reads `file`'s row ids. `with_columns` is MetadataWithRowIdColumns of the table.
// InvalidArgument naming the file when a row has no id (no materialized value, no baseRowId).
Result<FileRowIds> ReadFileRowIds(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                  const delta::Metadata& with_columns, const delta::AddFile& file);

// Where each row id lives among a set of files (the outputs of one rewrite): live rows only.
class RowIdIndex {
 public:
  struct Location {
    uint32_t file = 0;      // index into files()
    uint64_t position = 0;  // row position in that file
  };
  // Indexes the live rows of `files`; InvalidArgument when a row id occurs twice.
  static Result<RowIdIndex> Build(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                  const delta::Metadata& with_columns, std::vector<delta::AddFile> files);
  const std::vector<delta::AddFile>& files() const { return files_; }
  const Location* Find(int64_t row_id) const {
    auto it = where_.find(row_id);
    return it == where_.end() ? nullptr : &it->second;
  }
  bool empty() const { return where_.empty(); }

 private:
  std::vector<delta::AddFile> files_;
  std::unordered_map<int64_t, Location> where_;
};

// Rows of one output file a set of source positions maps to.
struct RemappedRows {
  delta::AddFile output;
  delta::DeletionVector rows;
};

// Maps positions `rows` of `source` (ids `source_ids`) onto the indexed files. InvalidArgument
// when a position has no id or its row is not a live row of any indexed file: the mapping is
// not certain, so the caller must treat it as a conflict.
Result<std::vector<RemappedRows>> RemapThroughRowIds(const delta::DeletionVector& rows,
                                                     const delta::AddFile& source,
                                                     const FileRowIds& source_ids, const RowIdIndex& index);

// The live positions of a file with `num_records` rows and deletion vector `dv`.
delta::DeletionVector LivePositions(int64_t num_records, const delta::DeletionVector& dv);

}  // namespace shoal::txn
