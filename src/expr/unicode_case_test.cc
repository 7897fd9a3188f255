#include "expr/unicode_case.h"

#include <gtest/gtest.h>

namespace shoal::expr {
namespace {

std::string Upper(std::string_view s) {
  std::string out;
  AppendCaseMapped(s, true, &out);
  return out;
}
std::string Lower(std::string_view s) {
  std::string out;
  AppendCaseMapped(s, false, &out);
  return out;
}

// Expected strings are Java's String.toUpperCase / toLowerCase(Locale.ROOT) (Python's str.upper
// and str.lower agree on these).
TEST(UnicodeCase, MapsLettersOfEveryScriptAsJava) {
  EXPECT_EQ(Upper("abc xyz 09"), "ABC XYZ 09");
  EXPECT_EQ(Upper("éñ ÿ"), "ÉÑ Ÿ");                // ÿ leaves Latin-1: U+0178
  EXPECT_EQ(Upper("straße"), "STRASSE");           // ß: the full mapping
  EXPECT_EQ(Upper("ωμέγα привет"), "ΩΜΈΓΑ ПРИВЕТ");
  EXPECT_EQ(Upper("日本 🦆"), "日本 🦆");
  EXPECT_EQ(Lower("ÀÉ Ÿ ΩΜΈΓΑ ПРИВЕТ"), "àé ÿ ωμέγα привет");
  EXPECT_EQ(Lower("İ"), "i\xCC\x87");
  EXPECT_EQ(Lower("ẞ"), "ß");
}

TEST(UnicodeCase, InvalidBytesAreCopied) {
  EXPECT_EQ(Upper(std::string("a\xFF" "b\xC3", 4)), std::string("A\xFF" "B\xC3", 4));
  EXPECT_EQ(Lower(std::string("\xE6\x97", 2)), std::string("\xE6\x97", 2));
}

}  // namespace
}  // namespace shoal::expr
