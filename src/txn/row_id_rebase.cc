#include "txn/row_id_rebase.h"

#include <set>
#include <utility>
#include <vector>

#include "txn/row_tracking.h"

namespace shoal::txn {
namespace {

const RowIdIndex* WinnerOutputs(const CheckerInput& in, const WinningCommit& w, RowIdIndexes* x) {
  if (x->winner_outputs) return &*x->winner_outputs;
  if (x->winner_failed) return nullptr;
  std::set<std::string> removed;
  for (const auto& r : w.removes) removed.insert(r.path);
  std::vector<delta::AddFile> outputs;
  for (const auto& a : w.adds) {
    if (!a.data_change && !removed.count(a.path)) outputs.push_back(a);
  }
  auto built = RowIdIndex::Build(in.shared_fs, in.table_root, *in.row_id_metadata, std::move(outputs));
  if (!built.ok()) {
    x->winner_failed = true;
    return nullptr;
  }
  x->winner_outputs = std::move(built).value();
  return &*x->winner_outputs;
}

const RowIdIndex* OwnOutputs(const CheckerInput& in, RowIdIndexes* x) {
  if (x->own_outputs) return &*x->own_outputs;
  if (x->own_failed) return nullptr;
  std::vector<delta::AddFile> outputs;
  for (const auto& a : in.write->adds) {
    if (!a.data_change) outputs.push_back(a);
  }
  auto built = RowIdIndex::Build(in.shared_fs, in.table_root, *in.row_id_metadata, std::move(outputs));
  if (!built.ok()) {
    x->own_failed = true;
    return nullptr;
  }
  x->own_outputs = std::move(built).value();
  return &*x->own_outputs;
}

Result<delta::DeletionVector> LoadDvOf(const CheckerInput& in, const std::optional<delta::DeletionVectorDescriptor>& d) {
  if (!d) return delta::DeletionVector();
  return delta::DeletionVector::Load(*in.fs, in.table_root, *d);
}

bool Usable(const CheckerInput& in) {
  return in.row_id_metadata.has_value() && in.shared_fs && in.deletion_vectors && in.row_level;
}

}  // namespace

bool RebaseThroughRowIds(const CheckerInput& in, const WinningCommit& w, const delta::RemoveFile& removed,
                         RowIdIndexes* indexes, RebasePlan* plan) {
  if (!Usable(in)) return false;
  const std::string& path = removed.path;
  // The loser's view of the file: its read or row-delete base (same path, row ids unchanged
  // by DVs).
  const delta::AddFile* base = nullptr;
  if (auto r = in.read->files.find(path); r != in.read->files.end()) base = &r->second.file;
  if (auto d = in.write->row_deletes.find(path); !base && d != in.write->row_deletes.end()) base = &d->second.base;
  delta::AddFile whole_remove_base;
  auto own_remove = in.write->removes.find(path);
  if (!base && own_remove != in.write->removes.end()) {
    // A whole-file remove carries what the add had (removes keep baseRowId and stats).
    const delta::RemoveFile& rm = own_remove->second;
    whole_remove_base.path = rm.path;
    whole_remove_base.stats = rm.stats;
    whole_remove_base.deletion_vector = rm.deletion_vector;
    whole_remove_base.base_row_id = rm.base_row_id;
    whole_remove_base.default_row_commit_version = rm.default_row_commit_version;
    whole_remove_base.partition_values = rm.partition_values.value_or(delta::PartitionValues{});
    base = &whole_remove_base;
  }
  if (!base) return false;
  // The winner rewrote the file as it was when we last rebased: same DV, or the mapping of our
  // positions is not the winner's.
  if (base->DvUniqueId() != removed.DvUniqueId()) return false;
  const RowIdIndex* index = WinnerOutputs(in, w, indexes);
  if (!index) return false;
  auto ids = ReadFileRowIds(in.shared_fs, in.table_root, *in.row_id_metadata, *base);
  if (!ids.ok()) return false;
  auto base_dv = LoadDvOf(in, base->deletion_vector);
  if (!base_dv.ok()) return false;
  delta::DeletionVector live = LivePositions(static_cast<int64_t>(ids->ids.size()), *base_dv);

  RebasePlan local;
  if (own_remove != in.write->removes.end()) {
    if (!own_remove->second.data_change || !in.write->data_change) return false;  // two rewrites
    auto moved = RemapThroughRowIds(live, *base, *ids, *index);
    if (!moved.ok()) return false;
    for (auto& m : *moved) local.moved_row_deletes.push_back({path, m.output, std::move(m.rows)});
    local.dropped_removes.insert(path);
  }
  if (auto d = in.write->row_deletes.find(path); d != in.write->row_deletes.end()) {
    auto moved = RemapThroughRowIds(d->second.rows, *base, *ids, *index);
    if (!moved.ok()) return false;
    for (auto& m : *moved) local.moved_row_deletes.push_back({path, m.output, std::move(m.rows)});
  }
  if (auto r = in.read->files.find(path); r != in.read->files.end()) {
    const delta::DeletionVector& rows = r->second.matched_rows ? *r->second.matched_rows : live;
    auto moved = RemapThroughRowIds(rows, *base, *ids, *index);
    if (!moved.ok()) return false;
    for (auto& m : *moved) local.moved_reads.push_back({path, m.output, std::move(m.rows)});
  }
  for (auto& m : local.moved_row_deletes) plan->moved_row_deletes.push_back(std::move(m));
  for (auto& m : local.moved_reads) plan->moved_reads.push_back(std::move(m));
  plan->dropped_removes.insert(local.dropped_removes.begin(), local.dropped_removes.end());
  return true;
}

bool CarryThroughRowIds(const CheckerInput& in, const WinningCommit& w, const std::string& path,
                        RowIdIndexes* indexes, RebasePlan* plan) {
  if (!Usable(in)) return false;
  auto rm = in.write->removes.find(path);
  if (rm == in.write->removes.end() || in.write->data_change) return false;
  auto rd = in.read->files.find(path);
  if (rd == in.read->files.end()) return false;
  const delta::AddFile& source = rd->second.file;
  const RowIdIndex* index = OwnOutputs(in, indexes);
  if (!index) return false;
  auto ids = ReadFileRowIds(in.shared_fs, in.table_root, *in.row_id_metadata, source);
  if (!ids.ok()) return false;
  // Rows newly deleted by the winner: its DV minus the one our remove names (the DV we
  // rewrote with, or a previous winner's we already carried); all live rows when it removed
  // the file.
  auto current = LoadDvOf(in, rm->second.deletion_vector);
  if (!current.ok()) return false;
  const delta::AddFile* readd = w.FindAdd(path);
  delta::DeletionVector newly;
  if (!readd) {
    newly = LivePositions(static_cast<int64_t>(ids->ids.size()), *current);
  } else {
    if (!readd->deletion_vector) return false;
    auto winner_dv = LoadDvOf(in, readd->deletion_vector);
    if (!winner_dv.ok()) return false;
    std::vector<uint64_t> diff;
    winner_dv->ForEach([&](uint64_t row) {
      if (!current->Contains(row)) diff.push_back(row);
      return true;
    });
    newly.AddMany(diff.data(), diff.size());
  }
  auto moved = RemapThroughRowIds(newly, source, *ids, *index);
  if (!moved.ok()) return false;
  for (auto& m : *moved) plan->carried_deletes[m.output.path].UnionWith(m.rows);
  if (readd) {
    plan->remove_new_base[path] = *readd;
  } else {
    plan->dropped_removes.insert(path);
  }
  return true;
}

}  // namespace shoal::txn
