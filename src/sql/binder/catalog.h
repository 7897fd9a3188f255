// Catalog: resolves base table names in FROM to Delta table sources. A name `t` is the Delta
// table in `<warehouse>/t` (a directory holding `_delta_log`); delta.`/path` is the table at
// that path; a one-part name may also be a view (`<warehouse>/_shoal/views`). Time travel
// (VERSION / TIMESTAMP AS OF) selects the snapshot.
//
// A connection's registered relations (Session::RegisterRelation: in-memory data such as a
// Python DataFrame) resolve by one-part name before tables and views.
//
// A session with open transactions installs a hook so names resolve to the transaction's view
// of the table (read-your-writes, reads recorded in its read set).
//
// Thread-safety: immutable after the hook is set; safe to share if the hook is.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "sql/parser/ast.h"
#include "sql/binder/view_catalog.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

class Catalog {
 public:
  Catalog(std::shared_ptr<io::FileSystem> fs, std::string warehouse)
      : fs_(std::move(fs)), warehouse_(std::move(warehouse)) {}

  // Supplies the latest version of a table from elsewhere (a session's open transaction):
  // returns the source, or nullptr to read the log as usual. Not used for time travel.
  using LatestTableHook =
      std::function<Result<std::shared_ptr<const TableSource>>(const TableName& name, const std::string& root)>;
  void set_latest_hook(LatestTableHook hook) { latest_hook_ = std::move(hook); }
  // Supplies relations registered on a session (Arrow streams) by lower-case one-part name:
  // the source, or nullptr. They take precedence over views and tables.
  using RelationHook = std::function<std::shared_ptr<const TableSource>(const std::string& lower_name)>;
  void set_relation_hook(RelationHook hook) { relation_hook_ = std::move(hook); }
  // Supplies a session's temporary views (CREATE TEMPORARY VIEW) by lower-case one-part name.
  // They take precedence over stored views and tables, as in Spark.
  using TempViewHook = std::function<std::optional<ViewDefinition>(const std::string& lower_name)>;
  void set_temp_view_hook(TempViewHook hook) { temp_view_hook_ = std::move(hook); }
  // Follows the log loads of the tables ResolveTable opens (DeltaTable::Open's load_progress).
  using LoadProgress = std::function<void(int64_t done, int64_t planned)>;
  void set_load_progress(LoadProgress progress) { load_progress_ = std::move(progress); }
  // The registered relation a one-part name refers to, or nullptr.
  std::shared_ptr<const TableSource> FindRelation(const TableName& name) const;

  const std::shared_ptr<io::FileSystem>& fs() const { return fs_; }
  // The directory a table name refers to: its lower-case name under the warehouse, or the name as
  // written when only that directory holds a table (not checked further). A relative
  // delta.`path` lies under the warehouse too; an absolute one (or an s3:// URI) is the user's.
  // A name that would leave the warehouse or reach its own directories — a part that is empty,
  // `.`, `..`, hidden (`.x`), `_shoal` or `_delta_log`, or holds '/', '\' or NUL; a relative
  // path with `..` — is InvalidArgument.
  Result<std::string> TableRoot(const TableName& name) const;
  // Catalog error "Table with name X does not exist!" when the directory has no _delta_log.
  Result<std::shared_ptr<const TableSource>> ResolveTable(const TableName& name,
                                                          const scan::TimeTravel& at) const;
  // The view a one-part name refers to: the session's temporary view, else the stored one
  // (view_catalog.h), or nullopt (a stored one never without a file system).
  Result<std::optional<ViewDefinition>> FindView(const TableName& name) const;
  // On remote storage, starts the reads that resolving a one-part name as a view and then as a
  // table will make, all at once (io::FileSystem::Speculate); FindView calls it. Nothing else.
  void SpeculateLookup(const TableName& name) const;

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::string warehouse_;
  LatestTableHook latest_hook_;
  RelationHook relation_hook_;
  TempViewHook temp_view_hook_;
  LoadProgress load_progress_;
};

// The time travel target from its evaluated value: VERSION takes an integer; TIMESTAMP a
// TIMESTAMP/DATE or a string such as '2024-01-01 10:00:00'. InvalidArgument otherwise.
Result<scan::TimeTravel> EvaluateTimeTravel(TimeTravel::Kind kind, const columnar::Value& value);

}  // namespace shoal::sql
