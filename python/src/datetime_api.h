// The CPython datetime C API for one translation unit. datetime.h declares PyDateTimeAPI as a
// static of each file that includes it, so every file using the API imports it for itself:
// EnsureDateTimeApi() here has internal linkage too and sets the including file's pointer.
#pragma once

#include <pybind11/pybind11.h>
// After pybind11 (which includes Python.h first).
#include <datetime.h>

namespace shoal::python {
namespace {

// Imports the datetime C API into this file's PyDateTimeAPI unless done already.
inline void EnsureDateTimeApi() {
  if (PyDateTimeAPI == nullptr) {
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == nullptr) throw pybind11::error_already_set();
  }
}

}  // namespace
}  // namespace shoal::python
