// String functions that rewrite a string, as Spark defines them: initcap, translate, overlay,
// space, mask, soundex, luhn_check, bit_length, format_number, format_string/printf.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "columnar/decimal.h"
#include "expr/coercion.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::int128_t;
using columnar::TypeId;
using columnar::VectorPtr;

namespace {

TypePtr Str() { return columnar::String(); }
TypePtr I32() { return columnar::Int32(); }

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

// initcap: the first letter of each space-separated word upper case, the rest lower (ASCII).
Status InitcapKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    bool start = true;
    for (char c : StrArg(call, 0, i)) {
      s->push_back(start ? Upper(c) : Lower(c));
      start = c == ' ';
    }
    return RowStatus::kOk;
  }, out);
}

// Splits s into its UTF-8 characters.
std::vector<std::string_view> Chars(std::string_view s) {
  std::vector<std::string_view> cs;
  for (size_t k = 0; k < s.size();) {
    size_t e = Utf8Offset(s.substr(k), 1);
    cs.push_back(s.substr(k, e));
    k += e;
  }
  return cs;
}

// translate(s, from, to): each character of `from` becomes the one at its position in `to`,
// or is removed when `to` is shorter; the first occurrence in `from` wins.
Status TranslateKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    auto from = Chars(StrArg(call, 1, i)), to = Chars(StrArg(call, 2, i));
    for (std::string_view c : Chars(StrArg(call, 0, i))) {
      size_t k = 0;
      while (k < from.size() && from[k] != c) ++k;
      if (k == from.size()) s->append(c);
      else if (k < to.size()) s->append(to[k]);
    }
    return RowStatus::kOk;
  }, out);
}

// overlay(input, replace, pos[, len]): input with `len` characters from `pos` (1-based)
// replaced; len defaults to replace's length.
Status OverlayKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i), rep = StrArg(call, 1, i);
    int64_t pos = FixedArg<int32_t>(call, 2, i);
    int64_t len = call.num_args > 3 ? FixedArg<int32_t>(call, 3, i) : -1;
    if (len < 0) len = Utf8Length(rep);
    int64_t before = std::max<int64_t>(pos - 1, 0);
    s->assign(in.substr(0, Utf8Offset(in, before)));
    s->append(rep);
    s->append(in.substr(Utf8Offset(in, before + len)));
    return RowStatus::kOk;
  }, out);
}

Status SpaceKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    int64_t n = FixedArg<int32_t>(call, 0, i);
    if (n > 0) s->assign(static_cast<size_t>(n), ' ');
    return RowStatus::kOk;
  }, out);
}

// mask(s[, upper[, lower[, digit[, other]]]]): replaces each class of character by its mask
// character (defaults 'X', 'x', 'n', none); a NULL mask leaves the class as it is.
Status MaskKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    if (call.arg(0).IsNull(i)) return RowStatus::kNull;
    std::string_view masks[4] = {"X", "x", "n", {}};
    bool keep[4] = {false, false, false, true};
    for (size_t a = 1; a < call.num_args && a <= 4; ++a) {
      keep[a - 1] = call.arg(a).type()->id() == TypeId::kNull || call.arg(a).IsNull(i);
      if (!keep[a - 1]) masks[a - 1] = StrArg(call, a, i);
    }
    for (std::string_view c : Chars(StrArg(call, 0, i))) {
      int cls = c.size() > 1 ? 3 : (c[0] >= 'A' && c[0] <= 'Z') ? 0 : (c[0] >= 'a' && c[0] <= 'z') ? 1
                                    : (c[0] >= '0' && c[0] <= '9') ? 2 : 3;
      s->append(keep[cls] ? c : masks[cls]);
    }
    return RowStatus::kOk;
  }, out, false);
}

