// Writes record batches of a Delta table into Parquet data files under the table root and
// returns the add actions describing them (PROTOCOL.md "Add File and Remove File"): Hive-style
// partition directories, file names part-<n>-<uuid>.c000.<codec>.parquet, a new file once a
// file reaches the target size, page index on, per-file stats JSON, column-mapping physical
// names and field ids in the Parquet schema, NOT NULL and CHECK enforcement per batch, and
// LocalSort: with shoal.localSort.columns set, each file's rows are sorted by those columns
// (lexicographic, with RowGroup.sorting_columns, or z-order) through a memory-bounded external
// sort (external_sorter.h) spilling to `<table>/_shoal/tmp/`, so that row-group and page
// statistics are narrow (doc/local_sort.md).
//
// Thread-safety: not thread-safe; one writer per thread (several may write one table).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/actions.h"
#include "delta/schema_json.h"
#include "io/file_system.h"
#include "parquet/file_writer.h"
#include "shoal/status.h"
#include "table/external_sorter.h"
#include "table/file_stats_collector.h"
#include "table/table_properties.h"

namespace shoal::table {

// Evaluates CHECK constraints on a batch (logical column names); returns
// Constraint("CHECK constraint <name> <expr> violated ...") when a row fails.
using ConstraintCheck = std::function<Status(const columnar::RecordBatch& batch)>;
// Returns the row order for a file's buffered rows (a permutation of 0..num_rows-1). Holds a
// whole file in memory; prefer the shoal.localSort.* properties (bounded, external).
using LocalSort = std::function<Result<std::vector<uint32_t>>(const columnar::RecordBatch& rows)>;

struct DataFileWriterOptions {
  // Roll to a new file when a file's estimated encoded size reaches this; default: the
  // table's delta.targetFileSize (128 MiB).
  std::optional<int64_t> target_file_size;
  parquet::CompressionCodec codec = parquet::CompressionCodec::kSnappy;  // Spark's default
  int64_t max_row_group_rows = 1 << 20;                                  // Parquet row group
  // Row groups of sorted files (LocalSort) are smaller: their statistics are then as selective
  // as pages for every engine that prunes by row group (doc/local_sort.md "Row groups").
  int64_t sorted_max_row_group_rows = 1 << 16;
  ConstraintCheck check;  // default none (NOT NULL is always enforced)
  LocalSort local_sort;   // default none; when set, overrides shoal.localSort.* below
  // Override the table's shoal.localSort.columns / .mode / .memoryLimit for this writer
  // (e.g. OPTIMIZE); default: the table properties. An empty column list turns sorting off.
  std::optional<std::vector<std::string>> local_sort_columns;
  std::optional<LocalSortMode> local_sort_mode;
  std::optional<int64_t> local_sort_memory_limit;
  std::optional<LocalSortScope> local_sort_scope;  // default: shoal.localSort.scope
  bool data_change = true;                         // add.dataChange
  std::optional<int64_t> modification_time_ms;     // default: the written file's mtime
};

class DataFileWriter {
 public:
  // `metadata` is the table's current metaData (schema, partition columns, configuration).
  static Result<std::unique_ptr<DataFileWriter>> Make(std::shared_ptr<io::FileSystem> fs, std::string table_root,
                                                      const delta::Metadata& metadata,
                                                      DataFileWriterOptions options = {});
  // A writer destroyed before Finish returned its add actions (a write that failed, or was
  // given up) deletes every file it wrote: the files still open (partly written), the closed
  // ones nobody received, and the sorters' spilled runs.
  ~DataFileWriter();

  // The logical schema batches must have (all table columns, partition columns included).
  const columnar::Schema& schema() const { return schema_; }

  // Checks constraints and writes the rows; nothing of a batch that fails a constraint is
  // written.
  Status Write(const columnar::RecordBatch& batch);
  // Closes every open file and returns the add actions of all files written.
  Result<std::vector<delta::AddFile>> Finish();

  // LocalSort counters: the most bytes the sorters held at once (buffers of all open files,
  // keys, merge chunks; not the Parquet writer's row group), and the runs spilled.
  int64_t local_sort_peak_memory_bytes() const { return sort_peak_; }
  // LocalSort with shoal.localSort.scope = 'write': all rows handed to this writer form one sorted
  // stream per partition (a caller with several producers should share one writer).
  bool sorts_whole_write() const {
    return !options_.local_sort && !sort_columns_.empty() && sort_scope_ == LocalSortScope::kWrite;
  }
  int local_sort_runs_spilled() const { return sort_runs_; }

 private:
  struct OpenFile;
  DataFileWriter() = default;
  Status CheckNotNull(const columnar::RecordBatch& batch) const;
  Status WriteToPartition(const std::string& dir, const delta::PartitionValues& values,
                          const columnar::RecordBatch& data);
  Status WriteRows(OpenFile* f, const columnar::RecordBatch& data);
  Status CloseFile(OpenFile* f);
  // LocalSort by properties: the rows into the partition's sorted stream.
  Status WriteSorted(const std::string& dir, const delta::PartitionValues& values, const columnar::RecordBatch& data);
  // Writes a sorted stream's rows into files cut at the target size on disk; the stream is
  // then removed from open_.
  // An empty collector of this table's file stats.
  Result<FileStatsCollector> MakeStatsCollector() const;
  Status FlushSorted(const std::string& dir);
  // The file's size budget in the in-memory bytes that est_bytes counts (see RawTarget in the
  // .cc).
  int64_t RawTarget() const;
  using OpenMap = std::map<std::string, std::unique_ptr<OpenFile>>;
  Result<std::unique_ptr<OpenFile>> OpenNew(const std::string& dir, const delta::PartitionValues& values);
  // The partition's open file (or sorted stream), opened when there is none.
  Result<OpenMap::iterator> OpenFor(const std::string& dir, const delta::PartitionValues& values);
  // Names the open file's next data file and starts its statistics (and its Parquet writer).
  Status StartFile(OpenFile* f, bool open_writer);
  Status ResolveLocalSort(parquet::WriterProperties::Builder* b);
  Status EnforceSortBudget();

  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
  DataFileWriterOptions options_;
  TableProperties props_;
  delta::SchemaField delta_root_;
  columnar::Schema schema_;           // logical, all columns
  columnar::Schema physical_schema_;  // data columns with physical names
  std::vector<int> data_columns_;     // indices of data columns in schema_
  std::vector<int> partition_columns_;
  std::vector<std::string> partition_keys_;  // physical names for partitionValues
  std::vector<delta::SchemaField> data_fields_;
  parquet::WriterProperties writer_props_;
  int64_t target_size_ = 0;
  int64_t closed_raw_ = 0;   // in-memory bytes of the files closed so far
  int64_t closed_disk_ = 0;  // their bytes on disk
  int file_counter_ = 0;
  OpenMap open_;  // by partition directory
  std::vector<delta::AddFile> adds_;
  std::vector<SortColumn> sort_columns_;  // indices into the data columns; empty: no LocalSort
  LocalSortMode sort_mode_ = LocalSortMode::kLexicographic;
  LocalSortScope sort_scope_ = LocalSortScope::kFile;
  std::shared_ptr<SpillLane> spill_lane_ = std::make_shared<SpillLane>();  // shared by the sorters
  int64_t sort_memory_limit_ = 0;
  int64_t sort_peak_ = 0;
  int sort_runs_ = 0;
};

// The Parquet-side type of a logical type under column mapping: struct fields renamed to
// their physical names (from the Delta schema node `f`).
columnar::TypePtr PhysicalType(const delta::SchemaField& f, const columnar::TypePtr& type, bool mapped);

}  // namespace shoal::table
