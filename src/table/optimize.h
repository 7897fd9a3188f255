// OPTIMIZE (bin-packing, ZORDER BY) and REORG TABLE ... APPLY (PURGE) on one Delta table
// snapshot (doc/optimize.md): plans the bins (table/optimize_plan.h), rewrites them in parallel
// and stages the result in a transaction without data change.
// - Bin-packing and PURGE keep each source file's live rows contiguous and in order in its
//   output and stage it with Transaction::AddCompactedFile, so concurrent DML is translated
//   through the compaction in either commit order (no conflict).
// - ZORDER permutes rows: plain removes + adds (no compactedFrom), which conflict per file with
//   DML on the same files, as in Databricks.
// - With a LocalSort key (shoal.localSort.columns, or the automatic key of shoal.localSort.auto)
//   outputs are written sorted by it, and files not sorted by it are rewritten too (each alone
//   when big); a sorted output that merged several sources permutes rows and is staged as plain
//   removes + adds like ZORDER.
// The caller commits (or abandons) the transaction; on error nothing is staged and the files
// written so far are deleted again.
//
// Thread-safety: the functions are safe to call concurrently on different transactions; each
// call uses its own worker threads.
#pragma once

#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "expr/expr.h"
#include "scan/delta_scan.h"
#include "shoal/status.h"
#include "parquet/metadata.h"
#include "table/layout_advisor.h"
#include "table/zorder.h"
#include "txn/transaction.h"

namespace shoal::table {

struct OptimizeOptions {
  // Partition predicate over table column indices (scan::TableSchema); null: every partition.
  // It may reference only partition columns.
  expr::ExprPtr partition_filter;
  // ZORDER BY columns (logical names, case-insensitive); empty: bin-packing.
  std::vector<std::string> zorder_by;
  // Output size; default: the table's delta.targetFileSize (128 MiB).
  std::optional<int64_t> target_file_size;
  // Bin-packing candidates are files smaller than this; default: the target size.
  std::optional<int64_t> min_file_size;
  // Files with more deleted rows than this share of numRecords are candidates (Delta's default).
  double max_deleted_rows_ratio = 0.05;
  // Worker threads rewriting bins in parallel; 0: the hardware concurrency (at most 8).
  int threads = 0;
  ZOrderOptions zorder;
  // Called with the bins rewritten so far and the bins planned, once before the rewrites and
  // after each bin (from the worker threads, possibly at once: `done` may arrive out of order);
  // empty: none.
  std::function<void(int64_t done, int64_t planned)> progress;
};

// Min/max/average/count/total of a set of file sizes (Delta's FileSizeMetrics).
struct FileSizeMetrics {
  int64_t min = 0;
  int64_t max = 0;
  int64_t total_files = 0;
  int64_t total_size = 0;
  void Add(int64_t size);
  double avg() const { return total_files ? static_cast<double>(total_size) / total_files : 0.0; }
};

// What OPTIMIZE / REORG did (Delta's OptimizeMetrics).
struct OptimizeMetrics {
  int64_t num_files_added = 0;
  int64_t num_files_removed = 0;
  FileSizeMetrics files_added;
  FileSizeMetrics files_removed;
  int64_t partitions_optimized = 0;
  int64_t num_batches = 0;           // 1 when bins were rewritten (all run as one batch), else 0
  int64_t total_considered_files = 0;
  int64_t total_files_skipped = 0;
  int64_t num_deletion_vectors_removed = 0;
  int64_t num_deletion_vector_rows_removed = 0;
  int64_t num_rows = 0;              // live rows rewritten
  bool zorder = false;               // zOrderStats present
  int64_t start_time_ms = 0;
  int64_t end_time_ms = 0;
  // The JSON object Delta returns in OPTIMIZE's `metrics` column (camelCase keys).
  std::string ToJson() const;
};

struct OptimizeResult {
  OptimizeMetrics metrics;
  std::vector<delta::AddFile> added;  // output files written and staged (table-relative paths)
};

// True when a data file (its Parquet footer) is sorted by `key`: its footer names the key
// (kLocalSortKeyMetadata, as DataFileWriter writes it), or, for a lexicographic key, every row
// group's sorting_columns are exactly the key's data columns ascending NULLS FIRST. True for an
// empty key or a file without rows.
bool FileSortedBy(const parquet::FileMetaData& footer, const scan::TableSchema& schema, const SortKey& key);

// OPTIMIZE `table` (the transaction's snapshot) into `txn`. Errors: the partition predicate
// references a data column, a ZORDER column does not exist, is a partition column or has an
// unsupported type (InvalidArgument, Delta's messages); read/write failures.
Result<OptimizeResult> OptimizeTable(const scan::DeltaTable& table, txn::Transaction* txn,
                                     const OptimizeOptions& options);

// REORG TABLE ... APPLY (PURGE): rewrites every file (of the selected partitions) that has a
// deletion vector without its deleted rows, one output per file (a file with no live row is
// just removed). Only `partition_filter` and `threads` of `options` are used.
Result<OptimizeResult> PurgeDeletionVectors(const scan::DeltaTable& table, txn::Transaction* txn,
                                            const OptimizeOptions& options);

// commitInfo.operationParameters as Delta writes them: OPTIMIZE {"predicate": JSON list of the
// predicate's SQL text, "zOrderBy": JSON list of names}, REORG {"predicate", "applyPurge"}.
delta::Json OptimizeOperationParameters(const std::vector<std::string>& predicates,
                                        const std::vector<std::string>& zorder_by);
delta::Json ReorgOperationParameters(const std::vector<std::string>& predicates);

}  // namespace shoal::table
