#include "parameters.h"

#include "columnar/vector.h"
#include "datetime_api.h"
#include "errors.h"
#include "frame_import.h"
#include "shoal/arrow_c.h"
#include "sql/parser/lexer.h"
#include "sql/session/arrow_export.h"

namespace shoal::python {

namespace py = pybind11;

struct Parameter::ArrowValue {
  ArrowSchema schema{};  // a struct of one field, "value"
  ArrowArray array{};    // its one row

  ArrowValue() = default;
  ArrowValue(const ArrowValue&) = delete;
  ArrowValue& operator=(const ArrowValue&) = delete;
  ~ArrowValue() {
    if (array.release) array.release(&array);
    if (schema.release) schema.release(&schema);
  }
};

namespace {

bool IsDecimal(PyObject* v) {
  static py::object* cls = new py::object(py::module_::import("decimal").attr("Decimal"));
  int r = PyObject_IsInstance(v, cls->ptr());
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

Parameter FromVector(const columnar::Vector& v, const std::string& where) {
  Parameter p;
  switch (v.type()->id()) {
    case columnar::TypeId::kDate:
      p.kind = Parameter::Kind::kDate;
      p.integer = v.Get<int32_t>(0);
      return p;
    case columnar::TypeId::kTimestamp:
      p.kind = Parameter::Kind::kTimestamp;
      p.integer = v.Get<int64_t>(0);
      return p;
    case columnar::TypeId::kTimestampNtz:
      p.kind = Parameter::Kind::kTimestampNtz;
      p.integer = v.Get<int64_t>(0);
      return p;
    default: break;
  }
  RaiseInvalidArgument(where + ": unexpected type " + v.type()->ToString());
}

// A one-row Arrow array of `value` converted as a registered column would be.
Parameter ArrowParameter(PyObject* value, const std::string& where) {
  columnar::VectorPtr v = ImportValue(value, where);
  columnar::Schema schema;
  schema.fields.push_back({"value", v->type(), true});
  auto schema_ptr = std::make_shared<const columnar::Schema>(schema);
  auto batch = std::make_shared<columnar::RecordBatch>(schema_ptr, std::vector<columnar::VectorPtr>{v}, 1);
  auto arrow = std::make_shared<Parameter::ArrowValue>();
  Status st = sql::ExportArrowSchema(schema, &arrow->schema);
  if (st.ok()) st = sql::ExportArrowBatch(batch, &arrow->array);
  if (!st.ok()) RaiseStatus(st.WithContext(where));
  Parameter p;
  p.kind = Parameter::Kind::kArrow;
  p.arrow = std::move(arrow);
  return p;
}

// The DECIMAL precision of "[-]digits[.digits]" as a literal of it has: the integer digits
// after leading zeros, plus the scale.
int Precision(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  const size_t dot = text.find('.');
  const std::string_view integer = text.substr(0, dot);
  const size_t first = integer.find_first_not_of('0');
  const size_t int_digits = first == std::string_view::npos ? 0 : integer.size() - first;
  const size_t scale = dot == std::string_view::npos ? 0 : text.size() - dot - 1;
  return static_cast<int>(int_digits + scale);
}

// `p` after checking its text fits a DECIMAL (a longer literal would silently become a DOUBLE).
Parameter CheckedDecimal(Parameter p, const std::string& where, bool integer) {
  if (Precision(p.text) <= 38) return p;
  const std::string what = where + ": " + p.text + " has more than 38 digits, the most a DECIMAL holds";
  RaiseStatus(integer ? Status::OutOfRange(what) : Status::InvalidArgument(what));
}

Parameter Convert(PyObject* v, const std::string& where) {
  Parameter p;
  if (v == Py_None) return p;
  if (PyBool_Check(v)) {
    p.kind = Parameter::Kind::kBool;
    p.integer = v == Py_True ? 1 : 0;
    return p;
  }
  if (PyLong_Check(v) || (!PyFloat_Check(v) && PyIndex_Check(v))) {  // int, numpy integers
    py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(v));
    if (!i) throw py::error_already_set();
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow) {  // beyond BIGINT: DECIMAL(p, 0), as an integer literal of that size
      p.kind = Parameter::Kind::kDecimal;
      p.text = py::str(i).cast<std::string>();
      return CheckedDecimal(std::move(p), where, true);
    }
    p.kind = Parameter::Kind::kInt;
    p.integer = x;
    return p;
  }
  if (PyFloat_Check(v)) {
    p.kind = Parameter::Kind::kDouble;
    p.real = PyFloat_AS_DOUBLE(v);
    return p;
  }
  if (PyUnicode_Check(v)) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(v, &n);
    if (!s) throw py::error_already_set();
    p.kind = Parameter::Kind::kString;
    p.text.assign(s, static_cast<size_t>(n));
    return p;
  }
  if (PyBytes_Check(v) || PyByteArray_Check(v) || PyMemoryView_Check(v)) {
    py::bytes b = py::reinterpret_steal<py::bytes>(PyBytes_FromObject(v));
    if (!b) throw py::error_already_set();
    p.kind = Parameter::Kind::kBinary;
    p.text = b.cast<std::string>();
    return p;
  }
  if (PyDateTime_Check(v) || PyDate_Check(v)) return FromVector(*ImportValue(v, where), where);
  if (IsDecimal(v)) {
    py::object d = py::reinterpret_borrow<py::object>(v);
    if (!d.attr("is_finite")().cast<bool>()) {
      RaiseInvalidArgument(where + ": Decimal " + py::str(d).cast<std::string>() + " is not finite");
    }
    p.kind = Parameter::Kind::kDecimal;
    p.text = py::module_::import("builtins").attr("format")(d, "f").cast<std::string>();
    return CheckedDecimal(std::move(p), where, false);
  }
  if (PyTime_Check(v) || PyList_Check(v) || PyTuple_Check(v) || PyDict_Check(v)) return ArrowParameter(v, where);
  RaiseInvalidArgument(where + ": values of type " + std::string(Py_TYPE(v)->tp_name) + " are not supported");
}

}  // namespace

