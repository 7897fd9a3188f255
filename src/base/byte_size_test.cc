// ParseByteSize / FormatByteSize (base/byte_size.h): the units of SET memory_limit, their
// spellings and the errors for sizes that are not sizes.
#include "base/byte_size.h"

#include <gtest/gtest.h>

namespace shoal {
namespace {

constexpr int64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024, kTiB = kGiB * 1024;

int64_t Parse(const std::string& text) {
  auto r = ParseByteSize(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : -1;
}

TEST(ParseByteSize, UnitsArePowersOf1024InEitherSpelling) {
  EXPECT_EQ(Parse("200MB"), 200 * kMiB);
  EXPECT_EQ(Parse("200MiB"), 200 * kMiB);
  EXPECT_EQ(Parse("4GB"), 4 * kGiB);
  EXPECT_EQ(Parse("4GiB"), 4 * kGiB);
  EXPECT_EQ(Parse("64KB"), 64 * kKiB);
  EXPECT_EQ(Parse("64kib"), 64 * kKiB);
  EXPECT_EQ(Parse("2TB"), 2 * kTiB);
  EXPECT_EQ(Parse("2TiB"), 2 * kTiB);
  EXPECT_EQ(Parse("512B"), 512);
  EXPECT_EQ(Parse("512 bytes"), 512);
  EXPECT_EQ(Parse("1000"), 1000);
}

TEST(ParseByteSize, CaseSpacesAndDecimals) {
  EXPECT_EQ(Parse("200mb"), 200 * kMiB);
  EXPECT_EQ(Parse("200 Mb"), 200 * kMiB);
  EXPECT_EQ(Parse("  1.5GB  "), 3 * kGiB / 2);
  EXPECT_EQ(Parse("0.5 MiB"), kMiB / 2);
  EXPECT_EQ(Parse(".5KB"), 512);
  EXPECT_EQ(Parse("+3MB"), 3 * kMiB);
  EXPECT_EQ(Parse("0"), 0);
}

TEST(ParseByteSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "   ", "12XB", "-1GB", "-5", "GB", "1.2.3MB", "1e3", "MB12", "1 G B",
                          "nan", "12 MBs", "99999999999TB"}) {
    auto r = ParseByteSize(bad);
    ASSERT_FALSE(r.ok()) << "'" << bad << "' parsed as " << *r;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << r.status().message();
  }
  EXPECT_NE(ParseByteSize("12XB").status().message().find("unknown unit"), std::string::npos);
  EXPECT_NE(ParseByteSize("-1GB").status().message().find("negative"), std::string::npos);
  EXPECT_NE(ParseByteSize("").status().message().find("empty"), std::string::npos);
}

TEST(FormatByteSize, PicksTheLargestUnitWithOneDecimal) {
  EXPECT_EQ(FormatByteSize(0), "0 bytes");
  EXPECT_EQ(FormatByteSize(1), "1 byte");
  EXPECT_EQ(FormatByteSize(1023), "1023 bytes");
  EXPECT_EQ(FormatByteSize(1024), "1.0 KiB");
  EXPECT_EQ(FormatByteSize(200 * kMiB), "200.0 MiB");
  EXPECT_EQ(FormatByteSize(3 * kGiB / 2), "1.5 GiB");
  EXPECT_EQ(FormatByteSize(5 * kTiB), "5.0 TiB");
  EXPECT_EQ(FormatByteSize(200'000'000), "190.7 MiB");
}

TEST(FormatByteSize, RoundTripsThroughParse) {
  for (int64_t v : {kKiB, 200 * kMiB, 4 * kGiB, 3 * kTiB}) EXPECT_EQ(Parse(FormatByteSize(v)), v);
}

}  // namespace
}  // namespace shoal
