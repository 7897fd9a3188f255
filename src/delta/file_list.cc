#include "delta/file_list.h"

#include <algorithm>
#include <cstring>

namespace shoal::delta {

namespace {
constexpr size_t kChunkBytes = size_t{1} << 20;
}  // namespace

std::string FileList::DvUniqueId(size_t i) const {
  const DeletionVectorDescriptor* dv = deletion_vector(i);
  return dv ? dv->UniqueId() : std::string();
}

AddFile FileList::MakeAddFile(const Row& r, Extras&& extras) {
  AddFile a;
  a.path.assign(r.path);
  for (const PartitionEntry& e : r.partition_values) {
    a.partition_values.emplace(std::string(e.key),
                               e.is_null ? std::nullopt : std::optional<std::string>(std::string(e.value)));
  }
  a.size = r.size;
  a.modification_time = r.modification_time;
  a.data_change = r.data_change;
  if (r.stats) a.stats.emplace(*r.stats);
  a.tags = std::move(extras.tags);
  a.deletion_vector = std::move(extras.deletion_vector);
  a.base_row_id = extras.base_row_id;
  a.default_row_commit_version = extras.default_row_commit_version;
  a.clustering_provider = std::move(extras.clustering_provider);
  return a;
}

AddFile FileList::Get(size_t i) const {
  Row r;
  r.path = paths_[i];
  r.partition_values = partition_values(i);
  r.size = sizes_[i];
  r.modification_time = mtimes_[i];
  r.data_change = data_change(i);
  r.stats = stats(i);
  const Extras* x = extras(i);
  return MakeAddFile(r, x ? Extras(*x) : Extras());
}

std::vector<AddFile> FileList::Materialize() const {
  std::vector<AddFile> out;
  out.reserve(size());
  for (size_t i = 0; i < size(); ++i) out.push_back(Get(i));
  return out;
}

void FileList::Reserve(size_t files) {
  paths_.reserve(files);
  sizes_.reserve(files);
  mtimes_.reserve(files);
  flags_.reserve(files);
  stats_.reserve(files);
  pv_begin_.reserve(files);
  pv_end_.reserve(files);
  extra_index_.reserve(files);
}

std::string_view FileList::Store(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > chunk_cap_ - chunk_used_) {
    size_t cap = std::max(kChunkBytes, s.size());
    chunks_.push_back(std::make_unique<char[]>(cap));
    chunk_cap_ = cap;
    chunk_used_ = 0;
  }
  char* at = chunks_.back().get() + chunk_used_;
  std::memcpy(at, s.data(), s.size());
  chunk_used_ += s.size();
  return {at, s.size()};
}

void FileList::PushRow(const Row& r, std::span<const PartitionEntry> pv, Extras&& extras) {
  paths_.push_back(r.path);
  sizes_.push_back(r.size);
  mtimes_.push_back(r.modification_time);
  flags_.push_back(static_cast<uint8_t>((r.data_change ? kDataChange : 0) | (r.stats ? kHasStats : 0)));
  stats_.push_back(r.stats.value_or(std::string_view()));
  pv_begin_.push_back(static_cast<uint32_t>(pv_.size()));
  pv_.insert(pv_.end(), pv.begin(), pv.end());
  pv_end_.push_back(static_cast<uint32_t>(pv_.size()));
  if (extras.empty()) {
    extra_index_.push_back(-1);
  } else {
    extra_index_.push_back(static_cast<int32_t>(extras_.size()));
    extras_.push_back(std::move(extras));
  }
}

void FileList::Append(const AddFile& f) {
  Row r;
  r.path = Store(f.path);
  r.size = f.size;
  r.modification_time = f.modification_time;
  r.data_change = f.data_change;
  if (f.stats) r.stats = Store(*f.stats);
  PartitionEntry small[4];
  std::vector<PartitionEntry> large;
  PartitionEntry* pv = small;
  if (f.partition_values.size() > 4) {
    large.resize(f.partition_values.size());
    pv = large.data();
  }
  size_t n = 0;
  for (const auto& [k, v] : f.partition_values) {
    pv[n++] = PartitionEntry{Store(k), v ? Store(*v) : std::string_view(), !v.has_value()};
  }
  PushRow(r, {pv, n}, ExtrasOf(f));
}

FileList::Extras FileList::ExtrasOf(const AddFile& f) {
  Extras x;
  x.tags = f.tags;
  x.deletion_vector = f.deletion_vector;
  x.base_row_id = f.base_row_id;
  x.default_row_commit_version = f.default_row_commit_version;
  x.clustering_provider = f.clustering_provider;
  return x;
}

void FileList::AppendRow(const Row& r, Extras&& extras) { PushRow(r, r.partition_values, std::move(extras)); }

void FileList::KeepAlive(std::shared_ptr<const void> owner) { owners_.push_back(std::move(owner)); }

void FileList::AppendList(FileList&& other) {
  if (other.empty() && other.owners_.empty() && other.chunks_.empty()) return;
  if (empty() && owners_.empty() && chunks_.empty() && paths_.capacity() <= other.size()) {
    *this = std::move(other);  // nothing here, not even room reserved for more
    return;
  }
  const uint32_t pv_base = static_cast<uint32_t>(pv_.size());
  const int32_t extra_base = static_cast<int32_t>(extras_.size());
  auto append = [](auto& to, auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(paths_, other.paths_);
  append(sizes_, other.sizes_);
  append(mtimes_, other.mtimes_);
  append(flags_, other.flags_);
  append(stats_, other.stats_);
  append(pv_, other.pv_);
  for (size_t i = 0; i < other.size(); ++i) {
    pv_begin_.push_back(other.pv_begin_[i] + pv_base);
    pv_end_.push_back(other.pv_end_[i] + pv_base);
    extra_index_.push_back(other.extra_index_[i] < 0 ? -1 : other.extra_index_[i] + extra_base);
  }
  for (auto& x : other.extras_) extras_.push_back(std::move(x));
  // Storage moves without moving bytes, so the views stay valid. Chunks go before the current
  // one so that Store keeps filling the current chunk.
  if (!other.chunks_.empty()) {
    chunks_.insert(chunks_.empty() ? chunks_.end() : chunks_.end() - 1,
                   std::make_move_iterator(other.chunks_.begin()), std::make_move_iterator(other.chunks_.end()));
  }
  append(owners_, other.owners_);
  other = FileList();
}

void FileList::Erase(const std::vector<bool>& dead) {
  size_t w = 0;
  for (size_t i = 0; i < size(); ++i) {
    if (i < dead.size() && dead[i]) continue;
    if (w != i) {
      paths_[w] = paths_[i];
      sizes_[w] = sizes_[i];
      mtimes_[w] = mtimes_[i];
      flags_[w] = flags_[i];
      stats_[w] = stats_[i];
      pv_begin_[w] = pv_begin_[i];
      pv_end_[w] = pv_end_[i];
      extra_index_[w] = extra_index_[i];
    }
    ++w;
  }
  // Partition entries and extras of dropped files stay unreferenced until the list goes.
  paths_.resize(w);
  sizes_.resize(w);
  mtimes_.resize(w);
  flags_.resize(w);
  stats_.resize(w);
  pv_begin_.resize(w);
  pv_end_.resize(w);
  extra_index_.resize(w);
}

}  // namespace shoal::delta
