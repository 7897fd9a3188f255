// Connection.execute(sql, params): Python values bound to the `?` / `$N` parameters of prepared
// statements (shoal/prepared.h), by Python type (doc/python.md): None NULL, bool BOOLEAN, int
// INT/BIGINT (DECIMAL(p,0) beyond 64 bits), float DOUBLE (NaN and infinities too), str STRING,
// bytes BINARY, decimal.Decimal DECIMAL(p,s) as written, datetime.date DATE, aware
// datetime.datetime TIMESTAMP (converted to UTC), naive TIMESTAMP_NTZ; a time, list, tuple or
// dict is converted as a registered column would be (TIME, ARRAY, STRUCT) and bound through
// PreparedStatement::BindArrow.
//
// Thread-safety: ToParameters needs the GIL; Bind does not (it reads only C++ data).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/prepared.h"

namespace shoal::python {

// One converted parameter value.
struct Parameter {
  enum class Kind { kNull, kBool, kInt, kDouble, kString, kBinary, kDecimal, kDate, kTimestamp, kTimestampNtz, kArrow };
  struct ArrowValue;  // a one-row Arrow array, released with the Parameter

  Kind kind = Kind::kNull;
  int64_t integer = 0;  // kBool, kInt, kDate (days), kTimestamp / kTimestampNtz (microseconds)
  double real = 0;      // kDouble
  std::string text;     // kString, kBinary (bytes), kDecimal ([-]digits[.digits])
  std::shared_ptr<const ArrowValue> arrow;  // kArrow
};

// The values of `params` (a list or tuple; anything else is shoal.InvalidArgument), converted.
// Raises shoal.InvalidArgument naming the parameter for a value of an unsupported type.
std::vector<Parameter> ToParameters(pybind11::handle params);

// Binds `value` to parameter `index` (1-based) of `statement`.
Status Bind(PreparedStatement* statement, int index, const Parameter& value);

// The statements of `sql` as texts, split at the `;` tokens between them (so a `;` inside a
// string or comment does not split); empty statements are dropped. Each is prepared on its own,
// taking the next parameter_count() values. The pieces are views of `sql` (their offsets in it
// place an error's offset, Status::error_offset, in the caller's text).
Result<std::vector<std::string_view>> SplitStatements(std::string_view sql);

}  // namespace shoal::python
