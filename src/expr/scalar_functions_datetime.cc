// Date and time functions on DATE (days) and TIMESTAMP/TIMESTAMP_NTZ (microseconds). Fields of a
// TIMESTAMP are those of its wall-clock time in the session zone (KernelCall::Zone); of a
// TIMESTAMP_NTZ, its own.
// dayofweek follows Spark (1 = Sunday .. 7 = Saturday); date_part('dow') follows DuckDB
// (0 = Sunday); week is the ISO-8601 week. date_part returns BIGINT ('epoch': whole seconds).
#include <strings.h>

#include <cmath>
#include <cstring>
#include <string>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "expr/coercion.h"
#include "expr/evaluate.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::FloorDiv;
using columnar::FloorMod;
using columnar::kMicrosPerDay;
using columnar::kMicrosPerSecond;
using columnar::TypeId;
using columnar::VectorPtr;

namespace {

enum class Field : uint8_t {
  kYear, kQuarter, kMonth, kWeek, kDay, kDayOfWeek, kDow, kIsoDow, kDayOfYear,
  kHour, kMinute, kSecond, kMillisecond, kMicrosecond, kEpoch, kInvalid,
};

Field ParseField(std::string_view s) {
  struct Name {
    const char* name;
    Field field;
  };
  static const Name kNames[] = {
      {"year", Field::kYear},           {"years", Field::kYear},          {"yyyy", Field::kYear},
      {"quarter", Field::kQuarter},     {"month", Field::kMonth},         {"months", Field::kMonth},
      {"mon", Field::kMonth},           {"week", Field::kWeek},           {"weeks", Field::kWeek},
      {"weekofyear", Field::kWeek},     {"day", Field::kDay},             {"days", Field::kDay},
      {"dayofmonth", Field::kDay},      {"dayofweek", Field::kDayOfWeek}, {"dow", Field::kDow},
      {"isodow", Field::kIsoDow},       {"dayofyear", Field::kDayOfYear}, {"doy", Field::kDayOfYear},
      {"hour", Field::kHour},           {"hours", Field::kHour},          {"minute", Field::kMinute},
      {"minutes", Field::kMinute},      {"second", Field::kSecond},       {"seconds", Field::kSecond},
      {"millisecond", Field::kMillisecond}, {"milliseconds", Field::kMillisecond},
      {"microsecond", Field::kMicrosecond}, {"microseconds", Field::kMicrosecond}, {"epoch", Field::kEpoch},
  };
  for (const auto& n : kNames) {
    if (s.size() == std::strlen(n.name) && strncasecmp(s.data(), n.name, s.size()) == 0) return n.field;
  }
  return Field::kInvalid;
}

// The wall-clock micros of a DATE, TIMESTAMP (in the session zone) or TIMESTAMP_NTZ argument.
int64_t MicrosOf(const KernelCall& call, const KernelArg& a, int64_t i) {
  int64_t r = a.Row(i);
  switch (a.type()->id()) {
    case TypeId::kDate: return a.vec->Get<int32_t>(r) * kMicrosPerDay;
    case TypeId::kTimestamp: return call.Zone().ToLocal(a.vec->Get<int64_t>(r));
    default: return a.vec->Get<int64_t>(r);
  }
}

// The instant (UTC micros) of an argument: a DATE is its midnight in the session zone; a
// TIMESTAMP_NTZ its wall clock read as UTC.
int64_t InstantOf(const KernelCall& call, const KernelArg& a, int64_t i) {
  int64_t r = a.Row(i);
  switch (a.type()->id()) {
    case TypeId::kDate: return call.Zone().ToUtc(a.vec->Get<int32_t>(r) * kMicrosPerDay);
    default: return a.vec->Get<int64_t>(r);
  }
}

int64_t IsoWeek(int64_t days) {
  int64_t wd = FloorMod(days + 3, 7) + 1;  // 1 = Monday
  int64_t thursday = days - (wd - 1) + 3;
  int64_t y = columnar::CivilFromDays(thursday).year;
  return (thursday - columnar::DaysFromCivil(y, 1, 1)) / 7 + 1;
}

int64_t Extract(Field f, int64_t micros) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t tod = FloorMod(micros, kMicrosPerDay);
  switch (f) {
    case Field::kYear: return columnar::CivilFromDays(days).year;
    case Field::kQuarter: return (columnar::CivilFromDays(days).month - 1) / 3 + 1;
    case Field::kMonth: return columnar::CivilFromDays(days).month;
    case Field::kWeek: return IsoWeek(days);
    case Field::kDay: return columnar::CivilFromDays(days).day;
    case Field::kDayOfWeek: return FloorMod(days + 4, 7) + 1;
    case Field::kDow: return FloorMod(days + 4, 7);
    case Field::kIsoDow: return FloorMod(days + 3, 7) + 1;
    case Field::kDayOfYear: {
      int64_t y = columnar::CivilFromDays(days).year;
      return days - columnar::DaysFromCivil(y, 1, 1) + 1;
    }
    case Field::kHour: return tod / (3600 * kMicrosPerSecond);
    case Field::kMinute: return tod / (60 * kMicrosPerSecond) % 60;
    case Field::kSecond: return tod / kMicrosPerSecond % 60;
    case Field::kMillisecond: return tod / 1000 % 60000;
    case Field::kMicrosecond: return tod % (60 * kMicrosPerSecond);
    case Field::kEpoch: return FloorDiv(micros, kMicrosPerSecond);
    case Field::kInvalid: return 0;
  }
  return 0;
}

