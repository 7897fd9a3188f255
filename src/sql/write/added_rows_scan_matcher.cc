#include "sql/write/added_rows_scan_matcher.h"

#include <numeric>
#include <utility>
#include <vector>

#include "delta/table_path.h"
#include "scan/delta_scan.h"
#include "scan/file_set_scan.h"
#include "scan/partition_values.h"

namespace shoal::sql {

namespace {

// Reads `file` with `predicate` as the filter; true at the first surviving row.
Result<bool> ScanForMatch(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                          const delta::AddFile& file, const expr::Expr& predicate,
                          const scan::TableSchema& schema) {
  ASSIGN_OR_RETURN(scan::FileTask task, scan::MakeFileTask(table_root, schema, file, /*id=*/0));

  scan::FileSetScanSpec spec;
  spec.fs = fs;
  spec.table_root = table_root;
  spec.table = std::make_shared<const scan::TableSchema>(schema);
  spec.columns.resize(schema.columns.size());
  std::iota(spec.columns.begin(), spec.columns.end(), 0);  // output index == table index
  // The predicate outlives the scan (both live only in this call): a non-owning pointer.
  spec.filters.push_back(expr::ExprPtr(&predicate, [](const expr::Expr*) {}));
  std::vector<scan::FileTask> tasks;
  tasks.push_back(std::move(task));
  scan::FileSetScan scan(std::move(spec), std::move(tasks));
  auto local = scan.MakeLocal();
  columnar::BatchPtr batch;
  uint64_t order = 0;
  while (true) {
    ASSIGN_OR_RETURN(bool more, scan.Next(local.get(), &batch, &order));
    if (!more) return false;
    if (batch && batch->num_rows > 0) return true;
  }
}

}  // namespace

Result<bool> ScanAddedRowsMatcher::AnyRowMatches(const std::string& table_root,
                                                 const delta::AddFile& file,
                                                 const expr::Expr& predicate,
                                                 const scan::TableSchema& schema) {
  if (!txn::FileMayMatch(file, predicate, schema)) return false;
  auto any = ScanForMatch(fs_, table_root, file, predicate, schema);
  return any.ok() ? *any : true;
}

}  // namespace shoal::sql
