// String functions. Character positions and lengths count UTF-8 characters; lower/upper fold
// ASCII and Latin-1 letters.
#include <algorithm>
#include <cstring>

#include "expr/coercion.h"
#include "expr/row_kernels.h"
#include "expr/unicode_case.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

constexpr int64_t kMaxStringBytes = int64_t{1} << 30;

TypePtr Str() { return columnar::String(); }
TypePtr I64() { return columnar::Int64(); }
TypePtr Bool() { return columnar::Boolean(); }

// Casts every primitive argument to STRING (concat-style functions).
bool AllToString(const std::vector<TypePtr>& args, Overload* o, size_t min_args) {
  if (args.size() < min_args) return false;
  for (const auto& a : args) {
    if (a->IsNested()) return false;
  }
  o->arg_types.assign(args.size(), Str());
  o->return_type = Str();
  return true;
}

Status ConcatOpKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    for (size_t a = 0; a < call.num_args; ++a) s->append(StrArg(call, a, i));
    return RowStatus::kOk;
  }, out);
}

Status ConcatWsKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    if (call.arg(0).IsNull(i)) return RowStatus::kNull;
    std::string_view sep = StrArg(call, 0, i);
    bool first = true;
    for (size_t a = 1; a < call.num_args; ++a) {
      if (call.arg(a).IsNull(i)) continue;
      if (!first) s->append(sep);
      s->append(StrArg(call, a, i));
      first = false;
    }
    return RowStatus::kOk;
  }, out, false);
}

Status LengthKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    *r = Utf8Length(StrArg(call, 0, i));
    return RowStatus::kOk;
  }, out);
}

Status OctetLengthKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    *r = static_cast<int64_t>(StrArg(call, 0, i).size());
    return RowStatus::kOk;
  }, out);
}

template <bool kUpper>
Status CaseKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    s->clear();
    AppendCaseMapped(StrArg(call, 0, i), kUpper, s);
    return RowStatus::kOk;
  }, out);
}

// substring(s, start[, len]): 1-based; start 0 acts as 1; negative start counts from the end.
Status SubstringKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int64_t start = FixedArg<int64_t>(call, 1, i);
    int64_t len = call.num_args > 2 ? FixedArg<int64_t>(call, 2, i) : INT64_MAX;
    if (len <= 0) return RowStatus::kOk;
    int64_t chars = Utf8Length(in);
    int64_t from = start > 0 ? start - 1 : (start == 0 ? 0 : chars + start);
    int64_t to = (len == INT64_MAX || (from > 0 && len > INT64_MAX - from)) ? INT64_MAX : from + len;
    from = std::max<int64_t>(from, 0);
    if (from >= chars || to <= from) return RowStatus::kOk;
    size_t b = Utf8Offset(in, from);
    size_t e = to >= chars ? in.size() : b + Utf8Offset(in.substr(b), to - from);
    s->assign(in.substr(b, e - b));
    return RowStatus::kOk;
  }, out);
}

template <bool kLeft>
Status LeftRightKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int64_t n = FixedArg<int64_t>(call, 1, i);
    int64_t chars = Utf8Length(in);
    int64_t keep = n >= 0 ? std::min(n, chars) : std::max<int64_t>(0, chars + n);
    if (kLeft) s->assign(in.substr(0, Utf8Offset(in, keep)));
    else s->assign(in.substr(Utf8Offset(in, chars - keep)));
    return RowStatus::kOk;
  }, out);
}

Status RepeatKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int64_t n = FixedArg<int64_t>(call, 1, i);
    if (n <= 0 || in.empty()) return RowStatus::kOk;
    if (n > kMaxStringBytes / static_cast<int64_t>(in.size())) {
      return Status::OutOfRange("repeat() result would exceed " + std::to_string(kMaxStringBytes) + " bytes");
    }
    s->reserve(in.size() * n);
    for (int64_t k = 0; k < n; ++k) s->append(in);
    return RowStatus::kOk;
  }, out);
}

Status ReverseKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    size_t end = in.size();
    while (end > 0) {
      size_t b = end - 1;
      while (b > 0 && (static_cast<unsigned char>(in[b]) & 0xC0) == 0x80) --b;
      s->append(in.substr(b, end - b));
      end = b;
    }
    return RowStatus::kOk;
  }, out);
}

Status ReplaceKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i), from = StrArg(call, 1, i);
    std::string_view to = call.num_args > 2 ? StrArg(call, 2, i) : std::string_view();
    if (from.empty()) {
      s->assign(in);
      return RowStatus::kOk;
    }
    size_t pos = 0;
    while (true) {
      size_t hit = in.find(from, pos);
      if (hit == std::string_view::npos) break;
      s->append(in.substr(pos, hit - pos));
      s->append(to);
      pos = hit + from.size();
      if (static_cast<int64_t>(s->size()) > kMaxStringBytes) return Status::OutOfRange("replace() result too large");
    }
    s->append(in.substr(pos));
    return RowStatus::kOk;
  }, out);
}

