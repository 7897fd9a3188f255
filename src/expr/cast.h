// Casts between all types of columnar/type.h, vectorized.
//
// Semantics: numeric overflow is a Conversion error ("Could not convert 300 to TINYINT"),
// DOUBLE -> integer and DECIMAL rescaling round half away from zero, anything -> STRING uses
// the shell's text form (columnar/value_text.h), STRING -> BOOLEAN accepts true/false/t/f/1/0
// (case-insensitive, surrounding spaces ignored), STRING -> numbers/DATE/TIMESTAMP/TIME/DECIMAL
// parse ("Could not convert string 'abc' to INT"), DATE <-> TIMESTAMP, BINARY <-> STRING,
// LIST/MAP/STRUCT element-wise (STRUCT by position). With try_cast a failing row becomes NULL.
//
// Thread-safety: pure functions.
#pragma once

#include "columnar/value.h"
#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::columnar {
class TimeZone;
}

namespace shoal::expr {

// Whether an explicit CAST from `from` to `to` can ever succeed.
bool CanCast(const columnar::TypePtr& from, const columnar::TypePtr& to);

// Casts every row of `input` to `to`. Returns `input` itself (shared) when the types are equal.
// TIMESTAMP values are read and written as wall-clock times in `zone` (null: UTC) where a cast
// meets text, DATE, TIME or TIMESTAMP_NTZ; a string with an offset or zone ID names its instant.
Result<columnar::VectorPtr> CastVector(const columnar::VectorPtr& input, const columnar::TypePtr& to,
                                       bool try_cast = false, const columnar::TimeZone* zone = nullptr);

Result<columnar::Value> CastValue(const columnar::Value& value, const columnar::TypePtr& to,
                                  bool try_cast = false, const columnar::TimeZone* zone = nullptr);

}  // namespace shoal::expr
