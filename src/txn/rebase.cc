#include "txn/rebase.h"

#include <utility>
#include <vector>

namespace shoal::txn {

void ApplyRebase(RebasePlan plan, ReadSet* read, WriteSet* write, delta::Metadata* metadata,
                 delta::Protocol* protocol) {
  if (plan.adopt_protocol) *protocol = std::move(*plan.adopt_protocol);
  if (plan.adopt_metadata) *metadata = std::move(*plan.adopt_metadata);

  for (auto& [path, update] : plan.read_file_updates) {
    auto it = read->files.find(path);
    if (it == read->files.end()) continue;
    if (update) {
      it->second.file = std::move(*update);
    } else {
      read->files.erase(it);
    }
  }
  for (auto& moved : plan.moved_reads) {
    read->files.erase(moved.from_path);
    auto [it, inserted] = read->files.try_emplace(moved.output.path);
    if (inserted) {
      it->second.file = moved.output;
      it->second.matched_rows = std::move(moved.rows);
    } else if (it->second.matched_rows) {
      it->second.matched_rows->UnionWith(moved.rows);
    }
  }

  for (const auto& [dropped, sources] : plan.dropped_outputs) {
    const std::string& output = dropped;  // a lambda may not capture a structured binding (clang)
    std::erase_if(write->adds, [&](const delta::AddFile& a) { return a.path == output; });
    write->added_file_deletes.erase(output);
    for (const auto& source : sources) {
      write->removes.erase(source);
      read->files.erase(source);
    }
  }
  for (const auto& path : plan.dropped_removes) write->removes.erase(path);
  for (auto& [path, rows] : plan.carried_deletes) {
    write->added_file_deletes[path].UnionWith(rows);
  }
  for (auto& [path, base] : plan.remove_new_base) {
    auto it = write->removes.find(path);
    if (it == write->removes.end()) continue;
    it->second.deletion_vector = base.deletion_vector;
    it->second.stats = base.stats;
    it->second.size = base.size;
  }
  for (auto& [path, base] : plan.row_delete_new_base) {
    auto it = write->row_deletes.find(path);
    if (it != write->row_deletes.end()) it->second.base = std::move(base);
  }
  for (auto& moved : plan.moved_row_deletes) {
    write->row_deletes.erase(moved.from_path);
    auto [it, inserted] = write->row_deletes.try_emplace(moved.output.path);
    if (inserted) {
      it->second.base = std::move(moved.output);
      it->second.rows = std::move(moved.rows);
    } else {
      it->second.rows.UnionWith(moved.rows);
    }
  }
}

}  // namespace shoal::txn
