#include "txn/conflict_checker.h"

#include <charconv>
#include <set>
#include <utility>

#include "delta/json_fields.h"
#include "txn/compaction_map.h"
#include "txn/row_id_rebase.h"
#include "txn/row_id_remap.h"

namespace shoal::txn {
namespace {

constexpr const char* kTryAgain = ". Please try the operation again.";

std::string AtVersion(const WinningCommit& w) {
  return " by a concurrent update at version " + std::to_string(w.version);
}

}  // namespace

Status ProtocolChangedConflict(int64_t version) {
  std::string msg = "The protocol version of the Delta table has been changed by a concurrent update at version " +
                    std::to_string(version);
  if (version == 0) {
    msg += ". This happens when multiple writers are writing to an empty directory. Creating the "
           "table ahead of time will avoid this conflict.";
  } else {
    msg += kTryAgain;
  }
  return Status::Conflict(ConflictKind::kProtocolChanged, msg);
}

namespace {

Status ProtocolConflict(const WinningCommit& w) { return ProtocolChangedConflict(w.version); }

Status DeleteReadConflict(const WinningCommit& w, const std::string& path, const std::string& detail) {
  return Status::Conflict(ConflictKind::kConcurrentDeleteRead,
                          "This transaction attempted to read one or more files that were deleted "
                          "(for example " + path + detail + ")" + AtVersion(w) + kTryAgain);
}

Status DeleteDeleteConflict(const WinningCommit& w, const std::string& path,
                            const std::string& detail) {
  return Status::Conflict(ConflictKind::kConcurrentDeleteDelete,
                          "This transaction attempted to delete one or more files that were "
                          "deleted (for example " + path + detail + ")" + AtVersion(w) + kTryAgain);
}

// A set of row positions, or "every row of the file".
struct RowSet {
  bool all = false;
  delta::DeletionVector rows;
  bool Empty() const { return !all && rows.IsEmpty(); }
};

// The first row in both sets, or nullopt. `all` sets are treated as non-empty.
std::optional<uint64_t> FirstCommonRow(const RowSet& a, const RowSet& b) {
  if (a.Empty() || b.Empty()) return std::nullopt;
  if (a.all && b.all) return std::optional<uint64_t>(UINT64_MAX);
  const RowSet& finite = a.all ? b : a;
  const RowSet& other = a.all ? a : b;
  std::optional<uint64_t> hit;
  finite.rows.ForEach([&](uint64_t r) {
    if (other.all || other.rows.Contains(r)) {
      hit = r;
      return false;
    }
    return true;
  });
  return hit;
}

std::string RowDetail(uint64_t row) {
  if (row == UINT64_MAX) return "";
  return ", row " + std::to_string(row);
}

Result<delta::DeletionVector> LoadDv(const CheckerInput& in, const delta::AddFile& file) {
  if (!file.deletion_vector) return delta::DeletionVector();
  auto dv = delta::DeletionVector::Load(*in.fs, in.table_root, *file.deletion_vector);
  if (!dv.ok()) return dv.status().WithContext("deletion vector of " + file.path);
  return dv;
}

Result<delta::DeletionVector> LoadRemovedDv(const CheckerInput& in, const delta::RemoveFile& r) {
  if (!r.deletion_vector) return delta::DeletionVector();
  auto dv = delta::DeletionVector::Load(*in.fs, in.table_root, *r.deletion_vector);
  if (!dv.ok()) return dv.status().WithContext("deletion vector of " + r.path);
  return dv;
}

// Loads a DV known only by its UniqueId() (all that shoal.compactedFrom records): an inline id
// holds the Z85 text, whose padded bytes parse only at the exact length (the format is
// self-delimiting and trailing bytes are rejected); a file DV stores its size in front of the bitmap.
Result<delta::DeletionVector> LoadDvById(const CheckerInput& in, const std::string& id) {
  if (id.empty()) return delta::DeletionVector();
  delta::DeletionVectorDescriptor d;
  d.storage_type = id[0];
  std::string rest = id.substr(1);
  if (d.storage_type == 'i') {
    d.path_or_inline_dv = rest;
    // The id holds the Z85 text but not sizeInBytes: Z85 pads to 4 bytes, so try the 4 sizes.
    size_t encoded = rest.size() / 5 * 4;
    Status last = Status::Corruption("empty inline deletion vector id '" + id + "'");
    for (size_t pad = 0; pad < 4 && pad < encoded; ++pad) {
      d.size_in_bytes = static_cast<int32_t>(encoded - pad);
      auto dv = delta::DeletionVector::Load(*in.fs, in.table_root, d, /*verify_cardinality=*/false);
      if (dv.ok()) return dv;
      last = dv.status();
    }
    return last;
  }
  size_t at = rest.rfind('@');
  int32_t offset = 0;
  if (at == std::string::npos ||
      std::from_chars(rest.data() + at + 1, rest.data() + rest.size(), offset).ec != std::errc() || offset < 1) {
    return Status::Corruption("deletion vector id '" + id + "' has no offset");
  }
  d.path_or_inline_dv = rest.substr(0, at);
  d.offset = offset;
  ASSIGN_OR_RETURN(std::string path, delta::DeletionVectorFilePath(in.table_root, d));
  ASSIGN_OR_RETURN(auto file, in.fs->OpenForRead(path));
  if (offset + 4 > file->Size()) return Status::Corruption(path + ": deletion vector offset past the end");
  uint8_t b[4];
  RETURN_NOT_OK(file->ReadAt(offset, 4, b));
  d.size_in_bytes = static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]);
  return delta::DeletionVector::Load(*in.fs, in.table_root, d, /*verify_cardinality=*/false);
}

