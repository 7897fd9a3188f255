// Change data feed, read side (PROTOCOL.md "Change Data Feed", Databricks' `table_changes`):
// the change rows of a range of table versions with `_change_type`, `_commit_version` and
// `_commit_timestamp`. A commit with cdc actions gives the rows of its change data files;
// a commit without gives its data-changing add files' live rows as `insert` and its removed
// files' live rows (per the remove's deletion vector) as `delete` — a file removed and re-added
// in one commit with a different deletion vector gives the rows the new vector deletes as
// `delete` (and rows it no longer deletes as `insert`) (doc/change_data_feed.md).
//
// The rows are materialized in memory. Thread-safety: pure functions over caller-owned values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::table {

struct ChangeRows {
  // The table's columns (at the range's end version), then _change_type STRING,
  // _commit_version BIGINT, _commit_timestamp TIMESTAMP.
  std::shared_ptr<columnar::Schema> schema;
  std::vector<columnar::BatchPtr> batches;  // by version ascending
};

// The change rows of versions [start_version, end_version] (end: the latest when absent, and
// capped at the latest). InvalidArgument for a negative start, a start after the latest
// version, an end before the start, and — named as Delta does — a version in the range whose
// metadata does not enable the change data feed ("Error getting change data for range
// [s, e] as change data was not recorded for version [v]").
Result<ChangeRows> ReadTableChanges(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                    int64_t start_version, std::optional<int64_t> end_version);

// The first version committed at or after `timestamp_ms` (a range's start); InvalidArgument when
// every commit is older.
Result<int64_t> ChangeStartVersionAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                     int64_t timestamp_ms);
// The last version committed at or before `timestamp_ms` (a range's end); InvalidArgument when
// every commit is newer.
Result<int64_t> ChangeEndVersionAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                                   int64_t timestamp_ms);

}  // namespace shoal::table
