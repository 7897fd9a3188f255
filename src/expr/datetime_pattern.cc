#include "expr/datetime_pattern.h"

#include <strings.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"

namespace shoal::expr {

using columnar::FloorDiv;
using columnar::FloorMod;
using columnar::kMicrosPerDay;
using columnar::kMicrosPerSecond;
using Kind = DatetimePattern::Kind;
using Field = DatetimePattern::Field;

namespace {

constexpr const char* kMonthNames[] = {"January", "February", "March",     "April",   "May",      "June",
                                       "July",    "August",   "September", "October", "November", "December"};
constexpr const char* kDayNames[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
constexpr const char* kQuarterNames[] = {"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"};
constexpr int64_t kMaxYear = 290000;  // beyond it a TIMESTAMP's micros overflow

Status LengthError(std::string_view pattern) {
  return Status::InvalidArgument("[INVALID_DATETIME_PATTERN.LENGTH] Too many letters in datetime pattern: '" +
                                 std::string(pattern) + "'. Please reduce pattern length.");
}

Status CharacterError(std::string_view pattern, char c) {
  return Status::InvalidArgument("[INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER] Found illegal character in datetime "
                                 "pattern '" + std::string(pattern) + "': " + std::string(1, c) +
                                 ". Please provide legal character.");
}

// The field of letter c with `count` letters, or an error.
Result<Kind> LetterKind(std::string_view pattern, char c, int count, bool parsing) {
  auto at_most = [&](int max, Kind k) -> Result<Kind> {
    if (count > max) return LengthError(pattern);
    return k;
  };
  switch (c) {
    case 'Y': case 'w': case 'W': case 'u': case 'e': case 'c':
      return Status::InvalidArgument(
          "[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN] All week-based patterns are "
          "unsupported since Spark 3.0, detected week-based character: " + std::string(1, c) +
          " in '" + std::string(pattern) + "'. Please use the SQL function EXTRACT instead.");
    case 'G': return at_most(4, Kind::kEra);
    case 'y': return at_most(10, Kind::kYear);
    case 'D': return at_most(3, Kind::kDayOfYear);
    case 'M': case 'L': return at_most(4, Kind::kMonth);
    case 'd': return at_most(2, Kind::kDay);
    case 'a': return at_most(1, Kind::kAmPm);
    case 'h': return at_most(2, Kind::kClockHourOfAmPm);
    case 'K': return at_most(2, Kind::kHourOfAmPm);
    case 'k': return at_most(2, Kind::kClockHourOfDay);
    case 'H': return at_most(2, Kind::kHourOfDay);
    case 'm': return at_most(2, Kind::kMinute);
    case 's': return at_most(2, Kind::kSecond);
    case 'S': return at_most(9, Kind::kFraction);
    case 'V':
      if (count != 2) {
        return Status::InvalidArgument("[INVALID_DATETIME_PATTERN.LENGTH] Pattern letter count must be 2: V in '" +
                                       std::string(pattern) + "'");
      }
      return Kind::kZoneId;
    case 'z': return at_most(4, Kind::kZoneName);
    case 'O':
      if (count != 1 && count != 4) return LengthError(pattern);
      return Kind::kOffsetLocalized;
    case 'X': return at_most(5, Kind::kOffsetX);
    case 'x': return at_most(5, Kind::kOffsetLowerX);
    case 'Z': return at_most(5, Kind::kOffsetZ);
    default: break;
  }
  if (!parsing) {  // formatting only (Spark rejects them for parsing)
    switch (c) {
      case 'Q': case 'q': return at_most(4, Kind::kQuarter);
      case 'E': return at_most(4, Kind::kDayOfWeek);
      case 'F': return at_most(1, Kind::kAlignedDayOfWeek);
      default: break;
    }
  }
  return CharacterError(pattern, c);
}

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void AppendPadded(int64_t v, int width, std::string* out) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  if (v < 0) out->push_back('-');
  for (int k = static_cast<int>(digits.size()); k < width; ++k) out->push_back('0');
  out->append(digits);
}

// Offsets as Java prints them. colon: "+HH:MM"; minutes: 0 = only when non-zero, 1 = always;
// seconds: only when non-zero (when allowed); zero: the text for a zero offset ("" = digits).
void AppendOffset(int32_t offset, bool colon, bool always_minutes, bool allow_seconds, const char* zero,
                  std::string* out) {
  if (offset == 0 && *zero) {
    out->append(zero);
    return;
  }
  int32_t a = offset < 0 ? -offset : offset;
  int h = a / 3600, m = a / 60 % 60, s = a % 60;
  out->push_back(offset < 0 ? '-' : '+');
  AppendPadded(h, 2, out);
  if (always_minutes || m != 0 || (allow_seconds && s != 0)) {
    if (colon) out->push_back(':');
    AppendPadded(m, 2, out);
  }
  if (allow_seconds && s != 0) {
    if (colon) out->push_back(':');
    AppendPadded(s, 2, out);
  }
}

// "GMT", "GMT+8", "GMT+5:30" (short) or "GMT+08:00" (full).
void AppendLocalizedOffset(int32_t offset, bool full, std::string* out) {
  out->append("GMT");
  if (offset == 0) return;
  int32_t a = offset < 0 ? -offset : offset;
  int h = a / 3600, m = a / 60 % 60, s = a % 60;
  out->push_back(offset < 0 ? '-' : '+');
  AppendPadded(h, full ? 2 : 1, out);
  if (full || m != 0 || s != 0) {
    out->push_back(':');
    AppendPadded(m, 2, out);
  }
  if (s != 0) {
    out->push_back(':');
    AppendPadded(s, 2, out);
  }
}

// Parsed values before they are combined into a date and time.
struct State {
  std::optional<int64_t> year, month, day, day_of_year, hour, clock_hour_ampm, hour_ampm, minute, second;
  int64_t nanos = 0;
  bool short_year = false;
  std::optional<bool> pm, bc;
  bool has_offset = false;
  int32_t offset = 0;
  const columnar::TimeZone* zone = nullptr;
};

class Parser {
 public:
  Parser(const std::vector<Field>& fields, std::string_view text) : fields_(fields), text_(text) {}

