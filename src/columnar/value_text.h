// Text and JSON forms of column values, as the shell prints them and as the test expectations
// in ../shared/testdata are written (parquet-testing/NOTICE.md):
//   JSON: integers and floats as numbers (NaN/Infinity/-Infinity as strings), booleans, null,
//   strings; DECIMAL as its exact text (a JSON string); DATE "YYYY-MM-DD"; TIMESTAMP
//   "YYYY-MM-DD HH:MM:SS[.f]"; BINARY as text with non-printable bytes as \xNN; LIST as array;
//   STRUCT as object; MAP as an array of {"key":…,"value":…}.
//   Text: DuckDB's shell forms ([1, 2], {'a': 1}, {k=v}), NULL as "NULL".
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "columnar/vector.h"

namespace shoal::columnar {

class TimeZone;

// TIMESTAMP values (also inside nested values) are shown as wall-clock times in `zone`; null
// means UTC. TIMESTAMP_NTZ values are shown as they are.
void AppendJson(const Vector& v, int64_t row, std::string* out, const TimeZone* zone = nullptr);
void AppendText(const Vector& v, int64_t row, std::string* out, const TimeZone* zone = nullptr);
std::string TextOf(const Vector& v, int64_t row, const TimeZone* zone = nullptr);

// Shortest text that reads back to the same double, with ".0" on integral values as DuckDB
// prints them ("1.5", "2.0", "1e+300", "NaN", "Infinity").
std::string FormatDouble(double d);
// Shortest text that reads back to the same float.
std::string FormatFloat(float f);
// JSON string literal with quotes and escapes.
void AppendJsonString(std::string_view s, std::string* out);
// Bytes with non-printable ones and quotes as \xNN (DuckDB's BLOB text form; '\' stays).
std::string EscapeBinary(std::string_view s);

}  // namespace shoal::columnar
