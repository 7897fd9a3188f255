#include "columnar/time_zone.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "columnar/datetime.h"
#include "io/file_system.h"

namespace shoal::columnar {

namespace {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int32_t kMaxFixedOffset = 18 * 3600;  // Java's ZoneOffset range
constexpr int64_t kMaxTzifBytes = 1 << 20;      // real files are a few KiB

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Reads the POSIX TZ grammar from a string_view, left to right.
struct PosixReader {
  std::string_view s;
  size_t i = 0;
  bool AtEnd() const { return i >= s.size(); }
  char Peek() const { return AtEnd() ? '\0' : s[i]; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++i;
    return true;
  }
  bool Number(int max_digits, int* out) {
    int n = 0, v = 0;
    while (!AtEnd() && n < max_digits && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0'), ++n;
    *out = v;
    return n > 0;
  }
  // A zone abbreviation: 3+ letters, or <...> of letters, digits, '+' and '-'.
  bool Name() {
    size_t start = i;
    if (Eat('<')) {
      while (!AtEnd() && s[i] != '>') ++i;
      if (!Eat('>')) return false;
      return i - start >= 5;
    }
    while (!AtEnd() && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z'))) ++i;
    return i - start >= 3;
  }
  // [+|-]h[h[h]][:mm[:ss]] in seconds; `max_hours` bounds the hour.
  bool Time(int max_hours, int32_t* out) {
    bool neg = Eat('-');
    if (!neg) Eat('+');
    int h, m = 0, sec = 0;
    if (!Number(3, &h) || h > max_hours) return false;
    if (Eat(':') && (!Number(2, &m) || m > 59)) return false;
    if (Eat(':') && (!Number(2, &sec) || sec > 59)) return false;
    *out = (h * 3600 + m * 60 + sec) * (neg ? -1 : 1);
    return true;
  }
  bool Date(PosixTzRule::Date* d) {
    using Kind = PosixTzRule::Date::Kind;
    if (Eat('J')) {
      d->kind = Kind::kJulian1;
      if (!Number(3, &d->day) || d->day < 1 || d->day > 365) return false;
    } else if (Eat('M')) {
      d->kind = Kind::kMonthWeekDay;
      if (!Number(2, &d->month) || d->month < 1 || d->month > 12 || !Eat('.') || !Number(1, &d->week) ||
          d->week < 1 || d->week > 5 || !Eat('.') || !Number(1, &d->day) || d->day > 6)
        return false;
    } else {
      d->kind = Kind::kJulian0;
      if (!Number(3, &d->day) || d->day > 365) return false;
    }
    d->time = 7200;
    if (Eat('/') && !Time(167, &d->time)) return false;
    return true;
  }
};

// Days since the epoch of a rule date in `year`.
int64_t RuleDay(const PosixTzRule::Date& d, int64_t year) {
  using Kind = PosixTzRule::Date::Kind;
  const int64_t jan1 = DaysFromCivil(year, 1, 1);
  switch (d.kind) {
    case Kind::kJulian1: return jan1 + d.day - 1 + (IsLeap(year) && d.day >= 60 ? 1 : 0);
    case Kind::kJulian0: return jan1 + d.day;
    case Kind::kMonthWeekDay: {
      const int64_t first = DaysFromCivil(year, d.month, 1);
      const int64_t weekday = FloorMod(first + 4, 7);  // 1970-01-01 was a Thursday
      int64_t day = first + FloorMod(d.day - weekday, 7) + (d.week - 1) * 7;
      const int64_t next_month = d.month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, d.month + 1, 1);
      while (day >= next_month) day -= 7;
      return day;
    }
  }
  return jan1;
}

uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
int64_t Be64(const uint8_t* p) { return static_cast<int64_t>((uint64_t{Be32(p)} << 32) | Be32(p + 4)); }

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

}  // namespace

int32_t PosixTzRule::OffsetAt(int64_t utc_seconds) const {
  if (!has_dst) return std_offset;
  const int64_t year = CivilFromDays(FloorDiv(utc_seconds + std_offset, kSecondsPerDay)).year;
  // DST begins at `start` in standard time and ends at `end` in daylight time.
  const int64_t begin = RuleDay(start, year) * kSecondsPerDay + start.time - std_offset;
  const int64_t finish = RuleDay(end, year) * kSecondsPerDay + end.time - dst_offset;
  const bool dst = begin < finish ? utc_seconds >= begin && utc_seconds < finish
                                  : utc_seconds < finish || utc_seconds >= begin;  // southern hemisphere
  return dst ? dst_offset : std_offset;
}

Result<PosixTzRule> ParsePosixTz(std::string_view s) {
  PosixReader r{s};
  PosixTzRule rule;
  auto bad = [&] { return Status::InvalidArgument("malformed POSIX TZ string '" + std::string(s) + "'"); };
  int32_t west;
  if (!r.Name() || !r.Time(24, &west)) return bad();
  rule.std_offset = -west;
  if (!r.AtEnd()) {
    if (!r.Name()) return bad();
    rule.has_dst = true;
    rule.dst_offset = rule.std_offset + 3600;
    if (!r.AtEnd() && r.Peek() != ',') {
      if (!r.Time(24, &west)) return bad();
      rule.dst_offset = -west;
    }
    if (r.AtEnd()) {
      // No rule: POSIX leaves it to the implementation; the US rules, as most systems assume.
      rule.start = {PosixTzRule::Date::Kind::kMonthWeekDay, 0, 3, 2, 7200};
      rule.end = {PosixTzRule::Date::Kind::kMonthWeekDay, 0, 11, 1, 7200};
    } else if (!r.Eat(',') || !r.Date(&rule.start) || !r.Eat(',') || !r.Date(&rule.end)) {
      return bad();
    }
  }
  if (!r.AtEnd()) return bad();
  return rule;
}

TimeZone::TimeZone(std::string name, int32_t fixed_offset) : name_(std::move(name)), initial_(fixed_offset) {}

TimeZone::TimeZone(std::string name, std::vector<int64_t> transitions, std::vector<int32_t> offsets,
                   int32_t initial, std::unique_ptr<PosixTzRule> tail)
    : name_(std::move(name)),
      transitions_(std::move(transitions)),
      offsets_(std::move(offsets)),
      initial_(initial),
      tail_(std::move(tail)) {}

const TimeZone& TimeZone::Utc() {
  static const TimeZone utc("UTC", 0);
  return utc;
}

int32_t TimeZone::OffsetAtSeconds(int64_t t) const {
  if (transitions_.empty() || t >= transitions_.back()) {
    if (tail_) return tail_->OffsetAt(t);
    return transitions_.empty() ? initial_ : offsets_.back();
  }
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), t);
  if (it == transitions_.begin()) return initial_;
  return offsets_[static_cast<size_t>(it - transitions_.begin() - 1)];
}

