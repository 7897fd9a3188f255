// ExternalSorter: sorts the rows of one sorted stream (LocalSort: a file's rows, or a whole
// write's, which the DataFileWriter cuts into files) within a memory budget. Rows are
// buffered until the budget is reached (batches of flat columns are kept by reference, not
// copied; small batches are copied together), only the sort columns are encoded into keys, then the
// buffer is sorted by normalized keys (local_sort_key.h, or z-order keys from local_sort_zorder.h)
// and spilled as a sorted run — a Parquet file in the spill directory (the table's `_shoal/tmp/`) —
// and at Finish the runs and the last in-memory buffer are k-way merged into the sink (chunk by
// chunk, each chunk taken from the runs in spans and gathered on a producer thread up to two
// chunks ahead of the sink). Runs are deleted once merged (and by the destructor on error paths). Memory stays near the
// budget: the buffer (raw column bytes plus key and permutation bytes) is kept under it, and the
// merge reads each run in chunks sized so that all chunks together fit it; more than
// max_merge_fan_in runs are first merged into bigger runs. With lexicographic keys of flat columns
// (and two cores), every kept batch is sorted on a worker thread as it arrives (batch_runs.h), and
// the buffer's order is then a lazy merge of those batch runs instead of a sort of the whole
// buffer.
//
// Spilling runs on a background thread (with two cores): the sorted buffer is handed to it, and
// the buffer fills again while the run is written; the next Spill, Finish or the destructor
// waits for it, and its error surfaces there.
//
// Thread-safety: not thread-safe; one thread drives a sorter.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "table/batch_runs.h"
#include "table/coded_gather.h"
#include "table/local_sort_key.h"
#include "table/local_sort_zorder.h"
#include "table/table_properties.h"

namespace shoal::parquet {
class ParquetWriter;
}  // namespace shoal::parquet

namespace shoal::table {

// Lets one sorter at a time write a run in the background; a DataFileWriter's streams share
// one, so the run writers' chunks and page buffers are held for one run at a time.
class SpillLane {
 public:
  // Waits until no run is being written through the lane, then takes it.
  void Acquire();
  void Release();

 private:
  std::mutex mu_;
  std::condition_variable free_;
  bool busy_ = false;
};

struct ExternalSorterOptions {
  std::vector<SortColumn> columns;                     // indices into the sorter's schema
  LocalSortMode mode = LocalSortMode::kLexicographic;  // default: lexicographic
  int64_t memory_limit = int64_t{256} << 20;           // bytes; default 256 MiB
  std::string spill_dir;                               // required; created on the first spill
  int64_t output_batch_rows = 64 * 1024;               // rows per batch handed to the sink
  int max_merge_fan_in = 64;                           // runs merged at once (2 to 4096)
  // Lexicographic keys of flat schemas: sort each kept batch on a worker thread as it arrives
  // and merge those runs at the end (batch_runs.h), when the machine has a second core.
  bool sort_while_adding = true;
  // Write each run on a background thread while Add buffers the next rows, when the machine has
  // a second core: the buffer then fills to half the budget, the other half being the run in
  // writing (so runs hold half as many rows).
  bool spill_in_background = true;
  std::shared_ptr<SpillLane> spill_lane;  // null: the sorter's own
};

class ExternalSorter {
 public:
  using Sink = std::function<Status(const columnar::RecordBatch&)>;
  using Prepare = std::function<void(const columnar::RecordBatch&)>;

  // InvalidArgument for a bad column list, an unsortable column or a non-positive limit.
  static Result<std::unique_ptr<ExternalSorter>> Make(std::shared_ptr<io::FileSystem> fs,
                                                      columnar::SchemaPtr schema, ExternalSorterOptions options);
  ~ExternalSorter();

  // Buffers the rows, spilling sorted runs whenever the buffer reaches the limit. A batch of
  // 4096 rows or more whose columns are all flat is kept by reference (its vectors are shared,
  // so the caller must not modify them afterwards); other rows are copied.
  Status Add(const columnar::RecordBatch& batch);
  // Sorts the buffered rows and writes them as a run (no-op when empty).
  Status Spill();
  // Hands every row to `sink` in sorted order (batches of up to output_batch_rows rows; ties
  // keep arrival order), then deletes the runs. The sorter is empty afterwards. `prepare`, when
  // set, sees every batch before `sink` does, in the same order, on the thread that gathered it
  // (so possibly while `sink` takes an earlier batch): work on a batch that needs no ordering
  // with the sink goes there, off the sink's thread.
  Status Finish(const Sink& sink, const Prepare& prepare = nullptr);

