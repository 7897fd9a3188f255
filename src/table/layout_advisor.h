// Picks a LocalSort key for a table from its query history (query_log.h) and its statistics
// (doc/local_sort.md "Automatic choice"). Pure: a cost model, no I/O.
//
// The model: a sorted file is read in granules (pages of `rows_per_granule` rows) whose min/max
// prune. For a lexicographic key (k1, k2, ...) a filter selecting a fraction s1 of k1 reads
// about s1 of the data in one piece; an equality on k1 keeps k2 sorted inside the piece, a range
// on k1 (or an unconstrained k1) splits k2 into one run per distinct k1 value, and every run
// touched costs at least one granule. So a filter on k2 alone prunes well only when k1 has few
// distinct values — low-cardinality columns go first. For a z-order key over d columns each
// filtered column keeps max(s, g^(1/d)) of the data (g: granule fraction). A shape's benefit is
// count x baseline bytes x (1 - read fraction); a key's score is the sum over shapes.
// Given a LayoutMeasure (layout_measure.h: the same questions answered on a sample of the
// table's rows), read fractions, the current order's and each key's storage are measured
// instead, and "keep the current order" competes with every key.
//
// Thread-safety: pure functions over plain values (a LayoutMeasure is used by one thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "table/query_log.h"
#include "table/table_properties.h"

namespace shoal::table {

// Parquet footer key-value entry naming the LocalSort key a data file was written with
// (SortKey::ToString()); OPTIMIZE compares it with the table's current key.
inline constexpr std::string_view kLocalSortKeyMetadata = "shoal.localSort";

struct SortKey {
  LocalSortMode mode = LocalSortMode::kLexicographic;
  std::vector<std::string> columns;
  bool empty() const { return columns.empty(); }
  // "(a, b)" or "zorder(a, b)"; "none" when empty.
  std::string ToString() const;
  bool operator==(const SortKey&) const = default;
};

struct ColumnStats {
  std::string name;
  bool sortable = true;         // a type LocalSort accepts
  bool partition = false;       // constant within a file: never a sort candidate
  double distinct_estimate = 0; // 0: unknown
};

struct TableStats {
  int64_t rows = 0;   // live rows
  int64_t bytes = 0;  // data file bytes
  int64_t rows_per_granule = 20000;  // page size in rows (the writer's page cut)
  std::vector<ColumnStats> columns;
};

struct AdvisorOptions {
  size_t max_candidate_columns = 6;  // columns considered (by workload weight)
  size_t max_key_columns = 3;
  double min_history = 8;            // fewer recorded queries: no recommendation
  double switch_gain = 1.10;         // a new key must score this much better than the current one
  double tie_tolerance = 0.005;      // scores this close count as equal (then prefer simpler keys)
  size_t max_storage_measured = 8;   // with a LayoutMeasure: keys (best on reads) whose storage is measured
};

// Read fractions and storage measured on data rather than modelled (layout_measure.h). The
// advisor asks; nullopt (or 1 for storage) means "not measurable": the model answers instead.
class LayoutMeasure {
 public:
  virtual ~LayoutMeasure() = default;
  // Share of the table's rows a query of `shape` (terms' selectivities `term_selectivity`)
  // reads with every file sorted by `key`; the current files as they are when `key` is null.
  virtual std::optional<double> ReadFraction(const SortKey* key, const QueryShape& shape,
                                             const std::vector<double>& term_selectivity) = 0;
  // Table bytes with the files sorted by `key`, relative to the current files' bytes.
  virtual double StorageRatio(const SortKey& key) = 0;
};

// What a key does for one shape of the workload.
struct ShapeBenefit {
  std::string shape;       // QueryShape::Key()
  double count = 0;
  double selectivity = 1;  // observed rows out / rows in
  double read_fraction = 1;  // share of the table's granules read under the key
  bool measured = false;     // read_fraction measured on a sample (else modelled)
  double skipped_rows = 0;   // per query
  double skipped_bytes = 0;  // per query, against a full read of the current files (< 0: reads more)
};

struct KeyScore {
  SortKey key;
  double score = 0;            // bytes skipped summed over the history (count-weighted)
  double skipped_fraction = 0; // score / bytes the workload would read unsorted
  std::vector<ShapeBenefit> shapes;  // by descending count
  double storage_ratio = 1;    // table bytes under the key / current bytes (measured, else 1)
  bool current_order = false;  // scores the current files as they are: choosing it changes nothing
};

struct LayoutAdvice {
  std::vector<KeyScore> ranked;  // best first; empty when the history is too small
  KeyScore current;              // the current files as they are (modelled: as sorted by the current key)
  double history_count = 0;
  bool measured = false;         // scored with a LayoutMeasure
};

// The modelled share of the table read by a query of `shape` under `key` (1 for an empty key).
// `selectivity(column)` gives each term's estimated selectivity.
double ModelReadFraction(const SortKey& key, const QueryShape& shape, const std::vector<double>& term_selectivity,
                         const TableStats& stats);

// Scores `key` on `history`; `measure` (optional) replaces the model's read fractions, and its
// current-order fractions set the baseline.
KeyScore ScoreKey(const SortKey& key, const QueryHistory& history, const TableStats& stats,
                  const SortKey& current, LayoutMeasure* measure = nullptr);

// Ranks candidate keys (single columns, lexicographic pairs/triples, z-orders of the most
// weighted filter columns) for the workload; `current` is the key the data is laid out by now
// (to de-bias the observed bytes). With `measure`, keys are ranked on measured reads times
// measured storage (storage is measured for the max_storage_measured best on reads; the others
// are dropped), and advice.current scores the current files as measured.
LayoutAdvice AdviseLayout(const QueryHistory& history, const TableStats& stats, const SortKey& current,
                          const AdvisorOptions& options = {}, LayoutMeasure* measure = nullptr);

// The key to use: the best candidate, unless `persisted` (the previous choice) still scores
// within switch_gain of it (no flapping); nullopt when there is no recommendation. When the
// advice was measured, the current order (advice.current, current_order set) is returned unless
// the best key beats it by switch_gain: a key never replaces a layout it is not measured to beat.
std::optional<KeyScore> ChooseKey(const LayoutAdvice& advice, const std::optional<SortKey>& persisted,
                                  const QueryHistory& history, const TableStats& stats,
                                  const AdvisorOptions& options = {}, LayoutMeasure* measure = nullptr);

}  // namespace shoal::table