template <Field kField>
Status FieldKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = static_cast<int32_t>(Extract(kField, MicrosOf(call, call.arg(0), i)));
    return RowStatus::kOk;
  }, out);
}

Status DatePartKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    std::string_view name = StrArg(call, 0, i);
    Field f = ParseField(name);
    if (f == Field::kInvalid) return Status::InvalidArgument("Unknown date part '" + std::string(name) + "'");
    *r = f == Field::kEpoch ? FloorDiv(InstantOf(call, call.arg(1), i), kMicrosPerSecond)
                            : Extract(f, MicrosOf(call, call.arg(1), i));
    return RowStatus::kOk;
  }, out);
}

// Truncates micros to the start of `unit`.
Result<int64_t> Truncate(std::string_view unit, int64_t micros) {
  Field f = ParseField(unit);
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  auto civil = columnar::CivilFromDays(days);
  auto at_day = [](int64_t d) { return d * kMicrosPerDay; };
  auto floor_to = [&](int64_t unit_micros) { return FloorDiv(micros, unit_micros) * unit_micros; };
  switch (f) {
    case Field::kYear: return at_day(columnar::DaysFromCivil(civil.year, 1, 1));
    case Field::kQuarter: return at_day(columnar::DaysFromCivil(civil.year, (civil.month - 1) / 3 * 3 + 1, 1));
    case Field::kMonth: return at_day(columnar::DaysFromCivil(civil.year, civil.month, 1));
    case Field::kWeek: return at_day(days - FloorMod(days + 3, 7));
    case Field::kDay: return at_day(days);
    case Field::kHour: return floor_to(3600 * kMicrosPerSecond);
    case Field::kMinute: return floor_to(60 * kMicrosPerSecond);
    case Field::kSecond: return floor_to(kMicrosPerSecond);
    case Field::kMillisecond: return floor_to(1000);
    case Field::kMicrosecond: return micros;
    default: return Status::InvalidArgument("Unknown date_trunc unit '" + std::string(unit) + "'");
  }
}

Status DateTruncKernel(const KernelCall& call, VectorPtr* out) {
  if (call.result_type->id() == TypeId::kDate) {
    return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
      ASSIGN_OR_RETURN(int64_t t, Truncate(StrArg(call, 0, i), MicrosOf(call, call.arg(1), i)));
      *r = static_cast<int32_t>(FloorDiv(t, kMicrosPerDay));
      return RowStatus::kOk;
    }, out);
  }
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(*r, Truncate(StrArg(call, 0, i), MicrosOf(call, call.arg(1), i)));
    if (call.result_type->id() == TypeId::kTimestamp) *r = call.Zone().ToUtc(*r);  // the local start's instant
    return RowStatus::kOk;
  }, out);
}

