// Upper- and lower-casing of UTF-8 text for `upper` / `lower`, as Java's String.toUpperCase /
// toLowerCase(Locale.ROOT) that Spark calls: every letter with a Unicode case mapping (Latin,
// Greek, Cyrillic, Armenian, Georgian, ...), `ß` to `SS`, `İ` to `i̇`. Other one-to-many
// mappings of Unicode's SpecialCasing (ligatures such as `ﬁ`) and the final-sigma rule of
// lower-casing are not applied (doc/sql_dialect.md lists them).
//
// Thread-safety: pure functions (the C.UTF-8 locale object is created once, never changed).
#pragma once

#include <string>
#include <string_view>

namespace shoal::expr {

// Appends `in` upper-cased (`upper`) or lower-cased to *out. Bytes that are not valid UTF-8 are
// copied unchanged.
void AppendCaseMapped(std::string_view in, bool upper, std::string* out);

}  // namespace shoal::expr