int32_t TimeZone::OffsetAt(int64_t utc_micros) const {
  if (is_fixed()) return initial_;
  return OffsetAtSeconds(FloorDiv(utc_micros, kMicrosPerSecond));
}

int64_t TimeZone::ToLocal(int64_t utc_micros) const {
  return SaturatingAdd(utc_micros, int64_t{OffsetAt(utc_micros)} * kMicrosPerSecond);
}

int64_t TimeZone::ToUtc(int64_t local_micros) const {
  if (is_fixed()) return SaturatingAdd(local_micros, -int64_t{initial_} * kMicrosPerSecond);
  // Offsets are under a day, and transitions more than two days apart: the offsets a day before
  // and after are the candidates.
  const int64_t local = FloorDiv(local_micros, kMicrosPerSecond);
  const int32_t before = OffsetAtSeconds(local - kSecondsPerDay);
  const int32_t after = OffsetAtSeconds(local + kSecondsPerDay);
  int32_t offset = before;  // a gap: read the time with the offset before it, i.e. move it forward
  if (OffsetAtSeconds(local - before) != before && OffsetAtSeconds(local - after) == after) offset = after;
  return SaturatingAdd(local_micros, -int64_t{offset} * kMicrosPerSecond);
}

Result<std::unique_ptr<TimeZone>> ParseTzif(std::string name, std::string_view bytes) {
  auto bad = [&](const std::string& why) { return Status::Corruption("time zone file of '" + name + "': " + why); };
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  struct Counts {
    uint64_t isut, isstd, leap, time, type, chars;
  };
  auto header = [&](size_t at, Counts* c) {
    if (at + 44 > n || bytes.substr(at, 4) != "TZif") return false;
    const uint8_t* h = p + at + 20;
    *c = {Be32(h), Be32(h + 4), Be32(h + 8), Be32(h + 12), Be32(h + 16), Be32(h + 20)};
    return c->type >= 1 && c->type <= 256 && c->time <= 1000000 && c->chars <= 100000 && c->leap <= 100000 &&
           c->isut <= c->type && c->isstd <= c->type;
  };
  auto block_size = [](const Counts& c, int time_bytes) {
    return c.time * time_bytes + c.time + c.type * 6 + c.chars + c.leap * (time_bytes + 4) + c.isstd + c.isut;
  };
  Counts c;
  if (!header(0, &c)) return bad("no valid TZif header");
  const char version = bytes[4];
  size_t at = 44;
  int time_bytes = 4;
  if (version != '\0') {
    // Version 2+: skip the 32-bit block to the second header and its 64-bit data.
    at += block_size(c, 4);
    if (!header(at, &c)) return bad("no valid second TZif header");
    at += 44;
    time_bytes = 8;
  }
  if (at + block_size(c, time_bytes) > n) return bad("truncated");
  std::vector<int64_t> transitions(c.time);
  for (size_t i = 0; i < c.time; ++i) {
    const uint8_t* q = p + at + i * time_bytes;
    transitions[i] = time_bytes == 8 ? Be64(q) : static_cast<int32_t>(Be32(q));
    if (i && transitions[i] <= transitions[i - 1]) return bad("transitions out of order");
  }
  const uint8_t* type_index = p + at + c.time * time_bytes;
  const uint8_t* types = type_index + c.time;
  auto utoff = [&](size_t t) { return static_cast<int32_t>(Be32(types + t * 6)); };
  std::vector<int32_t> offsets(c.time);
  for (size_t i = 0; i < c.time; ++i) {
    if (type_index[i] >= c.type) return bad("local time type out of range");
    offsets[i] = utoff(type_index[i]);
  }
  for (size_t t = 0; t < c.type; ++t) {
    if (utoff(t) <= -90000 || utoff(t) >= 93600) return bad("UT offset out of range");
  }
  std::unique_ptr<PosixTzRule> tail;
  at += block_size(c, time_bytes);
  if (time_bytes == 8 && at < n) {
    const size_t close = bytes.find('\n', at + 1);
    if (bytes[at] != '\n' || close == std::string_view::npos) return bad("malformed footer");
    std::string_view footer = bytes.substr(at + 1, close - at - 1);
    if (!footer.empty()) {
      auto rule = ParsePosixTz(footer);
      if (!rule.ok()) return bad(rule.status().message());
      tail = std::make_unique<PosixTzRule>(*rule);
    }
  }
  const int32_t initial = utoff(0);
  if (transitions.empty() && !tail) return std::make_unique<TimeZone>(std::move(name), initial);
  return std::make_unique<TimeZone>(std::move(name), std::move(transitions), std::move(offsets), initial,
                                    std::move(tail));
}

