// Spark 4's UTF-8 string helpers: is_valid_utf8, make_valid_utf8 (each maximal invalid
// subsequence becomes U+FFFD), validate_utf8 (error [INVALID_UTF8_STRING]), try_validate_utf8
// (NULL); and quote (the string in single quotes, each quote escaped with a backslash).
#include <string>

#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::VectorPtr;

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 when it is invalid; *skip is the length
// of the maximal invalid prefix there (at least 1) when it is.
size_t Utf8SequenceAt(std::string_view s, size_t i, size_t* skip) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  *skip = 1;
  if (c < 0x80) return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) return 0;
    const unsigned char x = b(i + k);
    const bool ok = k == 1 ? (x >= lo && x <= hi) : (x >= 0x80 && x <= 0xBF);
    if (!ok) return 0;
    *skip = k + 1;
  }
  return len;
}

bool ValidUtf8(std::string_view s) {
  size_t skip = 0;
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8SequenceAt(s, i, &skip);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

Status IsValidKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<uint8_t>(call, [&](int64_t i, uint8_t* r) -> Result<RowStatus> {
    *r = ValidUtf8(StrArg(call, 0, i)) ? 1 : 0;
    return RowStatus::kOk;
  }, out);
}

Status MakeValidKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* r) -> Result<RowStatus> {
    std::string_view s = StrArg(call, 0, i);
    size_t skip = 0;
    for (size_t k = 0; k < s.size();) {
      size_t n = Utf8SequenceAt(s, k, &skip);
      if (n > 0) {
        r->append(s.substr(k, n));
        k += n;
      } else {
        r->append("\xEF\xBF\xBD");  // U+FFFD
        k += skip;
      }
    }
    return RowStatus::kOk;
  }, out);
}

template <bool kTry>
Status ValidateKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* r) -> Result<RowStatus> {
    std::string_view s = StrArg(call, 0, i);
    if (!ValidUtf8(s)) {
      if (kTry) return RowStatus::kNull;
      std::string hex;
      for (unsigned char c : s) {
        static constexpr char kDigits[] = "0123456789ABCDEF";
        hex += kDigits[c >> 4];
        hex += kDigits[c & 15];
      }
      return Status::InvalidArgument("[INVALID_UTF8_STRING] Invalid UTF8 byte sequence found in string: \\x" + hex);
    }
    r->assign(s);
    return RowStatus::kOk;
  }, out);
}

Status QuoteKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* r) -> Result<RowStatus> {
    r->push_back('\'');
    for (char c : StrArg(call, 0, i)) {
      if (c == '\'') r->push_back('\\');
      r->push_back(c);
    }
    r->push_back('\'');
    return RowStatus::kOk;
  }, out);
}

// A string-like argument as it is (BINARY is read as its bytes), anything else cast to STRING.
bool StringArg(const std::vector<TypePtr>& a, TypePtr ret, ScalarKernel kernel, Overload* o) {
  if (a.size() != 1) return false;
  TypePtr t = a[0]->IsStringLike() ? a[0] : columnar::String();
  if (!Fixed(a, {t}, ret ? ret : columnar::String(), kernel, o)) return false;
  return true;
}

}  // namespace

void RegisterUtf8Functions(FunctionRegistry* r) {
  using A = const std::vector<TypePtr>&;
  r->Add({"is_valid_utf8", "is_valid_utf8(STRING)",
          [](A a, Overload* o) { return StringArg(a, columnar::Boolean(), IsValidKernel, o); }});
  r->Add({"make_valid_utf8", "make_valid_utf8(STRING)",
          [](A a, Overload* o) { return StringArg(a, nullptr, MakeValidKernel, o); }});
  r->Add({"validate_utf8", "validate_utf8(STRING)",
          [](A a, Overload* o) { return StringArg(a, nullptr, ValidateKernel<false>, o); }});
  r->Add({"try_validate_utf8", "try_validate_utf8(STRING)",
          [](A a, Overload* o) { return StringArg(a, nullptr, ValidateKernel<true>, o); }});
  r->Add({"quote", "quote(STRING)", [](A a, Overload* o) { return StringArg(a, nullptr, QuoteKernel, o); }});
}

}  // namespace shoal::expr