template <int kSign>
Status DateAddKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    int64_t v = int64_t{FixedArg<int32_t>(call, 0, i)} + kSign * int64_t{FixedArg<int32_t>(call, 1, i)};
    if (v < INT32_MIN || v > INT32_MAX) return Status::OutOfRange("Date out of range in date_add");
    *r = static_cast<int32_t>(v);
    return RowStatus::kOk;
  }, out);
}

// datediff(end, start) in days (Spark).
Status DateDiffKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = FixedArg<int32_t>(call, 0, i) - FixedArg<int32_t>(call, 1, i);
    return RowStatus::kOk;
  }, out);
}

// date_diff('unit', start, end): unit boundaries crossed (DuckDB).
Status DateDiffUnitKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    std::string_view unit = StrArg(call, 0, i);
    int64_t a = MicrosOf(call, call.arg(1), i), b = MicrosOf(call, call.arg(2), i);
    Field f = ParseField(unit);
    auto ca = columnar::CivilFromDays(FloorDiv(a, kMicrosPerDay));
    auto cb = columnar::CivilFromDays(FloorDiv(b, kMicrosPerDay));
    switch (f) {
      case Field::kYear: *r = cb.year - ca.year; break;
      case Field::kQuarter: *r = (cb.year * 4 + (cb.month - 1) / 3) - (ca.year * 4 + (ca.month - 1) / 3); break;
      case Field::kMonth: *r = (cb.year * 12 + cb.month) - (ca.year * 12 + ca.month); break;
      case Field::kWeek:
      case Field::kDay:
      case Field::kHour:
      case Field::kMinute:
      case Field::kSecond:
      case Field::kMillisecond:
      case Field::kMicrosecond: {
        ASSIGN_OR_RETURN(int64_t ta, Truncate(unit, a));
        ASSIGN_OR_RETURN(int64_t tb, Truncate(unit, b));
        int64_t step = f == Field::kWeek ? 7 * kMicrosPerDay
                       : f == Field::kDay ? kMicrosPerDay
                       : f == Field::kHour ? 3600 * kMicrosPerSecond
                       : f == Field::kMinute ? 60 * kMicrosPerSecond
                       : f == Field::kSecond ? kMicrosPerSecond
                       : f == Field::kMillisecond ? 1000 : 1;
        *r = (tb - ta) / step;
        break;
      }
      default: return Status::InvalidArgument("Unknown date_diff unit '" + std::string(unit) + "'");
    }
    return RowStatus::kOk;
  }, out);
}

Status CurrentDateKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t, int32_t* r) -> Result<RowStatus> {
    *r = static_cast<int32_t>(FloorDiv(call.Zone().ToLocal(call.ctx->statement_timestamp), kMicrosPerDay));
    return RowStatus::kOk;
  }, out);
}

Status CurrentTimestampKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t, int64_t* r) -> Result<RowStatus> {
    *r = call.ctx->statement_timestamp;
    return RowStatus::kOk;
  }, out);
}

Status MakeDateKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    int64_t y = FixedArg<int32_t>(call, 0, i);
    int64_t m = FixedArg<int32_t>(call, 1, i), d = FixedArg<int32_t>(call, 2, i);
    auto invalid = [&] {  // Spark's ANSI mode: an error, not NULL
      return Status::OutOfRange("[DATETIME_FIELD_OUT_OF_BOUNDS] invalid date make_date(" + std::to_string(y) + ", " +
                                std::to_string(m) + ", " + std::to_string(d) + ")");
    };
    if (m < 1 || m > 12 || !columnar::IsValidCivil(y, static_cast<int>(m), static_cast<int>(d))) return invalid();
    int64_t days = columnar::DaysFromCivil(y, static_cast<int>(m), static_cast<int>(d));
    if (days < INT32_MIN || days > INT32_MAX) return invalid();
    *r = static_cast<int32_t>(days);
    return RowStatus::kOk;
  }, out);
}

