// WriteSet: the actions a transaction stages before commit, kept in a form the rebase can
// still change (deletion vectors are merged and written at commit time).
//
// Thread-safety: a plain value; not safe for concurrent mutation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"

namespace shoal::txn {

// Row-level deletion in one file: at commit the file is removed with `base`'s DV and re-added
// with DV = dv(base) ∪ rows.
struct StagedRowDelete {
  delta::AddFile base;        // the file's current add (read-time, or a winner's after rebase)
  delta::DeletionVector rows;  // positions this transaction deletes, disjoint from dv(base)
};

struct WriteSet {
  std::vector<delta::AddFile> adds;
  std::map<std::string, delta::RemoveFile> removes;      // whole-file removes, by path
  std::map<std::string, StagedRowDelete> row_deletes;    // DV changes, by path
  // Rows of this transaction's own new files (compaction outputs) that concurrent winners
  // deleted in their sources; written as the output's DV at commit. By add path.
  std::map<std::string, delta::DeletionVector> added_file_deletes;
  // Change data files (PROTOCOL.md "Add CDC File") of the rows the transaction changed. A
  // rebase keeps them as they are: it never changes which rows the transaction changed (a row
  // a winner also changed is a conflict), only where they sit (doc/change_data_feed.md).
  std::vector<delta::AddCdcFile> cdc_files;
  std::optional<delta::Metadata> metadata;
  std::optional<delta::Protocol> protocol;
  std::map<std::string, delta::DomainMetadata> domains;  // by domain
  std::optional<delta::Txn> app_txn;
  bool data_change = true;           // false for OPTIMIZE / REORG rewrites
  bool generates_identity = false;   // the transaction generated identity column values

  // Only adds with data change, nothing else.
  bool OnlyAdds() const {
    return removes.empty() && row_deletes.empty() && !metadata && !protocol && domains.empty();
  }
};

}  // namespace shoal::txn
