// RangeCacheFile: a RandomAccessFile over another that keeps byte ranges fetched ahead in
// memory, for readers of object storage where every request costs a round trip. The reader
// says which ranges it will need (Prefetch); they are merged where the gap between two is below
// kMergeGap, fetched together (ReadMany: several requests in flight, one round trip), and later
// ReadAt calls that fall inside a kept range are served from memory. Any other read goes to the
// file below, so a range dropped or never prefetched costs time, never correctness.
//
// Thread-safety: thread-safe (as RandomAccessFile requires).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/file_system.h"

namespace shoal::io {

struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
};

// Sorts `ranges` and merges those that overlap or lie less than `max_gap` bytes apart (empty
// ranges are dropped).
std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, int64_t max_gap);

class RangeCacheFile final : public RandomAccessFile {
 public:
  // Ranges closer than this are fetched as one request. On S3 a request costs a round trip of
  // 10-50 ms, in which a 100+ MB/s connection delivers about 1 MiB or more: reading the gap
  // costs less than a second request.
  static constexpr int64_t kMergeGap = int64_t{1} << 20;
  // At most this many bytes of unpinned ranges are kept; the oldest are dropped first.
  static constexpr int64_t kMaxUnpinnedBytes = int64_t{256} << 20;

  explicit RangeCacheFile(std::unique_ptr<RandomAccessFile> file);

  int64_t Size() const override { return file_->Size(); }
  bool latency_bound() const override { return file_->latency_bound(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override;

  // Fetches the parts of `ranges` not already kept (merged per kMergeGap, all in one ReadMany)
  // and keeps them. `pinned` ranges (footer, page index) are never dropped.
  Status Prefetch(std::vector<ByteRange> ranges, bool pinned = false) const;
  // True when [offset, offset + length) lies inside one kept range.
  bool Contains(int64_t offset, int64_t length) const;
  // Bytes kept in memory now.
  int64_t kept_bytes() const;

 private:
  struct Entry {
    int64_t offset = 0;
    std::string data;
    bool pinned = false;
    uint64_t seq = 0;  // insertion order, for dropping the oldest
  };
  // The kept entry holding [offset, offset + length), or null. Requires mu_.
  std::shared_ptr<const Entry> FindLocked(int64_t offset, int64_t length) const;

  std::unique_ptr<RandomAccessFile> file_;
  mutable std::mutex mu_;
  mutable std::multimap<int64_t, std::shared_ptr<const Entry>> entries_;  // by offset; GUARDED_BY(mu_)
  mutable int64_t unpinned_bytes_ = 0;                                     // GUARDED_BY(mu_)
  mutable int64_t pinned_bytes_ = 0;                                       // GUARDED_BY(mu_)
  mutable uint64_t next_seq_ = 0;                                          // GUARDED_BY(mu_)
};

}  // namespace shoal::io
