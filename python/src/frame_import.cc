#include "frame_import.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "datetime_api.h"
#include "errors.h"

namespace shoal::python {

namespace py = pybind11;
using columnar::TypePtr;
using columnar::Vector;

namespace {

PyObject* DecimalClass() {
  static py::object* cls = new py::object(py::module_::import("decimal").attr("Decimal"));
  return cls->ptr();
}

struct InferredField;

// The SQL type of an object column, inferred from its values.
struct Inferred {
  enum Kind {
    kUnknown,
    kBool,
    kInt,
    kFloat,
    kDecimal,
    kString,
    kBinary,
    kDate,
    kTime,
    kTimestamp,
    kTimestampNtz,
    kList,
    kStruct
  };
  Kind kind = kUnknown;
  int int_digits = 1;                                    // DECIMAL
  int scale = 0;                                         // DECIMAL
  std::unique_ptr<Inferred> element;                     // LIST
  // STRUCT. A named struct rather than std::pair: a pair needs Inferred complete where it is
  // named, and clang with libstdc++ rejects that.
  std::vector<InferredField> fields;
};

struct InferredField {
  std::string name;
  Inferred type;
};

const char* KindName(Inferred::Kind k) {
  static const char* names[] = {"None",
                                "bool",
                                "int",
                                "float",
                                "Decimal",
                                "str",
                                "bytes",
                                "date",
                                "time",
                                "datetime (aware)",
                                "datetime (naive)",
                                "list",
                                "dict"};
  return names[k];
}

bool IsMissing(PyObject* v) {
  return v == Py_None || (PyFloat_Check(v) && std::isnan(PyFloat_AS_DOUBLE(v)));
}

Inferred::Kind KindOf(PyObject* v, const std::string& where) {
  if (PyBool_Check(v)) return Inferred::kBool;
  if (PyLong_Check(v)) return Inferred::kInt;
  if (PyFloat_Check(v)) return Inferred::kFloat;
  if (PyUnicode_Check(v)) return Inferred::kString;
  if (PyBytes_Check(v) || PyByteArray_Check(v)) return Inferred::kBinary;
  if (PyDateTime_Check(v)) {
    return ((PyDateTime_DateTime*)v)->hastzinfo && PyDateTime_DATE_GET_TZINFO(v) != Py_None
               ? Inferred::kTimestamp
               : Inferred::kTimestampNtz;
  }
  if (PyDate_Check(v)) return Inferred::kDate;
  if (PyTime_Check(v)) return Inferred::kTime;
  if (PyList_Check(v) || PyTuple_Check(v)) return Inferred::kList;
  if (PyDict_Check(v)) return Inferred::kStruct;
  int is_decimal = PyObject_IsInstance(v, DecimalClass());
  if (is_decimal < 0) throw py::error_already_set();
  if (is_decimal) return Inferred::kDecimal;
  if (PyIndex_Check(v)) return Inferred::kInt;  // numpy integers
  RaiseInvalidArgument(where + ": values of type " + std::string(Py_TYPE(v)->tp_name) +
                       " are not supported");
}

void ObserveDecimal(Inferred* t, PyObject* v, const std::string& where) {
  py::tuple tup = py::reinterpret_borrow<py::object>(v).attr("as_tuple")();
  py::object exp = tup[2];
  if (!PyLong_Check(exp.ptr()))
    RaiseInvalidArgument(where + ": Decimal " + py::str(v).cast<std::string>() + " is not finite");
  int e = exp.cast<int>();
  int digits = static_cast<int>(py::len(tup[1]));
  t->scale = std::max(t->scale, std::max(0, -e));
  t->int_digits = std::max(t->int_digits, digits + e);
}

void Observe(Inferred* t, PyObject* v, const std::string& where);

void ObserveList(Inferred* t, PyObject* v, const std::string& where) {
  if (!t->element) t->element = std::make_unique<Inferred>();
  py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
  for (py::handle e : seq) {
    if (!IsMissing(e.ptr())) Observe(t->element.get(), e.ptr(), where + "[]");
  }
}

void ObserveStruct(Inferred* t, PyObject* v, const std::string& where) {
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(v, &pos, &key, &value)) {
    if (!PyUnicode_Check(key))
      RaiseInvalidArgument(where + ": dict keys must be str (a dict is a STRUCT)");
    std::string name = py::reinterpret_borrow<py::str>(key).cast<std::string>();
    Inferred* f = nullptr;
    for (auto& [n, ft] : t->fields) {
      if (n == name) f = &ft;
    }
    if (!f) {
      t->fields.push_back(InferredField{name, Inferred()});
      f = &t->fields.back().type;
    }
    if (!IsMissing(value)) Observe(f, value, where + "." + name);
  }
}

void Observe(Inferred* t, PyObject* v, const std::string& where) {
  Inferred::Kind k = KindOf(v, where);
  Inferred::Kind merged = t->kind;
  if (t->kind == Inferred::kUnknown || t->kind == k) {
    merged = k;
  } else if ((t->kind == Inferred::kInt && k == Inferred::kFloat) ||
             (t->kind == Inferred::kFloat && k == Inferred::kInt)) {
    merged = Inferred::kFloat;
  } else if ((t->kind == Inferred::kInt && k == Inferred::kDecimal) ||
             (t->kind == Inferred::kDecimal && k == Inferred::kInt)) {
    merged = Inferred::kDecimal;
  } else {
    RaiseInvalidArgument(where + ": mixes values of type " + KindName(t->kind) + " and " +
                         KindName(k));
  }
  if (merged == Inferred::kDecimal && t->kind == Inferred::kInt) {
    t->int_digits = 19;  // the ints seen so far need up to BIGINT's digits
  }
  t->kind = merged;
  if (k == Inferred::kDecimal) ObserveDecimal(t, v, where);
  if (k == Inferred::kInt && merged == Inferred::kDecimal) {
    t->int_digits =
        std::max(t->int_digits, static_cast<int>(py::str(v).cast<std::string>().size()));
  }
  if (k == Inferred::kList) ObserveList(t, v, where);
  if (k == Inferred::kStruct) ObserveStruct(t, v, where);
}

// `unknown` is the type of values that are all NULL (or an empty list's elements).
TypePtr ToType(const Inferred& t, const std::string& where, const TypePtr& unknown) {
  switch (t.kind) {
    case Inferred::kUnknown:
      return unknown;
    case Inferred::kBool:
      return columnar::Boolean();
    case Inferred::kInt:
      return columnar::Int64();
    case Inferred::kFloat:
      return columnar::Float64();
    case Inferred::kDecimal: {
      int p = std::max(1, t.int_digits + t.scale);
      if (p > 38)
        RaiseInvalidArgument(where + ": Decimal values need precision " + std::to_string(p) +
                             " (at most 38)");
      return columnar::Decimal(p, t.scale);
    }
    case Inferred::kString:
      return columnar::String();
    case Inferred::kBinary:
      return columnar::Binary();
    case Inferred::kDate:
      return columnar::Date();
    case Inferred::kTime:
      return columnar::Time();
    case Inferred::kTimestamp:
      return columnar::Timestamp();
    case Inferred::kTimestampNtz:
      return columnar::TimestampNtz();
    case Inferred::kList:
      return columnar::List(t.element ? ToType(*t.element, where + "[]", unknown) : unknown);
    case Inferred::kStruct: {
      if (t.fields.empty())
        RaiseInvalidArgument(where + ": a dict (STRUCT) value needs at least one key");
      std::vector<columnar::Field> fields;
      for (const auto& [n, ft] : t.fields) fields.push_back({n, ToType(ft, where + "." + n, unknown), true});
      return columnar::Struct(std::move(fields));
    }
  }
  return unknown;
}

int64_t CivilMicros(PyObject* v) {
  int64_t days = columnar::DaysFromCivil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                         PyDateTime_GET_DAY(v));
  int64_t secs = PyDateTime_DATE_GET_HOUR(v) * 3600 + PyDateTime_DATE_GET_MINUTE(v) * 60 +
                 PyDateTime_DATE_GET_SECOND(v);
  return days * columnar::kMicrosPerDay + secs * columnar::kMicrosPerSecond +
         PyDateTime_DATE_GET_MICROSECOND(v);
}

