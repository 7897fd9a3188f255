#include "expr/datetime_pattern.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"

namespace shoal::expr {
namespace {

using columnar::kMicrosPerDay;
using columnar::kMicrosPerSecond;

int64_t Micros(int y, int m, int d, int hh = 0, int mm = 0, int ss = 0, int64_t us = 0) {
  return columnar::DaysFromCivil(y, m, d) * kMicrosPerDay + ((hh * 60 + mm) * 60 + ss) * kMicrosPerSecond + us;
}

std::string Format(std::string_view pattern, int64_t local, int32_t offset = 0) {
  auto p = DatetimePattern::Compile(pattern, false);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  std::string out;
  EXPECT_TRUE(p->Format(local, offset, columnar::TimeZone::Utc(), &out).ok());
  return out;
}

std::optional<DatetimePattern::Parsed> Parse(std::string_view pattern, std::string_view text) {
  auto p = DatetimePattern::Compile(pattern, true);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  DatetimePattern::Parsed out;
  if (!p->Parse(text, &out)) return std::nullopt;
  return out;
}

TEST(DatetimePattern, CompilesLettersQuotesAndOptionalSections) {
  auto p = DatetimePattern::Compile("yyyy-MM-dd'T'HH[:mm]''", true);
  ASSERT_TRUE(p.ok());
  using K = DatetimePattern::Kind;
  std::vector<K> kinds;
  for (const auto& f : p->fields()) kinds.push_back(f.kind);
  EXPECT_EQ(kinds, (std::vector<K>{K::kYear, K::kLiteral, K::kMonth, K::kLiteral, K::kDay, K::kLiteral, K::kHourOfDay,
                                   K::kOptionalStart, K::kLiteral, K::kMinute, K::kOptionalEnd, K::kLiteral}));
  EXPECT_EQ(p->fields()[5].text, "T");
  EXPECT_EQ(p->fields().back().text, "'");
}

TEST(DatetimePattern, RejectsWhatSparkRejects) {
  for (const char* bad : {"YYYY", "ww", "u", "e", "c", "W", "A", "n", "MMMMM", "EEEEE", "GGGGG", "yyyyyyyyyyy", "ddd",
                          "HHH", "aa", "SSSSSSSSSS", "V", "OO", "XXXXXX", "'open", "]", "{", "#"}) {
    EXPECT_FALSE(DatetimePattern::Compile(bad, false).ok()) << bad;
  }
  for (const char* parse_only_bad : {"E", "F", "Q", "q"}) {
    EXPECT_TRUE(DatetimePattern::Compile(parse_only_bad, false).ok()) << parse_only_bad;
    EXPECT_FALSE(DatetimePattern::Compile(parse_only_bad, true).ok()) << parse_only_bad;
  }
  auto st = DatetimePattern::Compile("yyyy-MM-dd YYYY", false).status();
  EXPECT_NE(st.message().find("DATETIME_WEEK_BASED_PATTERN"), std::string::npos);
  EXPECT_NE(st.message().find("yyyy-MM-dd YYYY"), std::string::npos);
}

TEST(DatetimePattern, FormatsNumbersPaddedToTheLetterCount) {
  int64_t t = Micros(2024, 3, 5, 4, 7, 9, 120000);
  EXPECT_EQ(Format("y yy yyy yyyy yyyyy", t), "2024 24 2024 2024 02024");
  EXPECT_EQ(Format("M MM d dd D DD DDD", t), "3 03 5 05 65 65 065");
  EXPECT_EQ(Format("H HH h hh K k m mm s ss", t), "4 04 4 04 4 4 7 07 9 09");
  EXPECT_EQ(Format("S SS SSS SSSSSS", t), "1 12 120 120000");
  EXPECT_EQ(Format("y G", Micros(-43, 3, 15)), "44 BC");  // year 0 is 1 BC
}

TEST(DatetimePattern, FormatsOffsetsAsJava) {
  const int64_t t = Micros(2024, 1, 1);
  const int32_t plus530 = 5 * 3600 + 30 * 60, minus8 = -8 * 3600, odd = 3600 + 60 + 1;
  EXPECT_EQ(Format("X|XX|XXX|XXXX|XXXXX", t, plus530), "+0530|+0530|+05:30|+0530|+05:30");
  EXPECT_EQ(Format("X|XX|XXX", t, minus8), "-08|-0800|-08:00");
  EXPECT_EQ(Format("X|x|xx|xxx|Z|ZZZZ|ZZZZZ|O|OOOO", t, 0), "Z|+00|+0000|+00:00|+0000|GMT|Z|GMT|GMT");
  EXPECT_EQ(Format("O|OOOO|ZZZZ", t, plus530), "GMT+5:30|GMT+05:30|GMT+05:30");
  EXPECT_EQ(Format("XXXX|XXXXX", t, odd), "+010101|+01:01:01");
}

TEST(DatetimePattern, ParsesAdjacentNumbersByWidth) {
  auto p = Parse("yyyyMMddHHmmss", "20240305140709");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->local_micros, Micros(2024, 3, 5, 14, 7, 9));
  p = Parse("yyyyMMdd", "120240305");  // a five-digit year leaves eight digits for MMdd
  ASSERT_TRUE(p);
  EXPECT_EQ(p->local_micros, Micros(12024, 3, 5));
  EXPECT_FALSE(Parse("yyyyMMdd", "2024035"));
}

TEST(DatetimePattern, ParsesOffsetsAndZones) {
  auto p = Parse("HH:mmXXX", "10:00+05:30");
  ASSERT_TRUE(p && p->has_offset);
  EXPECT_EQ(p->offset_seconds, 5 * 3600 + 30 * 60);
  p = Parse("HH:mmX", "10:00Z");
  ASSERT_TRUE(p && p->has_offset);
  EXPECT_EQ(p->offset_seconds, 0);
  EXPECT_FALSE(Parse("HH:mmx", "10:00Z"));    // x has no Z
  EXPECT_FALSE(Parse("HH:mmXXX", "10:00+0530"));  // XXX wants the colon
  p = Parse("HH:mm OOOO", "10:00 GMT-08:00");
  ASSERT_TRUE(p && p->has_offset);
  EXPECT_EQ(p->offset_seconds, -8 * 3600);
  p = Parse("HH:mm VV", "10:00 UTC");
  ASSERT_TRUE(p && p->zone);
}

TEST(DatetimePattern, ParseRejectsInvalidDatesAndLeftovers) {
  EXPECT_FALSE(Parse("yyyy-MM-dd", "2023-02-29"));
  EXPECT_TRUE(Parse("yyyy-MM-dd", "2024-02-29"));
  EXPECT_FALSE(Parse("yyyy-MM-dd", "2024-02-29 "));
  EXPECT_FALSE(Parse("yyyy-DDD", "2023-366"));
  EXPECT_FALSE(Parse("hh a", "13 PM"));
  EXPECT_FALSE(Parse("HH:mm", "12:60"));
  EXPECT_FALSE(Parse("yyyy-MM-dd", ""));
  EXPECT_FALSE(Parse("yyyy MMM", "2024 March"));  // MMM takes the short name only
  auto p = Parse("hh a", "12 am");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->local_micros, 0);
}

