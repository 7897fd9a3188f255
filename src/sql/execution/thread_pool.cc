#include "sql/execution/thread_pool.h"

#include <atomic>
#include <memory>

namespace shoal::sql {

ThreadPool::ThreadPool(int workers) {
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void ThreadPool::Post(std::function<void()> fn) {
  if (threads_.empty()) {
    fn();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(fn));
  }
  cv_.notify_one();
}

void ThreadPool::Run(int n, const std::function<void(int)>& fn) {
  if (n <= 0) return;
  if (n == 1 || threads_.empty()) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  // Each task runs once, on whichever thread claims it first: a worker, or the caller once its
  // own task is done. The caller claiming the tasks no worker started keeps a Run nested in a
  // task (a pipeline reading a stream produced by another pipeline) from waiting on workers
  // that are all busy with the outer tasks.
  struct RunState {
    std::mutex mu;
    std::condition_variable cv;
    int remaining = 0;
    std::unique_ptr<std::atomic<bool>[]> claimed;
  };
  auto st = std::make_shared<RunState>();
  st->remaining = n - 1;
  st->claimed.reset(new std::atomic<bool>[n]);
  for (int i = 0; i < n; ++i) st->claimed[i].store(false);
  auto finish = [](RunState& s) {
    std::lock_guard<std::mutex> l(s.mu);
    if (--s.remaining == 0) s.cv.notify_all();
  };
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 1; i < n; ++i) {
      queue_.emplace_back([st, &fn, finish, i] {
        if (st->claimed[i].exchange(true)) return;  // the caller ran it; `fn` may be gone
        fn(i);
        finish(*st);
      });
    }
  }
  cv_.notify_all();
  fn(0);
  for (int i = 1; i < n; ++i) {
    if (st->claimed[i].exchange(true)) continue;
    fn(i);
    finish(*st);
  }
  std::unique_lock<std::mutex> lock(st->mu);
  st->cv.wait(lock, [&] { return st->remaining == 0; });
}

}  // namespace shoal::sql