  bool Run(State* st) {
    size_t pos = 0;
    if (!Range(0, fields_.size(), &pos, st)) return false;
    return pos == text_.size();
  }

 private:
  // Parses fields [begin, end); optional sections that do not fit are skipped.
  bool Range(size_t begin, size_t end, size_t* pos, State* st) {
    for (size_t k = begin; k < end; ++k) {
      const Field& f = fields_[k];
      if (f.kind == Kind::kOptionalStart) {
        size_t close = MatchingEnd(k);
        size_t p = *pos;
        State copy = *st;
        if (Range(k + 1, close, &p, &copy)) {
          *pos = p;
          *st = copy;
        }
        k = close;
        continue;
      }
      if (f.kind == Kind::kOptionalEnd) continue;
      if (!One(k, pos, st)) return false;
    }
    return true;
  }

  size_t MatchingEnd(size_t k) const {
    int depth = 0;
    for (size_t j = k; j < fields_.size(); ++j) {
      if (fields_[j].kind == Kind::kOptionalStart) ++depth;
      if (fields_[j].kind == Kind::kOptionalEnd && --depth == 0) return j;
    }
    return fields_.size();
  }

  static bool IsNumeric(const Field& f) {
    switch (f.kind) {
      case Kind::kYear: case Kind::kDayOfYear: case Kind::kDay: case Kind::kClockHourOfAmPm: case Kind::kHourOfAmPm:
      case Kind::kClockHourOfDay: case Kind::kHourOfDay: case Kind::kMinute: case Kind::kSecond: case Kind::kFraction:
        return true;
      case Kind::kMonth: return f.count <= 2;
      default: return false;
    }
  }

  // Digits the numeric fields right after field k need (Java's adjacent value parsing), so
  // `yyyyMMdd` splits "20240305".
  size_t Reserved(size_t k) const {
    size_t n = 0;
    for (size_t j = k + 1; j < fields_.size() && IsNumeric(fields_[j]); ++j) n += static_cast<size_t>(fields_[j].count);
    return n;
  }

  bool Number(size_t k, size_t min, size_t max, size_t* pos, int64_t* v) {
    size_t run = 0;
    while (*pos + run < text_.size() && run < 18 && text_[*pos + run] >= '0' && text_[*pos + run] <= '9') ++run;
    size_t reserve = Reserved(k);
    size_t take = std::min(max, run > reserve ? run - reserve : 0);
    if (take < min) take = std::min(min, run);
    if (take < min || take == 0) return false;
    *v = 0;
    for (size_t j = 0; j < take; ++j) *v = *v * 10 + (text_[*pos + j] - '0');
    *pos += take;
    return true;
  }

