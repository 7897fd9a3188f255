// Checks UTF-8 well-formedness, so text shoal puts into log JSON (stats bounds, partition
// values) can always be serialized.
//
// Thread-safety: pure function.
#pragma once

#include <string_view>

namespace shoal::table {

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points > U+10FFFF).
bool IsValidUtf8(std::string_view s);

}  // namespace shoal::table
