// JsonCursor: a validating scanner over one JSON text for the fast paths that read log actions
// and file statistics without building a document (action_line_parser, stats_scan). Every
// method returns false when the text is not what the fast path accepts — malformed JSON, and
// also valid but unusual text (exponents, long numbers, nesting past kMaxSkipDepth) whose
// handling only the document parser knows; the caller then hands the text to that parser, so
// the fast path never decides differently. Strings are checked as a strict parser does
// (control characters, escapes, surrogate pairs, UTF-8).
//
// Thread-safety: one cursor per thread; it reads the text it was given, which must outlive it.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "columnar/utf8.h"

namespace shoal::delta {

inline constexpr int kMaxSkipDepth = 64;

inline bool IsJsonWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class JsonCursor {
 public:
  explicit JsonCursor(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}

  // Where the cursor is (for taking a value's text: before and after SkipValue).
  const char* pos() const { return p_; }

  void SkipWs() {
    while (p_ < end_ && IsJsonWs(*p_)) ++p_;
  }
  bool AtEnd() {
    SkipWs();
    return p_ == end_;
  }
  bool Consume(char c) {
    SkipWs();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool ConsumeLiteral(const char* lit, size_t n) {
    SkipWs();
    if (static_cast<size_t>(end_ - p_) >= n && std::memcmp(p_, lit, n) == 0) {
      p_ += n;
      return true;
    }
    return false;
  }
  bool ConsumeNull() { return ConsumeLiteral("null", 4); }

  bool Bool(bool* out) {
    if (ConsumeLiteral("true", 4)) {
      *out = true;
      return true;
    }
    if (ConsumeLiteral("false", 5)) {
      *out = false;
      return true;
    }
    return false;
  }

  // A JSON integer that fits int64 (floats, exponents and overflow decline: the DOM parser
  // reports them as "not an integer").
  bool Int64(int64_t* out) {
    SkipWs();
    bool neg = false;
    if (p_ < end_ && *p_ == '-') {
      neg = true;
      ++p_;
    }
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
    uint64_t v = 0;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
        uint64_t d = static_cast<uint64_t>(*p_ - '0');
        if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
        v = v * 10 + d;
        ++p_;
      }
    }
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) {
      return false;
    }
    constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (neg) {
      if (v > kMax + 1) return false;
      *out = v == kMax + 1 ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
    } else {
      if (v > kMax) return false;
      *out = static_cast<int64_t>(v);
    }
    return true;
  }

  // A string value decoded into `out` (replacing its content).
  bool String(std::string* out) {
    SkipWs();
    if (p_ >= end_ || *p_ != '"') return false;
    out->clear();
    out->reserve(RawStringLength());
    return ScanString(out);
  }

  // An object key: a view of the raw text when it has no escapes, else of a decoded copy that
  // stays valid until the next Key call.
  bool Key(std::string_view* out) {
    SkipWs();
    if (p_ >= end_ || *p_ != '"') return false;
    const char* start = p_ + 1;
    if (!ScanString(nullptr)) return false;
    std::string_view raw(start, static_cast<size_t>(p_ - 1 - start));
    if (raw.find('\\') == std::string_view::npos) {
      *out = raw;
      return true;
    }
    p_ = start - 1;
    key_scratch_.clear();  // ScanString appends
    if (!ScanString(&key_scratch_)) return false;
    *out = key_scratch_;
    return true;
  }

  // Validates and skips any JSON value (iteratively, up to kMaxSkipDepth levels).
  bool SkipValue() {
    char closers[kMaxSkipDepth];
    int depth = 0;
    while (true) {
      // One value.
      SkipWs();
      if (p_ >= end_) return false;
      char c = *p_;
      bool opened = false;
      if (c == '{' || c == '[') {
        if (depth == kMaxSkipDepth) return false;
        ++p_;
        char closer = c == '{' ? '}' : ']';
        if (Consume(closer)) {
          // empty container: a complete value
        } else {
          closers[depth++] = closer;
          if (closer == '}' && !MemberKey()) return false;
          opened = true;
        }
      } else if (c == '"') {
        if (!ScanString(nullptr)) return false;
      } else if (c == 't') {
        if (!ConsumeLiteral("true", 4)) return false;
      } else if (c == 'f') {
        if (!ConsumeLiteral("false", 5)) return false;
      } else if (c == 'n') {
        if (!ConsumeNull()) return false;
      } else if (!SkipNumber()) {
        return false;
      }
      if (opened) continue;
      // After a value: close containers or move to the next element.
      while (true) {
        if (depth == 0) return true;
        SkipWs();
        if (p_ >= end_) return false;
        char closer = closers[depth - 1];
        if (*p_ == ',') {
          ++p_;
          if (closer == '}' && !MemberKey()) return false;
          break;
        }
        if (*p_ != closer) return false;
        ++p_;
        --depth;
      }
    }
  }

 private:
  bool MemberKey() {
    SkipWs();
    if (!ScanString(nullptr)) return false;
    return Consume(':');
  }

  // Number grammar; declines exponents and long numbers (the DOM parser may report those as
  // overflowing), so only plain integers and short decimals are skipped here.
  bool SkipNumber() {
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) return false;
    return p_ - start <= 18;
  }

  // Bytes between the quotes of the string at p_ (an upper bound of its decoded size).
  size_t RawStringLength() const {
    const char* q = p_ + 1;
    while (true) {
      const void* hit = std::memchr(q, '"', static_cast<size_t>(end_ - q));
      if (!hit) return 0;
      const char* h = static_cast<const char*>(hit);
      size_t slashes = 0;
      for (const char* b = h; b > p_ + 1 && b[-1] == '\\'; --b) ++slashes;
      if (slashes % 2 == 0) return static_cast<size_t>(h - (p_ + 1));
      q = h + 1;
    }
  }

  bool Hex4(uint32_t* out) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = p_[i];
      uint32_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
      v = v * 16 + d;
    }
    p_ += 4;
    *out = v;
    return true;
  }

  // One well-formed UTF-8 sequence (Unicode Table 3-7) starting at a byte >= 0x80.
  bool Utf8Sequence() {
    auto b = [&](int i) { return static_cast<unsigned char>(p_[i]); };
    unsigned char c = b(0);
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ < n + 1) return false;
    if (b(1) < lo || b(1) > hi) return false;
    for (int i = 2; i <= n; ++i) {
      if (b(i) < 0x80 || b(i) > 0xBF) return false;
    }
    p_ += n + 1;
    return true;
  }

  // The string starting at the quote at p_; decoded into `out` (appending) unless null.
  bool ScanString(std::string* out) {
    if (p_ >= end_ || *p_ != '"') return false;
    ++p_;
    while (true) {
      const char* run = p_;
      while (p_ < end_) {
        unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (out) out->append(run, static_cast<size_t>(p_ - run));
      if (p_ >= end_) return false;
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c >= 0x80) {
        const char* seq = p_;
        if (!Utf8Sequence()) return false;
        if (out) out->append(seq, static_cast<size_t>(p_ - seq));
        continue;
      }
      ++p_;  // backslash
      if (p_ >= end_) return false;
      char e = *p_++;
      char plain;
      switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // lone low surrogate
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          if (out) columnar::AppendUtf8(cp, out);
          continue;
        }
        default: return false;
      }
      if (out) out->push_back(plain);
    }
  }

  const char* p_;
  const char* end_;
  std::string key_scratch_;
};


}  // namespace shoal::delta