void Append(Vector* out, PyObject* v, const std::string& where) {
  if (IsMissing(v)) {
    out->AppendNull();
    return;
  }
  const columnar::DataType& type = *out->type();
  switch (type.id()) {
    case columnar::TypeId::kBoolean:
      out->Append<uint8_t>(PyObject_IsTrue(v) ? 1 : 0);
      break;
    case columnar::TypeId::kInt64: {
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(
          py::reinterpret_borrow<py::object>(v).attr("__index__")().ptr(), &overflow);
      if (overflow)
        RaiseInvalidArgument(where + ": " + py::str(v).cast<std::string>() +
                             " does not fit BIGINT");
      if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
      out->Append<int64_t>(x);
      break;
    }
    case columnar::TypeId::kDouble: {
      double x = PyFloat_AsDouble(v);
      if (x == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      out->Append<double>(x);
      break;
    }
    case columnar::TypeId::kDecimal: {
      std::string text = py::str(v).cast<std::string>();
      auto u = columnar::ParseDecimal(text, type.precision(), type.scale());
      if (!u) RaiseInvalidArgument(where + ": " + text + " does not fit " + type.ToString());
      if (type.IsWideDecimal()) {
        out->Append<columnar::int128_t>(*u);
      } else {
        out->Append<int64_t>(static_cast<int64_t>(*u));
      }
      break;
    }
    case columnar::TypeId::kString: {
      Py_ssize_t n = 0;
      const char* s = PyUnicode_AsUTF8AndSize(v, &n);
      if (!s) throw py::error_already_set();
      out->AppendString(std::string_view(s, static_cast<size_t>(n)));
      break;
    }
    case columnar::TypeId::kBinary: {
      std::string b = PyBytes_Check(v)
                          ? std::string(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v))
                          : std::string(PyByteArray_AS_STRING(v), PyByteArray_GET_SIZE(v));
      out->AppendString(b);
      break;
    }
    case columnar::TypeId::kDate:
      out->Append<int32_t>(static_cast<int32_t>(columnar::DaysFromCivil(
          PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v))));
      break;
    case columnar::TypeId::kTime:
      out->Append<int64_t>((PyDateTime_TIME_GET_HOUR(v) * 3600LL +
                            PyDateTime_TIME_GET_MINUTE(v) * 60LL + PyDateTime_TIME_GET_SECOND(v)) *
                               columnar::kMicrosPerSecond +
                           PyDateTime_TIME_GET_MICROSECOND(v));
      break;
    case columnar::TypeId::kTimestampNtz:
      out->Append<int64_t>(CivilMicros(v));
      break;
    case columnar::TypeId::kTimestamp: {
      py::object offset = py::reinterpret_borrow<py::object>(v).attr("utcoffset")();
      int64_t off = 0;
      if (!offset.is_none()) {
        off = (PyDateTime_DELTA_GET_DAYS(offset.ptr()) * 86400LL +
               PyDateTime_DELTA_GET_SECONDS(offset.ptr())) *
                  columnar::kMicrosPerSecond +
              PyDateTime_DELTA_GET_MICROSECONDS(offset.ptr());
      }
      out->Append<int64_t>(CivilMicros(v) - off);
      break;
    }
    case columnar::TypeId::kList: {
      py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
      for (py::handle e : seq) Append(out->children()[0].get(), e.ptr(), where + "[]");
      out->AppendListEnd();
      break;
    }
    case columnar::TypeId::kStruct: {
      const auto& fields = type.children();
      for (size_t f = 0; f < fields.size(); ++f) {
        PyObject* fv =
            PyDict_GetItemString(v, fields[f].name.c_str());  // borrowed; null when absent
        Append(out->children()[f].get(), fv ? fv : Py_None, where + "." + fields[f].name);
      }
      out->AppendStructRow();
      break;
    }
    default:
      RaiseInvalidArgument(where + ": cannot store " + type.ToString());
  }
}

