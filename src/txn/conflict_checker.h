// The conflict checker (doc/concurrency.md "Conflict checker"): judges one winning commit
// against a losing transaction's read and write sets, in the design's order (protocol,
// metadata, app transactions / domains, concurrent append, delete-read / delete-delete), at
// file or row level, and says either which Delta conflict it is or how to rebase.
//
// The checks are pure over their inputs except for loading deletion vectors of the files
// involved (through `fs`).
// Thread-safety: pure functions; inputs are only read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "txn/added_rows_matcher.h"
#include "txn/isolation_level.h"
#include "txn/read_set.h"
#include "txn/write_set.h"

namespace shoal::txn {

// One commit that won a version this transaction tried, grouped by action kind.
struct WinningCommit {
  int64_t version = 0;
  std::optional<delta::Protocol> protocol;
  std::optional<delta::Metadata> metadata;
  std::vector<delta::AddFile> adds;
  std::vector<delta::RemoveFile> removes;
  std::vector<delta::Txn> txns;
  std::vector<delta::DomainMetadata> domains;
  std::optional<delta::CommitInfo> commit_info;

  static WinningCommit FromActions(int64_t version, std::vector<delta::Action> actions);
  bool IsBlindAppend() const;
  std::optional<std::string> TxnId() const;
  // The winner's add of `path`, or nullptr.
  const delta::AddFile* FindAdd(const std::string& path) const;
};

// The losing transaction's side of a check.
struct CheckerInput {
  const ReadSet* read = nullptr;
  const WriteSet* write = nullptr;
  IsolationLevel isolation = IsolationLevel::kWriteSerializable;
  bool row_level = false;              // row-level concurrency is on for the table
  bool deletion_vectors = false;       // delta.enableDeletionVectors
  const delta::Metadata* metadata = nullptr;      // the loser's current metadata
  const scan::TableSchema* schema = nullptr;      // of *metadata; predicates are bound to it
  io::FileSystem* fs = nullptr;
  std::string table_root;
  AddedRowsMatcher* matcher = nullptr;  // row-level refinement of the append check; may be null
  // Row tracking enabled: the metadata with the materialized row id columns
  // (MetadataWithRowIdColumns), which lets rewrites without a position mapping be translated
  // through row ids (txn/row_id_rebase.h); nullopt otherwise.
  std::optional<delta::Metadata> row_id_metadata;
  std::shared_ptr<io::FileSystem> shared_fs;  // the same file system as `fs`, for scans
};

// Moves the loser's pending row deletions of a compacted source onto the compaction's output.
struct MovedRowDelete {
  std::string from_path;
  delta::AddFile output;       // the output file's add
  delta::DeletionVector rows;  // translated positions in the output
};

// How to rebase the loser past a winner it does not conflict with.
struct RebasePlan {
  std::optional<delta::Protocol> adopt_protocol;
  std::optional<delta::Metadata> adopt_metadata;
  // Read files the winner changed: the new add (same path, newer DV), or nullopt when the
  // file is gone and nothing of it matters any more.
  std::map<std::string, std::optional<delta::AddFile>> read_file_updates;
  // Read files moved by a compaction: the output's add and the positions they occupy there.
  struct MovedRead {
    std::string from_path;
    delta::AddFile output;
    delta::DeletionVector rows;
  };
  std::vector<MovedRead> moved_reads;
  // Row deletions whose base file got a newer DV from the winner (same path).
  std::map<std::string, delta::AddFile> row_delete_new_base;
  std::vector<MovedRowDelete> moved_row_deletes;
  // Compaction loser: rows a DML winner deleted in a compacted source, translated onto this
  // transaction's output (by output path), and the source's newer add its remove must name.
  std::map<std::string, delta::DeletionVector> carried_deletes;
  std::map<std::string, delta::AddFile> remove_new_base;
  // Whole-file removes to drop: the winner already removed the file (a DML that deleted all
  // rows of a file a compaction moved; a compaction loser's source the winner deleted).
  std::set<std::string> dropped_removes;
  // Compaction loser vs a compaction winner of the same source (both plain, with a row
  // mapping): this transaction's outputs to drop (by path), with their sources, whose removes
  // and reads are dropped too.
  std::map<std::string, std::vector<std::string>> dropped_outputs;
  std::optional<int64_t> in_commit_timestamp;
};

// The conflict as Status::Conflict(kind, message naming the winner's version and the file or
// partition), any other error (e.g. an unreadable DV) as itself, else the rebase plan.
Result<RebasePlan> CheckWinningCommit(const CheckerInput& input, const WinningCommit& winner);

// Delta's ProtocolChangedException for a winner that changed the protocol at `version`; at
// version 0 it names the usual cause, two writers creating the same table in an empty directory.
Status ProtocolChangedConflict(int64_t version);

// True when `after` differs from `before` only in identity columns' high-water marks.
bool IsIdentityHighWaterMarkOnlyChange(const delta::Metadata& before, const delta::Metadata& after);

}  // namespace shoal::txn
