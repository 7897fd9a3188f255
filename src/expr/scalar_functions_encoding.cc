// Encodings of numbers and bytes as Spark defines them: hex/unhex, bin, conv (base 2..36,
// negative bases for signed output), base64/unbase64, encode/decode (UTF-8 only), ascii, chr.
#include <cctype>
#include <cstring>
#include <string>

#include "expr/coercion.h"
#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::TypeId;
using columnar::VectorPtr;

namespace {

TypePtr Str() { return columnar::String(); }
TypePtr Bin() { return columnar::Binary(); }
TypePtr I64() { return columnar::Int64(); }

constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// Digits of v (as unsigned) in base b.
std::string ToBase(uint64_t v, unsigned b) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s.insert(s.begin(), kDigits[v % b]);
    v /= b;
  }
  return s;
}

Status HexIntKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    *s = ToBase(static_cast<uint64_t>(FixedArg<int64_t>(call, 0, i)), 16);
    return RowStatus::kOk;
  }, out);
}

Status HexBytesKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    for (unsigned char c : StrArg(call, 0, i)) {
      s->push_back(kDigits[c >> 4]);
      s->push_back(kDigits[c & 15]);
    }
    return RowStatus::kOk;
  }, out);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes of hex digits `in` appended to *s; an odd length reads as if led by '0'. False for a
// non-hex digit.
bool Unhex(std::string_view in, std::string* s) {
  size_t k = 0;
  if (in.size() % 2) {
    int v = HexValue(in[0]);
    if (v < 0) return false;
    s->push_back(static_cast<char>(v));
    k = 1;
  }
  for (; k < in.size(); k += 2) {
    int hi = HexValue(in[k]), lo = HexValue(in[k + 1]);
    if (hi < 0 || lo < 0) return false;
    s->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

// unhex: NULL for a non-hex digit.
Status UnhexKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    return Unhex(StrArg(call, 0, i), s) ? RowStatus::kOk : RowStatus::kNull;
  }, out);
}

Status BinKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    *s = ToBase(static_cast<uint64_t>(FixedArg<int64_t>(call, 0, i)), 2);
    return RowStatus::kOk;
  }, out);
}

// conv(num, from_base, to_base): parses the longest valid prefix as an unsigned 64-bit number
// (a leading '-' negates it in two's complement); a negative to_base prints it signed.
Status ConvKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    int64_t from = FixedArg<int32_t>(call, 1, i), to = FixedArg<int32_t>(call, 2, i);
    if (from < 2 || from > 36 || std::abs(to) < 2 || std::abs(to) > 36) return RowStatus::kNull;
    size_t k = 0;
    while (k < in.size() && in[k] == ' ') ++k;
    bool neg = k < in.size() && in[k] == '-';
    if (neg) ++k;
    uint64_t v = 0;
    bool any = false;
    for (; k < in.size(); ++k) {
      int d = HexValue(in[k]);
      char c = in[k];
      if (c >= 'g' && c <= 'z') d = c - 'a' + 10;
      if (c >= 'G' && c <= 'Z') d = c - 'A' + 10;
      if (d < 0 || d >= from) break;
      unsigned __int128 w = static_cast<unsigned __int128>(v) * static_cast<unsigned>(from) + static_cast<unsigned>(d);
      if (w > UINT64_MAX) {
        return Status::OutOfRange("[ARITHMETIC_OVERFLOW] Overflow in function conv()");
      }
      v = static_cast<uint64_t>(w);
      any = true;
    }
    if (!any) return RowStatus::kNull;
    if (neg) v = ~v + 1;
    if (to < 0 && static_cast<int64_t>(v) < 0) {
      *s = "-" + ToBase(~v + 1, static_cast<unsigned>(-to));
    } else {
      *s = ToBase(v, static_cast<unsigned>(std::abs(to)));
    }
    return RowStatus::kOk;
  }, out);
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Status Base64Kernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    for (size_t k = 0; k < in.size(); k += 3) {
      uint32_t n = static_cast<uint32_t>(static_cast<unsigned char>(in[k])) << 16;
      if (k + 1 < in.size()) n |= static_cast<uint32_t>(static_cast<unsigned char>(in[k + 1])) << 8;
      if (k + 2 < in.size()) n |= static_cast<unsigned char>(in[k + 2]);
      s->push_back(kBase64[(n >> 18) & 63]);
      s->push_back(kBase64[(n >> 12) & 63]);
      s->push_back(k + 1 < in.size() ? kBase64[(n >> 6) & 63] : '=');
      s->push_back(k + 2 < in.size() ? kBase64[n & 63] : '=');
    }
    return RowStatus::kOk;
  }, out);
}

// The bytes of base64 text `in` appended to *s (padding and line breaks skipped); false and the
// offending character in *bad for a character outside the alphabet.
bool Unbase64(std::string_view in, std::string* s, char* bad) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
    const char* p = std::strchr(kBase64, c);
    if (!p || c == 0) {
      *bad = c;
      return false;
    }
    acc = (acc << 6) | static_cast<uint32_t>(p - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      s->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

Status Unbase64Kernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    char bad = 0;
    if (Unbase64(StrArg(call, 0, i), s, &bad)) return RowStatus::kOk;
    return Status::InvalidArgument(std::string("[CONVERSION_INVALID_INPUT] invalid base64 character '") + bad +
                                   "' in unbase64()");
  }, out);
}

