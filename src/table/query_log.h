// Records which filters the queries on a table use, for the layout advisor (layout_advisor.h):
// a bounded log under `<table>/_shoal/query_log/` (doc/local_sort.md "Automatic choice").
// Each recorded scan is one small JSON file `e-<ms>-<pid>-<n>.json` written by the process that
// ran it (so concurrent processes never write the same file); every so often a writer folds
// the entry files into `summary-<seq>.json` (created put-if-absent, so two compacting
// processes cannot both win) holding per-shape counts, and deletes the folded entries. Readers
// merge the newest summary with the entries it does not list, and skip files that do not parse
// (torn writes, garbage). `_shoal/` starts with `_`, so Delta readers and VACUUM ignore it.
//
// Thread-safety: the functions are safe to call concurrently, from any number of processes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::table {

// How a filter restricts a column, coarsened to what a sort order can exploit.
enum class PredicateClass : uint8_t {
  kEq,      // =, IN (a few points)
  kRange,   // <, <=, >, >=, BETWEEN
  kIsNull,  // IS NULL
  kPrefix,  // LIKE 'abc%', starts_with
};
const char* PredicateClassName(PredicateClass c);

struct ShapeTerm {
  std::string column;  // logical column name as the table spells it
  PredicateClass op = PredicateClass::kEq;
  bool operator==(const ShapeTerm&) const = default;
};

// The set of (column, class) terms of one query's pushed-down filter, sorted by (lowercased
// column, class) with duplicates removed, so equal filters have equal shapes.
struct QueryShape {
  std::vector<ShapeTerm> terms;
  void Normalize();
  // "a=,b<>" style text: column names lowercased, joined with ','; the op as = < N ^.
  std::string Key() const;
  bool operator==(const QueryShape&) const = default;
};

// One scan of the table.
struct QueryLogEntry {
  QueryShape shape;
  int64_t rows_total = 0;  // live rows of the table snapshot (the scan's input)
  int64_t rows_out = 0;    // rows that passed the filter
  int64_t bytes_read = 0;  // bytes fetched from storage
  int64_t time_ms = 0;
};

// Aggregated history of one shape. Counts decay (are halved) when the total grows past
// QueryLogLimits::decay_after, so recent queries weigh more.
struct ShapeHistory {
  QueryShape shape;
  double count = 0;
  double sum_selectivity = 0;  // sum of rows_out / rows_total
  double sum_bytes_read = 0;
  int64_t last_ms = 0;
  double avg_selectivity() const { return count > 0 ? sum_selectivity / count : 1.0; }
  double avg_bytes_read() const { return count > 0 ? sum_bytes_read / count : 0.0; }
};

struct QueryHistory {
  std::vector<ShapeHistory> shapes;  // by descending count
  double total_count = 0;
  int64_t recorded = 0;  // entries ever folded in (not decayed): "has the history changed"
  void Add(const QueryLogEntry& e);
  void Merge(const ShapeHistory& s);
  // Sorts by count, drops the least frequent shapes beyond max_shapes, halves counts while
  // total_count > decay_after.
  void Bound(size_t max_shapes, double decay_after);
};

struct QueryLogLimits {
  size_t max_entry_files = 64;  // compact once more entry files than this exist
  size_t max_shapes = 128;      // shapes kept in the summary
  double decay_after = 4096;    // halve counts above this total
  int compact_check_every = 16; // a writer lists the directory every this many appends
};

// `<root>/_shoal/query_log`.
std::string QueryLogDir(const std::string& table_root);

// Writes one entry file; every compact_check_every-th call of this process also compacts when
// needed. Cheap (one small file, no fsync); errors are returned for the caller to ignore.
Status AppendQueryLogEntry(io::FileSystem& fs, const std::string& table_root, const QueryLogEntry& entry,
                           const QueryLogLimits& limits = {});

// The table's history: newest summary plus the entry files it has not folded. Unreadable or
// malformed files are skipped. An absent log is an empty history.
Result<QueryHistory> ReadQueryHistory(io::FileSystem& fs, const std::string& table_root,
                                      const QueryLogLimits& limits = {});

// Folds all entry files into a new summary when there are more than max_entry_files (or always
// with force); a no-op when another process wins the summary's sequence number.
Status CompactQueryLog(io::FileSystem& fs, const std::string& table_root, const QueryLogLimits& limits = {},
                       bool force = false);

// Serialization (exposed for tests): one entry as a JSON object; parse fails with Corruption.
std::string EntryToJson(const QueryLogEntry& e);
Result<QueryLogEntry> EntryFromJson(std::string_view text);

}  // namespace shoal::table
