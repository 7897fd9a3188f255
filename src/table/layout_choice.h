// The automatic LocalSort key of a table (shoal.localSort.auto = 'true'), persisted in
// `<table>/_shoal/layout.json` with the score and history size it was chosen from, and the
// glue that evaluates it: table statistics from the snapshot, the query history, the advisor
// (layout_advisor.h). An explicit shoal.localSort.columns always wins over the automatic key.
//
// Thread-safety: the functions are safe to call concurrently; layout.json is replaced
// atomically (last writer wins, readers see the old or the new choice).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "delta/snapshot.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "table/layout_advisor.h"
#include "table/query_log.h"
#include "table/table_properties.h"

namespace shoal::table {

struct LayoutChoice {
  SortKey key;
  double score = 0;          // the key's score on the history it was chosen from
  double history_count = 0;  // decayed query count of that history
  int64_t recorded = 0;      // QueryHistory::recorded at the choice
  int64_t chosen_ms = 0;
};

// `<root>/_shoal/layout.json`.
std::string LayoutChoicePath(const std::string& table_root);

// The persisted choice; nullopt when there is none or the file does not parse (a torn or foreign
// file is ignored, never an error for writes).
std::optional<LayoutChoice> ReadLayoutChoice(io::FileSystem& fs, const std::string& table_root);
Status WriteLayoutChoice(io::FileSystem& fs, const std::string& table_root, const LayoutChoice& choice);

std::string LayoutChoiceToJson(const LayoutChoice& c);
Result<LayoutChoice> LayoutChoiceFromJson(std::string_view text);

// Rows, bytes and per-column distinct-value bounds (integer ranges, booleans) from the
// snapshot's file statistics (at most `max_files` files' stats are parsed).
TableStats TableStatsFromSnapshot(const delta::Snapshot& snapshot, const scan::TableSchema& schema,
                                  size_t max_files = 2000);

// The key the table's data files are written with: the explicit shoal.localSort.columns /
// mode, else (auto on) the persisted choice when its columns still exist; else empty.
SortKey EffectiveSortKey(const TableProperties& props, const std::optional<LayoutChoice>& persisted,
                         const columnar::Schema& schema);

// Everything DESCRIBE LAYOUT shows.
struct LayoutReport {
  TableProperties props;
  SortKey explicit_key;                  // from shoal.localSort.columns / mode
  std::optional<LayoutChoice> persisted; // _shoal/layout.json
  SortKey effective;                     // what writes use
  QueryHistory history;
  TableStats stats;
  LayoutAdvice advice;
  std::optional<KeyScore> recommendation;  // ChooseKey (hysteresis against the persisted key)
  int64_t sample_rows = 0;   // rows the advice was measured on (layout_measure.h); 0: modelled
  int64_t sample_granule_rows = 0;
};

// Reads history, statistics and the persisted choice and runs the advisor. With enough history
// it also reads a bounded sample of the table's rows (layout_sample.h) so read fractions, the
// current order and storage are measured (layout_measure.h); without a sample the model
// answers. No writes.
Result<LayoutReport> EvaluateLayout(const std::shared_ptr<io::FileSystem>& fs, const delta::Snapshot& snapshot,
                                    const scan::TableSchema& schema, const AdvisorOptions& options = {});

// With auto on: evaluates and persists the recommendation when it differs from the persisted
// key (ChooseKey already resists flapping; keeping the current order writes nothing). Returns the
// key writes use afterwards.
Result<SortKey> RefreshAutoLayout(const std::shared_ptr<io::FileSystem>& fs, const delta::Snapshot& snapshot,
                                  const scan::TableSchema& schema, const AdvisorOptions& options = {});

}  // namespace shoal::table