bool ParseZoneOffset(std::string_view s, int32_t* seconds) {
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return false;
  const bool neg = s[0] == '-';
  s.remove_prefix(1);
  auto two = [&](size_t at, int* v) {
    if (at + 2 > s.size() || s[at] < '0' || s[at] > '9' || s[at + 1] < '0' || s[at + 1] > '9') return false;
    *v = (s[at] - '0') * 10 + (s[at + 1] - '0');
    return true;
  };
  int h = 0, m = 0, sec = 0;
  if (s.size() == 1) {
    if (s[0] < '0' || s[0] > '9') return false;
    h = s[0] - '0';
  } else if (!two(0, &h)) {
    return false;
  } else if (s.size() == 2) {
  } else if (s[2] == ':') {  // HH:mm[:ss]
    if (!two(3, &m) || (s.size() != 5 && (s.size() != 8 || s[5] != ':' || !two(6, &sec)))) return false;
  } else if (!two(2, &m) || (s.size() != 4 && (s.size() != 6 || !two(4, &sec)))) {  // HHmm[ss]
    return false;
  }
  if (m > 59 || sec > 59) return false;
  const int32_t total = h * 3600 + m * 60 + sec;
  if (total > kMaxFixedOffset) return false;
  *seconds = neg ? -total : total;
  return true;
}