// The add this transaction currently holds for `path` (read or row-delete base), or nullptr.
const delta::AddFile* LoserBase(const CheckerInput& in, const std::string& path) {
  auto r = in.read->files.find(path);
  if (r != in.read->files.end()) return &r->second.file;
  auto d = in.write->row_deletes.find(path);
  if (d != in.write->row_deletes.end()) return &d->second.base;
  return nullptr;
}

// The rows of the file this transaction modifies (empty when none).
RowSet ModifiedRows(const CheckerInput& in, const std::string& path) {
  RowSet out;
  if (in.write->removes.count(path)) {
    out.all = true;
    return out;
  }
  auto d = in.write->row_deletes.find(path);
  if (d != in.write->row_deletes.end()) out.rows = d->second.rows;
  return out;
}

// The rows of the file this transaction's result depends on (empty when it did not read it).
RowSet ReadRows(const CheckerInput& in, const std::string& path) {
  RowSet out;
  auto r = in.read->files.find(path);
  if (r == in.read->files.end()) return out;
  if (r->second.matched_rows) {
    out.rows = *r->second.matched_rows;
  } else {
    out.all = true;
  }
  return out;
}

Status CheckMetadata(const CheckerInput& in, const WinningCommit& w, RebasePlan* plan) {
  if (!w.metadata) return Status::OK();
  bool hwm_only = in.metadata && !in.write->metadata &&
                  IsIdentityHighWaterMarkOnlyChange(*in.metadata, *w.metadata);
  if (hwm_only && !in.write->generates_identity) {
    plan->adopt_metadata = *w.metadata;
    return Status::OK();
  }
  std::string msg = "The metadata of the Delta table has been changed" + AtVersion(w);
  if (hwm_only) {
    msg += " (both transactions generated identity column values; tables with identity columns "
           "do not support concurrent writers)";
  }
  return Status::Conflict(ConflictKind::kMetadataChanged, msg + kTryAgain);
}

Status CheckAppTransactions(const CheckerInput& in, const WinningCommit& w) {
  for (const auto& t : w.txns) {
    bool ours = in.read->app_ids.count(t.app_id) ||
                (in.write->app_txn && in.write->app_txn->app_id == t.app_id);
    if (ours) {
      return Status::Conflict(
          ConflictKind::kConcurrentTransaction,
          "This error occurs when multiple streaming queries are using the same checkpoint to "
          "write into this table: application transaction '" + t.app_id + "' was committed" +
              AtVersion(w) + ". Did you run multiple instances of the same streaming query at "
              "the same time?");
    }
  }
  for (const auto& d : w.domains) {
    if (in.read->domains.count(d.domain) || in.write->domains.count(d.domain)) {
      return Status::Conflict(ConflictKind::kConcurrentTransaction,
                              "Domain metadata '" + d.domain + "' was changed" + AtVersion(w) +
                                  kTryAgain);
    }
  }
  return Status::OK();
}