  // A numeric field: `count` 1 takes 1 or more digits; more letters take exactly that many.
  bool Value(size_t k, size_t* pos, std::optional<int64_t>* out) {
    const Field& f = fields_[k];
    auto n = static_cast<size_t>(f.count);
    int64_t v = 0;
    bool ok = n == 1 ? Number(k, 1, 18, pos, &v) : Number(k, n, n, pos, &v);
    if (ok) *out = v;
    return ok;
  }

  bool Word(std::string_view word, size_t* pos) {
    if (text_.size() - *pos < word.size() || strncasecmp(text_.data() + *pos, word.data(), word.size()) != 0) {
      return false;
    }
    *pos += word.size();
    return true;
  }

  // The index of the first of `names` (truncated to `len` characters when len > 0) at *pos.
  template <size_t N>
  std::optional<int> Name(const char* const (&names)[N], size_t len, size_t* pos) {
    for (size_t i = 0; i < N; ++i) {
      std::string_view w(names[i]);
      if (len > 0) w = w.substr(0, len);
      if (Word(w, pos)) return static_cast<int>(i);
    }
    return std::nullopt;
  }

  bool Digits2(size_t* pos, int* v) {
    if (text_.size() - *pos < 2 || !isdigit(static_cast<unsigned char>(text_[*pos])) ||
        !isdigit(static_cast<unsigned char>(text_[*pos + 1]))) {
      return false;
    }
    *v = (text_[*pos] - '0') * 10 + (text_[*pos + 1] - '0');
    *pos += 2;
    return true;
  }

  // "+HH[[:]MM[[:]SS]]" with Java's shapes: colon required or not; minutes required or optional.
  bool Offset(bool colon, bool need_minutes, bool allow_seconds, size_t* pos, int32_t* out) {
    if (*pos >= text_.size() || (text_[*pos] != '+' && text_[*pos] != '-')) return false;
    int sign = text_[*pos] == '-' ? -1 : 1;
    size_t p = *pos + 1;
    int h = 0, m = 0, s = 0;
    if (!Digits2(&p, &h)) return false;
    auto part = [&](int* v) {
      size_t q = p;
      if (colon && (q >= text_.size() || text_[q++] != ':')) return false;
      if (!Digits2(&q, v)) return false;
      p = q;
      return true;
    };
    bool has_m = part(&m);
    if (need_minutes && !has_m) return false;
    if (has_m && allow_seconds) part(&s);
    if (h > 18 || m > 59 || s > 59) return false;
    *out = sign * (h * 3600 + m * 60 + s);
    *pos = p;
    return true;
  }

  bool ZoneText(size_t* pos, State* st) {
    size_t end = *pos;
    while (end < text_.size() && (isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '/' ||
                                  text_[end] == '_' || text_[end] == '+' || text_[end] == '-' || text_[end] == ':')) {
      ++end;
    }
    if (end == *pos) return false;
    auto zone = columnar::FindTimeZone(text_.substr(*pos, end - *pos));
    if (!zone.ok()) return false;
    st->zone = *zone;
    *pos = end;
    return true;
  }

  // An offset as Offset reads it, kept in *st.
  bool OffsetInto(bool colon, bool need_minutes, bool allow_seconds, size_t* pos, State* st) {
    int32_t offset = 0;
    if (!Offset(colon, need_minutes, allow_seconds, pos, &offset)) return false;
    st->has_offset = true;
    st->offset = offset;
    return true;
  }

  static bool ZeroOffset(State* st) {
    st->has_offset = true;
    st->offset = 0;
    return true;
  }