std::string ZoneOffsetId(int32_t seconds) {
  if (seconds == 0) return "Z";
  const int32_t a = seconds < 0 ? -seconds : seconds;
  char buf[16];
  if (a % 60) {
    std::snprintf(buf, sizeof buf, "%c%02d:%02d:%02d", seconds < 0 ? '-' : '+', a / 3600, a / 60 % 60, a % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%c%02d:%02d", seconds < 0 ? '-' : '+', a / 3600, a / 60 % 60);
  }
  return buf;
}

namespace {

std::string ZoneInfoDir() {
  const char* dir = std::getenv("TZDIR");
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

// A region ID names a file under the zoneinfo directory: letters, digits and "/_+-", no "..".
bool IsRegionId(std::string_view name) {
  if (name.empty() || name.size() > 100 || name.front() == '/' || name.find("..") != std::string_view::npos)
    return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '/' ||
           ch == '_' || ch == '+' || ch == '-';
  });
}

Result<std::unique_ptr<TimeZone>> LoadZone(std::string_view name) {
  auto unknown = [&] {
    return Status::InvalidArgument("invalid time zone '" + std::string(name) +
                                   "': not a region ID (Area/City) or an offset (+|-)HH[:mm[:ss]]");
  };
  int32_t offset;
  if (ParseZoneOffset(name, &offset)) return std::make_unique<TimeZone>(ZoneOffsetId(offset), offset);
  if (name == "Z") return std::make_unique<TimeZone>("Z", 0);
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
        (name[prefix.size()] == '+' || name[prefix.size()] == '-')) {
      if (!ParseZoneOffset(name.substr(prefix.size()), &offset)) return unknown();
      std::string id = std::string(prefix) + (offset == 0 ? "" : ZoneOffsetId(offset));
      return std::make_unique<TimeZone>(std::move(id), offset);
    }
  }
  if (!IsRegionId(name)) return unknown();
  const std::string path = ZoneInfoDir() + "/" + std::string(name);
  auto fs = io::LocalFileSystem();
  auto info = fs->Stat(path);
  if (!info.ok() || info->is_dir || info->size > kMaxTzifBytes) return unknown();
  auto bytes = fs->ReadAll(path);
  if (!bytes.ok()) return unknown();
  auto zone = ParseTzif(std::string(name), *bytes);
  if (!zone.ok()) return unknown();
  return zone;
}

}  // namespace

Result<const TimeZone*> FindTimeZone(std::string_view name) {
  static std::mutex mu;
  static auto* cache = new std::map<std::string, std::unique_ptr<TimeZone>, std::less<>>();  // never freed
  if (name == "UTC") return &TimeZone::Utc();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache->find(name);
    if (it != cache->end()) return it->second.get();
  }
  ASSIGN_OR_RETURN(std::unique_ptr<TimeZone> zone, LoadZone(name));
  std::lock_guard<std::mutex> lock(mu);
  auto [it, inserted] = cache->emplace(std::string(name), std::move(zone));
  return it->second.get();
}

std::optional<int64_t> ParseTimestampInZone(std::string_view s, const TimeZone& zone) {
  std::string_view zone_text;
  auto local = ParseLocalTimestamp(s, &zone_text);
  if (!local) return std::nullopt;
  if (zone_text.empty()) return zone.ToUtc(*local);
  auto named = FindTimeZone(zone_text);
  if (!named.ok()) return std::nullopt;
  return (*named)->ToUtc(*local);
}

std::string DefaultTimeZoneName() {
  if (const char* tz = std::getenv("TZ"); tz && *tz) {
    std::string_view name = tz;
    if (name.front() == ':') name.remove_prefix(1);
    if (FindTimeZone(name).ok()) return std::string(name);
  }
  char buf[4096];
  const ssize_t len = ::readlink("/etc/localtime", buf, sizeof buf - 1);
  if (len > 0) {
    std::string_view target(buf, static_cast<size_t>(len));
    const size_t at = target.find("zoneinfo/");
    if (at != std::string_view::npos) {
      std::string_view name = target.substr(at + 9);
      if (FindTimeZone(name).ok()) return std::string(name);
    }
  }
  return "UTC";
}

}  // namespace shoal::columnar
