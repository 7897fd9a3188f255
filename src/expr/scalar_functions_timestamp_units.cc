// timestampadd(unit, quantity, ts) and timestampdiff(unit, start, end) as Spark defines them
// (the binder maps dateadd/date_add and datediff/date_diff/timestampdiff with a unit word here).
// Units: YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, MINUTE, SECOND, MILLISECOND,
// MICROSECOND (any case). On a TIMESTAMP, calendar units (DAY and longer) work on the wall clock in
// the session zone and time units on the instant; a TIMESTAMP_NTZ is its own wall clock.
#include <strings.h>

#include <cstring>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::kMicrosPerDay;
using columnar::kMicrosPerSecond;
using columnar::TypeId;
using columnar::VectorPtr;

namespace {

// A unit as months, days or micros per step (one of them non-zero).
struct Unit {
  int64_t months = 0, days = 0, micros = 0;
};

Result<Unit> ParseUnit(const KernelCall& call, int64_t i) {
  struct Name {
    const char* name;
    Unit unit;
  };
  static const Name kUnits[] = {
      {"YEAR", {12, 0, 0}},         {"QUARTER", {3, 0, 0}},
      {"MONTH", {1, 0, 0}},         {"WEEK", {0, 7, 0}},
      {"DAY", {0, 1, 0}},           {"DAYOFYEAR", {0, 1, 0}},
      {"HOUR", {0, 0, 3600 * kMicrosPerSecond}}, {"MINUTE", {0, 0, 60 * kMicrosPerSecond}},
      {"SECOND", {0, 0, kMicrosPerSecond}},      {"MILLISECOND", {0, 0, 1000}},
      {"MICROSECOND", {0, 0, 1}},
  };
  std::string_view s = StrArg(call, 0, i);
  for (const auto& u : kUnits) {
    if (s.size() == std::strlen(u.name) && strncasecmp(s.data(), u.name, s.size()) == 0) return u.unit;
  }
  return Status::InvalidArgument(std::string(call.name) + ": unknown unit '" + std::string(s) +
                                 "' (YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, MINUTE, SECOND, "
                                 "MILLISECOND, MICROSECOND)");
}

Status TimestampAddKernel(const KernelCall& call, VectorPtr* out) {
  const bool ltz = call.result_type->id() == TypeId::kTimestamp;
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(Unit u, ParseUnit(call, i));
    const int64_t q = FixedArg<int64_t>(call, 1, i);
    const int64_t ts = FixedArg<int64_t>(call, 2, i);
    bool ok;
    if (u.micros != 0) {
      int64_t step;
      ok = !__builtin_mul_overflow(q, u.micros, &step) && !__builtin_add_overflow(ts, step, r);
    } else {
      int64_t months, days, moved;
      ok = !__builtin_mul_overflow(q, u.months, &months) && !__builtin_mul_overflow(q, u.days, &days) &&
           columnar::AddMonthsAndDays(ltz ? call.Zone().ToLocal(ts) : ts, months, days, &moved);
      if (ok) *r = ltz ? call.Zone().ToUtc(moved) : moved;
    }
    if (!ok) return Status::OutOfRange("[DATETIME_OVERFLOW] " + std::string(call.name) + " overflows the timestamp range");
    return RowStatus::kOk;
  }, out);
}

// Whole months from wall clock a to b, as Java's LocalDateTime.until(b, MONTHS): a month counts
// once b's day and time of day reach a's.
int64_t MonthsUntil(int64_t a, int64_t b) {
  const int64_t da = columnar::FloorDiv(a, kMicrosPerDay), db = columnar::FloorDiv(b, kMicrosPerDay);
  const int64_t ta = columnar::FloorMod(a, kMicrosPerDay), tb = columnar::FloorMod(b, kMicrosPerDay);
  int64_t end_day = db;
  if (db > da && tb < ta) --end_day;
  if (db < da && tb > ta) ++end_day;
  const auto ca = columnar::CivilFromDays(da), cb = columnar::CivilFromDays(end_day);
  const int64_t packed_a = (ca.year * 12 + ca.month - 1) * 32 + ca.day;
  const int64_t packed_b = (cb.year * 12 + cb.month - 1) * 32 + cb.day;
  return (packed_b - packed_a) / 32;
}

Status TimestampDiffKernel(const KernelCall& call, VectorPtr* out) {
  const bool ltz = call.arg(1).type()->id() == TypeId::kTimestamp;
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(Unit u, ParseUnit(call, i));
    int64_t a = FixedArg<int64_t>(call, 1, i), b = FixedArg<int64_t>(call, 2, i);
    int64_t diff;
    if (u.micros != 0) {
      if (__builtin_sub_overflow(b, a, &diff)) return Status::OutOfRange("[DATETIME_OVERFLOW] timestampdiff");
      *r = diff / u.micros;
      return RowStatus::kOk;
    }
    if (ltz) {
      a = call.Zone().ToLocal(a);
      b = call.Zone().ToLocal(b);
    }
    if (u.days != 0) {
      if (__builtin_sub_overflow(b, a, &diff)) return Status::OutOfRange("[DATETIME_OVERFLOW] timestampdiff");
      *r = diff / kMicrosPerDay / u.days;
    } else {
      *r = MonthsUntil(a, b) / u.months;
    }
    return RowStatus::kOk;
  }, out);
}

// TIMESTAMP_NTZ stays; DATE, STRING and TIMESTAMP are TIMESTAMP.
TypePtr UnitTimestampArg(const TypePtr& t) {
  if (t->id() == TypeId::kTimestampNtz || t->id() == TypeId::kTimestamp) return t;
  if (t->id() == TypeId::kDate || t->id() == TypeId::kString || t->id() == TypeId::kNull) return columnar::Timestamp();
  return nullptr;
}

}  // namespace

void RegisterTimestampUnitFunctions(FunctionRegistry* r) {
  r->Add({"timestampadd", "timestampadd(unit, BIGINT quantity, TIMESTAMP)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 3) return false;
            TypePtr ts = UnitTimestampArg(a[2]);
            if (!ts) return false;
            return Fixed(a, {columnar::String(), columnar::Int64(), ts}, ts, TimestampAddKernel, o);
          }});
  r->Add({"timestampdiff", "timestampdiff(unit, TIMESTAMP start, TIMESTAMP end)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() != 3) return false;
            TypePtr x = UnitTimestampArg(a[1]), y = UnitTimestampArg(a[2]);
            if (!x || !y) return false;
            if (!x->Equals(*y)) x = columnar::Timestamp();
            return Fixed(a, {columnar::String(), x, x}, columnar::Int64(), TimestampDiffKernel, o);
          }});
}

}  // namespace shoal::expr
