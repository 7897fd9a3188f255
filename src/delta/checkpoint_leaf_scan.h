// Reads the add / remove rows of a Parquet checkpoint straight from the leaf columns a snapshot
// needs, without assembling nested column vectors: per run of rows each needed leaf's
// definition/repetition levels and dense values are decoded (on a second thread, overlapping
// with the rows being built), and AddFile / RemoveFile are filled from them. Leaves a snapshot
// never uses (stats_parsed, partitionValues_parsed, other action columns' fields) are never
// read; other action columns only have one leaf probed for which rows hold them.
//
// Same contract as FileActionColumnDecoder, whose rules it mirrors: it never decides an error.
// At the first row it cannot decode with certainty it stops, and the caller continues that row
// group from that row through the generic route (which gives the canonical result or error).
// Thread-safety: one scan per file, used by one thread; it runs one helper thread internally
// while a row group is read.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/checkpoint_reader.h"
#include "parquet/file_reader.h"
#include "shoal/status.h"

namespace shoal::delta {

class CheckpointLeafScan {
 public:
  // Called for a row's non-add/remove action column (its index in `columns`), in row order.
  using OtherRowFn = std::function<Status(int row_group, int64_t row, int column)>;

  // `columns` are the top-level fields of `reader` holding actions (names in `names`), in the
  // order rows emit them. `reader` must outlive the scan.
  CheckpointLeafScan(const parquet::ParquetReader& reader, std::vector<int> columns,
                     std::vector<std::string> names);
  ~CheckpointLeafScan();
  CheckpointLeafScan(const CheckpointLeafScan&) = delete;
  CheckpointLeafScan& operator=(const CheckpointLeafScan&) = delete;

  // False when the add/remove columns have a shape this scan does not know (a required
  // child missing, a map without values, an unexpected type): use the generic route instead.
  bool usable() const { return usable_; }

  // Emits the actions of row group `rg` in row order: add/remove rows through `sink`, other
  // action columns through `other`. With `files`, add rows instead go to it column-wise, a
  // FileList per run (after the run's other actions). Returns the row at which it stopped (the
  // row group's row count when it read every row); rows before it were emitted completely,
  // none after.
  Result<int64_t> ReadRowGroup(int rg, const ActionSink& sink, const OtherRowFn& other,
                               const FileListSink* files = nullptr);

  // Rows per decoded run (tests use small runs to cross run boundaries).
  void set_run_rows(int64_t n) { run_rows_ = n; }

  struct Plan;  // leaf slots of the add/remove/other columns (checkpoint_leaf_scan.cc)

 private:
  const parquet::ParquetReader& reader_;
  std::unique_ptr<Plan> plan_;
  bool usable_ = false;
  int64_t run_rows_ = 32 * 1024;
};

}  // namespace shoal::delta
