#include "base/byte_size.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace shoal {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

}  // namespace

Result<int64_t> ParseByteSize(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(
        "invalid size '" + std::string(text) + "': " + why +
        " (write a number and a unit such as '4GB', '512MiB' or '1.5GB')");
  };
  std::string_view s = text;
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  if (s.empty()) return bad("empty");
  if (s.front() == '-') return bad("negative");
  if (s.front() == '+') s.remove_prefix(1);
  // The number: digits with at most one '.', at least one digit.
  size_t end = 0;
  bool dot = false, digit = false;
  while (end < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[end])) || (s[end] == '.' && !dot))) {
    if (s[end] == '.') {
      dot = true;
    } else {
      digit = true;
    }
    ++end;
  }
  if (!digit) return bad("no number");
  double number = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + end, number);
  if (ec != std::errc() || ptr != s.data() + end || !std::isfinite(number))
    return bad("bad number");
  std::string_view rest = s.substr(end);
  while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
  const std::string unit = Lower(rest);
  double scale = 0;
  if (unit.empty() || unit == "b" || unit == "byte" || unit == "bytes") {
    scale = 1;
  } else if (unit == "kb" || unit == "kib") {
    scale = 1024.0;
  } else if (unit == "mb" || unit == "mib") {
    scale = 1024.0 * 1024;
  } else if (unit == "gb" || unit == "gib") {
    scale = 1024.0 * 1024 * 1024;
  } else if (unit == "tb" || unit == "tib") {
    scale = 1024.0 * 1024 * 1024 * 1024;
  } else {
    return bad("unknown unit '" + std::string(rest) + "'");
  }
  const double bytes = std::round(number * scale);
  if (bytes > static_cast<double>(int64_t{1} << 62)) return bad("larger than 4 EiB");
  return static_cast<int64_t>(bytes);
}

std::string FormatByteSize(int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u + 1 < static_cast<int>(sizeof(kUnits) / sizeof(kUnits[0]))) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.1f %s", v, kUnits[u]);
  return buf;
}

}  // namespace shoal