template <bool kLeft, bool kRight>
Status TrimKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    std::string_view chars = call.num_args > 1 ? StrArg(call, 1, i) : std::string_view(" ");
    size_t b = 0, e = in.size();
    if (kLeft) {
      while (b < e && chars.find(in[b]) != std::string_view::npos) ++b;
    }
    if (kRight) {
      while (e > b && chars.find(in[e - 1]) != std::string_view::npos) --e;
    }
    s->assign(in.substr(b, e - b));
    return RowStatus::kOk;
  }, out);
}

template <bool kLeft>
Status PadKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int64_t len = FixedArg<int64_t>(call, 1, i);
    std::string_view pad = call.num_args > 2 ? StrArg(call, 2, i) : std::string_view(" ");
    if (len <= 0) return RowStatus::kOk;
    if (len > kMaxStringBytes) return Status::OutOfRange("pad length " + std::to_string(len) + " is too large");
    int64_t chars = Utf8Length(in);
    if (chars >= len || pad.empty()) {
      s->assign(in.substr(0, Utf8Offset(in, std::min(chars, len))));
      return RowStatus::kOk;
    }
    std::string fill;
    int64_t need = len - chars, pad_chars = Utf8Length(pad);
    while (need >= pad_chars) {
      fill.append(pad);
      need -= pad_chars;
    }
    fill.append(pad.substr(0, Utf8Offset(pad, need)));
    if (kLeft) {
      s->append(fill);
      s->append(in);
    } else {
      s->append(in);
      s->append(fill);
    }
    return RowStatus::kOk;
  }, out);
}

enum class Probe { kStarts, kEnds, kContains };
template <Probe kProbe>
Status ProbeKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    std::string_view a = StrArg(call, 0, i), b = StrArg(call, 1, i);
    if (kProbe == Probe::kStarts) *r = a.substr(0, b.size()) == b;
    if (kProbe == Probe::kEnds) *r = a.size() >= b.size() && a.substr(a.size() - b.size()) == b;
    if (kProbe == Probe::kContains) *r = a.find(b) != std::string_view::npos;
    return RowStatus::kOk;
  }, out);
}

// instr(s, sub) / strpos(s, sub): 1-based character position, 0 when absent.
// position(sub, s) (from `position(sub IN s)`) has the arguments the other way round.
template <bool kNeedleFirst>
Status PositionKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int64_t>(call, [&](int64_t i, int64_t* r) -> Result<RowStatus> {
    std::string_view hay = StrArg(call, kNeedleFirst ? 1 : 0, i), needle = StrArg(call, kNeedleFirst ? 0 : 1, i);
    size_t hit = hay.find(needle);
    *r = hit == std::string_view::npos ? 0 : Utf8Length(hay.substr(0, hit)) + 1;
    return RowStatus::kOk;
  }, out);
}

Status SplitKernel(const KernelCall& call, VectorPtr* result) {
  auto out = Vector::Make(call.result_type, call.n);
  Vector* elems = out->children()[0].get();
  for (int64_t i = 0; i < call.n; ++i) {
    if (AnyArgNull(call, i)) {
      out->AppendNull();
      continue;
    }
    std::string_view s = StrArg(call, 0, i), d = StrArg(call, 1, i);
    if (d.empty()) {
      for (size_t b = 0; b < s.size();) {
        size_t e = b + Utf8Offset(s.substr(b), 1);
        elems->AppendString(s.substr(b, e - b));
        b = e;
      }
    } else {
      size_t pos = 0;
      while (true) {
        size_t hit = s.find(d, pos);
        if (hit == std::string_view::npos) break;
        elems->AppendString(s.substr(pos, hit - pos));
        pos = hit + d.size();
      }
      elems->AppendString(s.substr(pos));
    }
    out->AppendListEnd();
  }
  *result = out;
  return Status::OK();
}

bool ResolveLength(const std::vector<TypePtr>& a, Overload* o);  // also lists (nested file)

}  // namespace

// Declared in scalar_functions_nested.cc: size of a list or map.
bool ResolveCardinality(const std::vector<TypePtr>& args, Overload* o);

namespace {
bool ResolveLength(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() == 1 && (a[0]->id() == TypeId::kList || a[0]->id() == TypeId::kMap)) return ResolveCardinality(a, o);
  return Fixed(a, {Str()}, I64(), LengthKernel, o);
}
}  // namespace

