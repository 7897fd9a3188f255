#include "columnar/time_zone.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "columnar/datetime.h"

namespace shoal::columnar {
namespace {

constexpr int64_t kHour = 3600;

// Micros of a UTC (or wall-clock) civil time.
int64_t At(int64_t y, int mo, int d, int h, int mi = 0, int s = 0) {
  return DaysFromCivil(y, mo, d) * kMicrosPerDay + ((h * 60 + mi) * 60 + s) * kMicrosPerSecond;
}

const TimeZone& Zone(const char* name) {
  auto z = FindTimeZone(name);
  EXPECT_TRUE(z.ok()) << name << ": " << z.status().ToString();
  return z.ok() ? **z : TimeZone::Utc();
}

// US rules since 2007 (tzdata northamerica, "Rule US 2007 max"): DST from the second Sunday of
// March 02:00 local standard time to the first Sunday of November 02:00 local daylight time.
// 2024: March 10, 10:00 UTC and November 3, 09:00 UTC.
TEST(TimeZone, LosAngelesTransitionsOf2024) {
  const TimeZone& la = Zone("America/Los_Angeles");
  EXPECT_EQ(la.OffsetAt(At(2024, 3, 10, 9, 59, 59)), -8 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2024, 3, 10, 10)), -7 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2024, 11, 3, 8, 59, 59)), -7 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2024, 11, 3, 9)), -8 * kHour);
  EXPECT_EQ(la.ToLocal(At(2024, 7, 1, 17)), At(2024, 7, 1, 10));
  EXPECT_EQ(la.ToUtc(At(2024, 1, 1, 10)), At(2024, 1, 1, 18));
}

// tzdata: "America/Los_Angeles -7:52:58 - LMT 1883 Nov 18 20:00u": local mean time before the
// first transition (the TZif's first local time type).
TEST(TimeZone, LosAngelesBeforeFirstTransitionIsLocalMeanTime) {
  EXPECT_EQ(Zone("America/Los_Angeles").OffsetAt(At(1800, 1, 1, 0)), -(7 * kHour + 52 * 60 + 58));
}

// EU rules (tzdata europe, "Rule EU 1981 max"): DST from the last Sunday of March to the last
// Sunday of October, both at 01:00 UTC. 2024: March 31 and October 27.
TEST(TimeZone, BerlinTransitionsOf2024) {
  const TimeZone& berlin = Zone("Europe/Berlin");
  EXPECT_EQ(berlin.OffsetAt(At(2024, 3, 31, 0, 59, 59)), 1 * kHour);
  EXPECT_EQ(berlin.OffsetAt(At(2024, 3, 31, 1)), 2 * kHour);
  EXPECT_EQ(berlin.OffsetAt(At(2024, 10, 27, 0, 59, 59)), 2 * kHour);
  EXPECT_EQ(berlin.OffsetAt(At(2024, 10, 27, 1)), 1 * kHour);
}

// Lord Howe Island (tzdata australasia, "Rule LH 2008 max"): +10:30 standard, +11:00 in DST
// (a half-hour shift); DST ends the first Sunday of April at 02:00 local DST (2024-04-07 ->
// 2024-04-06 15:00 UTC) and starts the first Sunday of October at 02:00 local standard time
// (2024-10-06 -> 2024-10-05 15:30 UTC).
TEST(TimeZone, LordHoweHalfHourDaylightSaving) {
  const TimeZone& lh = Zone("Australia/Lord_Howe");
  EXPECT_EQ(lh.OffsetAt(At(2024, 4, 6, 14, 59, 59)), 11 * kHour);
  EXPECT_EQ(lh.OffsetAt(At(2024, 4, 6, 15)), 10 * kHour + 1800);
  EXPECT_EQ(lh.OffsetAt(At(2024, 10, 5, 15, 29, 59)), 10 * kHour + 1800);
  EXPECT_EQ(lh.OffsetAt(At(2024, 10, 5, 15, 30)), 11 * kHour);
  // The gap of the October change is 30 minutes: 02:10 local moves to 02:40 (+11:00).
  EXPECT_EQ(lh.ToUtc(At(2024, 10, 6, 2, 10)), At(2024, 10, 5, 15, 40));
}

