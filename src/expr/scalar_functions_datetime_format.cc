// Datetime functions that take a Spark datetime pattern (expr/datetime_pattern.h): date_format
// and from_unixtime format in the session zone; to_timestamp, try_to_timestamp, to_date,
// unix_timestamp and to_unix_timestamp parse with one. Text that does not fit the pattern is a
// [CANNOT_PARSE_TIMESTAMP] error (ANSI mode), NULL for try_to_timestamp. A literal pattern is
// compiled when the call is bound, so an invalid one fails there.
#include <string>

#include "columnar/datetime.h"
#include "columnar/time_zone.h"
#include "expr/datetime_pattern.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::FloorDiv;
using columnar::kMicrosPerDay;
using columnar::kMicrosPerSecond;
using columnar::TypeId;
using columnar::VectorPtr;

namespace {

constexpr std::string_view kDefaultPattern = "yyyy-MM-dd HH:mm:ss";

TypePtr Str() { return columnar::String(); }

bool IsTemporal(const TypePtr& t) {
  return t->id() == TypeId::kDate || t->id() == TypeId::kTimestamp || t->id() == TypeId::kTimestampNtz;
}

// The compiled pattern of argument 1 for row i (kDefaultPattern when the call has none).
template <bool kParsing>
class PatternAt {
 public:
  explicit PatternAt(const KernelCall& call) : call_(call) {}

  Result<const DatetimePattern*> At(int64_t i) {
    std::string_view p = call_.num_args > 1 ? StrArg(call_, 1, i) : kDefaultPattern;
    if (!pattern_ || pattern_->pattern() != p) {
      ASSIGN_OR_RETURN(pattern_, DatetimePattern::Get(p, kParsing));
    }
    return pattern_.get();
  }

 private:
  const KernelCall& call_;
  std::shared_ptr<const DatetimePattern> pattern_;
};

template <bool kParsing>
Status CheckPattern(const std::vector<ExprPtr>& args, std::string_view) {
  if (args.size() > 1 && args[1]->IsLiteral() && !args[1]->value.is_null()) {
    return DatetimePattern::Get(args[1]->value.GetString(), kParsing).status();
  }
  return Status::OK();
}

// Formats the instant `utc_micros` in the session zone.
Status FormatInstant(const KernelCall& call, const DatetimePattern& pattern, int64_t utc_micros, std::string* s) {
  const columnar::TimeZone& zone = call.Zone();
  return pattern.Format(zone.ToLocal(utc_micros), zone.OffsetAt(utc_micros), zone, s);
}

Status DateFormatKernel(const KernelCall& call, VectorPtr* out) {
  PatternAt<false> pattern(call);
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const DatetimePattern* p, pattern.At(i));
    RETURN_NOT_OK(FormatInstant(call, *p, FixedArg<int64_t>(call, 0, i), s));
    return RowStatus::kOk;
  }, out);
}

Status FromUnixtimeKernel(const KernelCall& call, VectorPtr* out) {
  PatternAt<false> pattern(call);
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    ASSIGN_OR_RETURN(const DatetimePattern* p, pattern.At(i));
    const int64_t seconds = FixedArg<int64_t>(call, 0, i);
    int64_t micros = 0;
    if (__builtin_mul_overflow(seconds, kMicrosPerSecond, &micros)) {
      return Status::OutOfRange("[DATETIME_OVERFLOW] from_unixtime(" + std::to_string(seconds) +
                                ") is out of the TIMESTAMP range");
    }
    RETURN_NOT_OK(FormatInstant(call, *p, micros, s));
    return RowStatus::kOk;
  }, out);
}

enum class ParsedAs : uint8_t { kTimestamp, kDate, kUnixSeconds };

// The instant row i's text names under its pattern; nullopt when it does not fit (an error
// unless kTry).
template <bool kTry>
Result<std::optional<int64_t>> ParseInstant(const KernelCall& call, const DatetimePattern& pattern, int64_t i,
                                            int64_t* local) {
  std::string_view text = StrArg(call, 0, i);
  DatetimePattern::Parsed parsed;
  if (!pattern.Parse(text, &parsed)) {
    if (kTry) return std::optional<int64_t>();
    return Status::InvalidArgument("[CANNOT_PARSE_TIMESTAMP] Text '" + std::string(text) +
                                   "' could not be parsed with the pattern '" + pattern.pattern() +
                                   "'. Use `try_to_timestamp` to tolerate invalid input string and return NULL "
                                   "instead.");
  }
  // A named offset or zone fixes the instant; the wall clock is then the session zone's.
  int64_t instant = 0;
  if (parsed.has_offset) {
    instant = parsed.local_micros - int64_t{parsed.offset_seconds} * kMicrosPerSecond;
  } else {
    instant = (parsed.zone ? *parsed.zone : call.Zone()).ToUtc(parsed.local_micros);
  }
  *local = parsed.has_offset || parsed.zone ? call.Zone().ToLocal(instant) : parsed.local_micros;
  return std::optional<int64_t>(instant);
}

