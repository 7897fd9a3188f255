// Prepared transactions (two-phase commit; doc/prepared_transactions.md): PREPARE writes a
// transaction's read version, read set, staged actions and identity to
// `<table>/_shoal/prepared/<id>.json`, and any process can later COMMIT PREPARED it (through
// the normal commit loop, so conflicts with commits made in between are detected) or
// ROLLBACK PREPARED it (deleting the file and the data files it staged).
//
// Read predicates are stored as SQL text and re-bound by a PredicateRebinder when loaded; a
// predicate that cannot be re-bound makes the restored transaction depend on the whole table
// (conservative: it can only add conflicts, never miss one).
// Thread-safety: free functions; the file system serializes concurrent PREPAREs of one id.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "txn/simple_predicate.h"
#include "txn/transaction.h"
#include "txn/transaction_state.h"

namespace shoal::txn {

// "<table_root>/_shoal/prepared/<id>.json"; InvalidArgument for an id that is not 1..128 of
// [A-Za-z0-9_.-] starting with a letter or digit.
Result<std::string> PreparedPath(const std::string& table_root, const std::string& id);

// Writes the prepared transaction `id` atomically; InvalidArgument (Transaction code) when the
// id is already prepared. `txn` is not committed and may be discarded afterwards.
Status PrepareTransaction(const Transaction& txn, const std::string& id);

// Restores prepared transaction `id` as a Transaction ready to Commit (same txnId, read version
// and isolation level). `options` supplies process-local settings (matcher, hooks, backoff).
Result<std::unique_ptr<Transaction>> LoadPrepared(std::shared_ptr<io::FileSystem> fs,
                                                  const std::string& table_root,
                                                  const std::string& id,
                                                  const PredicateRebinder& rebinder,
                                                  TransactionOptions options = {});

// Loads and commits `id`. On success or on a conflict the prepared file is deleted (on a
// conflict also the data files it staged); on other errors (e.g. I/O) it is kept for a retry.
Result<CommitResult> CommitPrepared(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                    const std::string& id, const PredicateRebinder& rebinder,
                                    TransactionOptions options = {});

// Deletes the data files `id` staged, then its prepared file.
Status RollbackPrepared(io::FileSystem& fs, const std::string& table_root, const std::string& id);

struct PreparedSummary {
  std::string id;
  std::string txn_id;
  int64_t read_version = -1;
  std::string operation;
  std::vector<std::string> staged_files;  // local paths of the data files it would add
};

// Every pending prepared transaction of the table (VACUUM keeps their staged files).
Result<std::vector<PreparedSummary>> ListPrepared(io::FileSystem& fs, const std::string& table_root);

}  // namespace shoal::txn