  bool One(size_t k, size_t* pos, State* st) {
    const Field& f = fields_[k];
    const int c = f.count;
    switch (f.kind) {
      case Kind::kLiteral: return Word(f.text, pos);
      case Kind::kEra: {
        static const char* const kShort[] = {"BC", "AD"};
        static const char* const kFull[] = {"Before Christ", "Anno Domini"};
        auto e = c == 4 ? Name(kFull, 0, pos) : Name(kShort, 0, pos);
        if (e) st->bc = *e == 0;
        return e.has_value();
      }
      case Kind::kYear: {
        int64_t v = 0;
        if (c == 2) {
          if (!Number(k, 2, 2, pos, &v)) return false;
          st->short_year = true;
        } else if (!Number(k, static_cast<size_t>(c), 10, pos, &v)) {
          return false;
        }
        st->year = v;
        return true;
      }
      case Kind::kDayOfYear:
        if (c == 2) {  // Java: 'DD' reads two or three digits
          int64_t v = 0;
          if (!Number(k, 2, 3, pos, &v)) return false;
          st->day_of_year = v;
          return true;
        }
        return Value(k, pos, &st->day_of_year);
      case Kind::kMonth: {
        if (c <= 2) return Value(k, pos, &st->month);
        auto m = Name(kMonthNames, c == 3 ? 3 : 0, pos);
        if (m) st->month = *m + 1;
        return m.has_value();
      }
      case Kind::kDay: return Value(k, pos, &st->day);
      case Kind::kAmPm: {
        static const char* const kAmPm[] = {"AM", "PM"};
        auto a = Name(kAmPm, 0, pos);
        if (a) st->pm = *a == 1;
        return a.has_value();
      }
      case Kind::kClockHourOfAmPm: return Value(k, pos, &st->clock_hour_ampm);
      case Kind::kHourOfAmPm: return Value(k, pos, &st->hour_ampm);
      case Kind::kClockHourOfDay: {
        std::optional<int64_t> v;
        if (!Value(k, pos, &v) || *v < 1 || *v > 24) return false;
        st->hour = *v % 24;
        return true;
      }
      case Kind::kHourOfDay: return Value(k, pos, &st->hour);
      case Kind::kMinute: return Value(k, pos, &st->minute);
      case Kind::kSecond: return Value(k, pos, &st->second);
      case Kind::kFraction: {
        size_t run = 0;
        while (*pos + run < text_.size() && run < static_cast<size_t>(c) &&
               isdigit(static_cast<unsigned char>(text_[*pos + run]))) {
          ++run;
        }
        if (run == 0) return false;
        int64_t nanos = 0;
        for (size_t j = 0; j < 9; ++j) nanos = nanos * 10 + (j < run ? text_[*pos + j] - '0' : 0);
        st->nanos = nanos;
        *pos += run;
        return true;
      }
      case Kind::kZoneId:
      case Kind::kZoneName: return ZoneText(pos, st);
      case Kind::kOffsetLocalized: {
        if (!Word("GMT", pos)) return false;
        if (*pos < text_.size() && (text_[*pos] == '+' || text_[*pos] == '-')) {
          return OffsetInto(true, c == 4, true, pos, st);
        }
        return ZeroOffset(st);
      }
      case Kind::kOffsetX:
      case Kind::kOffsetLowerX: {
        if (f.kind == Kind::kOffsetX && *pos < text_.size() && (text_[*pos] == 'Z' || text_[*pos] == 'z')) {
          ++*pos;
          return ZeroOffset(st);
        }
        bool colon = c == 3 || c == 5;
        return OffsetInto(colon, c > 1, c >= 4, pos, st);
      }
      case Kind::kOffsetZ:
        if (c == 4) {
          if (!Word("GMT", pos)) return false;
          if (*pos < text_.size() && (text_[*pos] == '+' || text_[*pos] == '-')) {
            return OffsetInto(true, true, true, pos, st);
          }
          return ZeroOffset(st);
        }
        if (c == 5 && *pos < text_.size() && text_[*pos] == 'Z') {
          ++*pos;
          return ZeroOffset(st);
        }
        return OffsetInto(c == 5, true, c == 5, pos, st);
      default: return false;  // E F Q q are rejected when compiling for parsing
    }
  }

