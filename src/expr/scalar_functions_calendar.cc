// Calendar functions as Spark defines them: add_months, last_day, next_day, months_between,
// trunc(date, fmt), dayname, monthname, weekday, unix_date/date_from_unix_date,
// unix_seconds/millis/micros, timestamp_seconds/millis/micros, make_timestamp. TIMESTAMP is
// microseconds since the epoch in UTC (no session time zone yet).
#include <strings.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::CivilFromDays;
using columnar::DaysFromCivil;
using columnar::FloorDiv;
using columnar::FloorMod;
using columnar::kMicrosPerDay;
using columnar::TypeId;
using columnar::VectorPtr;

namespace {

TypePtr Date() { return columnar::Date(); }
TypePtr Ts() { return columnar::Timestamp(); }
TypePtr Str() { return columnar::String(); }

int DaysInMonth(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

Result<int32_t> ToDate32(int64_t days) {
  if (days < INT32_MIN || days > INT32_MAX) return Status::OutOfRange("[DATETIME_OVERFLOW] date out of range");
  return static_cast<int32_t>(days);
}

// add_months(date, n): the day is clamped to the last day of the target month.
Status AddMonthsKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    auto c = CivilFromDays(FixedArg<int32_t>(call, 0, i));
    int64_t m = c.year * 12 + (c.month - 1) + FixedArg<int32_t>(call, 1, i);
    int64_t y = FloorDiv(m, 12);
    int mon = static_cast<int>(FloorMod(m, 12)) + 1;
    int d = std::min(static_cast<int>(c.day), DaysInMonth(y, mon));
    ASSIGN_OR_RETURN(*r, ToDate32(DaysFromCivil(y, mon, d)));
    return RowStatus::kOk;
  }, out);
}

Status LastDayKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    auto c = CivilFromDays(FixedArg<int32_t>(call, 0, i));
    *r = static_cast<int32_t>(DaysFromCivil(c.year, c.month, DaysInMonth(c.year, c.month)));
    return RowStatus::kOk;
  }, out);
}

// Day of week from a name or its 2- or 3-letter prefix: 0 = Monday .. 6 = Sunday, or -1.
int ParseWeekday(std::string_view s) {
  static const char* kNames[] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  for (int k = 0; k < 7; ++k) {
    size_t n = std::string_view(kNames[k]).size();
    if ((s.size() == 2 || s.size() == 3 || s.size() == n) && strncasecmp(s.data(), kNames[k], s.size()) == 0) {
      return k;
    }
  }
  return -1;
}

int64_t Weekday(int64_t days) { return FloorMod(days + 3, 7); }  // 0 = Monday

Status NextDayKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    std::string_view name = StrArg(call, 1, i);
    int want = ParseWeekday(name);
    if (want < 0) {
      return Status::InvalidArgument("[ILLEGAL_DAY_OF_WEEK] Illegal input for day of week: " + std::string(name));
    }
    int64_t d = FixedArg<int32_t>(call, 0, i);
    int64_t ahead = FloorMod(want - Weekday(d), 7);
    ASSIGN_OR_RETURN(*r, ToDate32(d + (ahead == 0 ? 7 : ahead)));
    return RowStatus::kOk;
  }, out);
}

// months_between(t1, t2[, roundOff]): whole months when the days of month match or both are
// month ends, else the day and time difference over 31-day months; rounded to 8 digits unless
// roundOff is false.
Status MonthsBetweenKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    // Wall-clock times in the session zone (the arguments are TIMESTAMPs).
    int64_t t1 = call.Zone().ToLocal(FixedArg<int64_t>(call, 0, i));
    int64_t t2 = call.Zone().ToLocal(FixedArg<int64_t>(call, 1, i));
    int64_t d1 = FloorDiv(t1, kMicrosPerDay), d2 = FloorDiv(t2, kMicrosPerDay);
    auto c1 = CivilFromDays(d1), c2 = CivilFromDays(d2);
    double months = static_cast<double>((c1.year - c2.year) * 12 + (c1.month - c2.month));
    bool end1 = c1.day == DaysInMonth(c1.year, c1.month), end2 = c2.day == DaysInMonth(c2.year, c2.month);
    if (c1.day == c2.day || (end1 && end2)) {
      *r = months;
      return RowStatus::kOk;
    }
    double secs = static_cast<double>(c1.day - c2.day) * 86400 +
                  static_cast<double>(FloorMod(t1, kMicrosPerDay) - FloorMod(t2, kMicrosPerDay)) / 1e6;
    double v = months + secs / (31 * 86400.0);
    bool round = call.num_args < 3 || FixedArg<uint8_t>(call, 2, i) != 0;
    *r = round ? std::round(v * 1e8) / 1e8 : v;
    return RowStatus::kOk;
  }, out);
}

