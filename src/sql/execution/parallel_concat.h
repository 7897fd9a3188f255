// ConcatColumnsParallel: concatenates the columns of many batches into one batch's columns with
// all threads copying: each output column is allocated once at its final size and every
// (column, run of input batches) piece is one task that copies its rows into place. Fixed-width
// and string columns are copied this way; nested columns fall back to one task per column.
//
// Thread-safety: reads the input batches only; call from one thread (it fans out itself).
#pragma once

#include <vector>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

// The first `ncols` columns of `batches` (a non-empty list), concatenated in list order.
Result<std::vector<columnar::VectorPtr>> ConcatColumnsParallel(ExecContext& ctx,
                                                               const std::vector<columnar::BatchPtr>& batches,
                                                               size_t ncols);

}  // namespace shoal::sql
