// ParallelSortIndices: the stable sort permutation of ORDER BY keys computed by all threads:
// the keys are normalized in pieces (one task each), the rows are cut into one contiguous run
// per worker, each run is sorted by its own task (in chunks merged pairwise), and the runs are
// merged k-way in parallel: splitter rows sampled from the sorted runs cut every run (by binary
// search) into aligned pieces, and each piece set is merged by one task into its place in the
// output. Every step hears Ctrl-C at least every 2^16 rows. Ties are broken by row index, so the
// result equals SortIndices' stable order.
//
// Thread-safety: reads `keys` only; call from one thread (it fans out through ctx.pool).
#pragma once

#include <cstdint>
#include <vector>

#include "sql/binder/sort_order.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

// Row indices [0, n) of `keys` in sorted order (as SortIndices with no limit).
Result<std::vector<uint32_t>> ParallelSortIndices(ExecContext& ctx, const std::vector<const columnar::Vector*>& keys,
                                                  const std::vector<SortSpec>& specs, int64_t n);

// The same on the calling thread only (a sink's worker may not fan out), hearing Ctrl-C as
// ParallelSortIndices does.
Result<std::vector<uint32_t>> SerialSortIndices(const ExecContext& ctx, const std::vector<const columnar::Vector*>& keys,
                                                const std::vector<SortSpec>& specs, int64_t n);

}  // namespace shoal::sql
