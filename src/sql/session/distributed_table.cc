#include "sql/session/distributed_table.h"

#include "delta/table_path.h"
#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"

namespace shoal {

Result<std::string> ExistingTableRoot(Connection& connection, std::string_view table) {
  if (table.empty()) return Status::InvalidArgument("table path is empty");
  Database::Impl& db = *connection.impl().db;
  sql::TableName name;
  name.path = std::string(table);
  ASSIGN_OR_RETURN(std::string root, sql::Catalog(db.fs, db.dir).TableRoot(name));
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  ASSIGN_OR_RETURN(bool exists, db.fs->Exists(io::JoinPath(root, "_delta_log")));
  if (!exists) return Status::Catalog("Table with name " + name.ToString() + " does not exist!");
  return root;
}

Result<std::string> StagedFileInside(const std::string& root, const std::string& path, const std::string& what) {
  auto local = delta::ResolveTablePath(root, path);
  if (!local.ok()) return local.status().WithContext(what);
  auto normal = delta::NormalizePathNoDotDot(*local);
  if (!normal.ok() || *normal != *local || local->compare(0, root.size() + 1, root + "/") != 0) {
    return Status::InvalidArgument(what + ": data file '" + path + "' is not inside table " + root);
  }
  return *local;
}

}  // namespace shoal