std::vector<Parameter> ToParameters(py::handle params) {
  EnsureDateTimeApi();
  if (!PyList_Check(params.ptr()) && !PyTuple_Check(params.ptr())) {
    RaiseInvalidArgument("parameters must be a list or tuple, not " + std::string(Py_TYPE(params.ptr())->tp_name));
  }
  std::vector<Parameter> out;
  py::sequence seq = py::reinterpret_borrow<py::sequence>(params);
  for (size_t i = 0; i < seq.size(); ++i) {
    py::object v = seq[i];
    out.push_back(Convert(v.ptr(), "parameter " + std::to_string(i + 1)));
  }
  return out;
}

Status Bind(PreparedStatement* statement, int index, const Parameter& value) {
  switch (value.kind) {
    case Parameter::Kind::kNull: return statement->BindNull(index);
    case Parameter::Kind::kBool: return statement->BindBool(index, value.integer != 0);
    case Parameter::Kind::kInt: return statement->BindInt64(index, value.integer);
    case Parameter::Kind::kDouble: return statement->BindDouble(index, value.real);
    case Parameter::Kind::kString: return statement->BindString(index, value.text);
    case Parameter::Kind::kBinary: return statement->BindBinary(index, value.text);
    case Parameter::Kind::kDecimal: return statement->BindDecimal(index, value.text);
    case Parameter::Kind::kDate: return statement->BindDate(index, static_cast<int32_t>(value.integer));
    case Parameter::Kind::kTimestamp: return statement->BindTimestamp(index, value.integer);
    case Parameter::Kind::kTimestampNtz: return statement->BindTimestampNtz(index, value.integer);
    case Parameter::Kind::kArrow:
      return statement->BindArrow(index, *value.arrow->schema.children[0], *value.arrow->array.children[0], 0);
  }
  return Status::Internal("unknown parameter kind");
}

Result<std::vector<std::string_view>> SplitStatements(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<sql::Token> tokens, sql::Lex(sql));
  std::vector<std::string_view> out;
  size_t begin = std::string_view::npos, end = 0;
  for (const sql::Token& t : tokens) {
    if (t.type == sql::TokenType::kEnd || t.IsOperator(";")) {
      if (begin != std::string_view::npos) out.emplace_back(sql.substr(begin, end - begin));
      begin = std::string_view::npos;
      continue;
    }
    if (begin == std::string_view::npos) begin = t.offset;
    end = t.offset + t.length;
  }
  return out;
}

}  // namespace shoal::python
