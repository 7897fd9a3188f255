#include "result_convert.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <string>
#include <thread>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "datetime_api.h"
#include "errors.h"

namespace shoal::python {

namespace py = pybind11;
using columnar::TypeId;
using columnar::Vector;

namespace {

[[noreturn]] void RaiseConversion(const std::string& message) {
  py::object cls = py::module_::import("shoal").attr("ConversionException");
  PyErr_SetString(cls.ptr(), message.c_str());
  throw py::error_already_set();
}

py::object Checked(PyObject* p) {
  if (p == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(p);
}

py::object DateObject(int32_t days) {
  columnar::CivilDate c = columnar::CivilFromDays(days);
  if (c.year < 1 || c.year > 9999) {
    RaiseConversion("DATE " + columnar::FormatDate(days) +
                    " is outside Python's datetime.date range");
  }
  return Checked(PyDate_FromDate(static_cast<int>(c.year), c.month, c.day));
}

py::object TimestampObject(int64_t micros, bool utc) {
  int64_t days = columnar::FloorDiv(micros, columnar::kMicrosPerDay);
  int64_t rest = micros - days * columnar::kMicrosPerDay;
  columnar::CivilDate c = columnar::CivilFromDays(days);
  if (c.year < 1 || c.year > 9999) {
    RaiseConversion("TIMESTAMP " + columnar::FormatTimestamp(micros) +
                    " is outside Python's datetime range");
  }
  int us = static_cast<int>(rest % 1000000);
  int64_t secs = rest / 1000000;
  return Checked(PyDateTimeAPI->DateTime_FromDateAndTime(
      static_cast<int>(c.year), c.month, c.day, static_cast<int>(secs / 3600),
      static_cast<int>(secs / 60 % 60), static_cast<int>(secs % 60), us,
      utc ? PyDateTime_TimeZone_UTC : Py_None, PyDateTimeAPI->DateTimeType));
}

py::object TimeObject(int64_t micros) {
  int64_t secs = micros / 1000000;
  return Checked(PyTime_FromTime(static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                                 static_cast<int>(secs % 60), static_cast<int>(micros % 1000000)));
}

const py::object& DecimalClass() {
  static py::object* cls = new py::object(py::module_::import("decimal").attr("Decimal"));
  return *cls;
}

py::object StringObject(std::string_view s) {
  PyObject* p =
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  return Checked(p);
}

// Appends the values of rows [off, off + n) of `v` to `out`.
void ConvertRange(const Vector& v, int64_t off, int64_t n, std::vector<py::object>* out) {
  const TypeId id = v.id();
  for (int64_t i = off; i < off + n; ++i) {
    if (id == TypeId::kNull || v.IsNull(i)) {
      out->push_back(py::none());
      continue;
    }
    switch (id) {
      case TypeId::kBoolean:
        out->push_back(py::bool_(v.Get<uint8_t>(i) != 0));
        break;
      case TypeId::kInt8:
        out->push_back(py::int_(v.Get<int8_t>(i)));
        break;
      case TypeId::kInt16:
        out->push_back(py::int_(v.Get<int16_t>(i)));
        break;
      case TypeId::kInt32:
        out->push_back(py::int_(v.Get<int32_t>(i)));
        break;
      case TypeId::kInt64:
        out->push_back(py::int_(v.Get<int64_t>(i)));
        break;
      case TypeId::kUInt64:
        out->push_back(py::int_(v.Get<uint64_t>(i)));
        break;
      case TypeId::kFloat:
        out->push_back(py::float_(v.Get<float>(i)));
        break;
      case TypeId::kDouble:
        out->push_back(py::float_(v.Get<double>(i)));
        break;
      case TypeId::kDecimal: {
        columnar::int128_t u =
            v.type()->IsWideDecimal() ? v.Get<columnar::int128_t>(i) : v.Get<int64_t>(i);
        out->push_back(DecimalClass()(columnar::FormatDecimal(u, v.type()->scale())));
        break;
      }
      case TypeId::kString:
        out->push_back(StringObject(v.GetString(i)));
        break;
      case TypeId::kBinary: {
        std::string_view b = v.GetString(i);
        out->push_back(py::bytes(b.data(), b.size()));
        break;
      }
      case TypeId::kDate:
        out->push_back(DateObject(v.Get<int32_t>(i)));
        break;
      case TypeId::kTime:
        out->push_back(TimeObject(v.Get<int64_t>(i)));
        break;
      case TypeId::kTimestamp:
        out->push_back(TimestampObject(v.Get<int64_t>(i), true));
        break;
      case TypeId::kTimestampNtz:
        out->push_back(TimestampObject(v.Get<int64_t>(i), false));
        break;
      case TypeId::kList: {
        const int64_t* o = v.offsets();
        std::vector<py::object> elems;
        ConvertRange(*v.child(0), o[i], o[i + 1] - o[i], &elems);
        py::list l(elems.size());
        for (size_t k = 0; k < elems.size(); ++k) l[k] = std::move(elems[k]);
        out->push_back(std::move(l));
        break;
      }
      case TypeId::kMap: {
        const int64_t* o = v.offsets();
        const Vector& entries = *v.child(0);
        std::vector<py::object> keys, values;
        ConvertRange(*entries.child(0), o[i], o[i + 1] - o[i], &keys);
        ConvertRange(*entries.child(1), o[i], o[i + 1] - o[i], &values);
        py::dict d;
        for (size_t k = 0; k < keys.size(); ++k) {
          // A list is not hashable: an ARRAY key becomes a tuple.
          if (PyList_Check(keys[k].ptr())) keys[k] = Checked(PyList_AsTuple(keys[k].ptr()));
          d[keys[k]] = values[k];
        }
        out->push_back(std::move(d));
        break;
      }
      case TypeId::kStruct: {
        py::dict d;
        const auto& fields = v.type()->children();
        for (size_t f = 0; f < fields.size(); ++f) {
          std::vector<py::object> one;
          ConvertRange(*v.child(f), i, 1, &one);
          d[py::str(fields[f].name)] = one[0];
        }
        out->push_back(std::move(d));
        break;
      }
      case TypeId::kNull:
        break;
    }
  }
}

// The numpy dtype a column is copied into without Python objects, or "" for object arrays.
const char* FixedDtype(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return "bool";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat:
      return "float32";
    case TypeId::kDouble:
      return "float64";
    case TypeId::kDate:
      return "datetime64[D]";
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
      return "datetime64[us]";
    default:
      return "";
  }
}

// Rows [row, num_rows) of each batch from the cursor on.
struct Piece {
  const columnar::RecordBatch* batch;
  int64_t offset;
  int64_t length;
};

std::vector<Piece> RemainingPieces(const ResultCursor& c) {
  std::vector<Piece> pieces;
  for (size_t b = c.batch; b < c.batches.size(); ++b) {
    int64_t start = b == c.batch ? c.row : 0;
    if (c.batches[b]->num_rows > start)
      pieces.push_back({c.batches[b].get(), start, c.batches[b]->num_rows - start});
  }
  return pieces;
}

// Pieces [first, last) of column `column` copied into a fixed-width array (and its mask).
struct FixedCopy {
  size_t column;
  TypeId id;
  uint8_t* dst;
  size_t width;
  bool* mask;  // null when the column has no NULLs
  size_t first, last;
};

void CopyFixed(const FixedCopy& job, const std::vector<Piece>& pieces,
               const std::vector<int64_t>& starts) {
  for (size_t pi = job.first; pi < job.last; ++pi) {
    const Piece& p = pieces[pi];
    const Vector& v = *p.batch->column(job.column);
    const int64_t at = starts[pi];
    if (job.id == TypeId::kDate) {  // int32 days -> datetime64[D] (int64)
      auto* d = reinterpret_cast<int64_t*>(job.dst) + at;
      const int32_t* s = v.data<int32_t>() + p.offset;
      for (int64_t i = 0; i < p.length; ++i) d[i] = s[i];
    } else {
      std::memcpy(job.dst + static_cast<size_t>(at) * job.width,
                  v.values().data() + static_cast<size_t>(p.offset) * job.width,
                  static_cast<size_t>(p.length) * job.width);
    }
    if (job.mask) {
      for (int64_t i = 0; i < p.length; ++i) {
        job.mask[at + i] = v.IsNull(p.offset + i);
        if (job.mask[at + i])
          std::memset(job.dst + static_cast<size_t>(at + i) * job.width, 0, job.width);
      }
    }
  }
}

// Runs the copies on up to hardware-concurrency threads (the caller is one of them).
void RunCopies(const std::vector<FixedCopy>& jobs, const std::vector<Piece>& pieces,
               const std::vector<int64_t>& starts) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j = next.fetch_add(1); j < jobs.size(); j = next.fetch_add(1))
      CopyFixed(jobs[j], pieces, starts);
  };
  size_t threads = std::min<size_t>(jobs.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (auto& t : helpers) t.join();
}

}  // namespace

