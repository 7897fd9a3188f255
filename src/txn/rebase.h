// Rebase: moves a losing transaction's read and write sets past a winning commit it does not
// conflict with (doc/concurrency.md "Rebase"): adopts the winner's metadata where allowed,
// re-bases row deletions onto the winner's newer deletion vector of the same file (the DV
// union happens when the commit is built), and carries reads and row deletions of compacted
// files onto the compaction's output.
//
// Thread-safety: pure functions over the caller's values.
#pragma once

#include "delta/actions.h"
#include "txn/conflict_checker.h"
#include "txn/read_set.h"
#include "txn/write_set.h"

namespace shoal::txn {

// Applies `plan` to the loser's state. `metadata`/`protocol` are its current table state.
void ApplyRebase(RebasePlan plan, ReadSet* read, WriteSet* write, delta::Metadata* metadata,
                 delta::Protocol* protocol);

}  // namespace shoal::txn
