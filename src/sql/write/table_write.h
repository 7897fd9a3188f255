// TableWrite: one statement's write to one Delta table, staged in the session's transaction
// on that table. Every writing statement (INSERT, CTAS, DELETE, UPDATE, MERGE, OPTIMIZE, REORG,
// ALTER, RESTORE) goes through Session::BeginTableWrite / EndTableWrite, so auto-commit and
// explicit transactions (BEGIN … COMMIT, PREPARE TRANSACTION) behave the same way:
// - auto-commit: Begin opens a txn::Transaction on the latest snapshot; End commits it (a
//   conflict error surfaces from End, and the statement's staged files are deleted).
// - inside BEGIN: Begin joins the session's transaction on that table (opened by the first
//   statement that touched it); End keeps the actions staged for COMMIT or PREPARE.
//
// Thread-safety: owned by the session; used by one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scan/delta_scan.h"
#include "txn/transaction.h"

namespace shoal::sql {

struct TableWrite {
  std::string root;          // the table directory
  std::string display_name;  // for messages, e.g. "t" or "delta.`/p`"
  // What the statement reads: the transaction's snapshot with the transaction's own earlier
  // writes (adds, removes, deletion vectors) applied. Its snapshot()->files() indices are the
  // file ids of DeltaScanOptions::with_row_address.
  std::shared_ptr<const scan::DeltaTable> table;
  // Where the statement stages its actions and records what it read.
  txn::Transaction* txn = nullptr;
  // Data files this statement wrote (deleted again when the write is abandoned).
  std::vector<std::string> staged_files;
  // The session's app transaction (SET shoal.txn.appId / shoal.txn.version) is already
  // committed in the table: the statement is a replay and should write nothing (its commit is
  // a no-op either way).
  bool already_committed = false;
};

}  // namespace shoal::sql
