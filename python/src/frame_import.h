// Record batches from Python columns: what Connection.register turns a pandas DataFrame (or a
// dict of numpy arrays) into, copied once so later statements read it as a table
// (sql::BatchTableSource). The Python side (shoal/_frame.py) hands over each column as a
// contiguous 1-d numpy array, a NULL mask and a kind; numeric arrays are copied buffer to
// buffer, object arrays are converted value by value with their SQL type inferred.
//
// Thread-safety: needs the GIL.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "sql/functions/batch_table_source.h"

namespace shoal::python {

struct ImportColumn {
  std::string name;
  pybind11::array values;  // contiguous, 1-d
  pybind11::object mask;   // numpy bool array (true = NULL) or None
  // "" (by dtype: bool, int*, uint*, float*, object), or for int64 arrays "timestamp" (UTC
  // microseconds), "timestamp_ntz" (microseconds), "date" (days since 1970-01-01).
  std::string kind;
};

// A table source named `name` over the columns, in batches of `batch_size` rows. Raises
// shoal.InvalidArgument for unequal lengths, unsupported dtypes or values of mixed types.
std::shared_ptr<const sql::TableSource> ImportColumns(const std::string& name,
                                                      const std::vector<ImportColumn>& columns,
                                                      int batch_size);

// One Python value as a one-row vector of the type ImportColumns would infer for a column of it
// (int BIGINT, list ARRAY, dict STRUCT, time TIME, ...): how Connection.execute binds the
// parameters the C++ API has no scalar binder for. Raises shoal.InvalidArgument naming `where`.
columnar::VectorPtr ImportValue(PyObject* value, const std::string& where);

}  // namespace shoal::python
