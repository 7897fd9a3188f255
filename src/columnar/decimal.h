// Exact DECIMAL text conversion and 128-bit integer helpers.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "columnar/type.h"

namespace shoal::columnar {

// 10^n for n in [0, 38].
int128_t Pow10(int n);
// Largest unscaled magnitude of DECIMAL(precision, _): 10^precision - 1.
inline int128_t MaxUnscaled(int precision) { return Pow10(precision) - 1; }

std::string Int128ToString(int128_t v);
// "123.45" for (12345, 2); "-0.05" for (-5, 2); no exponent, exact.
std::string FormatDecimal(int128_t unscaled, int scale);
// Parses "[-+]digits[.digits][e[-+]n]" to an unscaled value at `scale`, rounding half away
// from zero when the text has more fraction digits; nullopt when malformed or when the value
// does not fit `precision`.
std::optional<int128_t> ParseDecimal(std::string_view text, int precision, int scale);

}  // namespace shoal::columnar
