// Import of Arrow C Data Interface arrays (shoal/arrow_c.h) into shoal's columnar vectors: the
// types shoal has (doc/embedding.md lists the mapping; smaller unsigned integers widen, other
// time units convert to microseconds), copied into shoal's layout. Other formats are
// NotSupported naming the format string; malformed arrays (missing buffers, offsets out of
// range) are InvalidArgument — never a crash on what can be checked.
//
// Thread-safety: pure functions; the arrays are only read.
#pragma once

#include "columnar/vector.h"
#include "shoal/arrow_c.h"
#include "shoal/status.h"

namespace shoal::sql {

// The shoal type of an Arrow schema node (its children included).
Result<columnar::TypePtr> ImportArrowType(const ArrowSchema& schema);
// Rows [start, start + length) of `array` (described by `schema`, imported as `type`).
Result<columnar::VectorPtr> ImportArrowArray(const ArrowSchema& schema, const ArrowArray& array,
                                             const columnar::TypePtr& type, int64_t start, int64_t length);

}  // namespace shoal::sql
