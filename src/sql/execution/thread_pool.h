// ThreadPool: a fixed set of worker threads that run the parallel phases of query pipelines.
// Run(n, fn) calls fn(0..n-1) — task 0 on the calling thread, the rest on workers — and
// returns when all have finished, so a pipeline phase is a simple fork/join; Post(fn) queues
// fire-and-forget work.
//
// Thread-safety: thread-safe; several connections may call Run concurrently.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace shoal::sql {

class ThreadPool {
 public:
  // Starts `workers` threads (0 is allowed: Run then executes everything inline).
  explicit ThreadPool(int workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int workers() const { return static_cast<int>(threads_.size()); }
  // Runs fn(i) for i in [0, n) and waits for all of them. The caller runs fn(0) and then any
  // task no worker has started yet, so a Run nested inside a task always completes.
  void Run(int n, const std::function<void(int)>& fn);
  // Queues fn for a worker without waiting for it (runs it now when there are no workers); the
  // destructor runs whatever is still queued. For work nobody waits on: freeing a cancelled
  // statement's large buffers (ReleaseLater).
  void Post(std::function<void()> fn);

 private:
  void WorkerLoop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace shoal::sql
