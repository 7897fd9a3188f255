#include "arrow_capsule.h"

#include <memory>

#include "errors.h"
#include "sql/session/arrow_export.h"

namespace shoal::python {

namespace py = pybind11;

namespace {

constexpr const char* kStreamName = "arrow_array_stream";
constexpr const char* kSchemaName = "arrow_schema";

void DestroyStreamCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamName));
  if (!stream) {
    PyErr_WriteUnraisable(capsule);
    return;
  }
  if (stream->release) stream->release(stream);
  std::unique_ptr<ArrowArrayStream> owned(stream);
}

std::string Text(const char* s) { return s ? std::string(s) : std::string(); }

// The first difference between `want` (requested) and `have` (exported) under `path`, or "".
std::string Difference(const ArrowSchema& want, const ArrowSchema& have, const std::string& path) {
  const std::string where = path.empty() ? "the result" : "column '" + path + "'";
  if (Text(want.format) != Text(have.format)) {
    return where + " is Arrow format '" + Text(have.format) + "', the requested schema has '" + Text(want.format) + "'";
  }
  if (want.n_children != have.n_children || (want.n_children > 0 && !want.children)) {
    return where + " has " + std::to_string(have.n_children) + " field(s), the requested schema " +
           std::to_string(want.n_children);
  }
  for (int64_t i = 0; i < have.n_children; ++i) {
    const ArrowSchema* w = want.children[i];
    const ArrowSchema& h = *have.children[i];
    const std::string name = path.empty() ? Text(h.name) : path + "." + Text(h.name);
    if (!w) return "the requested schema's field " + std::to_string(i) + " under " + where + " is null";
    if (Text(w->name) != Text(h.name)) {
      return "field " + std::to_string(i) + " of " + where + " is named '" + Text(h.name) +
             "', the requested schema has '" + Text(w->name) + "'";
    }
    std::string d = Difference(*w, h, name);
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace

py::capsule StreamCapsule(ArrowArrayStream* stream) {
  auto owned = std::make_unique<ArrowArrayStream>(*stream);
  stream->release = nullptr;
  PyObject* capsule = PyCapsule_New(owned.get(), kStreamName, DestroyStreamCapsule);
  if (!capsule) {
    if (owned->release) owned->release(owned.get());
    throw py::error_already_set();
  }
  owned.release();  // the capsule's now
  return py::reinterpret_steal<py::capsule>(capsule);
}

ArrowArrayStream TakeStream(py::handle capsule, const std::string& what) {
  if (!PyCapsule_CheckExact(capsule.ptr())) {
    RaiseInvalidArgument(what + ": __arrow_c_stream__() returned " + std::string(Py_TYPE(capsule.ptr())->tp_name) +
                         ", not a PyCapsule");
  }
  const char* name = PyCapsule_GetName(capsule.ptr());
  if (!name || std::string(name) != kStreamName) {
    RaiseInvalidArgument(what + ": the capsule is named '" + Text(name) + "', not '" + kStreamName + "'");
  }
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), kStreamName));
  if (!stream) throw py::error_already_set();
  if (!stream->release) {
    RaiseInvalidArgument(what + ": the capsule's Arrow stream was already consumed (its release callback is NULL)");
  }
  ArrowArrayStream out = *stream;
  stream->release = nullptr;  // moved: the capsule's destructor only frees the struct
  return out;
}

void CheckRequestedSchema(py::handle requested, const columnar::Schema& schema) {
  if (!PyCapsule_IsValid(requested.ptr(), kSchemaName)) {
    RaiseInvalidArgument("requested_schema must be None or a PyCapsule named 'arrow_schema' (from __arrow_c_schema__)");
  }
  auto* want = static_cast<ArrowSchema*>(PyCapsule_GetPointer(requested.ptr(), kSchemaName));
  if (!want || !want->release) RaiseInvalidArgument("requested_schema holds a released Arrow schema");
  ArrowSchema have{};
  Status st = sql::ExportArrowSchema(schema, &have);
  if (!st.ok()) RaiseStatus(st);
  std::string difference = Difference(*want, have, "");
  have.release(&have);
  if (!difference.empty()) {
    RaiseStatus(Status::NotSupported("requested_schema differs from the result's schema: " + difference +
                                     " (shoal exports each type in one Arrow form and does not cast)"));
  }
}

}  // namespace shoal::python
