// ScanAddedRowsMatcher: the row-level refinement of the concurrent-append check
// (doc/concurrency.md, checker step 5): reads a file a concurrent commit added, through the scan
// layer (deletion vector applied), and answers whether any live row satisfies the transaction's
// read predicate. SQL writes use it so that, under row-level concurrency, a concurrent INSERT
// conflicts only when it added rows the transaction's condition matches.
//
// Thread-safety: holds only the file system handle; safe for concurrent calls.
#pragma once

#include <memory>
#include <string>

#include "io/file_system.h"
#include "txn/added_rows_matcher.h"

namespace shoal::sql {

class ScanAddedRowsMatcher final : public txn::AddedRowsMatcher {
 public:
  explicit ScanAddedRowsMatcher(std::shared_ptr<io::FileSystem> fs) : fs_(std::move(fs)) {}

  // False only when statistics or a full read of the file show no live row matches; true when
  // a row matches or the file cannot be read (the conservative answer).
  Result<bool> AnyRowMatches(const std::string& table_root, const delta::AddFile& file,
                             const expr::Expr& predicate, const scan::TableSchema& schema) override;

 private:
  std::shared_ptr<io::FileSystem> fs_;
};

}  // namespace shoal::sql
