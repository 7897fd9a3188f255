#include "columnar/string_bounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace shoal::columnar {
namespace {

// The bounds equal a brute-force min and max in unsigned byte order for strings that tie on
// their first 8 bytes, are prefixes of each other, hold zero bytes (which the padding also
// uses), bytes above 0x7f, or are empty.
TEST(StringBounds, EqualsBruteForceMinAndMaxInUnsignedByteOrder) {
  std::mt19937 rng(3);
  const std::vector<std::string> stems = {"", "a", "abcdefgh", "abcdefg", std::string("ab\0", 3),
                                          std::string("ab\0\0\0\0\0\0\0", 9), "\xff\xfe", "zzzzzzzzzz"};
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::string> values;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      std::string s = stems[rng() % stems.size()];
      const int extra = static_cast<int>(rng() % 4);
      for (int k = 0; k < extra; ++k) s.push_back(static_cast<char>(rng() % 3 == 0 ? 0 : rng() % 256));
      values.push_back(s);
    }
    StringBounds b;
    for (const auto& v : values) b.Add(v);
    ASSERT_FALSE(b.empty());
    const std::string_view lo = *std::min_element(values.begin(), values.end());
    const std::string_view hi = *std::max_element(values.begin(), values.end());
    ASSERT_EQ(b.min(), lo) << "trial " << trial;
    ASSERT_EQ(b.max(), hi) << "trial " << trial;
  }
  EXPECT_TRUE(StringBounds().empty());
}

TEST(StringBounds, PrefixIntegersOrderLikeTheStringsWhenTheyDiffer) {
  EXPECT_LT(BytePrefix8("ab"), BytePrefix8("abc"));
  EXPECT_LT(BytePrefix8(""), BytePrefix8(std::string("\x01", 1)));
  EXPECT_EQ(BytePrefix8("ab"), BytePrefix8(std::string("ab\0", 3)));  // tie: compared whole
  EXPECT_LT(BytePrefix8("\x7f"), BytePrefix8("\x80"));                // unsigned bytes
  EXPECT_EQ(BytePrefix8("abcdefgh"), BytePrefix8("abcdefghij"));
  EXPECT_LT(StringBounds::TieCompare("ab", std::string("ab\0", 3)), 0);
  EXPECT_EQ(StringBounds::TieCompare("ab", "ab"), 0);
  EXPECT_LT(StringBounds::TieCompare("abcdefgh", std::string("abcdefgh\0", 9)), 0);
  EXPECT_GT(StringBounds::TieCompare("abcdefghz", "abcdefghy1"), 0);
}

}  // namespace
}  // namespace shoal::columnar