  const std::vector<Field>& fields_;
  std::string_view text_;
};

// Combines the parsed fields; false when they name no valid date and time.
bool Resolve(const State& st, DatetimePattern::Parsed* out) {
  int64_t year = st.year.value_or(1970);
  if (st.short_year) year += 2000;
  if (st.bc.value_or(false)) year = 1 - year;
  if (year < -kMaxYear || year > kMaxYear) return false;
  int64_t days = 0;
  if (st.day_of_year && !st.month && !st.day) {
    int64_t jan1 = columnar::DaysFromCivil(year, 1, 1);
    int64_t len = columnar::DaysFromCivil(year + 1, 1, 1) - jan1;
    if (*st.day_of_year < 1 || *st.day_of_year > len) return false;
    days = jan1 + *st.day_of_year - 1;
  } else {
    int64_t month = st.month.value_or(1), day = st.day.value_or(1);
    if (month < 1 || month > 12 || day < 1 || day > 31) return false;
    if (!columnar::IsValidCivil(year, static_cast<int>(month), static_cast<int>(day))) return false;
    days = columnar::DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
    if (st.day_of_year && days - columnar::DaysFromCivil(year, 1, 1) + 1 != *st.day_of_year) return false;
  }
  int64_t hour = 0;
  const bool pm = st.pm.value_or(false);  // no am-pm field: the morning (Spark)
  if (st.hour) {
    hour = *st.hour;
  } else if (st.clock_hour_ampm) {
    if (*st.clock_hour_ampm < 1 || *st.clock_hour_ampm > 12) return false;
    hour = *st.clock_hour_ampm % 12 + (pm ? 12 : 0);
  } else if (st.hour_ampm) {
    if (*st.hour_ampm > 11) return false;
    hour = *st.hour_ampm + (pm ? 12 : 0);
  }
  int64_t minute = st.minute.value_or(0), second = st.second.value_or(0);
  if (hour > 23 || minute > 59 || second > 59) return false;
  out->local_micros = days * kMicrosPerDay + ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + st.nanos / 1000;
  out->has_offset = st.has_offset;
  out->offset_seconds = st.offset;
  out->zone = st.zone;
  return true;
}

}  // namespace

Result<DatetimePattern> DatetimePattern::Compile(std::string_view p, bool parsing) {
  DatetimePattern out;
  out.pattern_.assign(p);
  auto literal = [&](std::string_view s) {
    if (out.fields_.empty() || out.fields_.back().kind != Kind::kLiteral) {
      out.fields_.push_back({Kind::kLiteral, 0, {}});
    }
    out.fields_.back().text.append(s);
  };
  int depth = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (IsLetter(c)) {
      size_t j = i;
      while (j < p.size() && p[j] == c) ++j;
      const int count = static_cast<int>(j - i);
      ASSIGN_OR_RETURN(Kind kind, LetterKind(p, c, count, parsing));
      out.fields_.push_back({kind, count, {}});
      i = j - 1;
    } else if (c == '\'') {
      if (i + 1 < p.size() && p[i + 1] == '\'') {  // '' is one quote
        literal("'");
        ++i;
        continue;
      }
      std::string text;
      size_t j = i + 1;
      for (;; ++j) {
        if (j >= p.size()) {
          return Status::InvalidArgument("[INVALID_DATETIME_PATTERN] Pattern ends without closing quote: '" +
                                         std::string(p) + "'");
        }
        if (p[j] != '\'') {
          text.push_back(p[j]);
        } else if (j + 1 < p.size() && p[j + 1] == '\'') {
          text.push_back('\'');
          ++j;
        } else {
          break;
        }
      }
      literal(text);
      i = j;
    } else if (c == '[') {
      ++depth;
      out.fields_.push_back({Kind::kOptionalStart, 0, {}});
    } else if (c == ']') {
      if (depth-- == 0) {
        return Status::InvalidArgument("[INVALID_DATETIME_PATTERN] Pattern has ']' without previous '[': '" +
                                       std::string(p) + "'");
      }
      out.fields_.push_back({Kind::kOptionalEnd, 0, {}});
    } else if (c == '{' || c == '}' || c == '#') {
      return CharacterError(p, c);
    } else {
      literal(std::string_view(&p[i], 1));
    }
  }
  while (depth-- > 0) out.fields_.push_back({Kind::kOptionalEnd, 0, {}});
  return out;
}

Result<std::shared_ptr<const DatetimePattern>> DatetimePattern::Get(std::string_view pattern, bool parsing) {
  static std::mutex mu;
  static std::map<std::pair<std::string, bool>, std::shared_ptr<const DatetimePattern>> cache;
  std::pair<std::string, bool> key(std::string(pattern), parsing);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  ASSIGN_OR_RETURN(DatetimePattern compiled, Compile(pattern, parsing));
  auto shared = std::make_shared<const DatetimePattern>(std::move(compiled));
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(std::move(key), shared);
  return shared;
}

