// ReadSpeculation: the answers of speculative reads (FileSystem::Speculate) of a latency-bound
// file system — each sent on its own thread at once, kept until the first matching call takes
// it, or until Clear or kMaxAge. A file system holds one and asks it before sending a request.
//
// Thread-safety: thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/file_system.h"

namespace shoal::io {

// What a speculative read found: `status` and, when it is OK, the field of its kind.
struct SpeculativeAnswer {
  Status status;
  bool exists = false;  // kExists
  std::string text;     // kReadAll
  ListPrefix listing;   // kListFromLimited
};

class ReadSpeculation {
 public:
  // An answer older than this is not handed out (a caller that speculated and never asked).
  static constexpr std::chrono::seconds kMaxAge{10};
  // At most this many answers are kept or in flight; further reads are not speculated.
  static constexpr size_t kMaxEntries = 64;

  ReadSpeculation() = default;
  ReadSpeculation(const ReadSpeculation&) = delete;
  ReadSpeculation& operator=(const ReadSpeculation&) = delete;
  ~ReadSpeculation();  // waits for the reads in flight

  // Starts `fetch` on its own thread for `read` unless the same read is already kept.
  void Start(const SpeculativeRead& read, std::function<SpeculativeAnswer()> fetch);
  // The answer of a speculated `read` (waiting for it when still in flight), removed from the
  // cache; nullopt when none was speculated, or it is older than kMaxAge.
  std::optional<SpeculativeAnswer> Take(const SpeculativeRead& read);
  // Forgets every answer (waiting for those in flight outside the lock).
  void Clear();
  // Answers kept or in flight.
  size_t size() const;

 private:
  struct Entry {
    std::shared_future<SpeculativeAnswer> answer;
    std::chrono::steady_clock::time_point started;
  };
  static std::string KeyOf(const SpeculativeRead& read);

  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;  // GUARDED_BY(mu_)
};

}  // namespace shoal::io
