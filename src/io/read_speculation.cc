#include "io/read_speculation.h"

#include <utility>

namespace shoal::io {

ReadSpeculation::~ReadSpeculation() { Clear(); }

std::string ReadSpeculation::KeyOf(const SpeculativeRead& read) {
  std::string key(1, static_cast<char>('0' + static_cast<int>(read.kind)));
  key += read.path;
  if (read.kind == SpeculativeRead::Kind::kListFromLimited) {
    key += '\0';
    key += read.start_name;
    key += '\0';
    key += std::to_string(read.max_entries);
  }
  return key;
}

void ReadSpeculation::Start(const SpeculativeRead& read, std::function<SpeculativeAnswer()> fetch) {
  std::string key = KeyOf(read);
  Entry stale;  // a replaced answer, waited for after the lock is released
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  const auto now = std::chrono::steady_clock::now();
  if (it != entries_.end() && now - it->second.started < kMaxAge) return;
  if (it == entries_.end() && entries_.size() >= kMaxEntries) return;
  // std::async's shared state makes the last future wait for the thread: nothing outlives the
  // file system that owns this cache.
  Entry e{std::async(std::launch::async, std::move(fetch)).share(), now};
  if (it != entries_.end()) {
    stale = std::exchange(it->second, std::move(e));
  } else {
    entries_.emplace(std::move(key), std::move(e));
  }
}

std::optional<SpeculativeAnswer> ReadSpeculation::Take(const SpeculativeRead& read) {
  Entry e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.empty()) return std::nullopt;
    auto it = entries_.find(KeyOf(read));
    if (it == entries_.end()) return std::nullopt;
    e = std::move(it->second);
    entries_.erase(it);
  }
  if (std::chrono::steady_clock::now() - e.started >= kMaxAge) return std::nullopt;
  return e.answer.get();
}

void ReadSpeculation::Clear() {
  std::map<std::string, Entry> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dropped.swap(entries_);
  }
}

size_t ReadSpeculation::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace shoal::io