Status CheckConcurrentAppend(const CheckerInput& in, const WinningCommit& w) {
  if (!in.write->data_change || in.isolation == IsolationLevel::kSnapshotIsolation) {
    return Status::OK();
  }
  if (in.isolation == IsolationLevel::kWriteSerializable && w.IsBlindAppend()) return Status::OK();
  if (!in.read->whole_table && in.read->predicates.empty()) return Status::OK();
  std::set<std::string> removed;
  for (const auto& r : w.removes) removed.insert(r.path);
  const std::vector<std::string> no_partitions;
  const auto& partition_columns = in.metadata ? in.metadata->partition_columns : no_partitions;
  for (const auto& add : w.adds) {
    if (!add.data_change) continue;
    if (removed.count(add.path)) continue;  // a DV-only re-add carries no new rows
    bool conflict = in.read->whole_table;
    for (size_t i = 0; !conflict && i < in.read->predicates.size(); ++i) {
      const auto& pred = in.read->predicates[i];
      if (!pred.expr || !in.schema) {
        conflict = true;  // cannot evaluate: assume it matches
        break;
      }
      if (!FileMayMatch(add, *pred.expr, *in.schema)) continue;
      if (in.row_level && in.matcher) {
        ASSIGN_OR_RETURN(bool any, in.matcher->AnyRowMatches(in.table_root, add, *pred.expr,
                                                             *in.schema));
        if (!any) continue;
      }
      conflict = true;
    }
    if (conflict) {
      return Status::Conflict(ConflictKind::kConcurrentAppend,
                              "Files were added to " + DescribePartition(add, partition_columns) +
                                  AtVersion(w) + kTryAgain);
    }
  }
  return Status::OK();
}

