#include "base/memory_tracker.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "base/byte_size.h"

namespace shoal {

bool MemoryTracker::TryReserve(int64_t bytes) {
  int64_t cur = reserved_.load(std::memory_order_relaxed);
  const int64_t lim = limit();
  do {
    if (bytes > lim - cur) return false;
  } while (!reserved_.compare_exchange_weak(cur, cur + bytes, std::memory_order_relaxed));
  const int64_t now = cur + bytes;
  int64_t p = peak_.load(std::memory_order_relaxed);
  while (now > p && !peak_.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
  }
  return true;
}

void MemoryTracker::Add(int64_t bytes) {
  const int64_t now = reserved_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  int64_t p = peak_.load(std::memory_order_relaxed);
  while (now > p && !peak_.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
  }
}

void MemoryTracker::Release(int64_t bytes) {
  reserved_.fetch_sub(bytes, std::memory_order_relaxed);
}

int64_t MemoryTracker::chunk() const {
  return std::clamp<int64_t>(limit() / 64, int64_t{16} << 10, int64_t{1} << 20);
}

int64_t MemoryTracker::DefaultLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return int64_t{1} << 30;
  const int64_t total = static_cast<int64_t>(pages) * static_cast<int64_t>(page_size);
  return total / 10 * 8;
}

MemoryReservation::MemoryReservation(MemoryReservation&& o) noexcept
    : tracker_(std::move(o.tracker_)),
      owner_(std::move(o.owner_)),
      used_(std::exchange(o.used_, 0)),
      reserved_(std::exchange(o.reserved_, 0)) {}

MemoryReservation& MemoryReservation::operator=(MemoryReservation&& o) noexcept {
  if (this != &o) {
    Release();
    tracker_ = std::move(o.tracker_);
    owner_ = std::move(o.owner_);
    used_ = std::exchange(o.used_, 0);
    reserved_ = std::exchange(o.reserved_, 0);
  }
  return *this;
}

Status MemoryReservation::Grow(int64_t bytes) {
  if (bytes <= 0) return Status::OK();
  const int64_t want = used_ + bytes;
  if (tracker_ && want > reserved_) {
    // Whole chunks above what is needed, so the next few Grows stay local; when the limit leaves
    // less than that, exactly what is needed.
    const int64_t chunk = tracker_->chunk();
    const int64_t rounded = (want + chunk - 1) / chunk * chunk;
    if (tracker_->TryReserve(rounded - reserved_)) {
      reserved_ = rounded;
    } else if (tracker_->TryReserve(want - reserved_)) {
      reserved_ = want;
    } else {
      return OutOfMemory(bytes);
    }
  }
  used_ = want;
  return Status::OK();
}

void MemoryReservation::Shrink(int64_t bytes) {
  if (bytes <= 0) return;
  used_ = std::max<int64_t>(0, used_ - bytes);
  if (!tracker_) return;
  if (used_ == 0) {
    Release();
    return;
  }
  GiveBackUnusedChunks();
}

void MemoryReservation::GiveBackUnusedChunks() {
  // Less than a chunk unused stays, so an owner whose size hovers does not hit the atomic.
  const int64_t chunk = tracker_->chunk();
  if (reserved_ - used_ >= chunk) {
    const int64_t keep = std::min(reserved_, (used_ + chunk - 1) / chunk * chunk);
    tracker_->Release(reserved_ - keep);
    reserved_ = keep;
  }
}

Status MemoryReservation::Resize(int64_t bytes) {
  if (bytes > used_) return Grow(bytes - used_);
  Shrink(used_ - bytes);
  return Status::OK();
}

void MemoryReservation::Merge(MemoryReservation&& other) {
  if (&other == this) return;
  if (!tracker_ && used_ == 0) {  // an empty reservation adopts other's tracker
    tracker_ = other.tracker_;
    if (owner_.empty()) owner_ = other.owner_;
  }
  if (other.tracker_ == tracker_) {
    used_ += other.used_;
    reserved_ += other.reserved_;
    // Each merged reservation brings up to a chunk unused: past a whole chunk, it goes back.
    if (tracker_) GiveBackUnusedChunks();
  } else {
    // Different trackers (not expected): the bytes move from other's tracker to this one's,
    // reserved even past the limit, since the memory already exists.
    if (other.tracker_) other.tracker_->Release(other.reserved_);
    used_ += other.used_;
    if (tracker_ && used_ > reserved_) {
      tracker_->Add(used_ - reserved_);
      reserved_ = used_;
    }
  }
  other.used_ = 0;
  other.reserved_ = 0;
}

void MemoryReservation::Trim() {
  if (tracker_ && reserved_ > used_) {
    tracker_->Release(reserved_ - used_);
    reserved_ = used_;
  }
}

void MemoryReservation::Release() {
  if (tracker_ && reserved_ > 0) tracker_->Release(reserved_);
  used_ = 0;
  reserved_ = 0;
}

Status MemoryReservation::OutOfMemory(int64_t more) const {
  const int64_t limit = tracker_ ? tracker_->limit() : 0;
  const int64_t in_use = tracker_ ? tracker_->reserved() : 0;
  return Status::OutOfMemory((owner_.empty() ? std::string("query") : owner_) + " needs " +
                             FormatByteSize(more) + " more (it holds " + FormatByteSize(used_) +
                             "); " + FormatByteSize(in_use) + " of memory_limit " +
                             FormatByteSize(limit) + " in use (SET memory_limit to raise it)");
}

}  // namespace shoal