// Far beyond the file's listed transitions (2037), the footer's POSIX rule
// "PST8PDT,M3.2.0,M11.1.0" decides: in 2300 the second Sunday of March is the 11th and the first
// Sunday of November the 4th (proleptic Gregorian calendar).
TEST(TimeZone, FarFutureUsesThePosixFooter) {
  const TimeZone& la = Zone("America/Los_Angeles");
  EXPECT_EQ(la.OffsetAt(At(2300, 3, 11, 9, 59, 59)), -8 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2300, 3, 11, 10)), -7 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2300, 11, 4, 8, 59, 59)), -7 * kHour);
  EXPECT_EQ(la.OffsetAt(At(2300, 11, 4, 9)), -8 * kHour);
}

// Java's LocalDateTime.atZone, which Spark uses: a wall-clock time in the spring-forward gap moves
// forward by the gap (02:30 -> 03:30 PDT = 10:30 UTC); one in the fall-back overlap takes the
// earlier offset (01:30 PDT = 08:30 UTC, not 01:30 PST = 09:30 UTC).
TEST(TimeZone, GapMovesForwardOverlapTakesEarlierOffset) {
  const TimeZone& la = Zone("America/Los_Angeles");
  EXPECT_EQ(la.ToUtc(At(2024, 3, 10, 2, 30)), At(2024, 3, 10, 10, 30));
  EXPECT_EQ(la.ToUtc(At(2024, 11, 3, 1, 30)), At(2024, 11, 3, 8, 30));
  EXPECT_EQ(la.ToUtc(At(2024, 11, 3, 2, 30)), At(2024, 11, 3, 10, 30));  // after the overlap: PST
  const TimeZone& berlin = Zone("Europe/Berlin");
  EXPECT_EQ(berlin.ToUtc(At(2024, 3, 31, 2, 15)), At(2024, 3, 31, 1, 15));   // gap: 03:15 CEST
  EXPECT_EQ(berlin.ToUtc(At(2024, 10, 27, 2, 15)), At(2024, 10, 27, 0, 15));  // overlap: CEST
}

TEST(TimeZone, FixedOffsetsInJavaForms) {
  EXPECT_EQ(Zone("+08:00").OffsetAt(0), 8 * kHour);
  EXPECT_EQ(Zone("+08:00").name(), "+08:00");
  EXPECT_EQ(Zone("-08").name(), "-08:00");
  EXPECT_EQ(Zone("-08").OffsetAt(0), -8 * kHour);
  EXPECT_EQ(Zone("-13:33:33").OffsetAt(0), -(13 * kHour + 33 * 60 + 33));
  EXPECT_EQ(Zone("-13:33:33").name(), "-13:33:33");
  EXPECT_EQ(Zone("+0530").OffsetAt(0), 5 * kHour + 1800);
  EXPECT_EQ(Zone("Z").OffsetAt(0), 0);
  EXPECT_EQ(Zone("UTC").name(), "UTC");
  EXPECT_EQ(Zone("GMT+1").name(), "GMT+01:00");
  EXPECT_EQ(Zone("GMT+1").OffsetAt(0), kHour);
  EXPECT_EQ(Zone("UTC-05:30").OffsetAt(0), -(5 * kHour + 1800));
  EXPECT_EQ(Zone("+08:00").ToUtc(At(2024, 1, 1, 8)), At(2024, 1, 1, 0));
  EXPECT_EQ(ZoneOffsetId(0), "Z");
}

