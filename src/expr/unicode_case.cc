#include "expr/unicode_case.h"

#include <locale.h>
#include <wctype.h>

#include <cstdint>

#include "columnar/utf8.h"

namespace shoal::expr {

namespace {

// glibc's C.UTF-8 carries Unicode's simple case mappings; the *_l calls take the locale as an
// argument, so nothing depends on (or changes) the process's locale. Null when the C library
// has no such locale: only ASCII and Latin-1 letters are mapped then.
locale_t Utf8Locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

uint32_t MapLatin1(uint32_t cp, bool upper) {
  if (upper && ((cp >= 'a' && cp <= 'z') || (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7))) return cp - 0x20;
  if (!upper && ((cp >= 'A' && cp <= 'Z') || (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7))) return cp + 0x20;
  return cp;
}

// The code point starting at in[*i] (advancing *i past it), or -1 for a byte that does not start
// a valid sequence (*i advances by one).
int64_t NextCodePoint(std::string_view in, size_t* i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(in[k]); };
  const unsigned char c = b(*i);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + len > in.size()) {
    ++*i;
    return -1;
  }
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < len; ++k) {
    if ((b(*i + k) & 0xC0) != 0x80) {
      ++*i;
      return -1;
    }
    cp = (cp << 6) | (b(*i + k) & 0x3F);
  }
  *i += len;
  return cp;
}

}  // namespace

void AppendCaseMapped(std::string_view in, bool upper, std::string* out) {
  const locale_t loc = Utf8Locale();
  out->reserve(out->size() + in.size());
  size_t i = 0;
  while (i < in.size()) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {
      out->push_back(static_cast<char>(MapLatin1(c, upper)));
      ++i;
      continue;
    }
    const size_t start = i;
    const int64_t cp = NextCodePoint(in, &i);
    if (cp < 0) {
      out->append(in.substr(start, i - start));
      continue;
    }
    if (upper && cp == 0xDF) {  // ß: Java's full mapping
      out->append("SS");
      continue;
    }
    if (!upper && cp == 0x130) {  // İ: i followed by a combining dot above
      out->append("i\xCC\x87");
      continue;
    }
    uint32_t mapped = static_cast<uint32_t>(cp);
    if (loc != nullptr) {
      mapped = static_cast<uint32_t>(upper ? towupper_l(static_cast<wint_t>(cp), loc)
                                           : towlower_l(static_cast<wint_t>(cp), loc));
    } else {
      mapped = MapLatin1(mapped, upper);
    }
    columnar::AppendUtf8(mapped, out);
  }
}

}  // namespace shoal::expr
