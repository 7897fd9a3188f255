// VACUUM: deletes files in a table directory that the current snapshot no longer references
// and that are older than the retention period (PROTOCOL.md "Tombstones"; doc/maintenance.md).
//
// A file is kept when a live add (or its deletion vector) references it, when a tombstone
// younger than the retention references it, when a pending prepared transaction staged it,
// or when it was modified within the retention. `_delta_log/` is never touched except for
// expired `*.tmp` leftovers of failed put-if-absent writes; `_shoal/` is never touched; other
// names starting with `_` or `.` are skipped, except `_change_data`, `_delta_index` and
// partition directories (`col=value`), as Delta does.
//
// Thread-safety: stateless functions; a concurrent writer is safe as long as its files are
// younger than the retention (that is what the retention check protects).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "delta/snapshot.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::table {

struct VacuumOptions {
  // Retention in milliseconds; default the table's delta.deletedFileRetentionDuration (7 days).
  std::optional<int64_t> retention_ms;
  // Refuse a retention shorter than the table's configured one (Delta's
  // retentionDurationCheck); default on.
  bool retention_check = true;
  // Only list what would be deleted; default false.
  bool dry_run = false;
  // Wall clock in ms since the epoch; default the system clock (tests inject one).
  std::function<int64_t()> clock_ms;
  // Called as the walk advances: entries of the table's top directory done of planned (a
  // partition directory is one entry, walked whole). Default: none.
  std::function<void(int64_t done, int64_t planned)> progress;
};

struct VacuumResult {
  // Local paths of the files deleted (or, for a dry run, that would be), sorted.
  std::vector<std::string> files;
  int64_t bytes = 0;           // their total size
  int64_t dirs_deleted = 0;    // directories removed because they became empty
  int64_t retention_ms = 0;    // the retention applied
};

// Vacuums the table of `snapshot` (its version should be the latest). InvalidArgument for a
// negative retention or, with the check on, one below the configured retention.
Result<VacuumResult> Vacuum(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                            const VacuumOptions& options = {});

// Formats milliseconds as Delta's retention hint, e.g. "168 hours".
std::string RetentionHours(int64_t ms);

}  // namespace shoal::table
