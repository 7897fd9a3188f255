// UTF-8 encoding of code points, shared by every layer that builds text (JSON unescaping,
// statistics bound rounding).
//
// Thread-safety: pure function.
#pragma once

#include <cstdint>
#include <string>

namespace shoal::columnar {

// Appends the UTF-8 encoding of code point `cp` (<= U+10FFFF; the caller checks) to *out.
void AppendUtf8(uint32_t cp, std::string* out);

}  // namespace shoal::columnar
