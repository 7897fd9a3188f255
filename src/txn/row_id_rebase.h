// Rebase through stable row ids (doc/concurrency.md "Rebase"; txn/row_id_remap.h): with row
// tracking enabled, a rewrite that permuted rows (ZORDER BY, a LocalSort merge) has no
// position mapping, but every row keeps its row id, so deletions and reads of a rewritten
// file are translated source file + position -> row id -> output file + position, in both
// commit orders. Anything not certain (a row without an id, an id not found exactly once among
// the live rows of the outputs, an unreadable file) makes these return false, and the caller
// reports the conflict.
//
// Thread-safety: not thread-safe (RowIdIndexes caches); used within one conflict check.
#pragma once

#include <optional>
#include <string>

#include "delta/actions.h"
#include "txn/conflict_checker.h"
#include "txn/row_id_remap.h"

namespace shoal::txn {

// Indexes of one check, built on first use.
struct RowIdIndexes {
  std::optional<RowIdIndex> winner_outputs;  // the winner's added files without data change
  std::optional<RowIdIndex> own_outputs;     // this transaction's added files without data change
  bool winner_failed = false;
  bool own_failed = false;
};

// DML loser vs a winner's rewrite `removed` (no compactedFrom mapping): plans moving the loser's
// row deletions, whole-file remove and reads of the file onto the winner's outputs. True when
// planned.
bool RebaseThroughRowIds(const CheckerInput& in, const WinningCommit& w, const delta::RemoveFile& removed,
                         RowIdIndexes* indexes, RebasePlan* plan);

// Rewrite loser vs a DML winner that deleted rows of (or removed) `path`, a file this
// transaction rewrote without a position mapping: plans carrying those rows into deletion
// vectors of its own outputs. True when planned.
bool CarryThroughRowIds(const CheckerInput& in, const WinningCommit& w, const std::string& path,
                        RowIdIndexes* indexes, RebasePlan* plan);

}  // namespace shoal::txn
