#include "cli/progress_bar.h"

#include <gtest/gtest.h>

#include <cmath>

#include "cli/table_renderer.h"

namespace shoal::cli {
namespace {

TEST(ProgressBar, RendersPercentAndFitsWidth) {
  for (double f : {0.0, 0.005, 0.42, 0.999, 1.0}) {
    std::string s = ProgressBar::Render(f, "scanning events", 60);
    EXPECT_EQ(DisplayWidth(s), 60) << s;
    EXPECT_NE(s.find(std::to_string(static_cast<int>(f * 100)) + "%"), std::string::npos) << s;
  }
  EXPECT_NE(ProgressBar::Render(1.0, "", 30).find("100%"), std::string::npos);
}

TEST(ProgressBar, ClampsOutOfRangeFractions) {
  EXPECT_NE(ProgressBar::Render(-1, "x", 40).find(" 0%"), std::string::npos);
  EXPECT_NE(ProgressBar::Render(7, "x", 40).find("100%"), std::string::npos);
  EXPECT_NE(ProgressBar::Render(std::nan(""), "x", 40).find(" 0%"), std::string::npos);
}

TEST(ProgressBar, WaitsBeforeFirstDrawThenThrottles) {
  ProgressBar bar(50);
  bar.Start(1000);
  EXPECT_EQ(bar.Update(0.1, "x", 2999), "");  // too early: 2 s delay
  EXPECT_EQ(bar.Clear(), "");                 // nothing drawn yet
  std::string first = bar.Update(0.2, "x", 3000);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first[0], '\r');
  EXPECT_EQ(bar.Update(0.3, "x", 3050), "");   // within 100 ms
  EXPECT_EQ(bar.Update(0.2, "x", 3200), "");   // same percentage
  EXPECT_FALSE(bar.Update(0.3, "x", 3200).empty());
  EXPECT_EQ(bar.Clear(), "\r\x1b[K");
  EXPECT_EQ(bar.Clear(), "");
}

}  // namespace
}  // namespace shoal::cli
