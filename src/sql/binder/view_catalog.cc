#include "sql/binder/view_catalog.h"

#include <algorithm>

#include "delta/json_fields.h"
#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

constexpr std::string_view kSuffix = ".json";


// View names are case-insensitive, as table names (catalog.h): a view's file is its lower-case
// name; a file written with capitals (by an older shoal) is used when no lower-case one exists.
Result<std::string> ViewPath(io::FileSystem& fs, const std::string& warehouse, const std::string& name) {
  std::string lower = ViewFilePath(warehouse, Lower(name));
  std::string exact = ViewFilePath(warehouse, name);
  if (exact == lower) return lower;
  ASSIGN_OR_RETURN(bool lower_exists, fs.Exists(lower));
  if (lower_exists) return lower;
  ASSIGN_OR_RETURN(bool exact_exists, fs.Exists(exact));
  return exact_exists ? exact : lower;
}

Result<ViewDefinition> DecodeView(const std::string& text, const std::string& path) {
  ASSIGN_OR_RETURN(delta::Json j, delta::ParseJson(text, path));
  auto bad = [&](const char* what) { return Status::Corruption("view file " + path + ": " + what); };
  if (!j.is_object()) return bad("not a JSON object");
  ViewDefinition v;
  auto name = j.find("name");
  auto sql = j.find("sql");
  auto columns = j.find("columns");
  if (name == j.end() || !name->is_string()) return bad("\"name\" is missing or not a string");
  if (sql == j.end() || !sql->is_string()) return bad("\"sql\" is missing or not a string");
  if (columns == j.end() || !columns->is_array()) return bad("\"columns\" is missing or not an array");
  v.name = name->get<std::string>();
  v.sql = sql->get<std::string>();
  for (const auto& c : *columns) {
    if (!c.is_string()) return bad("a column name is not a string");
    v.columns.push_back(c.get<std::string>());
  }
  return v;
}

}  // namespace

std::string ViewFilePath(const std::string& warehouse, const std::string& name) {
  return io::JoinPath(ViewsDirectory(warehouse), name + std::string(kSuffix));
}

std::string ViewsDirectory(const std::string& warehouse) {
  return io::JoinPath(io::JoinPath(warehouse, "_shoal"), "views");
}

Status CheckViewName(const std::string& name) {
  if (name.empty() || name[0] == '.' || name.find('/') != std::string::npos ||
      name.find('\\') != std::string::npos || name.find('\0') != std::string::npos) {
    return Status::InvalidArgument("\"" + name + "\" cannot name a view");
  }
  return Status::OK();
}

Result<std::optional<ViewDefinition>> ReadView(io::FileSystem& fs, const std::string& warehouse,
                                               const std::string& name) {
  if (!CheckViewName(name).ok()) return std::optional<ViewDefinition>();
  ASSIGN_OR_RETURN(std::string path, ViewPath(fs, warehouse, name));
  ASSIGN_OR_RETURN(bool exists, fs.Exists(path));
  if (!exists) return std::optional<ViewDefinition>();
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(path));
  ASSIGN_OR_RETURN(ViewDefinition view, DecodeView(text, path));
  return std::optional<ViewDefinition>(std::move(view));
}

Status WriteView(io::FileSystem& fs, const std::string& warehouse, const ViewDefinition& view) {
  RETURN_NOT_OK(CheckViewName(view.name));
  delta::Json j = delta::Json::object();
  j["name"] = view.name;
  j["sql"] = view.sql;
  j["columns"] = delta::Json(view.columns);
  RETURN_NOT_OK(fs.CreateDirs(ViewsDirectory(warehouse)));
  ASSIGN_OR_RETURN(std::string path, ViewPath(fs, warehouse, view.name));
  return fs.WriteAtomic(path, delta::JsonText(j, 2) + "\n");
}

Result<bool> DeleteView(io::FileSystem& fs, const std::string& warehouse, const std::string& name) {
  if (!CheckViewName(name).ok()) return false;
  ASSIGN_OR_RETURN(std::string path, ViewPath(fs, warehouse, name));
  ASSIGN_OR_RETURN(bool exists, fs.Exists(path));
  if (!exists) return false;
  RETURN_NOT_OK(fs.Delete(path));
  RETURN_NOT_OK(fs.SyncDir(ViewsDirectory(warehouse)));
  return true;
}

Result<std::vector<std::string>> ListViews(io::FileSystem& fs, const std::string& warehouse) {
  std::vector<std::string> names;
  std::string dir = ViewsDirectory(warehouse);
  ASSIGN_OR_RETURN(bool exists, fs.Exists(dir));
  if (!exists) return names;
  ASSIGN_OR_RETURN(auto entries, fs.List(dir));
  for (const auto& e : entries) {
    if (e.is_dir || e.name.size() <= kSuffix.size() || e.name[0] == '.') continue;
    if (e.name.compare(e.name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) continue;
    names.push_back(e.name.substr(0, e.name.size() - kSuffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace shoal::sql