// soundex: American Soundex of the leading letters; the input unchanged when it does not start
// with a letter.
Status SoundexKernel(const KernelCall& call, VectorPtr* out) {
  static const char kCode[] = "01230120022455012623010202";  // A..Z
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    if (in.empty() || !IsAsciiAlpha(in[0])) {
      s->assign(in);
      return RowStatus::kOk;
    }
    s->push_back(Upper(in[0]));
    char last = kCode[Upper(in[0]) - 'A'];
    for (size_t k = 1; k < in.size() && s->size() < 4; ++k) {
      char u = Upper(in[k]);
      if (!IsAsciiAlpha(u)) continue;
      char code = kCode[u - 'A'];
      if (code != '0' && code != last) s->push_back(code);
      if (u != 'H' && u != 'W') last = code;
    }
    while (s->size() < 4) s->push_back('0');
    return RowStatus::kOk;
  }, out);
}

Status LuhnKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int sum = 0;
    bool dbl = false;
    *r = !in.empty();
    for (size_t k = in.size(); k-- > 0;) {
      if (in[k] < '0' || in[k] > '9') {
        *r = 0;
        return RowStatus::kOk;
      }
      int d = in[k] - '0';
      if (dbl) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
      dbl = !dbl;
    }
    *r = *r && sum % 10 == 0;
    return RowStatus::kOk;
  }, out);
}

Status BitLengthKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    *r = static_cast<int32_t>(StrArg(call, 0, i).size() * 8);
    return RowStatus::kOk;
  }, out);
}

// Inserts ',' between groups of three digits of the integral part of a plain number text.
std::string GroupThousands(const std::string& t) {
  size_t start = t[0] == '-' ? 1 : 0;
  size_t dot = t.find('.');
  if (dot == std::string::npos) dot = t.size();
  std::string out = t.substr(0, start);
  for (size_t k = start; k < dot; ++k) {
    out.push_back(t[k]);
    size_t left = dot - k - 1;
    if (left > 0 && left % 3 == 0) out.push_back(',');
  }
  return out + t.substr(dot);
}

// format_number(x, d): x rounded half-up to d decimals with thousands separators.
Status FormatNumberKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    int64_t d = FixedArg<int32_t>(call, 1, i);
    if (d < 0) return RowStatus::kNull;
    const KernelArg& x = call.arg(0);
    std::string text;
    if (x.type()->id() == TypeId::kDecimal) {
      int scale = x.type()->scale();
      int128_t v = x.type()->IsWideDecimal() ? x.vec->Get<int128_t>(x.Row(i)) : int128_t{x.vec->Get<int64_t>(x.Row(i))};
      if (d < scale) {
        int128_t p = columnar::Pow10(static_cast<int>(scale - d));
        int128_t q = v / p, rem = v % p;
        if (rem * 2 >= p) ++q;
        if (rem * 2 <= -p) --q;
        v = q;
        scale = static_cast<int>(d);
      }
      text = columnar::FormatDecimal(v, scale);
      if (d > scale) text += std::string(scale == 0 ? 1 : 0, '.') + std::string(static_cast<size_t>(d - scale), '0');
    } else {
      double v = FixedArg<double>(call, 0, i);
      if (!std::isfinite(v)) return RowStatus::kNull;
      char buf[512];
      std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::min<int64_t>(d, 100)), v);
      text = buf;
    }
    *s = GroupThousands(text);
    return RowStatus::kOk;
  }, out);
}