Status ToDateKernel(const KernelCall& call, VectorPtr* out) {  // NULL for malformed text
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    std::string_view s = StrArg(call, 0, i);
    if (auto d = columnar::ParseDate(s)) {
      *r = *d;
      return RowStatus::kOk;
    }
    std::string_view zone_text;  // the date as written; time and offset dropped, as CAST does
    if (auto t = columnar::ParseLocalTimestamp(s, &zone_text)) {
      *r = static_cast<int32_t>(FloorDiv(*t, kMicrosPerDay));
      return RowStatus::kOk;
    }
    return RowStatus::kNull;
  }, out);
}

Status DateOfKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = static_cast<int32_t>(FloorDiv(MicrosOf(call, call.arg(0), i), kMicrosPerDay));
    return RowStatus::kOk;
  }, out);
}

Status ToTimestampKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    if (call.arg(0).type()->id() == TypeId::kDouble) {
      double s = FixedArg<double>(call, 0, i) * 1e6;
      if (!(s > -9.2e18 && s < 9.2e18)) return RowStatus::kNull;
      *r = static_cast<int64_t>(std::llround(s));
      return RowStatus::kOk;
    }
    auto t = columnar::ParseTimestampInZone(StrArg(call, 0, i), call.Zone());
    if (!t) return RowStatus::kNull;
    *r = *t;
    return RowStatus::kOk;
  }, out);
}

Status EpochKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<double>(call, [&](int64_t i, double* r) -> Result<RowStatus> {
    *r = static_cast<double>(InstantOf(call, call.arg(0), i)) / kMicrosPerSecond;
    return RowStatus::kOk;
  }, out);
}

Status UnixTimestampKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    int64_t m = call.num_args ? InstantOf(call, call.arg(0), i) : call.ctx->statement_timestamp;
    *r = FloorDiv(m, kMicrosPerSecond);
    return RowStatus::kOk;
  }, out);
}

bool IsTs(const TypePtr& t) { return t->id() == TypeId::kTimestamp || t->id() == TypeId::kTimestampNtz; }

// One DATE-or-TIMESTAMP argument at position `pos`; STRING and NULL become TIMESTAMP/DATE.
TypePtr TemporalArg(const TypePtr& t) {
  if (t->id() == TypeId::kDate || IsTs(t)) return t;
  if (t->id() == TypeId::kString) return columnar::Timestamp();
  if (t->id() == TypeId::kNull) return columnar::Date();
  return nullptr;
}

template <Field kField>
bool ResolveField(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() != 1) return false;
  TypePtr t = TemporalArg(a[0]);
  if (!t) return false;
  *o = {{t}, columnar::Int32(), FieldKernel<kField>};
  return true;
}

}  // namespace