Status DatetimePattern::Format(int64_t local_micros, int32_t offset, const columnar::TimeZone& zone,
                               std::string* out) const {
  const int64_t days = FloorDiv(local_micros, kMicrosPerDay);
  const int64_t tod = FloorMod(local_micros, kMicrosPerDay);
  const columnar::CivilDate civil = columnar::CivilFromDays(days);
  const int64_t hour = tod / (3600 * kMicrosPerSecond);
  const int64_t weekday = FloorMod(days + 3, 7);  // 0 = Monday
  for (const Field& f : fields_) {
    const int c = f.count;
    switch (f.kind) {
      case Kind::kLiteral: out->append(f.text); break;
      case Kind::kEra:
        out->append(civil.year > 0 ? (c == 4 ? "Anno Domini" : "AD") : (c == 4 ? "Before Christ" : "BC"));
        break;
      case Kind::kYear: {
        int64_t y = civil.year > 0 ? civil.year : 1 - civil.year;  // year of era
        if (c == 2) AppendPadded(y % 100, 2, out);
        else AppendPadded(y, c, out);
        break;
      }
      case Kind::kDayOfYear: AppendPadded(days - columnar::DaysFromCivil(civil.year, 1, 1) + 1, c, out); break;
      case Kind::kMonth:
        if (c <= 2) AppendPadded(civil.month, c, out);
        else out->append(std::string_view(kMonthNames[civil.month - 1]).substr(0, c == 3 ? 3 : std::string_view::npos));
        break;
      case Kind::kDay: AppendPadded(civil.day, c, out); break;
      case Kind::kQuarter: {
        int q = (civil.month - 1) / 3 + 1;
        if (c <= 2) AppendPadded(q, c, out);
        else if (c == 3) out->append("Q").append(std::to_string(q));
        else out->append(kQuarterNames[q - 1]);
        break;
      }
      case Kind::kDayOfWeek:
        out->append(std::string_view(kDayNames[weekday]).substr(0, c == 4 ? std::string_view::npos : 3));
        break;
      case Kind::kAlignedDayOfWeek: AppendPadded((civil.day - 1) % 7 + 1, c, out); break;
      case Kind::kAmPm: out->append(hour < 12 ? "AM" : "PM"); break;
      case Kind::kClockHourOfAmPm: AppendPadded(hour % 12 == 0 ? 12 : hour % 12, c, out); break;
      case Kind::kHourOfAmPm: AppendPadded(hour % 12, c, out); break;
      case Kind::kClockHourOfDay: AppendPadded(hour == 0 ? 24 : hour, c, out); break;
      case Kind::kHourOfDay: AppendPadded(hour, c, out); break;
      case Kind::kMinute: AppendPadded(tod / (60 * kMicrosPerSecond) % 60, c, out); break;
      case Kind::kSecond: AppendPadded(tod / kMicrosPerSecond % 60, c, out); break;
      case Kind::kFraction: {
        std::string nanos;
        AppendPadded(tod % kMicrosPerSecond * 1000, 9, &nanos);
        out->append(nanos.substr(0, static_cast<size_t>(c)));
        break;
      }
      case Kind::kZoneId: out->append(zone.name()); break;
      case Kind::kZoneName:
        if (!zone.is_fixed()) {
          return Status::NotSupported("datetime pattern letter 'z' (a zone's name) for the region zone '" +
                                      zone.name() + "' in '" + pattern_ + "'; use 'VV' (zone ID) or 'XXX' (offset)");
        }
        out->append(zone.name());
        break;
      case Kind::kOffsetLocalized: AppendLocalizedOffset(offset, c == 4, out); break;
      case Kind::kOffsetX:
      case Kind::kOffsetLowerX: {
        const char* zero = f.kind == Kind::kOffsetX ? "Z" : "";
        AppendOffset(offset, c == 3 || c == 5, c > 1, c >= 4, zero, out);
        break;
      }
      case Kind::kOffsetZ:
        if (c == 4) AppendLocalizedOffset(offset, true, out);
        else if (c == 5) AppendOffset(offset, true, true, true, "Z", out);
        else AppendOffset(offset, false, true, false, "", out);
        break;
      case Kind::kOptionalStart:
      case Kind::kOptionalEnd: break;
    }
  }
  return Status::OK();
}

bool DatetimePattern::Parse(std::string_view text, Parsed* out) const {
  State st;
  if (!Parser(fields_, text).Run(&st)) return false;
  return Resolve(st, out);
}

}  // namespace shoal::expr