// The i-th value of a buffer that may not be aligned for From: an array unpickled from bytes
// (a DataFrame shipped to a Dask worker) can start at any address.
template <typename From>
From LoadAt(const uint8_t* base, int64_t i) {
  From v;
  std::memcpy(&v, base + static_cast<size_t>(i) * sizeof(From), sizeof(From));
  return v;
}

// A fixed-width column copied from the array's buffer, rows [off, off + n).
template <typename From, typename To>
columnar::VectorPtr CopyFixed(const TypePtr& type, const py::array& a, const bool* mask,
                              int64_t off, int64_t n, bool nan_is_null) {
  auto v = Vector::Make(type, n);
  v->Resize(n);
  const uint8_t* src = static_cast<const uint8_t*>(a.data()) + static_cast<size_t>(off) * sizeof(From);
  To* dst = v->template data<To>();
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(LoadAt<From>(src, i));
  bool any_null = false;
  for (int64_t i = 0; i < n && !any_null; ++i) {
    any_null = (mask && mask[off + i]);
    if constexpr (std::is_floating_point_v<From>)
      any_null = any_null || (nan_is_null && std::isnan(LoadAt<From>(src, i)));
  }
  if (any_null) {
    uint8_t* valid = v->MutableValidity();
    for (int64_t i = 0; i < n; ++i) {
      bool null = mask && mask[off + i];
      if constexpr (std::is_floating_point_v<From>)
        null = null || (nan_is_null && std::isnan(LoadAt<From>(src, i)));
      valid[i] = null ? 0 : 1;
      if (null) dst[i] = To{};
    }
  }
  return v;
}

