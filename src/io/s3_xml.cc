#include "io/s3_xml.h"

#include <array>
#include <charconv>
#include <ctime>

namespace shoal::io {

namespace {

// The body between <tag ...> and </tag> starting the search at `from`; npos when none.
std::string_view FindElement(std::string_view xml, std::string_view tag, size_t* from) {
  std::string open = "<";
  open.append(tag);
  std::string close = "</";
  close.append(tag).append(">");
  size_t pos = *from;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    size_t after = pos + open.size();
    if (after >= xml.size()) break;
    char c = xml[after];
    if (c != '>' && c != ' ' && c != '/') {  // <Prefix> vs <PrefixFoo>
      pos = after;
      continue;
    }
    size_t gt = xml.find('>', after);
    if (gt == std::string_view::npos) break;
    if (xml[gt - 1] == '/') {  // <Tag/>: empty element
      *from = gt + 1;
      return xml.substr(gt + 1, 0);
    }
    size_t end = xml.find(close, gt + 1);
    if (end == std::string_view::npos) break;
    *from = end + close.size();
    return xml.substr(gt + 1, end - gt - 1);
  }
  *from = std::string_view::npos;
  return {};
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::optional<int64_t> ToMillis(int64_t y, int64_t mo, int64_t d, int64_t h, int64_t mi, int64_t s, int64_t ms) {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || y < 1970 || y > 9999) {
    return std::nullopt;
  }
  struct tm t = {};
  t.tm_year = static_cast<int>(y - 1900);
  t.tm_mon = static_cast<int>(mo - 1);
  t.tm_mday = static_cast<int>(d);
  t.tm_hour = static_cast<int>(h);
  t.tm_min = static_cast<int>(mi);
  t.tm_sec = static_cast<int>(s);
  return static_cast<int64_t>(timegm(&t)) * 1000 + ms;
}

}  // namespace

std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  size_t from = 0;
  while (from < xml.size()) {
    std::string_view body = FindElement(xml, tag, &from);
    if (from == std::string_view::npos) break;
    out.push_back(body);
  }
  return out;
}

std::optional<std::string> XmlText(std::string_view xml, std::string_view tag) {
  size_t from = 0;
  std::string_view body = FindElement(xml, tag, &from);
  if (from == std::string_view::npos) return std::nullopt;
  return XmlUnescape(body);
}

std::string XmlUnescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    size_t semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out.push_back('&');
      continue;
    }
    std::string_view ent = s.substr(i + 1, semi - i - 1);
    static constexpr std::array<std::pair<std::string_view, char>, 5> kNamed = {
        {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}}};
    bool done = false;
    for (const auto& [name, ch] : kNamed) {
      if (ent == name) {
        out.push_back(ch);
        done = true;
      }
    }
    if (!done && ent.size() > 1 && ent[0] == '#') {
      bool hex = ent[1] == 'x' || ent[1] == 'X';
      std::string_view digits = ent.substr(hex ? 2 : 1);
      uint32_t cp = 0;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      // S3 escapes only control characters this way; anything else stays as written.
      if (ec == std::errc() && p == digits.data() + digits.size() && !digits.empty() && cp < 0x80) {
        out.push_back(static_cast<char>(cp));
        done = true;
      }
    }
    if (!done) {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

Result<S3ListPage> ParseListObjectsV2(std::string_view xml) {
  if (xml.find("<ListBucketResult") == std::string_view::npos) {
    return Status::Corruption("S3 list answer is not a ListBucketResult: '" + std::string(xml.substr(0, 200)) + "'");
  }
  S3ListPage page;
  for (std::string_view c : XmlElements(xml, "Contents")) {
    S3ListedObject o;
    std::optional<std::string> key = XmlText(c, "Key");
    if (!key) return Status::Corruption("S3 list answer has a <Contents> without a <Key>");
    o.key = std::move(*key);
    if (auto size = XmlText(c, "Size"); !size || !ParseInt(*size, &o.size) || o.size < 0) {
      return Status::Corruption("S3 list answer has no valid <Size> for key '" + o.key + "'");
    }
    if (auto lm = XmlText(c, "LastModified")) o.mtime_ms = ParseS3Time(*lm).value_or(0);
    page.objects.push_back(std::move(o));
  }
  for (std::string_view c : XmlElements(xml, "CommonPrefixes")) {
    std::optional<std::string> prefix = XmlText(c, "Prefix");
    if (!prefix) return Status::Corruption("S3 list answer has a <CommonPrefixes> without a <Prefix>");
    page.common_prefixes.push_back(std::move(*prefix));
  }
  page.truncated = XmlText(xml, "IsTruncated").value_or("false") == "true";
  page.next_continuation_token = XmlText(xml, "NextContinuationToken").value_or("");
  if (page.truncated && page.next_continuation_token.empty()) {
    return Status::Corruption("S3 list answer is truncated but carries no NextContinuationToken");
  }
  return page;
}

std::optional<int64_t> ParseS3Time(std::string_view t) {
  auto num = [&](size_t pos, size_t len, int64_t* v) { return pos + len <= t.size() && ParseInt(t.substr(pos, len), v); };
  int64_t y, mo, d, h, mi, s, ms = 0;
  // ISO 8601: 2026-12-07T06:47:52[.123]Z
  if (t.size() >= 19 && t[4] == '-' && t[7] == '-' && t[10] == 'T') {
    if (!num(0, 4, &y) || !num(5, 2, &mo) || !num(8, 2, &d) || !num(11, 2, &h) || !num(14, 2, &mi) ||
        !num(17, 2, &s)) {
      return std::nullopt;
    }
    if (t.size() >= 23 && t[19] == '.') num(20, 3, &ms);
    return ToMillis(y, mo, d, h, mi, s, ms);
  }
  // HTTP date: Mon, 07 Dec 2026 06:47:52 GMT
  static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (t.size() >= 29 && t[3] == ',') {
    size_t m = kMonths.find(t.substr(8, 3));
    if (m == std::string_view::npos || m % 3 != 0) return std::nullopt;
    mo = static_cast<int64_t>(m / 3) + 1;
    if (!num(5, 2, &d) || !num(12, 4, &y) || !num(17, 2, &h) || !num(20, 2, &mi) || !num(23, 2, &s)) {
      return std::nullopt;
    }
    return ToMillis(y, mo, d, h, mi, s, 0);
  }
  return std::nullopt;
}

}  // namespace shoal::io
