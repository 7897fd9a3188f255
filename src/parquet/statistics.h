// Column statistics, both directions: the writer's accumulators of min/max/null counts per page
// and column chunk (with the sort order each logical type demands, the NaN and ±0.0 rules and
// truncation of long binary bounds), and the reader's decoding of a chunk's Statistics into
// columnar::Value bounds that a scan may trust for pruning.
//
// Sort orders (parquet.thrift ColumnOrder / LogicalTypes.md): signed for INT32/INT64 (also
// DATE, TIME, TIMESTAMP, signed INTEGER, DECIMAL on ints), FLOAT/DOUBLE numerically ignoring
// NaN; unsigned for unsigned INTEGER; BYTE_ARRAY/FLBA unsigned byte-wise except DECIMAL, which
// compares as a signed big-endian number; BOOLEAN false < true; INT96 and unknown: undefined.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/value.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "shoal/status.h"

namespace shoal::parquet {

enum class SortOrder : uint8_t { kSigned, kUnsigned, kUnknown };

// How the values of a leaf column compare, from its physical and logical type.
enum class StatsKind : uint8_t {
  kBoolean,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kBytes,        // unsigned lexicographic (strings, binary, FLBA without DECIMAL)
  kSignedBytes,  // big-endian two's complement (DECIMAL on BYTE_ARRAY / FLBA)
  kNone,         // undefined order (INT96, INTERVAL, unknown)
};

// The comparison of a column described by one schema element.
StatsKind StatsKindOf(const SchemaElement& element);
SortOrder SortOrderOf(StatsKind kind);

// Compares two PLAIN-encoded bounds (BYTE_ARRAY without length prefix) of `kind`:
// <0, 0, >0. Float/double compare numerically (NaN is not expected here).
int CompareEncoded(StatsKind kind, std::string_view a, std::string_view b);

// Accumulates min, max and null count over values of one page or column chunk.
// Thread-safety: not thread-safe; one per column writer.
class StatsAccumulator {
 public:
  // `truncate_bytes` bounds the length of binary min/max when encoded (0: never truncate).
  explicit StatsAccumulator(StatsKind kind = StatsKind::kNone, int64_t truncate_bytes = 64)
      : kind_(kind), truncate_(truncate_bytes) {}

  void Reset();
  // Fixed-width values in their physical layout: BOOLEAN as 0/1 bytes, INT32/INT64, FLOAT,
  // DOUBLE. kUInt32/kUInt64 read the same bytes unsigned.
  void UpdateFixed(const void* values, int64_t n);
  // Byte arrays as n+1 offsets into bytes.
  void UpdateByteArrays(const int64_t* offsets, const uint8_t* bytes, int64_t n);
  // FIXED_LEN_BYTE_ARRAY values of `width` bytes each.
  void UpdateFixedLenByteArrays(const uint8_t* values, int width, int64_t n);
  void AddNulls(int64_t n) { null_count_ += n; }
  void AddValues(int64_t n) { num_values_ += n; }  // counts values (including NaN)
  void Merge(const StatsAccumulator& other);

  StatsKind kind() const { return kind_; }
  bool has_min_max() const { return has_min_max_; }
  int64_t null_count() const { return null_count_; }
  int64_t num_values() const { return num_values_; }

  // The PLAIN encoding of the bounds, binaries truncated (max rounded up) and ±0.0 fixed
  // (min written as -0.0, max as +0.0). Only when has_min_max().
  std::string EncodedMin(bool* exact) const;
  std::string EncodedMax(bool* exact) const;
  // The thrift Statistics: min_value/max_value (+ exactness), null_count, and the deprecated
  // min/max too where the sort order is signed and values are numeric.
  Statistics ToThrift() const;

 private:
  template <typename T>
  void UpdateNumeric(const T* v, int64_t n);
  template <typename T>
  void UpdateFloating(const T* v, int64_t n);
  void UpdateBytes(std::string_view lo, std::string_view hi);

  StatsKind kind_;
  int64_t truncate_;
  bool has_min_max_ = false;
  int64_t null_count_ = 0;
  int64_t num_values_ = 0;
  // Numeric bounds (integers as int64 / uint64 bit patterns, floats as double).
  int64_t imin_ = 0, imax_ = 0;
  double dmin_ = 0, dmax_ = 0;
  // Binary bounds, untruncated.
  std::string smin_, smax_;
};

// Truncates a binary lower bound to at most n bytes (a prefix, at a UTF-8 boundary when
// `utf8`). *exact is false when it was cut.
std::string TruncateMin(std::string_view v, int64_t n, bool utf8, bool* exact);
// Truncates a binary upper bound to at most n bytes and rounds it up so it stays >= every
// string with the original as prefix; returns v whole when no shorter bound exists.
std::string TruncateMax(std::string_view v, int64_t n, bool utf8, bool* exact);

// A column chunk's statistics as bounds a scan may rely on.
struct ColumnStats {
  std::optional<columnar::Value> min;  // absent when unknown or not trustworthy
  std::optional<columnar::Value> max;
  bool min_exact = true;  // false: min is a lower bound that need not occur (truncated)
  bool max_exact = true;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<int64_t> nan_count;
};

// Decodes the Statistics of a column chunk (or a page) of `leaf` (columnar type and
// conversion from schema.h) whose schema element is `element`. `column_order` is
// FileMetaData::column_orders[leaf.index] when the file has one. min_value/max_value are used
// when the column order is TYPE_ORDER (or, without a column order, when the sort order is
// signed); the deprecated min/max only for signed sort orders. Float bounds that are NaN are
// dropped; a min of +0.0 reads as -0.0 and a max of -0.0 as +0.0. Corruption when a bound has
// the wrong size for its physical type.
Result<ColumnStats> DecodeStatistics(const Statistics& stats, const LeafColumn& leaf,
                                     const SchemaElement& element,
                                     const std::optional<ColumnOrder>& column_order);

// Converts one PLAIN-encoded physical value (BYTE_ARRAY without length) of `leaf` into a
// Value of its columnar type; nullopt when the conversion is not supported for bounds.
Result<std::optional<columnar::Value>> DecodeBound(std::string_view bytes, const LeafColumn& leaf);

}  // namespace shoal::parquet
