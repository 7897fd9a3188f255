// RunTasks: runs n independent tasks on the statement's threads (ctx.pool), each worker pulling
// the next task index from a shared counter, so uneven tasks still keep every thread busy. The
// parallel phases of sink finalization (join build, aggregate partitions, sort merge) use it.
//
// Thread-safety: fn is called concurrently from up to ctx.threads threads with distinct task
// indices; `worker` (0..threads-1) is stable within one thread, for per-thread scratch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>

#include "sql/execution/physical_operator.h"
#include "sql/execution/thread_pool.h"

namespace shoal::sql {

// Calls fn(task, worker) for every task in [0, n); stops handing out tasks after the first
// error and returns it. Returns once every started task has finished.
Status RunTasks(ExecContext& ctx, int64_t n, const std::function<Status(int64_t task, int worker)>& fn);

// The number of workers RunTasks uses for n tasks (>= 1), for sizing per-worker scratch.
int TaskWorkers(const ExecContext& ctx, int64_t n);

// Destroys `garbage` (plain data: vectors, column vectors; nothing that refers to the plan or
// to a memory reservation) on a pool worker instead of the calling thread, here without a pool:
// a cancelled statement returns at once instead of after unmapping its gigabytes.
template <typename... T>
void ReleaseLater(ThreadPool* pool, T&&... garbage) {
  auto held = std::make_shared<std::tuple<std::decay_t<T>...>>(std::forward<T>(garbage)...);
  if (pool) pool->Post([held = std::move(held)] {});
}
template <typename... T>
void ReleaseLater(const ExecContext& ctx, T&&... garbage) {
  ReleaseLater(ctx.pool, std::forward<T>(garbage)...);
}

}  // namespace shoal::sql
