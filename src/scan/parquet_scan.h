// ParquetScan: the scan machinery (FileSetScan) for plain Parquet files, as read_parquet uses
// it. Paths may be globs (`*`, `?`, `[...]` in any component); several files are unioned by
// column name (case-insensitive): a column missing from a file reads as NULL, differing types
// are read as their common type, and types without one are an InvalidArgument naming the
// column and both files.
//
// Thread-safety: ParquetFileSet is immutable after Open and may be shared.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "scan/file_set_scan.h"

namespace shoal::scan {

// Expands each pattern to the files it names, sorted per pattern; a plain path is kept as is
// (it must exist). IOError "No files found that match the pattern" when a glob matches nothing.
Result<std::vector<std::string>> ExpandGlobs(io::FileSystem& fs, const std::vector<std::string>& patterns);

class ParquetFileSet {
 public:
  static Result<std::shared_ptr<const ParquetFileSet>> Open(std::shared_ptr<io::FileSystem> fs,
                                                            const std::vector<std::string>& patterns);

  const std::vector<std::string>& files() const { return files_; }
  const std::shared_ptr<const TableSchema>& schema() const { return schema_; }
  int64_t total_rows() const { return total_rows_; }

  Result<std::unique_ptr<FileSetScan>> Plan(std::vector<int> columns, std::vector<expr::ExprPtr> filters,
                                            int64_t batch_rows = 2048, int64_t limit_hint = -1,
                                            FileSetScanSpec::Prewhere prewhere = FileSetScanSpec::Prewhere::kAuto,
                                            bool coded_strings = false) const;

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::vector<std::string> files_;
  std::shared_ptr<const TableSchema> schema_;
  int64_t total_rows_ = 0;
};

}  // namespace shoal::scan