// Formatting then parsing with the same pattern gives the time back (to the pattern's precision)
// for random times, years 1..9999, and patterns covering every parseable field.
TEST(DatetimePattern, FormatThenParseRoundTrips) {
  std::mt19937_64 rng(29);
  const int64_t lo = Micros(1, 1, 1), hi = Micros(9999, 12, 31, 23, 59, 59, 999999);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  struct Case {
    const char* pattern;
    int64_t unit;  // precision of the pattern in micros
  };
  const Case cases[] = {
      {"yyyy-MM-dd HH:mm:ss.SSSSSS", 1},
      {"yyyyMMddHHmmssSSS", 1000},
      {"dd/MMM/yyyy hh:mm:ss a", kMicrosPerSecond},
      {"MMMM d, yyyy K a m s", kMicrosPerSecond},
      {"yyyy-DDD'T'kk:mm", 60 * kMicrosPerSecond},
      {"G yyyy MM dd", kMicrosPerDay},
  };
  for (const auto& c : cases) {
    auto fmt = DatetimePattern::Compile(c.pattern, false);
    auto parse = DatetimePattern::Compile(c.pattern, true);
    ASSERT_TRUE(fmt.ok() && parse.ok()) << c.pattern;
    for (int k = 0; k < 2000; ++k) {
      const int64_t t = dist(rng);
      std::string text;
      ASSERT_TRUE(fmt->Format(t, 0, columnar::TimeZone::Utc(), &text).ok());
      DatetimePattern::Parsed back;
      ASSERT_TRUE(parse->Parse(text, &back)) << c.pattern << " " << text;
      EXPECT_EQ(back.local_micros, columnar::FloorDiv(t, c.unit) * c.unit) << c.pattern << " " << text;
    }
  }
}

// Random patterns and texts: compiling, formatting and parsing return without crashing, and a
// parsed time is within the TIMESTAMP range.
TEST(DatetimePattern, RandomPatternsNeverCrash) {
  std::mt19937 rng(7);
  const std::string letters = "yMdHhKkmsSaDGEQXxZOVz'[]- :.T0123";
  auto random_text = [&](const std::string& from, size_t max) {
    std::string s;
    for (size_t k = rng() % (max + 1); k > 0; --k) s.push_back(from[rng() % from.size()]);
    return s;
  };
  int parsed = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string p = random_text(letters, 8);
    auto fmt = DatetimePattern::Compile(p, false);
    if (fmt.ok()) {
      std::string out;
      (void)fmt->Format(Micros(2024, 3, 5, 14, 7, 9, 5), 3600, columnar::TimeZone::Utc(), &out);
    }
    auto parse = DatetimePattern::Compile(p, true);
    if (!parse.ok()) continue;
    DatetimePattern::Parsed back;
    if (parse->Parse(random_text("0123456789:-+ .TZAPMGUCJanFebMay", 14), &back)) {
      ++parsed;
      EXPECT_LT(std::abs(back.local_micros), int64_t{290001} * 366 * kMicrosPerDay);
    }
  }
  EXPECT_GT(parsed, 10);
}

}  // namespace
}  // namespace shoal::expr
