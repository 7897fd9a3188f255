// Change data feed, written side (PROTOCOL.md "Change Data Files", "Add CDC File"): on a table
// with delta.enableChangeDataFeed = true, DELETE / UPDATE / MERGE write the rows they changed
// into Parquet files under `<table>/_change_data/` (in partition directories like the data),
// with the table's columns plus `_change_type` (insert, delete, update_preimage,
// update_postimage), and commit one `cdc` action (dataChange = false) per file
// (doc/change_data_feed.md).
//
// Thread-safety: a ChangeDataWriter is used by one thread; the free functions are pure.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/actions.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "table/data_file_writer.h"
#include "txn/transaction.h"

namespace shoal::table {

inline constexpr const char* kChangeDataDir = "_change_data";
inline constexpr const char* kChangeTypeColumn = "_change_type";

enum class ChangeType : uint8_t { kInsert, kDelete, kUpdatePreimage, kUpdatePostimage };

// "insert", "delete", "update_preimage", "update_postimage".
const char* ChangeTypeName(ChangeType type);

// Whether the metadata turns the change data feed on (delta.enableChangeDataFeed = true,
// case-insensitive as Spark reads booleans).
bool ChangeDataFeedEnabled(const delta::Metadata& metadata);

// `metadata` as change data files are laid out: the table's schema plus a non-null STRING
// `_change_type` column (with a physical name and id under column mapping), the same partition
// columns, and of the configuration only what shapes the files (column mapping). InvalidArgument
// when the table already has a column named `_change_type` (the protocol reserves it).
Result<delta::Metadata> ChangeDataMetadata(const delta::Metadata& metadata);

class ChangeDataWriter {
 public:
  // `metadata` is the table's (not ChangeDataMetadata's).
  static Result<std::unique_ptr<ChangeDataWriter>> Make(std::shared_ptr<io::FileSystem> fs,
                                                        const std::string& table_root,
                                                        const delta::Metadata& metadata);

  // Writes rows `sel[0..m)` (all rows when sel is null, m = batch rows) of the table columns
  // `batch.columns[first .. first + table columns)` as change rows of `type`.
  Status Write(const columnar::RecordBatch& batch, size_t first, const uint32_t* sel, int64_t m,
               ChangeType type);
  // Closes the files and stages a cdc action per file in `txn`; the files' local paths are
  // appended to `staged_files` (deleted again if the statement fails). Nothing is staged when
  // no row was written.
  Status Stage(const std::string& table_root, txn::Transaction* txn,
               std::vector<std::string>* staged_files);
  int64_t rows_written() const { return rows_; }

 private:
  ChangeDataWriter() = default;
  std::unique_ptr<DataFileWriter> writer_;
  std::shared_ptr<columnar::Schema> schema_;  // table columns + _change_type
  int64_t rows_ = 0;
};

// Writes and stages change data for what `txn`'s write set gained since `before` — for a
// statement that changed data without writing change data itself (INSERT, INSERT OVERWRITE,
// REPLACE WHERE) inside a multi-statement transaction, whose commit may also hold other
// statements' change data files and then must list every change in them: new adds as
// `insert`, new whole-file removes (their live rows) and newly deleted rows of row deletions as
// `delete`. Nothing when the table has no change data feed or the statement wrote change data.
Status StageWriteSetChanges(const std::shared_ptr<io::FileSystem>& fs, const txn::WriteSet& before,
                            txn::Transaction* txn, std::vector<std::string>* staged_files);

}  // namespace shoal::table
