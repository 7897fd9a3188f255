// ExternalSorter: sorts the rows of one data file (LocalSort) within a memory budget. Rows are
// buffered until the budget is reached, then the buffer is sorted by normalized keys
// (local_sort_key.h, or z-order keys from local_sort_zorder.h) and spilled as a sorted run — a
// Parquet file in the spill directory (the table's `_shoal/tmp/`) — and at Finish the runs and
// the last in-memory buffer are k-way merged into the sink. Runs are deleted once merged (and
// by the destructor on error paths). Memory stays near the budget: the buffer (raw column
// bytes plus key and permutation bytes) is kept under it, and the merge reads each run in
// chunks sized so that all chunks together fit it; more than max_merge_fan_in runs are first
// merged into bigger runs.
//
// Thread-safety: not thread-safe; one thread drives a sorter.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "table/local_sort_key.h"
#include "table/local_sort_zorder.h"
#include "table/table_properties.h"

namespace shoal::table {

struct ExternalSorterOptions {
  std::vector<SortColumn> columns;                     // indices into the sorter's schema
  LocalSortMode mode = LocalSortMode::kLexicographic;  // default: lexicographic
  int64_t memory_limit = int64_t{256} << 20;           // bytes; default 256 MiB
  std::string spill_dir;                               // required; created on the first spill
  int64_t output_batch_rows = 64 * 1024;               // rows per batch handed to the sink
  int max_merge_fan_in = 64;                           // runs merged at once (>= 2)
};

class ExternalSorter {
 public:
  using Sink = std::function<Status(const columnar::RecordBatch&)>;

  // InvalidArgument for a bad column list, an unsortable column or a non-positive limit.
  static Result<std::unique_ptr<ExternalSorter>> Make(std::shared_ptr<io::FileSystem> fs,
                                                      columnar::SchemaPtr schema, ExternalSorterOptions options);
  ~ExternalSorter();

  // Buffers the rows (copied), spilling sorted runs whenever the buffer reaches the limit.
  Status Add(const columnar::RecordBatch& batch);
  // Sorts the buffered rows and writes them as a run (no-op when empty).
  Status Spill();
  // Hands every row to `sink` in sorted order (batches of up to output_batch_rows rows; ties
  // keep arrival order), then deletes the runs. The sorter is empty afterwards.
  Status Finish(const Sink& sink);

  // Accounted bytes of the buffered rows (column bytes plus the keys and permutation a sort
  // of them needs).
  int64_t buffered_bytes() const;
  int64_t buffered_rows() const { return buffered_rows_; }
  // Most bytes held at once by the buffer, sort keys, permutations, spill-writer buffers and
  // merge chunks since Make.
  int64_t peak_memory_bytes() const { return peak_; }
  // Runs written so far (merge passes included).
  int runs_spilled() const { return runs_spilled_; }

 private:
  class Source;
  class MemorySource;
  class RunSource;
  struct SortedBuffer;

  ExternalSorter() = default;
  Status EnsureKeyEncoder(const columnar::RecordBatch& sample);
  KeyRows Encode(const columnar::RecordBatch& batch) const;
  // Takes the buffer out as one batch and sorts it.
  Result<SortedBuffer> SortBuffer();
  Result<std::string> NewRunPath();
  Status Merge(std::vector<std::unique_ptr<Source>> sources, const Sink& sink);
  void Track(int64_t bytes);
  int64_t RowCost() const;

  std::shared_ptr<io::FileSystem> fs_;
  columnar::SchemaPtr schema_;
  ExternalSorterOptions options_;
  std::optional<SortKeyEncoder> lex_;     // lexicographic keys (also sizes the key cost)
  std::optional<ZOrderKeyEncoder> zorder_;
  std::vector<columnar::VectorPtr> buffer_;  // one builder per column
  int64_t buffered_rows_ = 0;
  int64_t buffered_raw_ = 0;
  std::vector<std::string> runs_;  // spilled, not yet merged, in arrival order
  std::string run_prefix_;
  int run_counter_ = 0;
  int runs_spilled_ = 0;
  int64_t peak_ = 0;
};

}  // namespace shoal::table