// A remove without data change (OPTIMIZE / REORG): rows moved, none deleted.
Status CheckCompactedRemove(const CheckerInput& in, const WinningCommit& w,
                            const delta::RemoveFile& r, RowIdIndexes* row_ids, RebasePlan* plan) {
  const std::string& path = r.path;
  bool modifies = in.write->removes.count(path) || in.write->row_deletes.count(path);
  bool reads = in.read->files.count(path) > 0;
  if (!modifies && !reads) return Status::OK();

  ASSIGN_OR_RETURN(auto placement, FindCompactionPlacement(w.adds, path));
  auto own_remove = in.write->removes.find(path);
  if (own_remove != in.write->removes.end()) {
    if (!own_remove->second.data_change || !in.write->data_change) {
      // Both compacted the file. With deletion vectors two plain compactions do not conflict:
      // ours drops the output holding the file (its rows already live in the winner's output).
      ASSIGN_OR_RETURN(auto own, FindCompactionPlacement(in.write->adds, path));
      if (!placement || !own || !in.deletion_vectors) return DeleteDeleteConflict(w, path, "");
      if (plan->dropped_outputs.count(own->output.path)) return Status::OK();
      ASSIGN_OR_RETURN(auto sources, ParseCompactedFrom(own->output.tags->at(kCompactedFromTag)));
      auto& dropped = plan->dropped_outputs[own->output.path];
      for (const auto& source : sources) dropped.push_back(source.path);
      return Status::OK();
    }
    // A DML that deleted every live row of the file: with deletion vectors and a row mapping
    // those rows are deleted in the output instead.
    bool movable = placement && in.deletion_vectors &&
                   placement->source.dv_id == own_remove->second.DvUniqueId();
    if (!movable && !placement && RebaseThroughRowIds(in, w, r, row_ids, plan)) return Status::OK();
    delta::DeletionVector rows;
    if (movable) {
      rows.AddRange(static_cast<uint64_t>(placement->out_start),
                    static_cast<uint64_t>(placement->out_start + placement->source.live_rows));
    } else if (placement && in.deletion_vectors) {
      // The compaction packed the file with another DV than the one this transaction removes it
      // with: it started before a DML that deleted other rows of the file and was rebased over
      // it (which this transaction already saw). This transaction's rows — the file's live rows
      // at its snapshot — are translated through the packed DV; a row the compaction already had
      // as deleted was deleted twice.
      ASSIGN_OR_RETURN(delta::DeletionVector packed, LoadDvById(in, placement->source.dv_id));
      ASSIGN_OR_RETURN(delta::DeletionVector ours, LoadRemovedDv(in, own_remove->second));
      const int64_t num_rows = placement->source.live_rows + static_cast<int64_t>(packed.Cardinality());
      auto moved = TranslateThroughCompaction(LivePositions(num_rows, ours), packed, *placement);
      if (!moved.ok()) return DeleteDeleteConflict(w, path, ": " + moved.status().message());
      rows = std::move(moved).value();
    } else {
      return DeleteDeleteConflict(w, path, "");
    }
    plan->moved_row_deletes.push_back({path, placement->output, rows});
    plan->dropped_removes.insert(path);
    if (reads) plan->moved_reads.push_back({path, placement->output, std::move(rows)});
    return Status::OK();
  }

  const delta::AddFile* base = LoserBase(in, path);
  // Positions map through the DV the compaction packed the file with (compactedFrom's dvId). A
  // compaction rebased over a DML winner removes the file with that winner's DV instead, so the
  // packed DV is loaded by its id; unreadable, the file counts as rewritten without a mapping.
  std::optional<delta::DeletionVector> packed_dv;
  if (placement && in.deletion_vectors && base) {
    if (placement->source.dv_id == r.DvUniqueId()) {
      ASSIGN_OR_RETURN(packed_dv, LoadRemovedDv(in, r));
    } else if (auto dv = LoadDvById(in, placement->source.dv_id); dv.ok()) {
      packed_dv = std::move(dv).value();
    }
  }
  bool translatable = packed_dv.has_value();
  if (!translatable && !placement && RebaseThroughRowIds(in, w, r, row_ids, plan)) return Status::OK();
  if (!translatable) {
    if (modifies) return DeleteDeleteConflict(w, path, " rewritten without a row mapping");
    if (!in.row_level) return DeleteReadConflict(w, path, "");
    // Row level: readers do not conflict with a rewrite that deleted no rows.
    plan->read_file_updates[path] = std::nullopt;
    return Status::OK();
  }
  const delta::DeletionVector& dv_at_compaction = *packed_dv;
  auto d = in.write->row_deletes.find(path);
  if (d != in.write->row_deletes.end()) {
    auto moved = TranslateThroughCompaction(d->second.rows, dv_at_compaction, *placement);
    if (!moved.ok()) return DeleteDeleteConflict(w, path, ": " + moved.status().message());
    plan->moved_row_deletes.push_back({path, placement->output, std::move(moved).value()});
  }
  auto rd = in.read->files.find(path);
  if (rd != in.read->files.end()) {
    delta::DeletionVector rows;
    if (rd->second.matched_rows) {
      auto moved = TranslateThroughCompaction(*rd->second.matched_rows, dv_at_compaction, *placement);
      if (!moved.ok()) return DeleteReadConflict(w, path, ": " + moved.status().message());
      rows = std::move(moved).value();
    } else {
      rows.AddRange(placement->out_start, placement->out_start + placement->source.live_rows);
    }
    plan->moved_reads.push_back({path, placement->output, std::move(rows)});
  }
  return Status::OK();
}

