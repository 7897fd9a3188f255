#include "parquet/page_buffer_cache.h"

#include <utility>
#include <vector>

namespace shoal::parquet {

namespace {

struct Cache {
  std::vector<columnar::Buffer> buffers;
  size_t bytes = 0;
  ~Cache();
};

// Set once the thread's cache is destroyed (thread exit): later calls free instead of caching.
thread_local bool tl_cache_dead = false;

Cache::~Cache() { tl_cache_dead = true; }

Cache* ThreadCache() {
  if (tl_cache_dead) return nullptr;
  thread_local Cache cache;
  return &cache;
}

// Index of the smallest cached buffer with capacity >= n, or -1.
int BestFit(const Cache& c, size_t n) {
  int best = -1;
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    size_t cap = c.buffers[i].capacity();
    if (cap >= n && (best < 0 || cap < c.buffers[best].capacity())) best = static_cast<int>(i);
  }
  return best;
}

int Smallest(const Cache& c) {
  int best = -1;
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    if (best < 0 || c.buffers[i].capacity() < c.buffers[best].capacity()) best = static_cast<int>(i);
  }
  return best;
}

void RemoveAt(Cache* c, int i) {
  c->bytes -= c->buffers[i].capacity();
  if (static_cast<size_t>(i) + 1 != c->buffers.size()) c->buffers[i] = std::move(c->buffers.back());
  c->buffers.pop_back();
}

}  // namespace

void PageBufferCache::Fit(columnar::Buffer* buf, size_t n) {
  buf->Clear();
  if (buf->capacity() >= n) return;
  Cache* c = ThreadCache();
  if (c == nullptr) return;
  int i = BestFit(*c, n);
  if (i < 0) return;
  columnar::Buffer found = std::move(c->buffers[i]);
  c->bytes -= found.capacity();
  if (static_cast<size_t>(i) + 1 != c->buffers.size()) c->buffers[i] = std::move(c->buffers.back());
  c->buffers.pop_back();
  Give(buf);
  *buf = std::move(found);
  buf->Clear();
}

void PageBufferCache::Give(columnar::Buffer* buf) {
  const size_t cap = buf->capacity();
  columnar::Buffer taken = std::move(*buf);
  if (cap == 0 || cap > kMaxBytes) return;
  Cache* c = ThreadCache();
  if (c == nullptr) return;
  // Make room by dropping smaller buffers: large ones cost the most to map again.
  while (c->buffers.size() >= kMaxBuffers || c->bytes + cap > kMaxBytes) {
    int s = Smallest(*c);
    if (s < 0 || c->buffers[s].capacity() >= cap) return;  // `taken` is freed
    RemoveAt(c, s);
  }
  if (c->buffers.capacity() < kMaxBuffers) c->buffers.reserve(kMaxBuffers);
  taken.Clear();
  c->bytes += cap;
  c->buffers.push_back(std::move(taken));
}

size_t PageBufferCache::CachedBuffers() {
  Cache* c = ThreadCache();
  return c ? c->buffers.size() : 0;
}

size_t PageBufferCache::CachedBytes() {
  Cache* c = ThreadCache();
  return c ? c->bytes : 0;
}

void PageBufferCache::Clear() {
  Cache* c = ThreadCache();
  if (c == nullptr) return;
  c->buffers.clear();
  c->bytes = 0;
}

}  // namespace shoal::parquet