// trunc(date, fmt): YEAR/YYYY/YY, QUARTER, MONTH/MM/MON, WEEK (to Monday); NULL otherwise.
Status TruncKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    int64_t d = FixedArg<int32_t>(call, 0, i);
    std::string_view f = StrArg(call, 1, i);
    auto is = [&](const char* n) { return f.size() == std::strlen(n) && strncasecmp(f.data(), n, f.size()) == 0; };
    auto c = CivilFromDays(d);
    if (is("year") || is("yyyy") || is("yy")) *r = static_cast<int32_t>(DaysFromCivil(c.year, 1, 1));
    else if (is("quarter")) *r = static_cast<int32_t>(DaysFromCivil(c.year, (c.month - 1) / 3 * 3 + 1, 1));
    else if (is("month") || is("mm") || is("mon")) *r = static_cast<int32_t>(DaysFromCivil(c.year, c.month, 1));
    else if (is("week")) *r = static_cast<int32_t>(d - Weekday(d));
    else return RowStatus::kNull;
    return RowStatus::kOk;
  }, out);
}

template <bool kMonth>
Status NameKernel(const KernelCall& call, VectorPtr* out) {
  static const char* kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    int64_t d = FixedArg<int32_t>(call, 0, i);
    s->assign(kMonth ? kMonths[CivilFromDays(d).month - 1] : kDays[Weekday(d)]);
    return RowStatus::kOk;
  }, out);
}

Status WeekdayKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = static_cast<int32_t>(Weekday(FixedArg<int32_t>(call, 0, i)));
    return RowStatus::kOk;
  }, out);
}

Status UnixDateKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = FixedArg<int32_t>(call, 0, i);
    return RowStatus::kOk;
  }, out);
}

// unix_seconds/millis/micros: TIMESTAMP to whole units since the epoch (floored).
template <int64_t kUnit>
Status UnixUnitKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    *r = FloorDiv(FixedArg<int64_t>(call, 0, i), kUnit);
    return RowStatus::kOk;
  }, out);
}

// timestamp_seconds/millis/micros: units since the epoch to TIMESTAMP.
template <int64_t kUnit>
Status TimestampUnitKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    if (call.arg(0).type()->id() == TypeId::kDouble) {
      double v = FixedArg<double>(call, 0, i) * static_cast<double>(kUnit);
      if (!(v > -9.2e18 && v < 9.2e18)) return Status::OutOfRange("[ARITHMETIC_OVERFLOW] timestamp out of range");
      *r = static_cast<int64_t>(v);
      return RowStatus::kOk;
    }
    if (__builtin_mul_overflow(FixedArg<int64_t>(call, 0, i), kUnit, r)) {
      return Status::OutOfRange("[ARITHMETIC_OVERFLOW] Overflow in " + std::string(call.name));
    }
    return RowStatus::kOk;
  }, out);
}

// make_timestamp(year, month, day, hour, min, sec[, timezone]): sec may carry microseconds; an
// invalid field is an error (ANSI mode); sec = 60 rolls over to the next minute. A TIMESTAMP
// result is that wall clock in `timezone` (default: the session zone); TIMESTAMP_NTZ
// (make_timestamp_ntz) is the wall clock itself.
Status MakeTimestampKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    int64_t f[5];
    for (size_t k = 0; k < 5; ++k) f[k] = FixedArg<int32_t>(call, k, i);
    double sec = FixedArg<double>(call, 5, i);
    auto micros = static_cast<int64_t>(std::llround(sec * 1e6));
    if (f[1] < 1 || f[1] > 12 || !columnar::IsValidCivil(f[0], static_cast<int>(f[1]), static_cast<int>(f[2])) ||
        f[3] < 0 || f[3] > 23 || f[4] < 0 || f[4] > 59 || micros < 0 || micros > 60'000'000 ||
        (micros > 59'999'999 && micros != 60'000'000)) {
      return Status::OutOfRange("[DATETIME_FIELD_OUT_OF_BOUNDS] invalid make_timestamp(" + std::to_string(f[0]) + ", " +
                                std::to_string(f[1]) + ", " + std::to_string(f[2]) + ", " + std::to_string(f[3]) +
                                ", " + std::to_string(f[4]) + ", " + std::to_string(sec) + ")");
    }
    int64_t days = DaysFromCivil(f[0], static_cast<int>(f[1]), static_cast<int>(f[2]));
    *r = days * kMicrosPerDay + (f[3] * 3600 + f[4] * 60) * int64_t{1'000'000} + micros;
    if (call.result_type->id() != columnar::TypeId::kTimestamp) return RowStatus::kOk;
    const columnar::TimeZone* zone = &call.Zone();
    if (call.num_args == 7) {
      auto named = columnar::FindTimeZone(StrArg(call, 6, i));
      if (!named.ok()) return named.status().WithContext(std::string(call.name));
      zone = *named;
    }
    *r = zone->ToUtc(*r);
    return RowStatus::kOk;
  }, out);
}

