// LayoutExperiment: measures LocalSort layouts on real bytes. It writes one lineitem-like data
// set (bench/scan_bench.sh's generator, or a variant whose columns correlate as in TPC-H) into
// one Delta table per layout — unsorted, each explicit key, and auto mode (the table written
// unsorted, a query history replayed through its query log, then OPTIMIZE choosing and applying
// the key) — runs a filter workload on each through the Delta scan, and reports per table the
// bytes, row groups and pages the workload read, its CPU time, the storage size and the write
// CPU time. Shared by bench/layout_bench.cc and the acceptance test (auto within 10% of the best
// explicit key's benefit).
//
// Thread-safety: the functions are not thread-safe for one root directory; separate roots are
// independent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "table/layout_advisor.h"
#include "table/query_log.h"
#include "table/table_properties.h"

namespace shoal::table {

enum class LineitemVariant {
  kScanBench,   // bench/scan_bench.sh's columns: periodic in the row number, mostly independent
  kCorrelated,  // TPC-H-like: dates and keys clustered with the order date, commit/receipt dates
                // a few days after the ship date
};

// The lineitem-like schema (17 columns: keys, decimals, dates, low- and high-cardinality
// strings, a nullable note).
columnar::Schema LineitemSchema();
// Rows [start, start + n) of the data set (deterministic in the row number).
columnar::RecordBatch GenerateLineitem(LineitemVariant variant, int64_t start, int64_t n);

// One workload query: conjuncts over LineitemSchema() column indices, how often it runs in the
// history, and its shape as the SQL query log records it.
struct WorkloadQuery {
  std::string name;
  std::vector<expr::ExprPtr> filters;
  QueryShape shape;
  int weight = 1;
};
// The mixed workload: point and IN filters on l_skey, a range on l_partkey, a date point
// combined with l_env, a date range, and IS NULL on l_note.
Result<std::vector<WorkloadQuery>> LineitemWorkload();

// A table to build: `key` empty and !auto_mode is the unsorted baseline.
struct LayoutCandidate {
  std::string name;
  SortKey key;
  bool auto_mode = false;
  LocalSortScope scope = LocalSortScope::kFile;  // shoal.localSort.scope of an explicit key
};

struct WorkloadMeasure {
  double cpu_ms = 0;  // CPU time of scanning (every query once, unweighted)
  // Weighted by the query weights:
  int64_t bytes_read = 0;
  int64_t row_groups_read = 0;
  int64_t pages_read = 0;
  int64_t rows_returned = 0;
};

struct LayoutResult {
  std::string name;
  SortKey key;              // the key the files are sorted by (auto: the advisor's choice)
  int64_t storage_bytes = 0;
  int64_t files = 0;
  int64_t row_groups_total = 0;  // row groups of the table's files
  double write_cpu_ms = 0;       // writing the table from batches, every thread (auto: plus OPTIMIZE's rewrite)
  // Wall time of generating the batches and writing them (auto: plus OPTIMIZE's rewrite): a
  // sorted write sorts on a second thread beside the producer, which CPU time does not show.
  double write_wall_ms = 0;
  WorkloadMeasure workload;
  std::vector<WorkloadMeasure> per_query;
};

struct LayoutExperimentOptions {
  LineitemVariant variant = LineitemVariant::kScanBench;
  int64_t rows = 2000000;
  int64_t batch_rows = 100000;  // rows per batch handed to the writer
  int64_t max_row_group_rows = 1 << 20;
  std::optional<int64_t> sorted_max_row_group_rows;  // default: DataFileWriterOptions'
};

// Writes the table for `c` under `root` (replaced), runs `workload` on it and returns the
// measurements. Auto mode writes unsorted, replays the weighted workload into the query log
// (shape, rows, bytes as the SQL recorder would), then runs OPTIMIZE, which runs the advisor,
// persists its key and re-sorts the files, and measures the rewritten table.
Result<LayoutResult> RunLayoutCandidate(std::shared_ptr<io::FileSystem> fs, const std::string& root,
                                        const LayoutCandidate& c, const std::vector<WorkloadQuery>& workload,
                                        const LayoutExperimentOptions& options);

// Benefit of `r` against `baseline`: weighted bytes the workload no longer reads.
inline int64_t BytesBenefit(const LayoutResult& baseline, const LayoutResult& r) {
  return baseline.workload.bytes_read - r.workload.bytes_read;
}

}  // namespace shoal::table
