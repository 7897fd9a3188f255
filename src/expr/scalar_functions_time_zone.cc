// Time-zone functions (Spark): current_timezone, from_utc_timestamp, to_utc_timestamp,
// convert_timezone and localtimestamp; zones named by an argument are looked up per row
// (columnar/time_zone.h caches them), the session zone is KernelCall::Zone.
#include "columnar/time_zone.h"
#include "expr/evaluate.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TimeZone;
using columnar::VectorPtr;

namespace {

Result<const TimeZone*> ZoneArg(const KernelCall& call, size_t a, int64_t i) {
  auto zone = columnar::FindTimeZone(StrArg(call, a, i));
  if (!zone.ok()) return zone.status().WithContext(std::string(call.name));
  return zone;
}

Status CurrentTimezoneKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t, std::string* s) -> Result<RowStatus> {
    *s = call.Zone().name();
    return RowStatus::kOk;
  }, out);
}

// from_utc_timestamp(ts, tz): the wall clock of `ts` in tz, read as UTC; to_utc_timestamp(ts, tz):
// the wall clock of `ts` in UTC, read in tz (Spark's DateTimeUtils.fromUTCTime / toUTCTime).
template <bool kFromUtc>
Status UtcShiftKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const TimeZone* zone, ZoneArg(call, 1, i));
    const int64_t t = FixedArg<int64_t>(call, 0, i);
    *r = kFromUtc ? zone->ToLocal(t) : zone->ToUtc(t);
    return RowStatus::kOk;
  }, out);
}

// convert_timezone([source,] target, ts_ntz): the wall clock in `target` of the instant that `ts`
// is in `source` (default: the session zone).
Status ConvertTimezoneKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    const bool has_source = call.num_args == 3;
    const TimeZone* source = &call.Zone();
    if (has_source) {
      ASSIGN_OR_RETURN(source, ZoneArg(call, 0, i));
    }
    ASSIGN_OR_RETURN(const TimeZone* target, ZoneArg(call, has_source ? 1 : 0, i));
    *r = target->ToLocal(source->ToUtc(FixedArg<int64_t>(call, has_source ? 2 : 1, i)));
    return RowStatus::kOk;
  }, out);
}

Status LocalTimestampKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t, int64_t* r) -> Result<RowStatus> {
    *r = call.Zone().ToLocal(call.ctx->statement_timestamp);
    return RowStatus::kOk;
  }, out);
}

}  // namespace

void RegisterTimeZoneFunctions(FunctionRegistry* r) {
  r->Add({"current_timezone", "current_timezone()", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {}, columnar::String(), CurrentTimezoneKernel, o);
          }});
  r->Add({"from_utc_timestamp", "from_utc_timestamp(TIMESTAMP, STRING timezone)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            auto ts = columnar::Timestamp();
            return Fixed(a, {ts, columnar::String()}, ts, UtcShiftKernel<true>, o);
          }});
  r->Add({"to_utc_timestamp", "to_utc_timestamp(TIMESTAMP, STRING timezone)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            auto ts = columnar::Timestamp();
            return Fixed(a, {ts, columnar::String()}, ts, UtcShiftKernel<false>, o);
          }});
  r->Add({"convert_timezone", "convert_timezone([STRING sourceTz, ] STRING targetTz, TIMESTAMP_NTZ)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            auto ntz = columnar::TimestampNtz();
            auto s = columnar::String();
            if (a.size() == 3) return Fixed(a, {s, s, ntz}, ntz, ConvertTimezoneKernel, o);
            return Fixed(a, {s, ntz}, ntz, ConvertTimezoneKernel, o);
          }});
  r->Add({"localtimestamp", "localtimestamp()", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {}, columnar::TimestampNtz(), LocalTimestampKernel, o);
          }});
}

}  // namespace shoal::expr