int64_t ResultCursor::RowsLeft() const {
  int64_t n = 0;
  for (size_t b = batch; b < batches.size(); ++b)
    n += batches[b]->num_rows - (b == batch ? row : 0);
  return n;
}

py::list FetchRows(ResultCursor* c, int64_t max_rows) {
  EnsureDateTimeApi();
  py::list rows;
  const size_t ncols = c->schema ? c->schema->size() : 0;
  int64_t want = max_rows < 0 ? INT64_MAX : max_rows;
  while (want > 0 && c->batch < c->batches.size()) {
    const columnar::RecordBatch& b = *c->batches[c->batch];
    int64_t n = std::min(want, b.num_rows - c->row);
    if (n <= 0) {
      ++c->batch;
      c->row = 0;
      continue;
    }
    std::vector<std::vector<py::object>> cols(ncols);
    for (size_t k = 0; k < ncols; ++k) {
      cols[k].reserve(static_cast<size_t>(n));
      ConvertRange(*b.column(k), c->row, n, &cols[k]);
    }
    for (int64_t i = 0; i < n; ++i) {
      py::tuple t(ncols);
      for (size_t k = 0; k < ncols; ++k) t[k] = std::move(cols[k][static_cast<size_t>(i)]);
      rows.append(std::move(t));
    }
    c->row += n;
    want -= n;
    if (c->row >= b.num_rows) {
      ++c->batch;
      c->row = 0;
    }
  }
  return rows;
}

