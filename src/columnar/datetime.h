// Calendar arithmetic for DATE (days since 1970-01-01), TIME and TIMESTAMP (microseconds), in
// the proleptic Gregorian calendar, UTC — and their text forms.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shoal::columnar {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400LL * kMicrosPerSecond;

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

int64_t DaysFromCivil(int64_t y, int m, int d);
CivilDate CivilFromDays(int64_t days);
bool IsValidCivil(int64_t y, int m, int d);

// "YYYY-MM-DD" (years outside 0..9999 as DuckDB prints them: "-0001-01-01", "10000-01-01").
std::string FormatDate(int32_t days);
// "HH:MM:SS[.f]": the fraction with trailing zeros dropped, as DuckDB prints it.
std::string FormatTime(int64_t micros);
// "YYYY-MM-DD HH:MM:SS[.ffffff]".
std::string FormatTimestamp(int64_t micros);

// Parse "YYYY-MM-DD"; nullopt when malformed or not a real date.
std::optional<int32_t> ParseDate(std::string_view s);
// Parse "YYYY-MM-DD[( |T)HH:MM[:SS[.f{1,9}]]][Z|+HH[:MM]|-HH[:MM]| UTC]"; offsets are applied
// (result is UTC). nullopt when malformed.
std::optional<int64_t> ParseTimestamp(std::string_view s);
// The wall-clock micros of "YYYY-MM-DD[( |T)HH:MM[:SS[.f{1,9}]]]" and, in *zone_text, what follows
// it (spaces trimmed; empty when nothing does): an offset or zone ID for the caller to read.
std::optional<int64_t> ParseLocalTimestamp(std::string_view s, std::string_view* zone_text);
std::optional<int64_t> ParseTime(std::string_view s);

// Adds `months` (the day of month clamped to the target month's last day, as Java's plusMonths)
// then `days` to a wall-clock time in micros; false on overflow.
bool AddMonthsAndDays(int64_t micros, int64_t months, int64_t days, int64_t* out);

// Floor division helpers for negative timestamps.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

}  // namespace shoal::columnar
