// Z-order (Morton) clustering keys for OPTIMIZE ... ZORDER BY: each column's values are mapped to
// range ids by rank (quantile boundaries of a sample, so skewed columns still spread their
// other values over many ranges), the ids' bits are interleaved into one 64-bit z-value, and
// rows are ordered by it. Rows close in z-order are close in every column, so each output
// file's min/max range is narrow in all of them.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::table {

struct ZOrderOptions {
  // Bits of range id per column: min(this, 64 / number of columns); default 16 (65536 ranges).
  int max_bits_per_column = 16;
  // Non-null values sampled per column to choose range boundaries; default 1M (all when fewer).
  int64_t sample_rows = int64_t{1} << 20;
  // Seed of the sample; fixed so that the same data gives the same layout.
  uint64_t seed = 0x5a4f52444552ULL;
};

// True when ZORDER BY can use a column of this type (booleans, numbers, decimals, strings,
// binary, dates, times, timestamps; not nested types).
bool ZOrderSupportsType(const columnar::DataType& type);

// Range ids of one column, spread over [0, 2^bits): NULL is 0, a value is its rank among
// quantile boundaries of a sample of the column's non-null values, scaled so the ranks use the
// whole id space (a two-valued column splits at the top bit). Monotone: a < b implies id(a) <=
// id(b). InvalidArgument for unsupported types or bits outside [1, 32].
Result<std::vector<uint32_t>> ZOrderRangeIds(const columnar::Vector& column, int bits,
                                             const ZOrderOptions& options = {});

// Interleaves `ids` (one vector per column, equal lengths, each id < 2^bits) into z-values: bit
// b of column c goes to bit b*d + (d-1-c), so the columns' top bits come first and column 0
// leads within each bit group. Requires bits * ids.size() <= 64.
std::vector<uint64_t> InterleaveBits(const std::vector<std::vector<uint32_t>>& ids, int bits);

// The row order of `columns` (equal lengths) by z-value, ties by row index: a permutation of
// 0..n-1. InvalidArgument for no columns, unequal lengths, unsupported types or more than
// 2^32-1 rows.
Result<std::vector<uint32_t>> ZOrderPermutation(const std::vector<const columnar::Vector*>& columns,
                                                const ZOrderOptions& options = {});

}  // namespace shoal::table