bool ResolveTsUnit(const std::vector<TypePtr>& a, Overload* o, ScalarKernel k) {
  if (a.size() == 1 && a[0]->IsFloating()) return Fixed(a, {columnar::Float64()}, Ts(), k, o);
  return Fixed(a, {columnar::Int64()}, Ts(), k, o);
}

}  // namespace

void RegisterCalendarFunctions(FunctionRegistry* r) {
  r->Add({"add_months", "add_months(DATE, INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date(), columnar::Int32()}, Date(), AddMonthsKernel, o);
          }});
  r->Add({"last_day", "last_day(DATE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date()}, Date(), LastDayKernel, o);
          }});
  r->Add({"next_day", "next_day(DATE, STRING day_of_week)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date(), Str()}, Date(), NextDayKernel, o);
          }});
  r->Add({"months_between", "months_between(TIMESTAMP, TIMESTAMP[, BOOLEAN roundOff])",
          [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Ts(), Ts()}, columnar::Float64(), MonthsBetweenKernel, o) ||
                   Fixed(a, {Ts(), Ts(), columnar::Boolean()}, columnar::Float64(), MonthsBetweenKernel, o);
          }});
  r->Add({"trunc", "trunc(DATE, STRING fmt)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date(), Str()}, Date(), TruncKernel, o);
          }});
  r->Add({"dayname", "dayname(DATE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date()}, Str(), NameKernel<false>, o);
          }});
  r->Add({"monthname", "monthname(DATE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date()}, Str(), NameKernel<true>, o);
          }});
  r->Add({"weekday", "weekday(DATE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date()}, columnar::Int32(), WeekdayKernel, o);
          }});
  r->Add({"unix_date", "unix_date(DATE)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Date()}, columnar::Int32(), UnixDateKernel, o);
          }});
  r->Add({"date_from_unix_date", "date_from_unix_date(INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {columnar::Int32()}, Date(), UnixDateKernel, o);
          }});
  r->Add({"unix_seconds", "unix_seconds(TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Ts()}, columnar::Int64(), UnixUnitKernel<1'000'000>, o);
          }});
  r->Add({"unix_millis", "unix_millis(TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Ts()}, columnar::Int64(), UnixUnitKernel<1'000>, o);
          }});
  r->Add({"unix_micros", "unix_micros(TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Ts()}, columnar::Int64(), UnixUnitKernel<1>, o);
          }});
  r->Add({"timestamp_seconds", "timestamp_seconds(NUMERIC)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveTsUnit(a, o, TimestampUnitKernel<1'000'000>);
          }});
  r->Add({"timestamp_millis", "timestamp_millis(BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveTsUnit(a, o, TimestampUnitKernel<1'000>);
          }});
  r->Add({"timestamp_micros", "timestamp_micros(BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return ResolveTsUnit(a, o, TimestampUnitKernel<1>);
          }});
  auto make_ltz = [](const std::vector<TypePtr>& a, Overload* o) {
    auto i = columnar::Int32();
    if (a.size() == 7) {
      return Fixed(a, {i, i, i, i, i, columnar::Float64(), columnar::String()}, Ts(), MakeTimestampKernel, o);
    }
    return Fixed(a, {i, i, i, i, i, columnar::Float64()}, Ts(), MakeTimestampKernel, o);
  };
  r->Add({"make_timestamp", "make_timestamp(INT, INT, INT, INT, INT, DOUBLE[, STRING timezone])", make_ltz});
  r->Add({"make_timestamp_ltz", "make_timestamp_ltz(INT, INT, INT, INT, INT, DOUBLE[, STRING timezone])", make_ltz});
  r->Add({"make_timestamp_ntz", "make_timestamp_ntz(INT, INT, INT, INT, INT, DOUBLE)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            auto i = columnar::Int32();
            return Fixed(a, {i, i, i, i, i, columnar::Float64()}, columnar::TimestampNtz(), MakeTimestampKernel, o);
          }});
}

}  // namespace shoal::expr