TEST(TimeZone, BadNamesAreNamedErrors) {
  for (const char* name : {"Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "america/los_angeles",
                           "zone.tab", "+18:01", "+8:00", "GMT+25", "", "America", "+08:60"}) {
    auto z = FindTimeZone(name);
    ASSERT_FALSE(z.ok()) << name;
    EXPECT_EQ(z.status().code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(z.status().message().find("invalid time zone '" + std::string(name) + "'"), std::string::npos);
  }
}

TEST(TimeZone, LoadsOnceAndCaches) {
  auto a = FindTimeZone("Europe/Paris");
  auto b = FindTimeZone("Europe/Paris");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

// POSIX TZ rule grammar (POSIX.1 TZ; RFC 8536 §3.3.1 allows hours -167..167 in rule times).
TEST(PosixTz, ParsesTheRuleForms) {
  auto us = ParsePosixTz("EST5EDT,M3.2.0,M11.1.0");
  ASSERT_TRUE(us.ok());
  EXPECT_EQ(us->std_offset, -5 * kHour);
  EXPECT_EQ(us->dst_offset, -4 * kHour);
  auto india = ParsePosixTz("<+0530>-5:30");
  ASSERT_TRUE(india.ok());
  EXPECT_FALSE(india->has_dst);
  EXPECT_EQ(india->std_offset, 5 * kHour + 1800);
  // Jn: day 60 is March 1 even in a leap year; n counts Feb 29. "/-1" and "/26" extended hours.
  auto julian = ParsePosixTz("AAA3BBB,J60/-1,300/26");
  ASSERT_TRUE(julian.ok());
  // 2024 (leap): J60 = March 1 -> DST from 2024-02-29 23:00 local std (UTC-3) = 2024-03-01 02:00 UTC.
  EXPECT_EQ(julian->OffsetAt(At(2024, 3, 1, 1, 59, 59) / kMicrosPerSecond), -3 * kHour);
  EXPECT_EQ(julian->OffsetAt(At(2024, 3, 1, 2) / kMicrosPerSecond), -2 * kHour);
  // Day 300 zero-based in 2024 is October 27; 26:00 local DST (UTC-2) = October 28 04:00 UTC.
  EXPECT_EQ(julian->OffsetAt(At(2024, 10, 28, 3, 59, 59) / kMicrosPerSecond), -2 * kHour);
  EXPECT_EQ(julian->OffsetAt(At(2024, 10, 28, 4) / kMicrosPerSecond), -3 * kHour);
  // Ireland's negative DST: IST (+1) is standard, GMT in winter.
  auto dublin = ParsePosixTz("IST-1GMT0,M10.5.0,M3.5.0/1");
  ASSERT_TRUE(dublin.ok());
  EXPECT_EQ(dublin->OffsetAt(At(2024, 7, 1, 0) / kMicrosPerSecond), kHour);
  EXPECT_EQ(dublin->OffsetAt(At(2024, 12, 1, 0) / kMicrosPerSecond), 0);
  for (const char* bad : {"", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,J0,J365",
                          "EST5x"}) {
    EXPECT_FALSE(ParsePosixTz(bad).ok()) << bad;
  }
}

TEST(Tzif, RejectsMalformedBytes) {
  EXPECT_FALSE(ParseTzif("x", "").ok());
  EXPECT_FALSE(ParseTzif("x", "TZif2").ok());
  std::string header = "TZif2" + std::string(15, '\0');
  // Counts claiming a million transitions in a 44-byte file.
  std::string counts = std::string(12, '\0') + std::string("\x00\x0f\x42\x40", 4) + std::string("\0\0\0\1", 4) +
                       std::string(4, '\0');
  auto r = ParseTzif("x", header + counts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace shoal::columnar

namespace shoal::columnar {
namespace {

// The default zone: TZ when it names a zone (a leading ':' allowed, as POSIX), else the zone
// /etc/localtime links to, else UTC.
TEST(TimeZone, DefaultZoneFromTheEnvironment) {
  const char* saved = std::getenv("TZ");
  const std::string saved_value = saved ? saved : "";
  setenv("TZ", "Europe/Berlin", 1);
  EXPECT_EQ(DefaultTimeZoneName(), "Europe/Berlin");
  setenv("TZ", ":Asia/Tokyo", 1);
  EXPECT_EQ(DefaultTimeZoneName(), "Asia/Tokyo");
  setenv("TZ", "Not/A_Zone", 1);
  const std::string fallback = DefaultTimeZoneName();
  EXPECT_NE(fallback, "Not/A_Zone");
  EXPECT_TRUE(FindTimeZone(fallback).ok()) << fallback;
  if (saved) {
    setenv("TZ", saved_value.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
}

// Text with an offset or zone ID names an instant; without one it is a wall clock in the zone.
TEST(TimeZone, ParsesTimestampTextInAZone) {
  const TimeZone& la = Zone("America/Los_Angeles");
  EXPECT_EQ(ParseTimestampInZone("2024-01-01 10:00:00", la), At(2024, 1, 1, 18));
  EXPECT_EQ(ParseTimestampInZone("2024-01-01T10:00:00Z", la), At(2024, 1, 1, 10));
  EXPECT_EQ(ParseTimestampInZone("2024-01-01 10:00:00+08:00", la), At(2024, 1, 1, 2));
  EXPECT_EQ(ParseTimestampInZone("2024-01-01 10:00:00 Asia/Tokyo", la), At(2024, 1, 1, 1));
  EXPECT_EQ(ParseTimestampInZone("2024-01-01", la), At(2024, 1, 1, 8));
  EXPECT_FALSE(ParseTimestampInZone("2024-01-01 10:00:00 Nowhere/City", la).has_value());
  EXPECT_FALSE(ParseTimestampInZone("2024-13-01", la).has_value());
}

}  // namespace
}  // namespace shoal::columnar
