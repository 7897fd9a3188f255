#include "query_runner.h"

#include <pythread.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace shoal::python {

namespace py = pybind11;

namespace {

bool OnMainThread() {
  static const unsigned long main_ident =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == main_ident;
}

}  // namespace

Status RunInterruptible(Connection* connection, const std::function<Status()>& work) {
  if (!OnMainThread()) {
    // Signals are handled on the main thread only: nothing to watch for here.
    py::gil_scoped_release release;
    return work();
  }
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Status status;
  };
  auto state = std::make_shared<State>();
  std::thread worker([state, &work] {
    Status s = work();
    std::lock_guard<std::mutex> lock(state->mu);
    state->status = std::move(s);
    state->done = true;
    state->cv.notify_all();
  });
  bool interrupted = false;
  while (true) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(state->mu);
      if (state->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return state->done; }))
        break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {
      interrupted = true;  // the handler's exception (KeyboardInterrupt) stays set
    }
    // Again on every tick: a statement that starts clears the flag (Connection::Execute), so
    // a request that came before it would be lost.
    if (interrupted) connection->Interrupt();
  }
  {
    py::gil_scoped_release release;
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  return state->status;
}

}  // namespace shoal::python
