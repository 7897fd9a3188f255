// FileList: the active data files of a snapshot, kept column-wise as a checkpoint stores them
// (doc/snapshot_loading.md "The file list"): paths, sizes, modification times and raw stats
// JSON as columns of string views and integers, partition values as views per file, and the
// rarely set fields (tags, deletion vector, row ids, clustering provider) in a side record only
// for the files that have them. A snapshot of a million files then costs a few allocations
// instead of three per file, and loading it never builds an AddFile; Get(i) builds one for a
// file a caller keeps.
//
// String views point into storage the list owns: its own arena (Append copies into it) or
// buffers a producer hands over with KeepAlive (the checkpoint scan keeps its decoded string
// columns this way, so paths and stats are never copied again).
// Thread-safety: immutable use is safe from any thread; building is single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "delta/actions.h"

namespace shoal::delta {

class FileList {
 public:
  struct PartitionEntry {
    std::string_view key;
    std::string_view value;  // empty when is_null
    bool is_null = false;
  };
  // The fields few files carry.
  struct Extras {
    std::optional<StringMap> tags;
    std::optional<DeletionVectorDescriptor> deletion_vector;
    std::optional<int64_t> base_row_id;
    std::optional<int64_t> default_row_commit_version;
    std::optional<std::string> clustering_provider;
    bool empty() const {
      return !tags && !deletion_vector && !base_row_id && !default_row_commit_version && !clustering_provider;
    }
  };
  // One file as views, for producers that own its strings elsewhere (see KeepAlive).
  struct Row {
    std::string_view path;
    std::span<const PartitionEntry> partition_values;
    int64_t size = 0;
    int64_t modification_time = 0;
    bool data_change = true;
    std::optional<std::string_view> stats;
  };

  FileList() = default;
  FileList(FileList&&) noexcept = default;
  FileList& operator=(FileList&&) noexcept = default;
  FileList(const FileList&) = delete;
  FileList& operator=(const FileList&) = delete;

  size_t size() const { return paths_.size(); }
  bool empty() const { return paths_.empty(); }

  std::string_view path(size_t i) const { return paths_[i]; }
  int64_t file_size(size_t i) const { return sizes_[i]; }
  int64_t modification_time(size_t i) const { return mtimes_[i]; }
  bool data_change(size_t i) const { return (flags_[i] & kDataChange) != 0; }
  // The raw stats JSON, when the log has it.
  std::optional<std::string_view> stats(size_t i) const {
    if ((flags_[i] & kHasStats) == 0) return std::nullopt;
    return stats_[i];
  }
  std::span<const PartitionEntry> partition_values(size_t i) const {
    return {pv_.data() + pv_begin_[i], pv_.data() + pv_end_[i]};
  }
  // Null when the file has none of the rare fields.
  const Extras* extras(size_t i) const { return extra_index_[i] < 0 ? nullptr : &extras_[extra_index_[i]]; }
  const DeletionVectorDescriptor* deletion_vector(size_t i) const {
    const Extras* e = extras(i);
    return e && e->deletion_vector ? &*e->deletion_vector : nullptr;
  }
  // UniqueId() of the file's DV, or "" without one (the replay key next to the path).
  std::string DvUniqueId(size_t i) const;

  // File i as an AddFile (copies its strings).
  AddFile Get(size_t i) const;
  // The AddFile a row describes (copies its strings).
  static AddFile MakeAddFile(const Row& r, Extras&& extras);
  // The rare fields of `f`.
  static Extras ExtrasOf(const AddFile& f);
  // Every file as an AddFile, in order.
  std::vector<AddFile> Materialize() const;

  // ---- building
  void Reserve(size_t files);
  // Copies `f` into the list's own storage.
  void Append(const AddFile& f);
  // Appends views the caller keeps valid by handing their owner to KeepAlive.
  void AppendRow(const Row& r, Extras&& extras);
  void KeepAlive(std::shared_ptr<const void> owner);
  // Moves every file of `other` (and its storage) to the end of this list.
  void AppendList(FileList&& other);
  // Drops the files whose dead[i] is true, keeping the order of the rest.
  void Erase(const std::vector<bool>& dead);

 private:
  static constexpr uint8_t kDataChange = 1, kHasStats = 2;
  std::string_view Store(std::string_view s);
  void PushRow(const Row& r, std::span<const PartitionEntry> pv, Extras&& extras);

  std::vector<std::string_view> paths_;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> mtimes_;
  std::vector<uint8_t> flags_;
  std::vector<std::string_view> stats_;
  std::vector<uint32_t> pv_begin_, pv_end_;  // into pv_
  std::vector<PartitionEntry> pv_;
  std::vector<int32_t> extra_index_;  // into extras_; -1: none
  std::vector<Extras> extras_;
  // Storage of the views: arena chunks (Store) and handed-over owners (KeepAlive).
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunk_used_ = 0, chunk_cap_ = 0;
  std::vector<std::shared_ptr<const void>> owners_;
};

}  // namespace shoal::delta
