// Z-order keys for LocalSort (shoal.localSort.mode = zorder): maps each sort column's values to
// rank ids against quantile boundaries fixed from a sample, interleaves the ids' bits into a
// 64-bit z-value, and emits it as an 8-byte memcmp-comparable key. The boundaries are chosen
// once per file (from the first buffered rows) so every spilled run of an external sort is
// keyed alike and runs can be merged. Rank ids (not raw bits) keep skewed columns spread: a
// value that fills half the sample gets one id, the other values share the rest.
// (OPTIMIZE ZORDER BY has its own whole-data variant in table/zorder.h.)
//
// Thread-safety: immutable after Make; Encode may be called concurrently.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "shoal/status.h"
#include "table/local_sort_key.h"

namespace shoal::table {

class ZOrderKeyEncoder {
 public:
  // Most boundaries kept per column (rank ids 0..kMaxBoundaries).
  static constexpr int kMaxBoundaries = 1023;
  // Rows sampled (evenly strided) from `sample` to choose boundaries.
  static constexpr int64_t kSampleRows = 64 * 1024;

  // `columns` index `schema` (descending / nulls_first are ignored: NULL ranks lowest).
  // InvalidArgument for no columns or an unsortable type.
  static Result<ZOrderKeyEncoder> Make(const columnar::Schema& schema, const std::vector<SortColumn>& columns,
                                       const columnar::RecordBatch& sample);

  int bits_per_column() const { return bits_; }
  // The rank id of row `row` of `batch` for sort column k (for tests).
  uint32_t Rank(size_t k, const KeyRows& column_keys, int64_t row) const;

  // Keys of width 8 (big-endian z-values), no tie-breaks.
  KeyRows Encode(const columnar::RecordBatch& batch) const;

 private:
  uint32_t ScaleRank(int64_t le, int64_t nb) const;
  // Rank of every row of `keys` (column k's single-column keys) for sort column k.
  void Ranks(size_t k, const KeyRows* keys, uint32_t* out) const;

  int bits_ = 0;
  std::vector<SortKeyEncoder> column_encoders_;     // one single-column encoder per sort column
  std::vector<std::vector<uint8_t>> boundaries_;    // per column: sorted distinct keys, width each
};

}  // namespace shoal::table
