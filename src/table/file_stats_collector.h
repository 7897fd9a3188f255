// Collects the per-file statistics of the Delta log (PROTOCOL.md "Per-file Statistics") while
// a data file is written: numRecords, and per leaf column minValues, maxValues and nullCount,
// in the JSON forms Spark writes (timestamps as ISO text with milliseconds, strings truncated
// to 32 characters with a max that stays an upper bound).
//
// Which leaves: the first delta.dataSkippingNumIndexedCols leaves of the data (non-partition)
// columns in schema order, struct fields flattened, or exactly delta.dataSkippingStatsColumns.
// Min/max are collected for numbers, dates, timestamps and strings; boolean, binary, array and
// map columns and decimals wider than 15 digits get only nullCount. Timestamp min is rounded
// down and max up to the millisecond, so bounds stay safe for any reader.
//
// Thread-safety: not thread-safe; one collector per file being written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/schema_json.h"
#include "delta/stats_json.h"
#include "shoal/status.h"

namespace shoal::table {

inline constexpr int kStatsStringPrefixChars = 32;

// One column the collector tracks.
struct StatsLeaf {
  delta::ColumnPath logical;      // names as the user sees them
  delta::ColumnPath physical;     // names in the stats JSON (physical with column mapping)
  std::vector<int> index_path;    // column index in the batch, then struct child indices
  columnar::TypePtr type;
};

class FileStatsCollector {
 public:
  // `data_fields`: the table's data columns (Delta schema nodes, in batch column order);
  // `use_physical`: key stats by column-mapping physical names. `num_indexed_cols` -1 = all.
  // InvalidArgument when a stats column names no column.
  static Result<FileStatsCollector> Make(const std::vector<delta::SchemaField>& data_fields,
                                         const std::vector<columnar::TypePtr>& data_types, bool use_physical,
                                         int64_t num_indexed_cols,
                                         const std::optional<std::vector<std::string>>& stats_columns);

  // Adds the rows of a batch (the data columns, in order).
  void Update(const columnar::RecordBatch& batch);
  // Adds what another collector of the same columns saw (as if its batches were added here), so
  // batches may be collected apart (on another thread) and combined.
  void Merge(const FileStatsCollector& other);
  void Reset();
  int64_t num_records() const { return num_records_; }
  const std::vector<StatsLeaf>& leaves() const { return leaves_; }

  delta::FileStats ToFileStats() const;
  std::string ToJson() const { return delta::SerializeStatsJson(ToFileStats()); }

 private:
  struct Acc {
    int64_t nulls = 0;
    bool has = false;
    int64_t imin = 0, imax = 0;
    double dmin = 0, dmax = 0;
    std::string smin, smax;
  };
  void UpdateLeaf(size_t leaf, const columnar::Vector& v, const uint8_t* valid, int64_t n);

  std::vector<StatsLeaf> leaves_;
  std::vector<Acc> accs_;
  int64_t num_records_ = 0;
  std::vector<uint8_t> mask_;  // reused per batch: combined ancestor validity
};

// The stats text forms, exposed for tests.
// Lower bound: the first 32 code points of a UTF-8 string.
std::string StatsStringMin(std::string_view s);
// Upper bound: s itself when short; else its 32-code-point prefix followed by U+10FFFF (or s
// whole when the next code point is already U+10FFFF).
std::string StatsStringMax(std::string_view s);
// "YYYY-MM-DDTHH:MM:SS.mmm" (+ "Z" when utc) of micros rounded down (round_up: up) to ms;
// nullopt for years outside 0..9999.
std::optional<std::string> StatsTimestamp(int64_t micros, bool utc, bool round_up);

}  // namespace shoal::table
