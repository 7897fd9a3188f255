#include "sql/execution/task_runner.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "sql/execution/thread_pool.h"

namespace shoal::sql {

int TaskWorkers(const ExecContext& ctx, int64_t n) {
  if (!ctx.pool || ctx.threads <= 1 || n <= 1) return 1;
  return static_cast<int>(std::min<int64_t>(ctx.threads, n));
}

Status RunTasks(ExecContext& ctx, int64_t n, const std::function<Status(int64_t, int)>& fn) {
  if (n <= 0) return Status::OK();
  const int workers = TaskWorkers(ctx, n);
  if (workers == 1) {
    for (int64_t t = 0; t < n; ++t) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      RETURN_NOT_OK(fn(t, 0));
    }
    return Status::OK();
  }
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  Status first;
  ctx.pool->Run(workers, [&](int w) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      int64_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= n) return;
      Status st = ctx.CheckInterrupt();
      if (st.ok()) st = fn(t, w);
      if (!st.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (first.ok()) first = st;
        failed = true;
        return;
      }
    }
  });
  return first;
}

}  // namespace shoal::sql
