// Python values from a query result's column batches: rows as tuples (fetchall / fetchone) and
// columns as numpy arrays (fetchnumpy). The one place the module reads columnar::Vector
// layouts (src/columnar/type.h); it moves to the Arrow C stream export once that lands.
//
// Type mapping (doc/python.md): BOOLEAN bool; integers int; FLOAT/DOUBLE float; DECIMAL
// decimal.Decimal; STRING str; BINARY bytes; DATE datetime.date; TIME datetime.time;
// TIMESTAMP datetime.datetime with tzinfo=UTC; TIMESTAMP_NTZ naive datetime.datetime;
// ARRAY list; MAP and STRUCT dict; NULL None.
//
// Thread-safety: every function needs the GIL; the batches are read-only.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "columnar/vector.h"

namespace shoal::python {

// A result's rows and a read position over them.
struct ResultCursor {
  columnar::SchemaPtr schema;
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  size_t batch = 0;  // position: row `row` of batches[batch]
  int64_t row = 0;

  int64_t RowsLeft() const;
};

// Up to `max_rows` rows (all when < 0) from the cursor as a list of tuples; advances it.
pybind11::list FetchRows(ResultCursor* cursor, int64_t max_rows);
// The remaining rows as {column name: numpy array}, advancing the cursor to the end. Fixed-width
// columns are copied from the column buffers into typed arrays (int*/uint64/float*/bool,
// datetime64[D] for DATE, datetime64[us] for TIMESTAMP*); the others are object arrays. A
// column with NULLs is a numpy.ma.MaskedArray. The fixed-width copies run without the GIL,
// on up to hardware-concurrency threads. Duplicate names get suffixes "_1", "_2", ....
pybind11::dict FetchColumns(ResultCursor* cursor);

}  // namespace shoal::python
