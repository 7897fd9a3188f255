// Export of shoal's columnar batches through the Arrow C Data Interface (shoal/arrow_c.h):
// fixed-width values, string bytes and 64-bit offsets are shared with the batch (kept alive by
// the release callback); validity bytes become bitmaps, booleans bit-packed, DECIMAL(p<=18)
// widened to 128 bits and MAP offsets narrowed to 32 bits (Arrow's map has only those).
//
// Thread-safety: pure functions; an exported array may be released from any thread.
#pragma once

#include <vector>

#include "columnar/vector.h"
#include "shoal/arrow_c.h"
#include "shoal/status.h"

namespace shoal::sql {

// The Arrow format string of `type` ("l", "d:38,2", "tsu:UTC", "+L", ...).
Result<std::string> ArrowFormat(const columnar::DataType& type);
// Writes `schema` as a struct ("+s") schema with one child per column.
Status ExportArrowSchema(const columnar::Schema& schema, ArrowSchema* out);
// Writes `batch` as a struct array of its columns.
Status ExportArrowBatch(const columnar::BatchPtr& batch, ArrowArray* out);
// Writes into *out (which must not hold a live stream) a stream over batches already in memory,
// each exported as ExportArrowBatch does (sharing its buffers): what the Python module's
// Relation.__arrow_c_stream__ hands out. Each batch must have `schema`'s columns.
Status ExportArrowBatches(columnar::SchemaPtr schema, std::vector<columnar::BatchPtr> batches, ArrowArrayStream* out);

}  // namespace shoal::sql
