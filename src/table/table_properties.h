// Typed view of a Delta table's `delta.*` configuration (metaData.configuration), with the
// validation Delta applies when properties are set: unknown `delta.` keys are rejected, values
// must parse as their type (booleans, sizes, intervals, enumerations). Also shoal's own
// `shoal.localSort.*` keys (doc/local_sort.md).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "delta/actions.h"
#include "shoal/status.h"

namespace shoal::table {

enum class ColumnMapping : uint8_t { kNone, kName, kId };
// How LocalSort orders a data file's rows: by the columns in turn, or by their interleaved
// (z-order) rank bits so that each column alone is clustered.
enum class LocalSortMode : uint8_t { kLexicographic, kZOrder };
// What one sort covers (shoal.localSort.scope): kFile sorts each file on its own, a file holding
// at most the sort memory's worth of rows; kWrite sorts all the rows of one write (per
// partition) as one stream, spilling beyond the memory budget, cut into files of disjoint key
// ranges.
enum class LocalSortScope : uint8_t { kFile, kWrite };

// A Parquet bloom filter written for one column of every data file (shoal.bloomFilter.<column> =
// "fpp=0.1, numItems=1000000"; Databricks' CREATE BLOOMFILTER INDEX options and defaults).
struct BloomFilterSpec {
  double fpp = 0.1;             // false-positive probability, in (0, 1)
  int64_t num_items = 1000000;  // distinct values expected per file (sizes the filter)
};

// Every delta.* setting shoal acts on, with Delta's defaults.
struct TableProperties {
  bool append_only = false;                  // delta.appendOnly
  bool enable_deletion_vectors = true;       // delta.enableDeletionVectors (shoal default true)
  bool enable_row_tracking = false;          // delta.enableRowTracking
  bool enable_change_data_feed = false;      // delta.enableChangeDataFeed
  bool enable_in_commit_timestamps = false;  // delta.enableInCommitTimestamps
  bool enable_type_widening = false;         // delta.enableTypeWidening
  ColumnMapping column_mapping = ColumnMapping::kNone;    // delta.columnMapping.mode
  std::string isolation_level = "WriteSerializable";      // delta.isolationLevel
  std::string checkpoint_policy = "classic";              // delta.checkpointPolicy
  int64_t checkpoint_interval = 10;                       // delta.checkpointInterval
  // delta.checkpoint.partSize: actions per checkpoint Parquet file; above it a classic checkpoint
  // is written in parts (multi-part) and a V2 checkpoint's file actions in several sidecars.
  int64_t checkpoint_part_size = 1000000;
  int64_t target_file_size = int64_t{128} << 20;          // delta.targetFileSize (bytes)
  int64_t num_indexed_cols = 32;                          // delta.dataSkippingNumIndexedCols (-1: all)
  std::optional<std::vector<std::string>> stats_columns;  // delta.dataSkippingStatsColumns
  int64_t deleted_file_retention_ms = 7LL * 24 * 3600 * 1000;  // deletedFileRetentionDuration
  int64_t log_retention_ms = 30LL * 24 * 3600 * 1000;          // delta.logRetentionDuration
  std::map<std::string, std::string> constraints;  // delta.constraints.<name> -> expression
  std::vector<std::string> explicit_features;      // delta.feature.<name> = supported
  // shoal.localSort.columns: sort every data file written by these columns (comma list);
  // empty: no local sort. Checked against the schema by ValidateLocalSortColumns.
  std::vector<std::string> local_sort_columns;
  LocalSortMode local_sort_mode = LocalSortMode::kLexicographic;  // shoal.localSort.mode
  int64_t local_sort_memory_limit = int64_t{256} << 20;           // shoal.localSort.memoryLimit
  LocalSortScope local_sort_scope = LocalSortScope::kFile;        // shoal.localSort.scope
  bool local_sort_auto = false;  // shoal.localSort.auto (validated; the advisor acts on it)
  // shoal.bloomFilter.<column>: bloom filters to write, by lower-case column name.
  std::map<std::string, BloomFilterSpec> bloom_filters;
};

// Parses and validates a configuration map. InvalidArgument naming the key for an unknown
// `delta.` key or a malformed value; non-`delta.` keys are user properties and pass.
Result<TableProperties> ParseTableProperties(const std::map<std::string, std::string>& config);

// Checks shoal.localSort.columns against the table's logical schema: every name is a top-level
// column (case-insensitive), listed once, of a sortable type (booleans, numbers, decimals,
// strings, binary, dates, times, timestamps). InvalidArgument naming the column otherwise.
Status ValidateLocalSortColumns(const TableProperties& props, const columnar::Schema& schema);

// Checks shoal.bloomFilter.<column> keys against the table's logical schema: each names a
// top-level column of a type Parquet bloom filters hold (not BOOLEAN, not nested).
Status ValidateBloomFilterColumns(const TableProperties& props, const columnar::Schema& schema);

// Checks a table's shoal.localSort.* and shoal.bloomFilter.* configuration against its own
// schema, as CREATE TABLE and ALTER TABLE SET TBLPROPERTIES must before committing (the writer
// checks again). InvalidArgument naming the property and column.
Status ValidateColumnProperties(const delta::Metadata& metadata);

// Parses Delta's interval syntax "interval 7 days" (also "7 days"); units week(s), day(s),
// hour(s), minute(s), second(s), millisecond(s). Result in milliseconds.
Result<int64_t> ParseIntervalMillis(const std::string& text);
// Parses a byte size: "134217728", "128mb", "1g" (b/k/kb/m/mb/g/gb, case-insensitive).
Result<int64_t> ParseByteSize(const std::string& text);

}  // namespace shoal::table
