// RowGroupPruner: judges one row group of one data file against a scan's pushed filters with
// the pruning stack below the file level, cheapest first (DESIGN.md §2): row-group statistics,
// then the page index (ColumnIndex/OffsetIndex: the rows of pages that may match, across all
// filter columns), then dictionaries (a conjunct on one column that no dictionary entry
// satisfies), then Bloom filters (`=` / `IN` on a column whose filter proves every value
// absent). It stops as soon as the row group is known to be skippable.
//
// Contract: a skipped row group, or a row excluded from `rows`, never holds a row for which
// the AND of the conjuncts is TRUE. Anything unreadable or not understood prunes nothing.
//
// Thread-safety: immutable after construction; Evaluate may be called concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "columnar/type.h"
#include "columnar/value.h"
#include "expr/expr.h"
#include "parquet/file_reader.h"
#include "parquet/row_ranges.h"
#include "shoal/status.h"

namespace shoal::scan {

// How one output column of the scan maps to one file (what FileSetScan knows per file).
struct PrunerColumn {
  columnar::TypePtr type;                   // the table column's logical type
  int leaf = -1;                            // parquet leaf index in the file; -1: absent or nested
  std::optional<columnar::Value> constant;  // partition value (constant for the file)
  bool absent = false;                      // not in the file: all NULL
};

// Which levels of the stack run; all on by default.
struct PruneOptions {
  bool stats = true;       // row-group min/max/null statistics
  bool page_index = true;  // ColumnIndex + OffsetIndex -> row ranges
  bool dictionary = true;  // dictionary pages of fully dictionary-encoded chunks
  bool bloom = true;       // Bloom filters for = and IN
  // Dictionaries larger than this (uncompressed bytes) are not read.
  int64_t max_dictionary_bytes = int64_t{8} << 20;
  // Dictionaries with more entries than this are not evaluated.
  int64_t max_dictionary_entries = 1 << 20;
};

// What pruning did; add them up across row groups.
struct PruneCounters {
  int64_t row_groups_pruned_stats = 0;
  int64_t row_groups_pruned_page_index = 0;  // every page of some filter column excluded
  int64_t row_groups_pruned_dictionary = 0;
  int64_t row_groups_pruned_bloom = 0;
  int64_t pages_total = 0;         // data pages of the filter columns with a page index
  int64_t pages_pruned_index = 0;  // of those, pages none of whose rows can match
  int64_t rows_pruned_index = 0;   // rows of the row group excluded by the page index
  int64_t bytes_read = 0;          // index / dictionary / Bloom bytes fetched

  PruneCounters& operator+=(const PruneCounters& o);
};

struct RowGroupVerdict {
  bool skip = false;         // no row of the row group can match
  parquet::RowRanges rows;   // when !skip: the only rows that can match (all rows if no index)
  PruneCounters counters;
};

class RowGroupPruner {
 public:
  // `conjuncts` are the scan's pushed filters over output column indices (as
  // FileSetScanSpec::filters); `columns[j]` describes output column j for this file.
  RowGroupPruner(std::vector<expr::ExprPtr> conjuncts, std::vector<PrunerColumn> columns,
                 PruneOptions options = {});
  ~RowGroupPruner();

  // Judges row group `row_group` of `reader`. Errors only for an out-of-range row group;
  // unreadable indexes, dictionaries or filters mean "cannot prune" at that level.
  Result<RowGroupVerdict> Evaluate(const parquet::ParquetReader& reader, int row_group) const;

  const PruneOptions& options() const { return options_; }

 private:
  struct Conjunct;

  std::vector<expr::ExprPtr> conjuncts_;
  std::vector<PrunerColumn> columns_;
  PruneOptions options_;
  expr::ExprPtr filter_;              // AND of conjuncts_, or null
  std::vector<Conjunct> analyzed_;    // per conjunct: columns, bloom keys
  std::vector<int> filter_columns_;   // output columns the filter reads
};

}  // namespace shoal::scan
