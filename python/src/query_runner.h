// Runs a statement with the GIL released, so other Python threads keep running, and lets
// Ctrl-C interrupt it: on the main thread the statement runs on a helper thread while the
// caller checks for signals every 50 ms (PyErr_CheckSignals); a pending KeyboardInterrupt
// calls Connection::Interrupt() and is raised once the statement has stopped.
//
// Thread-safety: call with the GIL held; `connection` is used by this call alone.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>

#include "shoal/database.h"

namespace shoal::python {

// Runs `work` (which uses `connection`) as described above; returns its status. Throws
// pybind11::error_already_set when a signal handler raised (KeyboardInterrupt).
Status RunInterruptible(Connection* connection, const std::function<Status()>& work);

}  // namespace shoal::python
