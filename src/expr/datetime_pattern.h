// Spark's datetime patterns (sql-ref-datetime-pattern: `yyyy-MM-dd HH:mm:ss.SSS`, quoted text,
// optional sections) compiled once into a list of fields, shared by formatting (date_format,
// from_unixtime) and parsing (to_timestamp, to_date, unix_timestamp). Letters Spark rejects are
// errors: week-based ones (Y w W u e c), E F q Q when parsing, five-letter text forms, eleven
// or more y, and letters with no meaning.
//
// Thread-safety: a compiled pattern is immutable and may be shared; Get's cache is guarded by a
// mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::columnar {
class TimeZone;
}

namespace shoal::expr {

class DatetimePattern {
 public:
  enum class Kind : uint8_t {
    kLiteral, kEra, kYear, kDayOfYear, kMonth, kDay, kQuarter, kDayOfWeek, kAlignedDayOfWeek, kAmPm,
    kClockHourOfAmPm, kHourOfAmPm, kClockHourOfDay, kHourOfDay, kMinute, kSecond, kFraction,
    kZoneId, kZoneName, kOffsetLocalized, kOffsetX, kOffsetLowerX, kOffsetZ, kOptionalStart, kOptionalEnd,
  };
  struct Field {
    Kind kind;
    int count = 0;     // pattern letters in the run
    std::string text;  // kLiteral
  };

  // What Parse found: a wall-clock time and, when the text named one, its offset or zone.
  struct Parsed {
    int64_t local_micros = 0;
    bool has_offset = false;
    int32_t offset_seconds = 0;
    const columnar::TimeZone* zone = nullptr;  // a zone ID or name in the text
  };

  // The compiled pattern (cached per text and use). Errors: [INVALID_DATETIME_PATTERN...] and
  // [INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN], naming the pattern.
  static Result<std::shared_ptr<const DatetimePattern>> Get(std::string_view pattern, bool parsing);
  static Result<DatetimePattern> Compile(std::string_view pattern, bool parsing);

  const std::string& pattern() const { return pattern_; }
  const std::vector<Field>& fields() const { return fields_; }

  // Appends the wall-clock time `local_micros` of `zone` (whose offset then is `offset_seconds`).
  // Zone names (`z`) are known only for fixed-offset zones: a region zone is NotSupported.
  Status Format(int64_t local_micros, int32_t offset_seconds, const columnar::TimeZone& zone, std::string* out) const;
  // Parses all of `text` (letters case-insensitively); false when it does not fit the pattern or
  // names an invalid date or time. Fields not in the pattern default to 1970-01-01 00:00:00.
  bool Parse(std::string_view text, Parsed* out) const;

 private:
  std::string pattern_;
  std::vector<Field> fields_;
};

}  // namespace shoal::expr