  // Accounted bytes of the buffered rows (column bytes plus the keys and permutation a sort
  // of them needs), plus those of the run a background spill is writing.
  int64_t buffered_bytes() const;
  // The buffered rows' accounted bytes alone (not those of a run in writing).
  int64_t buffer_bytes() const;
  // Waits for the run being written in the background, if any; its error.
  Status WaitForSpill();
  // What buffering `batch` would add to buffered_bytes().
  int64_t BytesToAdd(const columnar::RecordBatch& batch) const;
  int64_t buffered_rows() const { return buffered_rows_; }
  // Most bytes held at once by the buffer, sort keys, permutations, spill-writer buffers and
  // merge chunks since Make.
  int64_t peak_memory_bytes() const { return peak_; }
  // Runs written so far (merge passes included).
  int runs_spilled() const { return runs_spilled_; }
  // Runs spilled (or being written) and not yet merged; more than max_merge_fan_in() of them
  // take a merge pass more at Finish.
  int runs_pending() const { return static_cast<int>(runs_.size()); }
  int max_merge_fan_in() const { return options_.max_merge_fan_in; }

 private:
  class Source;
  class MemorySource;
  class RunSource;
  class ChunkMerger;
  struct SortedBuffer;
  // Rows [begin, begin+rows) of a buffered batch; at most kSegmentRows rows, so a row is
  // addressed by one 32-bit code (segment << 16 | row in segment).
  struct Segment {
    columnar::BatchPtr batch;
    int64_t begin = 0;
    int64_t rows = 0;
  };
  static constexpr int64_t kSegmentRows = int64_t{1} << 16;

  ExternalSorter() = default;
  Status EnsureKeyEncoder(const columnar::RecordBatch& key_sample);
  // Keys of a full-schema batch (encoders see only the sort columns).
  KeyRows Encode(const columnar::RecordBatch& batch) const;
  columnar::RecordBatch KeyColumns(const columnar::RecordBatch& batch) const;
  // Moves the copied rows into a kept batch.
  void FlushPending();
  void Keep(columnar::BatchPtr batch);
  // Takes the buffer out (its batches and segments; the counters reset).
  void TakeBuffer(SortedBuffer* out, std::vector<Segment>* segments);
  // Per column, the segments' pointers for the coded gather.
  std::vector<SegmentColumn> SegmentColumns(const std::vector<Segment>& segments) const;
  // Takes the buffer out sorted: merging the batch runs when every batch has one, else by
  // sorting it whole (SortBuffer).
  Result<SortedBuffer> SortedInMemory();
  // Takes the buffer out as one batch and sorts it.
  Result<SortedBuffer> SortBuffer();
  Result<std::string> NewRunPath();
  // Writes a sorted buffer as a run through `writer` and closes it (on the spill thread when
  // spilling in the background).
  Status WriteRun(const SortedBuffer& sorted, parquet::ParquetWriter* writer);
  // What the buffer may hold before it is spilled.
  int64_t FillLimit() const { return background_ ? options_.memory_limit / 2 : options_.memory_limit; }
  Status Merge(std::vector<std::unique_ptr<Source>> sources, const Sink& sink, const Prepare& prepare = nullptr);
  // Peak accounting: the buffer side (the driving thread) and the spill side (the run being
  // written) each publish their bytes; the peak is the most both held at once.
  void Track(int64_t bytes);
  void TrackSpill(int64_t bytes);
  void RaisePeak(int64_t bytes);
  int64_t RowCost() const;

  std::shared_ptr<io::FileSystem> fs_;
  columnar::SchemaPtr schema_;
  ExternalSorterOptions options_;
  columnar::SchemaPtr key_schema_;        // the sort columns only
  std::vector<int> key_columns_;          // their indices in schema_
  bool flat_ = true;                      // no nested columns: batches may be kept by reference
  std::optional<SortKeyEncoder> lex_;     // lexicographic keys over key_schema_ (also sizes the key cost)
  std::optional<ZOrderKeyEncoder> zorder_;
  std::unique_ptr<BatchRunSorter> batch_runs_;  // set: kept batches are sorted as they arrive
  std::vector<columnar::BatchPtr> kept_;     // buffered batches, arrival order
  std::vector<Segment> segments_;            // kept_ cut into segments, arrival order
  std::vector<columnar::VectorPtr> pending_;  // builders for copied rows (one per column)
  int64_t pending_rows_ = 0;
  int64_t pending_raw_ = 0;
  int64_t kept_raw_ = 0;
  int64_t buffered_rows_ = 0;
  int64_t buffered_raw_ = 0;
  std::vector<columnar::VectorPtr> out_cols_;  // gather output, reused between batches
  std::vector<std::string> runs_;  // spilled, not yet merged, in arrival order
  std::string run_prefix_;
  int run_counter_ = 0;
  int runs_spilled_ = 0;
  bool background_ = false;                   // spill_in_background and a second core
  std::thread spill_thread_;                  // the background spill, joined by WaitForSpill
  Status spill_status_;                       // its result, read after the join
  std::atomic<int64_t> spill_accounted_{0};   // the run in writing: its buffer's bytes when taken
  std::vector<columnar::VectorPtr> spill_cols_;  // the run writer's gather output
  std::atomic<int64_t> buffer_now_{0};
  std::atomic<int64_t> spill_now_{0};
  std::atomic<int64_t> peak_{0};
};

}  // namespace shoal::table
