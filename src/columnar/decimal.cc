#include "columnar/decimal.h"

#include <algorithm>
#include <array>

namespace shoal::columnar {

int128_t Pow10(int n) {
  static const auto table = [] {
    std::array<int128_t, 39> t{};
    t[0] = 1;
    for (int i = 1; i < 39; ++i) t[i] = t[i - 1] * 10;
    return t;
  }();
  return table[std::clamp(n, 0, 38)];
}

std::string Int128ToString(int128_t v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) s.push_back('-');
  std::reverse(s.begin(), s.end());
  return s;
}

std::string FormatDecimal(int128_t unscaled, int scale) {
  if (scale <= 0) return Int128ToString(unscaled);
  bool neg = unscaled < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(unscaled)
                            : static_cast<unsigned __int128>(unscaled);
  std::string digits = Int128ToString(static_cast<int128_t>(u));
  if (static_cast<int>(digits.size()) <= scale) {
    digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
  }
  digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  if (neg) digits.insert(0, 1, '-');
  return digits;
}

std::optional<int128_t> ParseDecimal(std::string_view t, int precision, int scale) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  bool neg = false;
  if (t.front() == '-' || t.front() == '+') {
    neg = t.front() == '-';
    t.remove_prefix(1);
  }
  std::string digits;  // all significant digits, integer then fraction
  int frac_digits = 0;
  bool seen_dot = false, any = false;
  size_t i = 0;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c >= '0' && c <= '9') {
      any = true;
      if (!(digits.empty() && c == '0' && !seen_dot)) digits.push_back(c);
      else if (seen_dot) digits.push_back(c);
      if (seen_dot) ++frac_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  int exponent = 0;
  if (i < t.size()) {
    if (t[i] != 'e' && t[i] != 'E') return std::nullopt;
    ++i;
    bool eneg = false;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) eneg = t[i++] == '-';
    if (i >= t.size()) return std::nullopt;
    int e = 0;
    for (; i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9' || e > 10000) return std::nullopt;
      e = e * 10 + (t[i] - '0');
    }
    exponent = eneg ? -e : e;
  }
  // value = digits * 10^(exponent - frac_digits); we want digits * 10^(scale + exponent - frac).
  int shift = scale + exponent - frac_digits;
  // Strip leading zeros.
  size_t nz = digits.find_first_not_of('0');
  digits = nz == std::string::npos ? "" : digits.substr(nz);
  bool round_up = false;
  if (shift < 0) {
    int drop = -shift;
    if (drop > static_cast<int>(digits.size())) {
      digits.clear();
    } else {
      round_up = digits[digits.size() - drop] >= '5';
      digits.resize(digits.size() - drop);
    }
    shift = 0;
  }
  if (static_cast<int>(digits.size()) + shift > 38) return std::nullopt;
  int128_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  v *= Pow10(shift);
  if (round_up) ++v;
  if (v > MaxUnscaled(precision)) return std::nullopt;
  return neg ? -v : v;
}

}  // namespace shoal::columnar
