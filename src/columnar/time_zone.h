// Time zones from the system's IANA database (TZif files under /usr/share/zoneinfo, RFC 8536)
// and fixed UTC offsets: UTC <-> local wall-clock conversion for TIMESTAMP (with local time
// zone) semantics.
//
// Thread-safety: a TimeZone is immutable once built; FindTimeZone is safe to call from many
// threads, and the zones it returns live until the process ends (a cache that never evicts).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::columnar {

// A daylight-saving rule of a POSIX TZ string (the TZif footer), used after the last listed
// transition: "std offset [dst [offset] [,start[/time],end[/time]]]".
struct PosixTzRule {
  // One of Jn (day 1..365, Feb 29 never counted), n (day 0..365, Feb 29 counted) or
  // Mm.w.d (weekday d, 0 = Sunday, of week w 1..5 (5: the last) of month m).
  struct Date {
    enum class Kind { kJulian1, kJulian0, kMonthWeekDay } kind = Kind::kMonthWeekDay;
    int day = 0;    // n for Jn / n; d for Mm.w.d
    int month = 0;  // m
    int week = 0;   // w
    int32_t time = 7200;  // local seconds after midnight (-167h..167h per RFC 8536), default 02:00
  };
  int32_t std_offset = 0;  // seconds east of UTC
  bool has_dst = false;
  int32_t dst_offset = 0;
  Date start, end;  // DST starts at `start` (local standard time), ends at `end` (local DST)

  // The offset in effect at `utc_seconds`.
  int32_t OffsetAt(int64_t utc_seconds) const;
};

// Parses a POSIX TZ string; InvalidArgument when malformed.
Result<PosixTzRule> ParsePosixTz(std::string_view s);

class TimeZone {
 public:
  // A fixed offset (seconds east of UTC) under `name`.
  TimeZone(std::string name, int32_t fixed_offset);
  // Transitions (UTC seconds, ascending) with the offset in effect from each one; `initial` before
  // the first; `tail` (when set) after the last.
  TimeZone(std::string name, std::vector<int64_t> transitions, std::vector<int32_t> offsets,
           int32_t initial, std::unique_ptr<PosixTzRule> tail);

  // The name as a session shows it (current_timezone()): a region ID or "+08:00".
  const std::string& name() const { return name_; }
  bool is_fixed() const { return transitions_.empty() && !tail_; }

  // Seconds east of UTC in effect at the instant.
  int32_t OffsetAt(int64_t utc_micros) const;
  // The wall-clock time (micros) of an instant.
  int64_t ToLocal(int64_t utc_micros) const;
  // The instant of a wall-clock time, as Java's LocalDateTime.atZone (Spark): in a gap (clocks
  // jump forward) the time moves forward by the gap's length; in an overlap the earlier offset
  // (the one before the transition) wins.
  int64_t ToUtc(int64_t local_micros) const;

  static const TimeZone& Utc();

 private:
  int32_t OffsetAtSeconds(int64_t utc_seconds) const;

  std::string name_;
  std::vector<int64_t> transitions_;
  std::vector<int32_t> offsets_;
  int32_t initial_ = 0;
  std::unique_ptr<PosixTzRule> tail_;
};

// Builds a zone from the bytes of a TZif file (versions 1 to 4); Corruption when malformed.
Result<std::unique_ptr<TimeZone>> ParseTzif(std::string name, std::string_view bytes);

// Parses a fixed offset "(+|-)H[H][:mm[:ss]]" or "(+|-)HHmm[ss]" to seconds east of UTC, within
// ±18:00 (Java's ZoneOffset); false when `s` is not one.
bool ParseZoneOffset(std::string_view s, int32_t* seconds);
// Java's ZoneOffset ID of an offset: "Z" for zero, else "+HH:mm[:ss]".
std::string ZoneOffsetId(int32_t seconds);

// The zone called `name`, loaded once and cached: a region ID of the system database
// ("America/Los_Angeles", "UTC"), a fixed offset ("+08:00", "-08", "Z"), or such an offset after
// "UTC"/"GMT"/"UT" ("GMT+1"). InvalidArgument naming `name` when it is none of these.
Result<const TimeZone*> FindTimeZone(std::string_view name);

// A TIMESTAMP from text: "YYYY-MM-DD[( |T)HH:MM[:SS[.f]]]" is a wall-clock time in `zone`; one
// followed by an offset or zone ID ("Z", "+08:00", " UTC", " America/New_York") names the instant
// in that zone. nullopt when malformed or the zone is unknown.
std::optional<int64_t> ParseTimestampInZone(std::string_view s, const TimeZone& zone);

// The default session zone: the TZ environment variable when set (and a zone), else the zone
// /etc/localtime links to, else "UTC".
std::string DefaultTimeZoneName();

}  // namespace shoal::columnar
