// Views stored in the warehouse: one small JSON file per view, `<warehouse>/_shoal/views/
// <name>.json`, holding the view's SQL text and column names (format in doc/sql.md), written
// atomically through the io layer so another process or a reopened database sees it. A view
// is not versioned and not part of a transaction: CREATE / DROP VIEW take effect at once.
//
// Thread-safety: stateless functions; safe from any thread (the FileSystem is thread-safe).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::sql {

struct ViewDefinition {
  std::string name;                  // as written at CREATE VIEW
  std::string sql;                   // the query's text as written
  std::vector<std::string> columns;  // output column names (the written list, else derived)
};

// `<warehouse>/_shoal/views`.
std::string ViewsDirectory(const std::string& warehouse);
// The file holding the view `name`, spelled as given (view names are stored lower-case).
std::string ViewFilePath(const std::string& warehouse, const std::string& name);
// InvalidArgument when `name` cannot name a view file (empty, '/', NUL, leading '.').
Status CheckViewName(const std::string& name);
// The view named `name` (names match as file names do, like table names), or nullopt.
// Corruption (naming the file) when the file is not a view definition.
Result<std::optional<ViewDefinition>> ReadView(io::FileSystem& fs, const std::string& warehouse,
                                               const std::string& name);
// Creates or replaces the view's file atomically.
Status WriteView(io::FileSystem& fs, const std::string& warehouse, const ViewDefinition& view);
// Deletes the view's file; false when there was none.
Result<bool> DeleteView(io::FileSystem& fs, const std::string& warehouse, const std::string& name);
// The names of all views, sorted.
Result<std::vector<std::string>> ListViews(io::FileSystem& fs, const std::string& warehouse);

}  // namespace shoal::sql
