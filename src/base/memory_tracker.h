// Memory accounting for query execution (doc/memory.md): one MemoryTracker per Database holds
// the memory_limit and the bytes reserved under it by every connection and thread; operators
// own MemoryReservations that grow as their hash tables, sort runs and buffered batches grow.
//
// A reservation takes bytes from the tracker in steps of at least chunk() (1 MiB, less under a
// limit below 64 MiB), so the shared atomic is touched about once per step of growth, not per
// row or batch. A Grow past the limit fails
// with an OutOfMemory status naming the reservation's owner and the numbers; the caller decides
// what to do with it (today: fail the statement; later: spill and Shrink). Nothing here
// allocates or frees the memory itself: the owner measures what its data structures hold
// (capacities, buffer sizes) and keeps its reservation at that.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "shoal/status.h"

namespace shoal {

// The limit and the reserved total of one database.
//
// Thread-safety: thread-safe (atomics); shared by the database's connections and workers.
class MemoryTracker {
 public:
  explicit MemoryTracker(int64_t limit) : limit_(limit) {}
  MemoryTracker(const MemoryTracker&) = delete;
  MemoryTracker& operator=(const MemoryTracker&) = delete;

  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  // Takes effect for the next reservation; bytes reserved above a lowered limit stay reserved.
  void set_limit(int64_t bytes) { limit_.store(bytes, std::memory_order_relaxed); }
  int64_t reserved() const { return reserved_.load(std::memory_order_relaxed); }
  // The most bytes reserved at once since construction or the last ResetPeak.
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  void ResetPeak() { peak_.store(reserved(), std::memory_order_relaxed); }

  // Adds `bytes` to the reserved total when it stays within the limit; false otherwise.
  bool TryReserve(int64_t bytes);
  // Adds `bytes` whatever the limit (for memory that exists already).
  void Add(int64_t bytes);
  void Release(int64_t bytes);

  // The step in which reservations take and give back bytes: 1/64 of the limit, at least 16 KiB
  // and at most 1 MiB, so the unused rest of many reservations stays a small part of the limit.
  int64_t chunk() const;

  // 80% of the machine's physical memory (sysconf), or 1 GiB when that is unknown.
  static int64_t DefaultLimit();

 private:
  std::atomic<int64_t> limit_;
  std::atomic<int64_t> reserved_{0};
  std::atomic<int64_t> peak_{0};
};

// Bytes one owner (an operator, a worker's part of one, a query result) holds under a tracker;
// everything it still holds is released on destruction. Without a tracker it only counts.
//
// Thread-safety: not thread-safe; used by one thread at a time (a worker's local state, or an
// operator's global state under the operator's lock).
class MemoryReservation {
 public:
  MemoryReservation() = default;
  // `owner` names the holder in error messages, e.g. "HashAggregate" or "HashJoin build side".
  MemoryReservation(std::shared_ptr<MemoryTracker> tracker, std::string owner)
      : tracker_(std::move(tracker)), owner_(std::move(owner)) {}
  ~MemoryReservation() { Release(); }
  MemoryReservation(MemoryReservation&& o) noexcept;
  MemoryReservation& operator=(MemoryReservation&& o) noexcept;
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;

  // Holds `bytes` more. OutOfMemory (holding what it held before) when the tracker's limit
  // does not allow them.
  Status Grow(int64_t bytes);
  // Holds `bytes` fewer (at least zero); gives whole chunks back to the tracker once a chunk or
  // more is unused, and everything once nothing is held.
  void Shrink(int64_t bytes);
  // Holds exactly `bytes`: Grow or Shrink by the difference.
  Status Resize(int64_t bytes);
  // Takes over everything `other` holds (same tracker), leaving it empty; the tracker's total
  // does not change, except that whole chunks the two together leave unused go back (each
  // reservation may hold up to one unused chunk). An empty reservation without a tracker adopts
  // other's tracker (and owner).
  void Merge(MemoryReservation&& other);
  // Gives the unused rest of the last chunk back (for a reservation that will not grow again,
  // such as a finished result's).
  void Trim();
  // Holds nothing; all bytes go back to the tracker.
  void Release();

  int64_t bytes() const { return used_; }
  // Bytes taken from the tracker: bytes() rounded up to a chunk step (0 without a tracker).
  int64_t reserved() const { return reserved_; }
  const std::string& owner() const { return owner_; }
  const std::shared_ptr<MemoryTracker>& tracker() const { return tracker_; }

 private:
  Status OutOfMemory(int64_t more) const;
  // Gives whole unused chunks back to the tracker (keeps less than one).
  void GiveBackUnusedChunks();

  std::shared_ptr<MemoryTracker> tracker_;
  std::string owner_;
  int64_t used_ = 0;      // what the owner holds
  int64_t reserved_ = 0;  // taken from tracker_: >= used_
};

}  // namespace shoal