py::dict FetchColumns(ResultCursor* c) {
  EnsureDateTimeApi();
  const std::vector<Piece> pieces = RemainingPieces(*c);
  std::vector<int64_t> starts;  // row of the output where each piece begins
  int64_t total = 0;
  for (const Piece& p : pieces) {
    starts.push_back(total);
    total += p.length;
  }
  const size_t ncols = c->schema ? c->schema->size() : 0;
  std::vector<py::array> arrays(ncols);
  std::vector<py::array_t<bool>> masks(ncols);  // used where has_mask
  std::vector<bool> has_mask(ncols, false);
  std::vector<FixedCopy> copies;
  for (size_t k = 0; k < ncols; ++k) {
    const TypeId id = c->schema->fields[k].type->id();
    bool has_nulls = id == TypeId::kNull;
    for (const Piece& p : pieces) has_nulls = has_nulls || p.batch->column(k)->MayHaveNulls();
    bool* m = nullptr;
    if (has_nulls) {
      has_mask[k] = true;
      masks[k] = py::array_t<bool>(total);
      m = masks[k].mutable_data();
    }
    const char* dtype = FixedDtype(id);
    if (*dtype) {
      arrays[k] = py::array(py::dtype(dtype), std::vector<py::ssize_t>{total});
      auto* dst = static_cast<uint8_t*>(arrays[k].mutable_data());
      // Pieces in groups of about 512K rows, copied below without the GIL, in parallel.
      for (size_t first = 0; first < pieces.size();) {
        size_t last = first;
        int64_t rows = 0;
        while (last < pieces.size() && rows < (int64_t{1} << 19)) rows += pieces[last++].length;
        copies.push_back({k, id, dst, static_cast<size_t>(arrays[k].itemsize()), m, first, last});
        first = last;
      }
      continue;
    }
    arrays[k] = py::array(py::dtype("O"), std::vector<py::ssize_t>{total});
    auto** slots = static_cast<PyObject**>(arrays[k].mutable_data());
    for (size_t pi = 0; pi < pieces.size(); ++pi) {
      const Piece& p = pieces[pi];
      const Vector& v = *p.batch->column(k);
      std::vector<py::object> values;
      values.reserve(static_cast<size_t>(p.length));
      ConvertRange(v, p.offset, p.length, &values);
      const int64_t at = starts[pi];
      for (int64_t i = 0; i < p.length; ++i) {
        Py_XDECREF(slots[at + i]);
        slots[at + i] = values[static_cast<size_t>(i)].release().ptr();
        if (m) m[at + i] = id == TypeId::kNull || v.IsNull(p.offset + i);
      }
    }
  }
  {
    py::gil_scoped_release release;
    RunCopies(copies, pieces, starts);
  }
  py::dict out;
  std::map<std::string, int> seen;
  for (size_t k = 0; k < ncols; ++k) {
    std::string name = c->schema->fields[k].name;
    int& count = seen[name];
    if (count++ > 0) name += "_" + std::to_string(count - 1);
    if (has_mask[k]) {
      static py::object* masked =
          new py::object(py::module_::import("numpy.ma").attr("MaskedArray"));
      out[py::str(name)] = (*masked)(arrays[k], py::arg("mask") = masks[k]);
    } else {
      out[py::str(name)] = arrays[k];
    }
  }
  c->batch = c->batches.size();
  c->row = 0;
  return out;
}

}  // namespace shoal::python