void RegisterDatetimeFunctions(FunctionRegistry* r) {
  r->Add({"year", "year(DATE|TIMESTAMP)", ResolveField<Field::kYear>});
  r->Add({"quarter", "quarter(DATE|TIMESTAMP)", ResolveField<Field::kQuarter>});
  r->Add({"month", "month(DATE|TIMESTAMP)", ResolveField<Field::kMonth>});
  r->Add({"week", "week(DATE|TIMESTAMP)", ResolveField<Field::kWeek>}, {"weekofyear"});
  r->Add({"day", "day(DATE|TIMESTAMP)", ResolveField<Field::kDay>}, {"dayofmonth"});
  r->Add({"dayofweek", "dayofweek(DATE|TIMESTAMP)", ResolveField<Field::kDayOfWeek>});
  r->Add({"isodow", "isodow(DATE|TIMESTAMP)", ResolveField<Field::kIsoDow>});
  r->Add({"dayofyear", "dayofyear(DATE|TIMESTAMP)", ResolveField<Field::kDayOfYear>});
  r->Add({"hour", "hour(TIMESTAMP)", ResolveField<Field::kHour>});
  r->Add({"minute", "minute(TIMESTAMP)", ResolveField<Field::kMinute>});
  r->Add({"second", "second(TIMESTAMP)", ResolveField<Field::kSecond>});
  r->Add({"date_part", "date_part(STRING field, DATE|TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 2 || ImplicitCastCost(a[0], columnar::String()) < 0) return false;
            TypePtr t = TemporalArg(a[1]);
            if (!t) return false;
            *o = {{columnar::String(), t}, columnar::Int64(), DatePartKernel};
            return true;
          }},
         {"datepart", "extract"});
  r->Add({"date_trunc", "date_trunc(STRING unit, DATE|TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 2 || ImplicitCastCost(a[0], columnar::String()) < 0) return false;
            TypePtr t = TemporalArg(a[1]);
            if (!t) return false;
            *o = {{columnar::String(), t}, t, DateTruncKernel};
            return true;
          }},
         {"datetrunc"});
  r->Add({"date_add", "date_add(DATE, INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {columnar::Date(), columnar::Int32()}, columnar::Date(), DateAddKernel<1>, o);
          }});
  r->Add({"date_sub", "date_sub(DATE, INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {columnar::Date(), columnar::Int32()}, columnar::Date(), DateAddKernel<-1>, o);
          }});
  r->Add({"datediff", "datediff(DATE end, DATE start), datediff(STRING unit, start, end)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 3) {
              TypePtr x = TemporalArg(a[1]), y = TemporalArg(a[2]);
              if (!x || !y || ImplicitCastCost(a[0], columnar::String()) < 0) return false;
              if (!x->Equals(*y)) x = y = columnar::Timestamp();
              *o = {{columnar::String(), x, y}, columnar::Int64(), DateDiffUnitKernel};
              return true;
            }
            return Fixed(a, {columnar::Date(), columnar::Date()}, columnar::Int32(), DateDiffKernel, o);
          }},
         {"date_diff"});
  r->Add({"current_date", "current_date()", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {}, columnar::Date(), CurrentDateKernel, o);
          }},
         {"today"});
  r->Add({"current_timestamp", "current_timestamp()", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {}, columnar::Timestamp(), CurrentTimestampKernel, o);
          }},
         {"now"});
  r->Add({"make_date", "make_date(INT, INT, INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {columnar::Int32(), columnar::Int32(), columnar::Int32()}, columnar::Date(), MakeDateKernel,
                         o);
          }});
  r->Add({"to_date", "to_date(STRING[, STRING pattern])", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 2) return ResolveParseWithPattern("to_date", a, o);
            if (a.size() == 1 && (IsTs(a[0]) || a[0]->id() == TypeId::kDate)) {
              return Fixed(a, {a[0]}, columnar::Date(), DateOfKernel, o);
            }
            return Fixed(a, {columnar::String()}, columnar::Date(), ToDateKernel, o);
          }});
  r->Add({"to_timestamp", "to_timestamp(STRING[, STRING pattern]), to_timestamp(DOUBLE epoch seconds)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 2) return ResolveParseWithPattern("to_timestamp", a, o);
            return BestOf(a,
                          {{{columnar::Float64()}, columnar::Timestamp(), ToTimestampKernel},
                           {{columnar::String()}, columnar::Timestamp(), ToTimestampKernel}},
                          o);
          }});
  r->Add({"epoch", "epoch(TIMESTAMP)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 1 || !TemporalArg(a[0])) return false;
            *o = {{TemporalArg(a[0])}, columnar::Float64(), EpochKernel};
            return true;
          }});
  r->Add({"unix_timestamp", "unix_timestamp([TIMESTAMP]), unix_timestamp(STRING[, STRING pattern])",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.empty()) return Fixed(a, {}, columnar::Int64(), UnixTimestampKernel, o);
            if (a.size() == 2 || (a.size() == 1 && a[0]->id() == TypeId::kString)) {
              return ResolveParseWithPattern("unix_timestamp", a, o);
            }
            if (a.size() != 1 || !TemporalArg(a[0])) return false;
            *o = {{TemporalArg(a[0])}, columnar::Int64(), UnixTimestampKernel};
            return true;
          }});
}

}  // namespace shoal::expr