// to_binary(str[, fmt]) with fmt hex (the default), utf-8/utf8 or base64, case-insensitive;
// try_to_binary is NULL where to_binary fails (malformed input, unknown format).
template <bool kTry>
Status ToBinaryKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    std::string fmt = call.num_args > 1 ? std::string(StrArg(call, 1, i)) : "hex";
    for (char& c : fmt) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool ok = true;
    char bad = 0;
    if (fmt == "hex") {
      ok = Unhex(in, s);
    } else if (fmt == "utf-8" || fmt == "utf8") {
      s->assign(in);
    } else if (fmt == "base64") {
      ok = Unbase64(in, s, &bad);
    } else {
      if (kTry) return RowStatus::kNull;
      return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.BINARY_FORMAT] The value of parameter(s) `format` in `" +
                                     std::string(call.name) + "` is invalid: expects one of the binary formats "
                                     "'base64', 'hex', 'utf-8', but got '" + fmt + "'.");
    }
    if (ok) return RowStatus::kOk;
    if (kTry) return RowStatus::kNull;
    return Status::InvalidArgument("[CONVERSION_INVALID_INPUT] The value '" + std::string(in) +
                                   "' (STRING) cannot be converted to BINARY with format '" + fmt +
                                   "' because it is malformed. Use try_to_binary to get NULL instead.");
  }, out);
}

// encode(STRING, charset) / decode(BINARY, charset): UTF-8 only; bytes pass unchanged.
Status SameBytesKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view cs = StrArg(call, 1, i);
    if (cs != "UTF-8" && cs != "utf-8" && cs != "UTF8" && cs != "utf8") {
      return Status::NotSupported("charset '" + std::string(cs) + "' in " + std::string(call.name) +
                                  "(): only UTF-8 is supported");
    }
    s->assign(StrArg(call, 0, i));
    return RowStatus::kOk;
  }, out);
}

// ascii: code point of the first character (0 for '').
Status AsciiKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i);
    if (in.empty()) {
      *r = 0;
      return RowStatus::kOk;
    }
    auto c = static_cast<unsigned char>(in[0]);
    int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    int32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len && k < static_cast<int>(in.size()); ++k) cp = (cp << 6) | (in[k] & 0x3F);
    *r = cp;
    return RowStatus::kOk;
  }, out);
}

void AppendUtf8(uint32_t cp, std::string* s) {
  if (cp < 0x80) {
    s->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// chr(n): the character n mod 256 (Spark); '' for negative n.
Status ChrKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    int64_t n = FixedArg<int64_t>(call, 0, i);
    if (n < 0) return RowStatus::kOk;
    AppendUtf8(static_cast<uint32_t>(n % 256), s);
    return RowStatus::kOk;
  }, out);
}

bool ResolveHex(const std::vector<TypePtr>& a, Overload* o) {
  if (a.size() == 1 && (a[0]->IsInteger() || a[0]->id() == TypeId::kNull)) {
    return Fixed(a, {I64()}, Str(), HexIntKernel, o);
  }
  if (a.size() == 1 && a[0]->IsStringLike()) return Fixed(a, {a[0]}, Str(), HexBytesKernel, o);
  return Fixed(a, {I64()}, Str(), HexIntKernel, o);
}

}  // namespace

void RegisterEncodingFunctions(FunctionRegistry* r) {
  r->Add({"hex", "hex(BIGINT|STRING|BINARY)", ResolveHex});
  r->Add({"unhex", "unhex(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Bin(), UnhexKernel, o);
          }});
  r->Add({"bin", "bin(BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {I64()}, Str(), BinKernel, o);
          }});
  r->Add({"conv", "conv(STRING num, INT from_base, INT to_base)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), columnar::Int32(), columnar::Int32()}, Str(), ConvKernel, o);
          }});
  r->Add({"base64", "base64(BINARY)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 1 && a[0]->IsStringLike()) return Fixed(a, {a[0]}, Str(), Base64Kernel, o);
            return Fixed(a, {Bin()}, Str(), Base64Kernel, o);
          }});
  r->Add({"unbase64", "unbase64(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Bin(), Unbase64Kernel, o);
          }});
  r->Add({"to_binary", "to_binary(STRING[, STRING format])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Bin(), ToBinaryKernel<false>, o) ||
                   Fixed(a, {Str(), Str()}, Bin(), ToBinaryKernel<false>, o);
          }});
  r->Add({"try_to_binary", "try_to_binary(STRING[, STRING format])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, Bin(), ToBinaryKernel<true>, o) ||
                   Fixed(a, {Str(), Str()}, Bin(), ToBinaryKernel<true>, o);
          }});
  r->Add({"encode", "encode(STRING, STRING charset)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, Bin(), SameBytesKernel, o);
          }});
  r->Add({"decode", "decode(BINARY, STRING charset)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() == 2 && a[0]->IsStringLike()) return Fixed(a, {a[0], Str()}, Str(), SameBytesKernel, o);
            return Fixed(a, {Bin(), Str()}, Str(), SameBytesKernel, o);
          }});
  r->Add({"ascii", "ascii(STRING)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str()}, columnar::Int32(), AsciiKernel, o);
          }});
  r->Add({"chr", "chr(BIGINT)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {I64()}, Str(), ChrKernel, o);
          }},
         {"char"});
}

}  // namespace shoal::expr
