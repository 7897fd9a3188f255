// RESTORE TABLE … TO VERSION/TIMESTAMP AS OF: stages in a transaction the one commit that makes
// the live file set equal to an earlier version's — adds of the target's files that are not live
// now, removes of live files the target does not have (matched by path and deletion vector, all
// with dataChange=true) — plus the target's metadata and a protocol that covers both versions
// (a protocol is never downgraded). Refuses when a file to restore was vacuumed.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>

#include "delta/snapshot.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "txn/transaction.h"

namespace shoal::table {

// The metrics Delta reports for RESTORE (and records as operationMetrics).
struct RestoreMetrics {
  int64_t table_size_after_restore = 0;
  int64_t num_of_files_after_restore = 0;
  int64_t num_removed_files = 0;
  int64_t num_restored_files = 0;
  int64_t removed_files_size = 0;
  int64_t restored_files_size = 0;
};

// Stages the restore of `current` (the transaction's snapshot) to `target` in `txn`.
// InvalidArgument when `target` is newer than `current` or a file (or DV file) to restore no
// longer exists.
Result<RestoreMetrics> StageRestore(txn::Transaction* txn, io::FileSystem& fs, const delta::Snapshot& current,
                                    const delta::Snapshot& target);

// The metrics as commitInfo.operationMetrics (string values, as Spark writes them).
delta::Json RestoreMetricsJson(const RestoreMetrics& m);

}  // namespace shoal::table
