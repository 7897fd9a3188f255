// The batches a Relation hands to Arrow: the rows left after its read position, cut to a
// requested batch size (fetch_arrow_reader(batch_size)).
//
// Thread-safety: needs the caller to own the cursor (the GIL serializes Relation calls).
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "result_convert.h"

namespace shoal::python {

// The cursor's remaining rows as batches (the batch it stands inside sliced), moving it to the
// end. With batch_size > 0 they are cut into batches of exactly batch_size rows (the last one
// shorter), copying where a batch is cut or joined; with 0 the result's own batches are shared.
std::vector<columnar::BatchPtr> TakeRemaining(ResultCursor* cursor, int64_t batch_size);

}  // namespace shoal::python
