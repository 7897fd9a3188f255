// shoal's Python exception classes: a base `shoal.Error` and one subclass per status code and
// conflict kind, named as the engine names its errors (Status::ErrorName()).
//
// Thread-safety: RegisterErrors runs once at import; Raise* need the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include "shoal/status.h"

namespace shoal::python {

// Creates the classes and adds them to `m`.
void RegisterErrors(pybind11::module_& m);
// Sets the Python error for `status` (not OK) and throws pybind11::error_already_set.
[[noreturn]] void RaiseStatus(const Status& status);
// shoal.ConnectionException: use of a closed connection.
[[noreturn]] void RaiseClosed(const char* what);
// shoal.InvalidArgument with `message`.
[[noreturn]] void RaiseInvalidArgument(const std::string& message);

}  // namespace shoal::python