void RegisterStringFunctions(FunctionRegistry* r) {
  r->Add({"||", "(STRING || STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return a.size() == 2 && AllToString(a, o, 2) && (o->kernel = ConcatOpKernel, true);
          }});
  // Spark: NULL when any argument is NULL (concat_ws skips NULLs).
  r->Add({"concat", "concat(ANY, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            return AllToString(a, o, 1) && (o->kernel = ConcatOpKernel, true);
          }});
  r->Add({"concat_ws", "concat_ws(STRING, ANY, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (!AllToString(a, o, 2)) return false;
            o->kernel = ConcatWsKernel;
            o->propagates_nulls = false;
            return true;
          }});
  r->Add({"length", "length(STRING), length(ARRAY), length(MAP)", ResolveLength},
         {"char_length", "character_length", "len"});
  r->Add({"octet_length", "octet_length(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 1 && a[0]->id() == TypeId::kBinary) return Fixed(a, {a[0]}, I64(), OctetLengthKernel, o);
            return Fixed(a, {Str()}, I64(), OctetLengthKernel, o);
          }});
  r->Add({"lower", "lower(STRING)",
          [](const std::vector<TypePtr>& a, Overload* o) { return Fixed(a, {Str()}, Str(), CaseKernel<false>, o); }},
         {"lcase"});
  r->Add({"upper", "upper(STRING)",
          [](const std::vector<TypePtr>& a, Overload* o) { return Fixed(a, {Str()}, Str(), CaseKernel<true>, o); }},
         {"ucase"});
  r->Add({"substring", "substring(STRING, BIGINT[, BIGINT])",
          [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), SubstringKernel, o) ||
                   Fixed(a, {Str(), I64(), I64()}, Str(), SubstringKernel, o);
          }},
         {"substr"});
  r->Add({"left", "left(STRING, BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), LeftRightKernel<true>, o);
          }});
  r->Add({"right", "right(STRING, BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), LeftRightKernel<false>, o);
          }});
  r->Add({"repeat", "repeat(STRING, BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), RepeatKernel, o);
          }});
  r->Add({"reverse", "reverse(STRING)",
          [](const std::vector<TypePtr>& a, Overload* o) { return Fixed(a, {Str()}, Str(), ReverseKernel, o); }});
  r->Add({"replace", "replace(STRING, STRING[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, Str(), ReplaceKernel, o) ||
                   Fixed(a, {Str(), Str(), Str()}, Str(), ReplaceKernel, o);
          }});
  r->Add({"trim", "trim(STRING[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Str(), TrimKernel<true, true>, o) ||
                   Fixed(a, {Str(), Str()}, Str(), TrimKernel<true, true>, o);
          }},
         {"btrim"});
  r->Add({"ltrim", "ltrim(STRING[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Str(), TrimKernel<true, false>, o) ||
                   Fixed(a, {Str(), Str()}, Str(), TrimKernel<true, false>, o);
          }});
  r->Add({"rtrim", "rtrim(STRING[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Str(), TrimKernel<false, true>, o) ||
                   Fixed(a, {Str(), Str()}, Str(), TrimKernel<false, true>, o);
          }});
  r->Add({"lpad", "lpad(STRING, BIGINT[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), PadKernel<true>, o) ||
                   Fixed(a, {Str(), I64(), Str()}, Str(), PadKernel<true>, o);
          }});
  r->Add({"rpad", "rpad(STRING, BIGINT[, STRING])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), I64()}, Str(), PadKernel<false>, o) ||
                   Fixed(a, {Str(), I64(), Str()}, Str(), PadKernel<false>, o);
          }});
  r->Add({"starts_with", "starts_with(STRING, STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, Bool(), ProbeKernel<Probe::kStarts>, o);
          }},
         {"startswith", "prefix"});
  r->Add({"ends_with", "ends_with(STRING, STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, Bool(), ProbeKernel<Probe::kEnds>, o);
          }},
         {"endswith", "suffix"});
  r->Add({"contains", "contains(STRING, STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, Bool(), ProbeKernel<Probe::kContains>, o);
          }});
  r->Add({"instr", "instr(STRING, STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, I64(), PositionKernel<false>, o);
          }},
         {"strpos"});
  r->Add({"position", "position(STRING needle, STRING haystack)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, I64(), PositionKernel<true>, o);
          }});
  // DuckDB's names, splitting on literal text (Spark's split takes a regular expression:
  // scalar_functions_regexp.cc).
  r->Add({"string_split", "string_split(STRING, STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, columnar::List(Str()), SplitKernel, o);
          }},
         {"str_split"});
}

}  // namespace shoal::expr
