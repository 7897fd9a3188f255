// Dremel shredding: turns the rows of a (possibly nested) column vector into, for each leaf
// column under it, definition levels, repetition levels and the positions of the leaf values
// that are present. Flat columns take a fast path without per-row recursion.
//
// Thread-safety: not thread-safe; one LevelBuilder per writer.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "parquet/write_schema.h"
#include "shoal/status.h"

namespace shoal::parquet {

// The shredded rows of one leaf column. Values are the leaf vector's rows `dense_begin ..
// dense_begin + num_values` when `dense`, else its rows `value_rows`.
struct ShreddedLeaf {
  std::vector<uint16_t> def;  // empty when max_def == 0
  std::vector<uint16_t> rep;  // empty when max_rep == 0
  int64_t num_levels = 0;
  const columnar::Vector* values = nullptr;
  bool dense = true;
  int64_t dense_begin = 0;
  std::vector<int64_t> value_rows;
  int64_t num_values = 0;

  void Clear() {
    def.clear();
    rep.clear();
    value_rows.clear();
    num_levels = 0;
    num_values = 0;
    values = nullptr;
    dense = true;
    dense_begin = 0;
  }
};

class LevelBuilder {
 public:
  // Shreds rows [begin, end) of `column` (the vector of top-level field `field`) into
  // out[leaf - field.first_leaf] for each of its leaves (out is resized). InvalidArgument when
  // a NULL appears where the schema says REQUIRED (e.g. a NOT NULL column or a map key).
  Status Shred(const WriteNode& field, const WriteSchema& schema, const columnar::Vector& column, int64_t begin,
               int64_t end, std::vector<ShreddedLeaf>* out);

 private:
  Status Visit(const WriteNode& n, const columnar::Vector& v, int64_t i, uint16_t def, uint16_t rep);
  void EmitEmpty(const WriteNode& n, uint16_t def, uint16_t rep);

  const WriteSchema* schema_ = nullptr;
  std::vector<ShreddedLeaf>* out_ = nullptr;
  int base_ = 0;
};

}  // namespace shoal::parquet
