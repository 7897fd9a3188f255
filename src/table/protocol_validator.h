// Checks a Delta table's log against PROTOCOL.md, for tests and for `shoal` self-checks:
// required fields and their types (via the action parser), protocol versions versus table
// features (reader 3 <=> readerFeatures, writer 7 <=> writerFeatures, every used feature
// listed), partition values for every partition column, stats keys that exist in the schema,
// relative paths that stay inside the root, contiguous commit versions, typed commitInfo, and
// row tracking (every add has baseRowId and defaultRowCommitVersion while rowTracking is
// supported and not suspended, row ids below the delta.rowTracking high-water mark and unique
// among active files, every active file with ids while delta.enableRowTracking is true);
// row tracking violations start with "row tracking:".
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::table {

struct Violation {
  int64_t version = -1;  // commit version, -1 for the log as a whole
  std::string message;
};

// One commit as it is in the log.
struct CommitText {
  int64_t version = 0;
  std::string text;  // newline-delimited JSON
};

// Validates commits (ascending versions) as the whole log of a table.
std::vector<Violation> ValidateCommits(const std::vector<CommitText>& commits);

// Reads every `_delta_log/<v>.json` of the table at `table_root` and validates them. IOError
// when the log cannot be listed or read.
Result<std::vector<Violation>> ValidateTableLog(io::FileSystem& fs, const std::string& table_root);

// "v<version>: <message>" lines, for test failure output.
std::string FormatViolations(const std::vector<Violation>& violations);

}  // namespace shoal::table
