// The k-way merge of a spilling sort's runs (physical_sort.h): spill files of sorted batches
// whose columns are the data, then the evaluated sort keys, then two tie-break columns (the
// input chunk's order key and the row within it), read back block by block. Rows compare by the
// keys as RowComparator does (ASC/DESC, NULLS FIRST/LAST, NaN last, strings by bytes), then by
// the tie-break, so the merged order equals the stable in-memory sort's.
//
// Thread-safety: not thread-safe; one thread drives a merger.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sql/binder/sort_order.h"
#include "sql/execution/spill_file.h"

namespace shoal::sql {

class SortedRunMerger {
 public:
  // `key_from`: the first key column; `specs`: one per key.
  static Result<std::unique_ptr<SortedRunMerger>> Open(std::vector<std::unique_ptr<SpillFile>> runs,
                                                       size_t key_from, std::vector<SortSpec> specs);
  // Up to `rows` next rows in order (every column); null after the last. Each run is read one
  // block at a time; finished runs' files are deleted.
  Result<columnar::BatchPtr> Next(int64_t rows);

 private:
  struct Cursor {
    std::unique_ptr<SpillFile> file;
    columnar::BatchPtr block;
    int64_t row = 0;
  };
  // True when cursor a's current row sorts before b's.
  bool Before(const Cursor& a, const Cursor& b) const;
  // Moves `c` to its next row, reading its next block when needed; false at its end.
  Result<bool> Advance(Cursor* c);

  size_t key_from_ = 0;
  std::vector<SortSpec> specs_;
  std::vector<Cursor> cursors_;
  std::vector<int> heap_;  // cursor ids; heap_[0] sorts first
};

// <0, 0, >0 as row i of `a` sorts before, with, after row j of `b` (same type) under `spec`.
int CompareKeyRows(const columnar::Vector& a, int64_t i, const columnar::Vector& b, int64_t j, SortSpec spec);

}  // namespace shoal::sql
