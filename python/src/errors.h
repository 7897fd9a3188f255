// shoal's Python exception classes: a base `shoal.Error` and one subclass per status code and
// conflict kind, named as the engine names its errors (Status::ErrorName()).
//
// Thread-safety: RegisterErrors runs once at import; Raise* need the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

#include "shoal/status.h"

namespace shoal::python {

// Creates the classes and adds them to `m`.
void RegisterErrors(pybind11::module_& m);
// Sets the Python error for `status` (not OK) and throws pybind11::error_already_set. The
// error's `offset` attribute is None.
[[noreturn]] void RaiseStatus(const Status& status);
// RaiseStatus for an error of running `sql`: `offset` is the index in the Python str of the
// character Status::error_offset points at (a byte offset into the UTF-8 `sql`), or None.
[[noreturn]] void RaiseStatus(const Status& status, std::string_view sql);
// shoal.ConnectionException: use of a closed connection.
[[noreturn]] void RaiseClosed(const char* what);
// shoal.InvalidArgument with `message`.
[[noreturn]] void RaiseInvalidArgument(const std::string& message);

}  // namespace shoal::python