// A DATE / TIMESTAMP / TIMESTAMP_NTZ argument (the pattern is not used) as an instant, and its
// wall clock in the session zone.
int64_t TemporalInstant(const KernelCall& call, int64_t i, int64_t* local) {
  const KernelArg& a = call.arg(0);
  const int64_t r = a.Row(i);
  switch (a.type()->id()) {
    case TypeId::kDate: *local = a.vec->Get<int32_t>(r) * kMicrosPerDay; return call.Zone().ToUtc(*local);
    case TypeId::kTimestampNtz: *local = a.vec->Get<int64_t>(r); return call.Zone().ToUtc(*local);
    default: *local = call.Zone().ToLocal(a.vec->Get<int64_t>(r)); return a.vec->Get<int64_t>(r);
  }
}

template <ParsedAs kAs, bool kTry>
Status ParseKernel(const KernelCall& call, VectorPtr* out) {
  PatternAt<true> pattern(call);
  const bool temporal = IsTemporal(call.arg(0).type());
  auto parse = [&](int64_t i, int64_t* local) -> Result<std::optional<int64_t>> {
    if (temporal) return std::optional<int64_t>(TemporalInstant(call, i, local));
    if (kAs == ParsedAs::kTimestamp && call.num_args == 1) {  // no pattern: CAST's text forms
      auto t = columnar::ParseTimestampInZone(StrArg(call, 0, i), call.Zone());
      if (!t && !kTry) {
        return Status::InvalidArgument("[CANNOT_PARSE_TIMESTAMP] '" + std::string(StrArg(call, 0, i)) + "'");
      }
      return t;
    }
    ASSIGN_OR_RETURN(const DatetimePattern* p, pattern.At(i));
    return ParseInstant<kTry>(call, *p, i, local);
  };
  if constexpr (kAs == ParsedAs::kDate) {
    return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
      int64_t local = 0;
      ASSIGN_OR_RETURN(std::optional<int64_t> t, parse(i, &local));
      if (!t) return RowStatus::kNull;
      *r = static_cast<int32_t>(FloorDiv(local, kMicrosPerDay));
      return RowStatus::kOk;
    }, out);
  } else {
    return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
      int64_t local = 0;
      ASSIGN_OR_RETURN(std::optional<int64_t> t, parse(i, &local));
      if (!t) return RowStatus::kNull;
      *r = kAs == ParsedAs::kUnixSeconds ? FloorDiv(*t, kMicrosPerSecond) : *t;
      return RowStatus::kOk;
    }, out);
  }
}

// f(STRING[, STRING pattern]) or f(DATE|TIMESTAMP[, STRING]) (the pattern then unused).
template <ParsedAs kAs, bool kTry>
bool ResolveParse(const std::vector<TypePtr>& a, Overload* o, bool pattern_optional) {
  if (a.empty() || a.size() > 2 || (a.size() == 1 && !pattern_optional)) return false;
  TypePtr ret = kAs == ParsedAs::kDate ? columnar::Date()
                : kAs == ParsedAs::kTimestamp ? columnar::Timestamp() : columnar::Int64();
  std::vector<TypePtr> params = {IsTemporal(a[0]) ? a[0] : Str()};
  if (a.size() == 2) params.push_back(Str());
  if (!Fixed(a, params, ret, ParseKernel<kAs, kTry>, o)) return false;
  o->check = CheckPattern<true>;
  return true;
}

}  // namespace

bool ResolveParseWithPattern(std::string_view function, const std::vector<TypePtr>& a, Overload* o) {
  if (function == "to_date") return ResolveParse<ParsedAs::kDate, false>(a, o, false);
  if (function == "to_timestamp") return ResolveParse<ParsedAs::kTimestamp, false>(a, o, false);
  return ResolveParse<ParsedAs::kUnixSeconds, false>(a, o, true);  // unix_timestamp
}

void RegisterDatetimeFormatFunctions(FunctionRegistry* r) {
  using Args = std::vector<TypePtr>;
  r->Add({"date_format", "date_format(TIMESTAMP, STRING pattern)", [](const Args& a, Overload* o) {
            if (!Fixed(a, {columnar::Timestamp(), Str()}, Str(), DateFormatKernel, o)) return false;
            o->check = CheckPattern<false>;
            return true;
          }});
  r->Add({"from_unixtime", "from_unixtime(BIGINT seconds[, STRING pattern])", [](const Args& a, Overload* o) {
            if (!Fixed(a, {columnar::Int64()}, Str(), FromUnixtimeKernel, o) &&
                !Fixed(a, {columnar::Int64(), Str()}, Str(), FromUnixtimeKernel, o)) {
              return false;
            }
            o->check = CheckPattern<false>;
            return true;
          }});
  r->Add({"try_to_timestamp", "try_to_timestamp(STRING[, STRING pattern])", [](const Args& a, Overload* o) {
            return ResolveParse<ParsedAs::kTimestamp, true>(a, o, true);
          }});
  r->Add({"to_unix_timestamp", "to_unix_timestamp(STRING|DATE|TIMESTAMP[, STRING pattern])",
          [](const Args& a, Overload* o) { return ResolveParse<ParsedAs::kUnixSeconds, false>(a, o, true); }});
}

}  // namespace shoal::expr