// Compaction loser: a DML winner deleted rows (with a DV) of a file this transaction
// compacted; the rows are carried into a DV on the output. False when not applicable.
Result<bool> CarryIntoOwnCompaction(const CheckerInput& in, const WinningCommit& w,
                                    const std::string& path, RowIdIndexes* row_ids, RebasePlan* plan) {
  auto rm = in.write->removes.find(path);
  if (rm == in.write->removes.end() || !in.deletion_vectors) return false;
  // ZORDER stages plain removes in a transaction without data change.
  if (rm->second.data_change && in.write->data_change) return false;
  auto rd = in.read->files.find(path);
  if (rd == in.read->files.end()) return false;
  ASSIGN_OR_RETURN(auto placement, FindCompactionPlacement(in.write->adds, path));
  if (!placement) return CarryThroughRowIds(in, w, path, row_ids, plan);
  if (!placement || placement->source.dv_id != rd->second.file.DvUniqueId()) return false;
  const delta::AddFile* readd = w.FindAdd(path);
  if (!readd) {
    // The winner deleted every row of the file: all of its rows in the output are deleted,
    // and the file is already gone.
    plan->carried_deletes[placement->output.path].AddRange(
        static_cast<uint64_t>(placement->out_start),
        static_cast<uint64_t>(placement->out_start + placement->source.live_rows));
    plan->dropped_removes.insert(path);
    return true;
  }
  if (!readd->deletion_vector) return false;
  ASSIGN_OR_RETURN(delta::DeletionVector dv_at_compaction, LoadDv(in, rd->second.file));
  ASSIGN_OR_RETURN(delta::DeletionVector current, LoadRemovedDv(in, rm->second));
  ASSIGN_OR_RETURN(delta::DeletionVector winner_dv, LoadDv(in, *readd));
  std::vector<uint64_t> diff;
  winner_dv.ForEach([&](uint64_t row) {
    if (!current.Contains(row)) diff.push_back(row);
    return true;
  });
  delta::DeletionVector newly;
  newly.AddMany(diff.data(), diff.size());
  auto moved = TranslateThroughCompaction(newly, dv_at_compaction, *placement);
  if (!moved.ok()) return false;
  plan->carried_deletes[placement->output.path].UnionWith(*moved);
  plan->remove_new_base[path] = *readd;
  return true;
}

Status CheckDataRemove(const CheckerInput& in, const WinningCommit& w, const delta::RemoveFile& r,
                       RowIdIndexes* row_ids, RebasePlan* plan) {
  const std::string& path = r.path;
  ASSIGN_OR_RETURN(bool carried, CarryIntoOwnCompaction(in, w, path, row_ids, plan));
  if (carried) return Status::OK();
  RowSet modified = ModifiedRows(in, path);
  bool touches = in.write->removes.count(path) || in.write->row_deletes.count(path) ||
                 in.read->files.count(path);
  if (!touches) return Status::OK();
  const delta::AddFile* readd = w.FindAdd(path);
  if (!in.row_level) {
    if (in.write->removes.count(path) || in.write->row_deletes.count(path)) {
      return DeleteDeleteConflict(w, path, "");
    }
    return DeleteReadConflict(w, path, "");
  }
  // Row level: the winner's newly deleted rows are dv_winner \ dv_ours, or all rows.
  RowSet newly;
  if (readd && readd->deletion_vector) {
    ASSIGN_OR_RETURN(delta::DeletionVector winner_dv, LoadDv(in, *readd));
    delta::DeletionVector ours;
    if (const delta::AddFile* base = LoserBase(in, path)) {
      ASSIGN_OR_RETURN(ours, LoadDv(in, *base));
    }
    std::vector<uint64_t> diff;
    winner_dv.ForEach([&](uint64_t row) {
      if (!ours.Contains(row)) diff.push_back(row);
      return true;
    });
    newly.rows.AddMany(diff.data(), diff.size());
  } else {
    newly.all = true;
  }
  if (auto row = FirstCommonRow(newly, modified)) return DeleteDeleteConflict(w, path, RowDetail(*row));
  if (auto row = FirstCommonRow(newly, ReadRows(in, path))) {
    return DeleteReadConflict(w, path, RowDetail(*row));
  }
  if (readd) {
    if (in.read->files.count(path)) plan->read_file_updates[path] = *readd;
    if (in.write->row_deletes.count(path)) plan->row_delete_new_base[path] = *readd;
  } else {
    if (in.read->files.count(path)) plan->read_file_updates[path] = std::nullopt;
    // Deleting rows of a file the winner removed outright cannot be rebased.
    if (in.write->row_deletes.count(path)) {
      return DeleteDeleteConflict(w, path, "");
    }
  }
  return Status::OK();
}

}  // namespace

