#include "errors.h"

#include <map>
#include <optional>
#include <string>

namespace shoal::python {

namespace py = pybind11;

namespace {

// The classes, owned by the module (it holds a reference to each), by name.
std::map<std::string, PyObject*>& Classes() {
  static auto* classes = new std::map<std::string, PyObject*>();
  return *classes;
}

PyObject* Class(const std::string& name) { return Classes().at(name); }

void Add(py::module_& m, const std::string& name, PyObject* base, const char* doc) {
  std::string qualified = "shoal." + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!cls) throw py::error_already_set();
  m.attr(name.c_str()) = py::reinterpret_steal<py::object>(cls);
  Classes()[name] = cls;
}

const char* CodeClass(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
      return "InvalidArgument";
    case StatusCode::kCorruption:
      return "Corruption";
    case StatusCode::kConflict:
      return s.conflict() == ConflictKind::kNone ? "ConflictException" : ConflictName(s.conflict());
    default:
      return s.ErrorName();
  }
}

}  // namespace

void RegisterErrors(py::module_& m) {
  Add(m, "Error", PyExc_Exception, "Base class of every error shoal raises.");
  PyObject* error = Class("Error");
  // Where in the SQL text passed to the call a parser or binder error points (a 0-based byte
  // offset, as Status::error_offset), else None. Set on each raised error; None by default.
  m.attr("Error").attr("offset") = py::none();
  Add(m, "InvalidInputException", error, "Invalid input: bad user input or bad file contents.");
  Add(m, "InvalidArgument", Class("InvalidInputException"),
      "Bad user input (StatusCode kInvalidArgument).");
  Add(m, "Corruption", Class("InvalidInputException"),
      "Bad file or log bytes (StatusCode kCorruption).");
  Add(m, "IOException", error, "The storage failed.");
  Add(m, "NotSupportedException", error, "Valid, but not (yet) supported.");
  Add(m, "InternalException", error, "A bug in shoal.");
  Add(m, "ParserException", error, "The SQL text does not parse.");
  Add(m, "BinderException", error, "Unknown name or type mismatch.");
  Add(m, "CatalogException", error, "A table exists or does not exist.");
  Add(m, "ConversionException", error, "A value cannot be cast or converted.");
  Add(m, "OutOfRangeException", error, "Arithmetic overflow or an index out of range.");
  Add(m, "ConstraintException", error, "NOT NULL, CHECK or MERGE cardinality violated.");
  Add(m, "TransactionException", error, "Misuse of BEGIN / COMMIT / PREPARE.");
  Add(m, "InterruptException", error, "The statement was interrupted (Connection.interrupt()).");
  Add(m, "OutOfMemoryException", error, "A statement needed more memory than memory_limit allows.");
  Add(m, "ConnectionException", error, "Use of a closed connection.");
  {
    // Also an ImportError, so `except ImportError` catches it as Python code expects.
    py::object bases = py::reinterpret_steal<py::object>(PyTuple_Pack(2, error, PyExc_ImportError));
    if (!bases) throw py::error_already_set();
    Add(m, "MissingDependencyException", bases.ptr(),
        "An optional Python package a call needs (pyarrow) is not installed.");
  }
  Add(m, "ConflictException", error, "A commit lost a race with another writer; retryable.");
  for (const char* name : {"ConcurrentAppendException", "ConcurrentDeleteReadException",
                           "ConcurrentDeleteDeleteException", "MetadataChangedException",
                           "ConcurrentTransactionException", "ProtocolChangedException"}) {
    Add(m, name, Class("ConflictException"), "A Delta commit conflict (retryable).");
  }
  // Names after the status codes, for the classes the engine names differently.
  m.attr("IOError") = m.attr("IOException");
  m.attr("NotSupported") = m.attr("NotSupportedException");
  m.attr("Internal") = m.attr("InternalException");
}

namespace {

[[noreturn]] void Raise(const Status& status, std::optional<int64_t> offset) {
  PyObject* cls = Class(CodeClass(status));
  py::object error = py::reinterpret_steal<py::object>(PyObject_CallFunction(cls, "s", status.message().c_str()));
  if (!error) throw py::error_already_set();
  error.attr("offset") = offset ? py::object(py::int_(*offset)) : py::none();
  PyErr_SetObject(cls, error.ptr());
  throw py::error_already_set();
}

}  // namespace

void RaiseStatus(const Status& status) { Raise(status, std::nullopt); }

void RaiseStatus(const Status& status, std::string_view sql) {
  std::optional<int64_t> offset = status.error_offset();
  if (offset && static_cast<uint64_t>(*offset) <= sql.size()) {
    int64_t characters = 0;  // UTF-8 lead bytes before the offset
    for (size_t i = 0; i < static_cast<size_t>(*offset); ++i) {
      if ((static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80) ++characters;
    }
    offset = characters;
  } else {
    offset.reset();
  }
  Raise(status, offset);
}

void RaiseClosed(const char* what) {
  PyErr_SetString(Class("ConnectionException"), (std::string(what) + " is closed").c_str());
  throw py::error_already_set();
}

void RaiseInvalidArgument(const std::string& message) {
  PyErr_SetString(Class("InvalidArgument"), message.c_str());
  throw py::error_already_set();
}

}  // namespace shoal::python