using ChunkFn = std::function<columnar::VectorPtr(int64_t off, int64_t n)>;

// The SQL type of a numeric column and the function copying a chunk of it.
std::pair<TypePtr, ChunkFn> NumericColumn(const ImportColumn& c, const bool* mask) {
  const py::array& a = c.values;
  const char kind = a.dtype().kind();
  const auto size = a.itemsize();
  auto make = [&](TypePtr t, auto tag_from, auto tag_to,
                  bool nan_null) -> std::pair<TypePtr, ChunkFn> {
    using From = decltype(tag_from);
    using To = decltype(tag_to);
    py::array keep = a;
    return {t, [t, keep, mask, nan_null](int64_t off, int64_t n) {
              return CopyFixed<From, To>(t, keep, mask, off, n, nan_null);
            }};
  };
  if (!c.kind.empty()) {
    if (kind != 'i' || size != 8)
      RaiseInvalidArgument("column " + c.name + ": kind " + c.kind + " needs int64 values");
    if (c.kind == "timestamp") return make(columnar::Timestamp(), int64_t{}, int64_t{}, false);
    if (c.kind == "timestamp_ntz")
      return make(columnar::TimestampNtz(), int64_t{}, int64_t{}, false);
    if (c.kind == "date") return make(columnar::Date(), int64_t{}, int32_t{}, false);
    RaiseInvalidArgument("column " + c.name + ": unknown kind " + c.kind);
  }
  if (kind == 'b') return make(columnar::Boolean(), uint8_t{}, uint8_t{}, false);
  if (kind == 'i' && size == 1) return make(columnar::Int8(), int8_t{}, int8_t{}, false);
  if (kind == 'i' && size == 2) return make(columnar::Int16(), int16_t{}, int16_t{}, false);
  if (kind == 'i' && size == 4) return make(columnar::Int32(), int32_t{}, int32_t{}, false);
  if (kind == 'i' && size == 8) return make(columnar::Int64(), int64_t{}, int64_t{}, false);
  if (kind == 'u' && size == 1) return make(columnar::Int16(), uint8_t{}, int16_t{}, false);
  if (kind == 'u' && size == 2) return make(columnar::Int32(), uint16_t{}, int32_t{}, false);
  if (kind == 'u' && size == 4) return make(columnar::Int64(), uint32_t{}, int64_t{}, false);
  if (kind == 'u' && size == 8) return make(columnar::UInt64(), uint64_t{}, uint64_t{}, false);
  if (kind == 'f' && size == 4) return make(columnar::Float32(), float{}, float{}, true);
  if (kind == 'f' && size == 8) return make(columnar::Float64(), double{}, double{}, true);
  RaiseInvalidArgument("column " + c.name + ": numpy dtype " +
                       py::str(a.dtype()).cast<std::string>() + " is not supported");
}

}  // namespace

