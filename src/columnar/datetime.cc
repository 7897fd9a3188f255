#include "columnar/datetime.h"

#include <cstdio>

namespace shoal::columnar {

// Howard Hinnant's days_from_civil / civil_from_days algorithms (public-domain descriptions).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilDate CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {y + (m <= 2), m, d};
}

static int DaysInMonth(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

bool IsValidCivil(int64_t y, int m, int d) {
  return m >= 1 && m <= 12 && d >= 1 && d <= DaysInMonth(y, m);
}

bool AddMonthsAndDays(int64_t micros, int64_t months, int64_t days, int64_t* out) {
  if (months != 0) {
    const CivilDate c = CivilFromDays(FloorDiv(micros, kMicrosPerDay));
    const int64_t tod = FloorMod(micros, kMicrosPerDay);
    if (months > 12 * 300000LL || months < -12 * 300000LL) return false;
    const int64_t total = c.year * 12 + (c.month - 1) + months;
    const int64_t y = FloorDiv(total, 12);
    const int m = static_cast<int>(FloorMod(total, 12)) + 1;
    if (y > 300000 || y < -300000) return false;
    micros = DaysFromCivil(y, m, c.day < DaysInMonth(y, m) ? c.day : DaysInMonth(y, m)) * kMicrosPerDay + tod;
  }
  int64_t dm;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &dm)) return false;
  return !__builtin_add_overflow(micros, dm, out);
}

static void AppendYmd(std::string* out, int64_t days) {
  CivilDate c = CivilFromDays(days);
  char buf[48];
  if (c.year < 0) {
    // DuckDB prints BC years as "(BC)" suffix; we print a signed ISO year.
    std::snprintf(buf, sizeof buf, "-%04lld-%02d-%02d", static_cast<long long>(-c.year), c.month, c.day);
  } else {
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d", static_cast<long long>(c.year), c.month, c.day);
  }
  out->append(buf);
}

static void AppendHms(std::string* out, int64_t micros_of_day) {
  int64_t secs = micros_of_day / kMicrosPerSecond;
  int64_t frac = micros_of_day % kMicrosPerSecond;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  out->append(buf);
  if (frac) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
    std::string f(buf);
    while (f.back() == '0') f.pop_back();
    out->append(f);
  }
}

std::string FormatDate(int32_t days) {
  std::string s;
  AppendYmd(&s, days);
  return s;
}

std::string FormatTime(int64_t micros) {
  std::string s;
  AppendHms(&s, FloorMod(micros, kMicrosPerDay));
  return s;
}

std::string FormatTimestamp(int64_t micros) {
  std::string s;
  AppendYmd(&s, FloorDiv(micros, kMicrosPerDay));
  s.push_back(' ');
  AppendHms(&s, FloorMod(micros, kMicrosPerDay));
  return s;
}

namespace {

struct Cursor {
  std::string_view s;
  size_t i = 0;
  bool Done() const { return i >= s.size(); }
  bool Eat(char c) {
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  // Reads 1..max_digits digits.
  bool Digits(int min_digits, int max_digits, int64_t* out, int* count = nullptr) {
    int64_t v = 0;
    int n = 0;
    while (i < s.size() && n < max_digits && s[i] >= '0' && s[i] <= '9') {
      v = v * 10 + (s[i] - '0');
      ++i;
      ++n;
    }
    if (count) *count = n;
    if (n < min_digits) return false;
    *out = v;
    return true;
  }
  void SkipSpaces() {
    while (i < s.size() && s[i] == ' ') ++i;
  }
};

bool ParseDatePart(Cursor& c, int64_t* days) {
  bool neg = c.Eat('-');
  int64_t y, m, d;
  if (!c.Digits(1, 6, &y) || !c.Eat('-') || !c.Digits(1, 2, &m) || !c.Eat('-') || !c.Digits(1, 2, &d))
    return false;
  if (neg) y = -y;
  if (!IsValidCivil(y, static_cast<int>(m), static_cast<int>(d))) return false;
  *days = DaysFromCivil(y, static_cast<int>(m), static_cast<int>(d));
  return true;
}

bool ParseTimePart(Cursor& c, int64_t* micros) {
  int64_t h, mi, sec = 0, frac = 0;
  if (!c.Digits(1, 2, &h) || !c.Eat(':') || !c.Digits(2, 2, &mi)) return false;
  if (c.Eat(':')) {
    if (!c.Digits(2, 2, &sec)) return false;
    if (c.Eat('.')) {
      int n;
      int64_t f;
      if (!c.Digits(1, 9, &f, &n)) return false;
      while (n < 6) f *= 10, ++n;
      while (n > 6) f /= 10, --n;
      frac = f;
    }
  }
  if (h > 24 || mi > 59 || sec > 60) return false;
  *micros = ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
  return true;
}

}  // namespace

std::optional<int32_t> ParseDate(std::string_view s) {
  Cursor c{s};
  c.SkipSpaces();
  int64_t days;
  if (!ParseDatePart(c, &days)) return std::nullopt;
  c.SkipSpaces();
  if (!c.Done()) return std::nullopt;
  if (days < INT32_MIN || days > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(days);
}

std::optional<int64_t> ParseLocalTimestamp(std::string_view s, std::string_view* zone_text) {
  Cursor c{s};
  c.SkipSpaces();
  int64_t days, micros = 0;
  if (!ParseDatePart(c, &days)) return std::nullopt;
  if (c.Eat(' ') || c.Eat('T')) {
    c.SkipSpaces();
    if (!ParseTimePart(c, &micros)) return std::nullopt;
  }
  c.SkipSpaces();
  std::string_view rest = s.substr(c.i);
  while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
  *zone_text = rest;
  return days * kMicrosPerDay + micros;
}

std::optional<int64_t> ParseTimestamp(std::string_view s) {
  std::string_view zone;
  auto local = ParseLocalTimestamp(s, &zone);
  if (!local) return std::nullopt;
  Cursor c{zone};
  int64_t offset_min = 0;
  if (c.Eat('Z')) {
  } else if (zone == "UTC") {
    c.i += 3;
  } else if (c.Eat('+') || c.Eat('-')) {
    bool neg = zone[0] == '-';
    int64_t oh, om = 0;
    if (!c.Digits(2, 2, &oh)) return std::nullopt;
    if (c.Eat(':')) {
      if (!c.Digits(2, 2, &om)) return std::nullopt;
    } else {
      c.Digits(0, 2, &om);
    }
    offset_min = (oh * 60 + om) * (neg ? -1 : 1);
  }
  if (!c.Done()) return std::nullopt;
  return *local - offset_min * 60 * kMicrosPerSecond;
}

std::optional<int64_t> ParseTime(std::string_view s) {
  Cursor c{s};
  c.SkipSpaces();
  int64_t micros;
  if (!ParseTimePart(c, &micros)) return std::nullopt;
  c.SkipSpaces();
  if (!c.Done()) return std::nullopt;
  return micros;
}

}  // namespace shoal::columnar
