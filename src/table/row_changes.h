// Row changes of DELETE / UPDATE / MERGE: collects the row addresses (file id, position) a
// statement matched, records them as the transaction's read set (per row at row level, else
// per file), and stages their deletion — a deletion vector per file, a plain remove when every
// live row of a file goes, or (deletion vectors off) a copy-on-write rewrite of the file
// without those rows. File ids index scan::DeltaTable::snapshot()->files() (the row-address
// columns of scan::DeltaScanOptions::with_row_address).
//
// Thread-safety: functions on caller-owned values; a transaction is used by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/deletion_vector.h"
#include "scan/delta_scan.h"
#include "shoal/status.h"
#include "txn/transaction.h"

namespace shoal::table {

// Row positions per file id.
using FilePositions = std::map<int64_t, delta::DeletionVector>;

// Adds the (file id, row index) pairs of rows `sel[0..n)` (all rows when sel is null) of two
// BIGINT row-address vectors. NULL addresses (outer-join rows without a target) are skipped.
void CollectRowAddresses(const columnar::Vector& file_ids, const columnar::Vector& row_indexes,
                         const uint32_t* sel, int64_t n, FilePositions* out);

// Whether the table writes deletion vectors (delta.enableDeletionVectors = true); otherwise
// DML rewrites files (copy-on-write).
bool UsesDeletionVectors(const delta::Metadata& metadata);

// Live rows of a file per its log stats (numRecords minus the DV's cardinality), or -1 when
// the stats do not say.
int64_t LiveRows(const delta::AddFile& file);

// Records that the statement read `read` rows of each file: ReadRows at row-level concurrency,
// ReadFile otherwise. Ids outside the snapshot are InvalidArgument.
Status RecordRowReads(const scan::DeltaTable& table, txn::Transaction* txn, const FilePositions& read);

struct RowDeleteStats {
  int64_t rows_deleted = 0;
  int64_t files_removed = 0;    // every live row deleted: plain remove
  int64_t files_with_dv = 0;    // re-added with a deletion vector
  int64_t files_rewritten = 0;  // copy-on-write
  int64_t rows_copied = 0;      // rows kept by copy-on-write rewrites
};

// Stages the deletion of `deletes` (live rows only) in `txn`. Rewritten files' paths are
// appended to `staged_files` (to delete them again if the statement fails).
Result<RowDeleteStats> StageRowDeletes(std::shared_ptr<io::FileSystem> fs, const scan::DeltaTable& table,
                                       txn::Transaction* txn, const FilePositions& deletes,
                                       std::vector<std::string>* staged_files);

// Stages whole-file removes of `file_ids` without reading them (metadata-only DELETE). Returns
// the rows removed when every file's stats know its live rows, else -1.
Result<int64_t> StageFileRemoves(const scan::DeltaTable& table, txn::Transaction* txn,
                                 const std::vector<int64_t>& file_ids);

}  // namespace shoal::table
