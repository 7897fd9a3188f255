// Record assembly (Dremel): turns the definition/repetition levels and dense values of a
// field's leaf columns into one nested column vector — validity, list offsets, struct
// children, maps — for arbitrary nesting. Inconsistent levels are Corruption, never a crash.
//
// Thread-safety: pure function.
#pragma once

#include <vector>

#include "columnar/vector.h"
#include "parquet/column_reader.h"
#include "parquet/schema.h"

namespace shoal::parquet {

// Assembles `num_records` rows of `field`. `leaves[i]` holds the levels of leaf
// field.first_leaf + i; `leaf_meta` is the schema's leaf list.
Result<columnar::VectorPtr> AssembleRecords(const FieldNode& field, const std::vector<LeafLevels>& leaves,
                                            const std::vector<LeafColumn>& leaf_meta, int64_t num_records);

}  // namespace shoal::parquet
