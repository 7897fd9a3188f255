// The SQL write path around txn::Transaction (doc/sql_writes.md): the per-table state of a
// session's explicit transaction, the table view that shows a transaction its own staged
// writes (read-your-writes), and the transaction options every SQL write uses.
//
// Thread-safety: plain state owned by one Session; used by one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "delta/snapshot.h"
#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "txn/transaction.h"

namespace shoal::sql {

// One table's part of a session's explicit transaction (BEGIN … COMMIT / PREPARE).
struct TableTransaction {
  std::string root;
  std::string display_name;
  std::shared_ptr<const scan::DeltaTable> base;  // the snapshot the transaction started on
  std::unique_ptr<txn::Transaction> txn;
  std::vector<std::string> staged_files;  // data files written by its statements so far
  // commitInfo operation and parameters: those of the first statement that wrote the table.
  std::string operation = "WRITE";
  delta::Json parameters = delta::Json::object();
  bool operation_set = false;
  // `base` with the staged writes applied; rebuilt after each statement's writes.
  std::shared_ptr<const scan::DeltaTable> view;
  bool view_stale = true;
};

// Builds the table `base` as the transaction `t` sees it: its metadata/protocol changes, its
// staged removes gone, its row deletions applied as (in-memory, inline) deletion vectors, and
// its added files present. File order: base files in order (replaced in place), then own adds.
Result<std::shared_ptr<const scan::DeltaTable>> TableWithStagedWrites(const std::shared_ptr<io::FileSystem>& fs,
                                                                      const delta::Snapshot& base,
                                                                      const txn::Transaction& t);

// Folds changes a transaction made to files it added itself (an INSERT then a DELETE inside
// one BEGIN … COMMIT) into those adds: a removed own add is dropped (and its data file deleted
// and forgotten from `staged_files`); row deletions on an own add become the add's deletion
// vector (written now). Needed because a commit may not remove a file it adds.
Status FoldOwnFileChanges(txn::Transaction* t, std::vector<std::string>* staged_files);

// The options of a SQL write: commitInfo operation/parameters, the app transaction, and a
// checkpoint every delta.checkpointInterval commits.
txn::TransactionOptions SqlTransactionOptions(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                                              const std::string& operation, delta::Json parameters,
                                              std::optional<delta::Txn> app_txn);

// Deletes data files a failed or rolled-back write staged (errors ignored: at worst VACUUM
// collects them).
void DeleteStagedFiles(io::FileSystem& fs, const std::vector<std::string>& files);

}  // namespace shoal::sql