// format_string(fmt, args...): printf-style %s %d %f %x %e %% with flags, width and precision;
// %n$ argument indexes are not supported.
Status FormatStringKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    if (call.arg(0).IsNull(i)) return RowStatus::kNull;
    std::string_view f = StrArg(call, 0, i);
    size_t next = 1;
    for (size_t k = 0; k < f.size(); ++k) {
      if (f[k] != '%') {
        s->push_back(f[k]);
        continue;
      }
      size_t e = k + 1;
      while (e < f.size() && std::string_view("-+ 0#,.0123456789").find(f[e]) != std::string_view::npos) ++e;
      if (e >= f.size()) return Status::InvalidArgument("format_string(): incomplete format '" + std::string(f) + "'");
      char conv = f[e];
      std::string spec(f.substr(k, e - k));
      k = e;
      if (conv == '%') {
        s->push_back('%');
        continue;
      }
      if (conv == 'n') {
        s->push_back('\n');
        continue;
      }
      if (next >= call.num_args) {
        return Status::InvalidArgument("format_string(): missing argument for '" + spec + conv + "'");
      }
      const KernelArg& x = call.arg(next++);
      bool null = x.type()->id() == TypeId::kNull || x.IsNull(i);
      char buf[512];
      switch (conv) {
        case 's':
        case 'S': {
          std::string v = null ? "null" : std::string(x.vec->GetString(x.Row(i)));
          std::snprintf(buf, sizeof buf, (spec + "s").c_str(), v.c_str());
          break;
        }
        case 'd':
        case 'x':
        case 'X':
        case 'o':
          if (null) std::snprintf(buf, sizeof buf, "null");
          else std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<long long>(x.vec->Get<int64_t>(x.Row(i))));
          break;
        case 'f':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
          if (null) std::snprintf(buf, sizeof buf, "null");
          else std::snprintf(buf, sizeof buf, (spec + conv).c_str(), x.vec->Get<double>(x.Row(i)));
          break;
        default:
          return Status::InvalidArgument(std::string("format_string(): unsupported conversion '%") + conv + "'");
      }
      s->append(buf);
    }
    return RowStatus::kOk;
  }, out, false);
}

// Argument types of format_string: integers as BIGINT, other numbers as DOUBLE, the rest STRING.
bool ResolveFormatString(const std::vector<TypePtr>& a, Overload* o) {
  if (a.empty() || ImplicitCastCost(a[0], Str()) < 0) return false;
  o->arg_types = {Str()};
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k]->IsNested()) return false;
    o->arg_types.push_back(a[k]->IsInteger() ? columnar::Int64() : a[k]->IsNumeric() ? columnar::Float64() : Str());
  }
  o->return_type = Str();
  o->kernel = FormatStringKernel;
  o->propagates_nulls = false;
  return true;
}

}  // namespace

void RegisterStringEditFunctions(FunctionRegistry* r) {
  r->Add({"initcap", "initcap(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Str(), InitcapKernel, o);
          }});
  r->Add({"translate", "translate(STRING, STRING from, STRING to)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str(), Str()}, Str(), TranslateKernel, o);
          }});
  r->Add({"overlay", "overlay(STRING, STRING, INT pos[, INT len])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str(), I32()}, Str(), OverlayKernel, o) ||
                   Fixed(a, {Str(), Str(), I32(), I32()}, Str(), OverlayKernel, o);
          }});
  r->Add({"space", "space(INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {I32()}, Str(), SpaceKernel, o);
          }});
  r->Add({"mask", "mask(STRING[, STRING upper[, STRING lower[, STRING digit[, STRING other]]]])",
          [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.empty() || a.size() > 5) return false;
            if (!Fixed(a, {Str()}, Str(), MaskKernel, o, Str())) return false;
            o->propagates_nulls = false;
            return true;
          }});
  r->Add({"soundex", "soundex(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Str(), SoundexKernel, o);
          }});
  r->Add({"luhn_check", "luhn_check(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, columnar::Boolean(), LuhnKernel, o);
          }});
  r->Add({"bit_length", "bit_length(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 1 && a[0]->IsStringLike()) return Fixed(a, {a[0]}, I32(), BitLengthKernel, o);
            return Fixed(a, {Str()}, I32(), BitLengthKernel, o);
          }});
  r->Add({"format_number", "format_number(NUMERIC, INT)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 2 && a[0]->id() == TypeId::kDecimal) return Fixed(a, {a[0], I32()}, Str(), FormatNumberKernel, o);
            return Fixed(a, {columnar::Float64(), I32()}, Str(), FormatNumberKernel, o);
          }});
  r->Add({"format_string", "format_string(STRING fmt, ANY, ...)", ResolveFormatString}, {"printf"});
}

}  // namespace shoal::expr
