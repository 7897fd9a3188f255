#include "scan/parquet_scan.h"

#include <fnmatch.h>

#include <algorithm>

#include "expr/coercion.h"
#include "parquet/file_reader.h"

namespace shoal::scan {
namespace {

bool HasGlob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

std::vector<std::string> SplitPath(const std::string& p) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (pos <= p.size()) {
    size_t e = p.find('/', pos);
    if (e == std::string::npos) e = p.size();
    parts.push_back(p.substr(pos, e - pos));
    pos = e + 1;
  }
  return parts;
}

// Matches components [i, end) of `parts` below directory `dir`.
Status Walk(io::FileSystem& fs, const std::string& dir, const std::vector<std::string>& parts, size_t i,
            std::vector<std::string>* out) {
  if (i == parts.size()) {
    out->push_back(dir);
    return Status::OK();
  }
  const std::string& part = parts[i];
  std::string base = dir.empty() ? "" : (dir == "/" ? "/" : dir + "/");
  if (!HasGlob(part)) {
    std::string next = base + part;
    if (i + 1 < parts.size()) return Walk(fs, next, parts, i + 1, out);
    auto exists = fs.Exists(next);
    if (exists.ok() && *exists) out->push_back(next);
    return Status::OK();
  }
  auto listing = fs.List(dir.empty() ? "." : dir);
  if (!listing.ok()) return Status::OK();  // unreadable or missing directory: no match
  if (part == "**") {
    // Zero or more directories (hidden ones excluded): match the rest here, then below
    // each subdirectory with `**` still in place.
    if (i + 1 == parts.size()) return Status::OK();  // a trailing ** names no files
    RETURN_NOT_OK(Walk(fs, dir, parts, i + 1, out));
    std::vector<std::string> dirs;
    for (const io::FileInfo& f : *listing) {
      if (f.is_dir && !f.name.empty() && f.name[0] != '.') dirs.push_back(f.name);
    }
    std::sort(dirs.begin(), dirs.end());
    for (const std::string& d : dirs) RETURN_NOT_OK(Walk(fs, base + d, parts, i, out));
    return Status::OK();
  }
  std::vector<std::string> names;
  for (const io::FileInfo& f : *listing) {
    bool last = i + 1 == parts.size();
    if (last == f.is_dir) continue;
    const std::string& name = f.name;
    if (fnmatch(part.c_str(), name.c_str(), FNM_PERIOD) == 0) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) RETURN_NOT_OK(Walk(fs, base + n, parts, i + 1, out));
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> ExpandGlobs(io::FileSystem& fs, const std::vector<std::string>& patterns) {
  std::vector<std::string> out;
  for (const std::string& p : patterns) {
    if (!HasGlob(p)) {
      ASSIGN_OR_RETURN(bool exists, fs.Exists(p));
      if (!exists) return Status::IOError("No files found that match the pattern \"" + p + "\"");
      out.push_back(p);
      continue;
    }
    std::vector<std::string> parts = SplitPath(p);
    std::vector<std::string> found;
    if (!p.empty() && p[0] == '/') {
      RETURN_NOT_OK(Walk(fs, "/", parts, 1, &found));
    } else {
      RETURN_NOT_OK(Walk(fs, "", parts, 0, &found));
    }
    if (found.empty()) return Status::IOError("No files found that match the pattern \"" + p + "\"");
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

Result<std::shared_ptr<const ParquetFileSet>> ParquetFileSet::Open(std::shared_ptr<io::FileSystem> fs,
                                                                   const std::vector<std::string>& patterns) {
  if (patterns.empty()) return Status::InvalidArgument("read_parquet needs at least one file");
  auto set = std::shared_ptr<ParquetFileSet>(new ParquetFileSet());
  set->fs_ = fs;
  ASSIGN_OR_RETURN(set->files_, ExpandGlobs(*fs, patterns));
  auto schema = std::make_shared<TableSchema>();
  std::vector<std::string> first_file;  // per column: the file that defined its type
  for (const std::string& path : set->files_) {
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    set->total_rows_ += reader->num_rows();
    for (const columnar::Field& f : reader->schema()->fields) {
      int idx = schema->schema.Find(f.name);
      if (idx < 0) {
        schema->schema.fields.push_back(f);
        schema->columns.push_back(ColumnForType(f.name, f.type, f.nullable));
        first_file.push_back(path);
        continue;
      }
      columnar::Field& have = schema->schema.fields[idx];
      if (have.type->Equals(*f.type)) continue;
      auto common = expr::CommonType(have.type, f.type);
      if (!common.ok() || (*common)->IsNested()) {
        return Status::InvalidArgument("column \"" + f.name + "\" has type " + have.type->ToString() + " in " +
                                       first_file[idx] + " but " + f.type->ToString() + " in " + path);
      }
      have.type = *common;
      schema->columns[idx] = ColumnForType(have.name, have.type, true);
      have.nullable = true;
    }
  }
  // Columns absent from some file are nullable.
  for (auto& f : schema->schema.fields) f.nullable = true;
  for (auto& c : schema->columns) c.nullable = true;
  set->schema_ = std::move(schema);
  return std::shared_ptr<const ParquetFileSet>(std::move(set));
}

Result<std::unique_ptr<FileSetScan>> ParquetFileSet::Plan(std::vector<int> columns, std::vector<expr::ExprPtr> filters,
                                                          int64_t batch_rows, int64_t limit_hint,
                                                          FileSetScanSpec::Prewhere prewhere,
                                                          bool coded_strings) const {
  for (int c : columns) {
    if (c < 0 || c >= static_cast<int>(schema_->columns.size())) {
      return Status::InvalidArgument("scan column " + std::to_string(c) + " out of range");
    }
  }
  FileSetScanSpec spec;
  spec.fs = fs_;
  spec.table = schema_;
  spec.columns = std::move(columns);
  spec.filters = std::move(filters);
  spec.batch_rows = batch_rows;
  spec.limit_hint = limit_hint;
  spec.prewhere = prewhere;
  spec.coded_strings = coded_strings;
  spec.files_total = static_cast<int64_t>(files_.size());
  std::vector<FileTask> tasks;
  for (const std::string& f : files_) tasks.push_back(FileTask{f, {}, std::nullopt});
  return std::make_unique<FileSetScan>(std::move(spec), std::move(tasks));
}

}  // namespace shoal::scan