columnar::VectorPtr ImportValue(PyObject* value, const std::string& where) {
  EnsureDateTimeApi();
  Inferred inferred;
  if (!IsMissing(value)) Observe(&inferred, value, where);
  // NULL and empty lists stay untyped: the statement casts them to what it needs.
  TypePtr type = ToType(inferred, where, columnar::NullType());
  auto v = Vector::Make(type, 1);
  Append(v.get(), value, where);
  return v;
}

std::shared_ptr<const sql::TableSource> ImportColumns(const std::string& name,
                                                      const std::vector<ImportColumn>& columns,
                                                      int batch_size) {
  EnsureDateTimeApi();
  if (columns.empty()) RaiseInvalidArgument("register " + name + ": no columns");
  const int64_t rows = columns[0].values.size();
  columnar::Schema schema;
  std::vector<ChunkFn> chunkers;
  std::vector<py::array_t<bool>> masks;  // keep the masks alive while chunking
  for (const ImportColumn& c : columns) {
    const std::string where = "register " + name + ", column " + c.name;
    if (c.values.ndim() != 1 || !(c.values.flags() & py::array::c_style)) {
      RaiseInvalidArgument(where + ": needs a contiguous 1-d array");
    }
    if (c.values.size() != rows) RaiseInvalidArgument(where + ": columns differ in length");
    const bool* mask = nullptr;
    if (!c.mask.is_none()) {
      auto m = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(c.mask);
      if (!m || m.size() != rows)
        RaiseInvalidArgument(where + ": mask must be a bool array of the column's length");
      masks.push_back(m);
      mask = m.data();
    }
    if (c.values.dtype().kind() == 'O') {
      Inferred inferred;
      PyObject* const* objs = static_cast<PyObject* const*>(c.values.data());
      for (int64_t i = 0; i < rows; ++i) {
        if (!(mask && mask[i]) && !IsMissing(objs[i])) Observe(&inferred, objs[i], where);
      }
      TypePtr type = ToType(inferred, where, columnar::String());  // an all-NULL column: STRING
      schema.fields.push_back({c.name, type, true});
      py::array keep = c.values;
      chunkers.push_back([type, keep, mask, where](int64_t off, int64_t n) {
        auto v = Vector::Make(type, n);
        PyObject* const* o = static_cast<PyObject* const*>(keep.data());
        for (int64_t i = off; i < off + n; ++i) {
          if (mask && mask[i]) {
            v->AppendNull();
          } else {
            Append(v.get(), o[i], where);
          }
        }
        return v;
      });
    } else {
      auto [type, fn] = NumericColumn(c, mask);
      schema.fields.push_back({c.name, type, true});
      chunkers.push_back(std::move(fn));
    }
  }
  auto schema_ptr = std::make_shared<columnar::Schema>(schema);
  std::vector<columnar::BatchPtr> batches;
  const int64_t step = std::max(1, batch_size);
  for (int64_t off = 0; off < rows; off += step) {
    int64_t n = std::min(step, rows - off);
    std::vector<columnar::VectorPtr> cols;
    for (auto& fn : chunkers) cols.push_back(fn(off, n));
    batches.push_back(std::make_shared<columnar::RecordBatch>(schema_ptr, std::move(cols), n));
  }
  auto source = sql::BatchTableSource::Make(name, std::move(schema), std::move(batches));
  if (!source.ok()) RaiseStatus(source.status());
  return *source;
}

}  // namespace shoal::python