WinningCommit WinningCommit::FromActions(int64_t version, std::vector<delta::Action> actions) {
  WinningCommit w;
  w.version = version;
  for (auto& a : actions) {
    if (auto* p = std::get_if<delta::Protocol>(&a)) {
      w.protocol = std::move(*p);
    } else if (auto* m = std::get_if<delta::Metadata>(&a)) {
      w.metadata = std::move(*m);
    } else if (auto* add = std::get_if<delta::AddFile>(&a)) {
      w.adds.push_back(std::move(*add));
    } else if (auto* rm = std::get_if<delta::RemoveFile>(&a)) {
      w.removes.push_back(std::move(*rm));
    } else if (auto* t = std::get_if<delta::Txn>(&a)) {
      w.txns.push_back(std::move(*t));
    } else if (auto* d = std::get_if<delta::DomainMetadata>(&a)) {
      w.domains.push_back(std::move(*d));
    } else if (auto* ci = std::get_if<delta::CommitInfo>(&a)) {
      w.commit_info = std::move(*ci);
    }
  }
  return w;
}

bool WinningCommit::IsBlindAppend() const {
  return commit_info && commit_info->IsBlindAppend().value_or(false);
}

std::optional<std::string> WinningCommit::TxnId() const {
  if (!commit_info) return std::nullopt;
  return commit_info->TxnId();
}

const delta::AddFile* WinningCommit::FindAdd(const std::string& path) const {
  for (const auto& a : adds) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

bool IsIdentityHighWaterMarkOnlyChange(const delta::Metadata& before, const delta::Metadata& after) {
  if (before == after) return false;
  delta::Metadata a = before;
  delta::Metadata b = after;
  auto strip = [](delta::Metadata* m, bool* had_identity) -> bool {
    auto parsed = delta::ParseJson(m->schema_string, "schemaString");
    if (!parsed.ok()) return false;
    delta::Json j = std::move(parsed).value();
    // Removes highWaterMark from the metadata of every struct field, recursively.
    std::vector<delta::Json*> stack{&j};
    while (!stack.empty()) {
      delta::Json* node = stack.back();
      stack.pop_back();
      if (node->is_object()) {
        auto md = node->find("metadata");
        if (md != node->end() && md->is_object() && md->contains("delta.identity.start")) {
          *had_identity = true;
          md->erase("delta.identity.highWaterMark");
        }
        for (auto& [k, v] : node->items()) stack.push_back(&v);
      } else if (node->is_array()) {
        for (auto& v : *node) stack.push_back(&v);
      }
    }
    m->schema_string = delta::JsonText(j);
    return true;
  };
  bool identity_a = false, identity_b = false;
  if (!strip(&a, &identity_a) || !strip(&b, &identity_b)) return false;
  return identity_a && identity_b && a == b;
}

Result<RebasePlan> CheckWinningCommit(const CheckerInput& in, const WinningCommit& w) {
  RebasePlan plan;
  // 1. Protocol, including a concurrent creation of the table.
  if (w.protocol || w.version == 0) return ProtocolConflict(w);
  // 2. Metadata (identity high-water-mark-only changes adopted when we generate no values).
  RETURN_NOT_OK(CheckMetadata(in, w, &plan));
  // 3. Application transactions and domains.
  RETURN_NOT_OK(CheckAppTransactions(in, w));
  // 4. Delete-read / delete-delete, file or row level. Checked before appends so that two
  // updates of the same row report what happened (the row was modified twice) rather than the
  // winner's new row version matching our predicate.
  RowIdIndexes row_ids;
  for (const auto& r : w.removes) {
    if (r.data_change) {
      RETURN_NOT_OK(CheckDataRemove(in, w, r, &row_ids, &plan));
    } else {
      RETURN_NOT_OK(CheckCompactedRemove(in, w, r, &row_ids, &plan));
    }
  }
  // 5. Concurrent append.
  RETURN_NOT_OK(CheckConcurrentAppend(in, w));
  if (w.commit_info) plan.in_commit_timestamp = w.commit_info->InCommitTimestamp();
  return plan;
}

}  // namespace shoal::txn
