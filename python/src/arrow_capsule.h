// The Arrow PyCapsule interface (https://arrow.apache.org/docs/format/CDataInterface/
// PyCapsuleInterface.html): ArrowArrayStream structs handed to and taken from Python in capsules
// named "arrow_array_stream", and the "arrow_schema" capsule of a requested_schema.
//
// Thread-safety: every function needs the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "columnar/type.h"
#include "shoal/arrow_c.h"

namespace shoal::python {

// A capsule owning `stream` (moved in: *stream is left released). Its destructor, as the
// interface specifies, calls the stream's release callback unless a consumer moved the stream out
// (set release to NULL), then frees the struct.
pybind11::capsule StreamCapsule(ArrowArrayStream* stream);

// Moves the stream out of an "arrow_array_stream" capsule (the capsule's struct is left released,
// so its destructor frees only the struct). Raises shoal.InvalidArgument for another object, a
// capsule of another name, or a stream already consumed (release NULL).
ArrowArrayStream TakeStream(pybind11::handle capsule, const std::string& what);

// Checks a requested_schema ("arrow_schema" capsule) against `schema`: shoal exports each type
// in one Arrow form only, so it must be that schema (the formats and field names of
// ExportArrowSchema, at every level; flags and metadata are not compared). Raises
// shoal.NotSupportedException naming the first difference, shoal.InvalidArgument for an object
// that is not such a capsule.
void CheckRequestedSchema(pybind11::handle requested, const columnar::Schema& schema);

}  // namespace shoal::python
