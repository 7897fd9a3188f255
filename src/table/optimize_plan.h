// Chooses what OPTIMIZE and REORG ... APPLY (PURGE) rewrite (doc/optimize.md): the files of the
// partitions a partition predicate selects, grouped per partition into bins — bin-packing of
// small files and files with many deleted rows, every file of a partition for ZORDER BY, one
// bin per file with a deletion vector for PURGE. Pure planning over add actions; no I/O.
//
// Thread-safety: pure functions over plain values.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "delta/actions.h"
#include "expr/expr.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"

namespace shoal::table {

// Files rewritten together into one output (bin-packing, PURGE) or into a range of outputs
// (ZORDER); all of one partition.
struct RewriteBin {
  delta::PartitionValues partition;
  std::vector<delta::AddFile> files;  // in the order their rows are written (bin-packing)
  int64_t total_size = 0;             // sum of the files' sizes
};

struct RewritePlan {
  std::vector<RewriteBin> bins;
  int64_t files_considered = 0;  // files of the selected partitions
  int64_t files_skipped = 0;     // of those, files left alone
  int64_t partitions = 0;        // partitions with at least one bin
};

struct BinPackingOptions {
  // Files smaller than this are candidates; default: max_bin_size (Delta's minFileSize
  // defaults to its maxFileSize).
  std::optional<int64_t> min_file_size;
  // A bin is closed before it would exceed this many bytes of input: the table's
  // delta.targetFileSize.
  int64_t max_bin_size = int64_t{128} << 20;
  // Files whose deletion vector covers more than this share of numRecords are candidates
  // whatever their size (Delta's optimize.maxDeletedRowsRatio).
  double max_deleted_rows_ratio = 0.05;
  // Files for which this returns true (not sorted by the table's LocalSort key) are candidates
  // whatever their size, and are rewritten even alone; null: none.
  std::function<bool(const delta::AddFile&)> needs_resort;
};

// Checks that `predicate` (over table column indices) references only partition columns:
// InvalidArgument "Predicate references non-partition column 'x'. Only the partition columns
// may be referenced: [p1, p2]" otherwise (Delta's message).
Status CheckPartitionPredicate(const expr::Expr& predicate, const scan::TableSchema& schema);

// The files of `files` whose partition satisfies `predicate` (null: all), in input order.
Result<std::vector<delta::AddFile>> SelectPartitions(const std::vector<delta::AddFile>& files,
                                                     const scan::TableSchema& schema,
                                                     const expr::ExprPtr& predicate);

// The deleted share of `file`'s rows (DV cardinality / numRecords); 0 without a DV, 1 when the
// file has a DV but no numRecords statistic.
double DeletedRowsRatio(const delta::AddFile& file);

// Bin-packing: per partition, candidates (small, too many deleted rows, or needing a re-sort)
// sorted by size (ties by path) are packed greedily into bins of at most max_bin_size; a bin of
// one file without deleted rows that needs no re-sort is dropped (nothing to gain), so a second
// OPTIMIZE after a re-sort is a no-op.
RewritePlan PlanBinPacking(const std::vector<delta::AddFile>& files,
                           const BinPackingOptions& options);

// ZORDER: one bin per partition holding all its files (log order), single files included (they
// are re-sorted).
RewritePlan PlanZOrder(const std::vector<delta::AddFile>& files);

// PURGE: one bin per file whose deletion vector is non-empty.
RewritePlan PlanPurge(const std::vector<delta::AddFile>& files);

}  // namespace shoal::table
