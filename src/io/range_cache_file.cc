#include "io/range_cache_file.h"

#include <algorithm>
#include <cstring>

#include "io/read_range.h"

namespace shoal::io {

std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, int64_t max_gap) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.length <= 0; });
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (!out.empty() && r.offset - out.back().end() < max_gap) {
      out.back().length = std::max(out.back().end(), r.end()) - out.back().offset;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

RangeCacheFile::RangeCacheFile(std::unique_ptr<RandomAccessFile> file)
    : RandomAccessFile(file->path()), file_(std::move(file)) {}

std::shared_ptr<const RangeCacheFile::Entry> RangeCacheFile::FindLocked(int64_t offset, int64_t length) const {
  // Entries may overlap, so any entry starting at or before `offset` may hold the range.
  for (auto it = entries_.upper_bound(offset); it != entries_.begin();) {
    --it;
    const Entry& e = *it->second;
    if (offset + length <= e.offset + static_cast<int64_t>(e.data.size())) return it->second;
  }
  return nullptr;
}

bool RangeCacheFile::Contains(int64_t offset, int64_t length) const {
  std::lock_guard<std::mutex> lock(mu_);
  return FindLocked(offset, length) != nullptr;
}

int64_t RangeCacheFile::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return unpinned_bytes_ + pinned_bytes_;
}

Status RangeCacheFile::ReadAt(int64_t offset, int64_t length, uint8_t* out) const {
  RETURN_NOT_OK(CheckReadRange(path_, offset, length, Size()));
  if (length == 0) return Status::OK();
  std::shared_ptr<const Entry> hit;
  {
    std::lock_guard<std::mutex> lock(mu_);
    hit = FindLocked(offset, length);
  }
  if (!hit) return file_->ReadAt(offset, length, out);
  std::memcpy(out, hit->data.data() + (offset - hit->offset), static_cast<size_t>(length));
  return Status::OK();
}

Status RangeCacheFile::Prefetch(std::vector<ByteRange> ranges, bool pinned) const {
  const int64_t size = Size();
  for (ByteRange& r : ranges) {
    r.offset = std::clamp<int64_t>(r.offset, 0, size);
    r.length = std::clamp<int64_t>(r.length, 0, size - r.offset);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(ranges, [&](const ByteRange& r) { return r.length <= 0 || FindLocked(r.offset, r.length); });
  }
  std::vector<ByteRange> merged = CoalesceRanges(std::move(ranges), kMergeGap);
  if (merged.empty()) return Status::OK();
  std::vector<std::shared_ptr<Entry>> fetched;
  std::vector<ReadRequest> reqs;
  for (const ByteRange& r : merged) {
    auto e = std::make_shared<Entry>();
    e->offset = r.offset;
    e->data.resize(static_cast<size_t>(r.length));
    e->pinned = pinned;
    reqs.push_back({r.offset, r.length, reinterpret_cast<uint8_t*>(e->data.data())});
    fetched.push_back(std::move(e));
  }
  RETURN_NOT_OK(file_->ReadMany(reqs));
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& e : fetched) {
    e->seq = next_seq_++;
    (pinned ? pinned_bytes_ : unpinned_bytes_) += static_cast<int64_t>(e->data.size());
    entries_.emplace(e->offset, std::move(e));
  }
  while (unpinned_bytes_ > kMaxUnpinnedBytes) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!it->second->pinned && (oldest == entries_.end() || it->second->seq < oldest->second->seq)) oldest = it;
    }
    if (oldest == entries_.end()) break;
    unpinned_bytes_ -= static_cast<int64_t>(oldest->second->data.size());
    entries_.erase(oldest);
  }
  return Status::OK();
}

}  // namespace shoal::io
