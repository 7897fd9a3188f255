#include "cli/table_renderer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cli/result_builder.h"

namespace shoal::cli {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) lines.push_back(l);
  return lines;
}

// Every line of a box has the same display width (at most `max`).
void ExpectRectangular(const std::string& table, int max) {
  std::vector<std::string> lines = Lines(table);
  ASSERT_FALSE(lines.empty());
  int w = DisplayWidth(lines[0]);
  EXPECT_LE(w, max) << table;
  for (const std::string& l : lines) EXPECT_EQ(DisplayWidth(l), w) << "line: " << l << "\n" << table;
}

TEST(TableRenderer, DrawsHeaderTypesAndRightAlignedNumbers) {
  ResultBuilder b;
  b.Int64s("two", {2});
  EXPECT_EQ(RenderTable(b.Build(), TableLayout{}),
            "┌────────┐\n"
            "│  two   │\n"
            "│ BIGINT │\n"
            "├────────┤\n"
            "│      2 │\n"
            "└────────┘\n");
}

TEST(TableRenderer, LeftAlignsTextAndShowsNull) {
  ResultBuilder b;
  b.Strings("name", {std::string("ab"), std::nullopt}).Int64s("n", {10, std::nullopt});
  EXPECT_EQ(RenderTable(b.Build(), TableLayout{}),
            "┌────────┬────────┐\n"
            "│  name  │   n    │\n"
            "│ STRING │ BIGINT │\n"
            "├────────┼────────┤\n"
            "│ ab     │     10 │\n"
            "│ NULL   │   NULL │\n"
            "└────────┴────────┘\n");
}

TEST(TableRenderer, EmptyResultShowsZeroRowsFooter) {
  ResultBuilder b;
  b.Int64s("a", {});
  std::string t = RenderTable(b.Build(), TableLayout{});
  EXPECT_NE(t.find("0 rows"), std::string::npos) << t;
  ExpectRectangular(t, 80);
}

TEST(TableRenderer, AlignsWideUnicodeCharacters) {
  ResultBuilder b;
  b.Strings("s", {std::string("日本語"), std::string("abcdef"), std::string("é")});
  std::string t = RenderTable(b.Build(), TableLayout{});
  ExpectRectangular(t, 80);
  EXPECT_NE(t.find("│ 日本語 │"), std::string::npos) << t;
}

TEST(TableRenderer, TruncatesLongValuesToTheWidth) {
  ResultBuilder b;
  b.Strings("s", {std::string(200, 'x')}).Strings("t", {std::string(100, 'y')});
  TableLayout layout;
  layout.max_width = 40;
  std::string t = RenderTable(b.Build(), layout);
  ExpectRectangular(t, 40);
  EXPECT_NE(t.find("x…"), std::string::npos) << t;
  EXPECT_NE(t.find("y…"), std::string::npos) << t;
}

TEST(TableRenderer, ElidesMiddleRowsWithFooter) {
  std::vector<std::optional<int64_t>> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  ResultBuilder b;
  b.Int64s("v", v);
  TableLayout layout;
  layout.max_rows = 10;
  std::string t = RenderTable(b.Build(/*batch_rows=*/7), layout);
  ExpectRectangular(t, 80);
  for (int shown : {0, 4, 95, 99}) {
    const std::string cell = std::string(" ").append(std::to_string(shown)).append(" │");
    EXPECT_NE(t.find(cell), std::string::npos) << shown << "\n" << t;
  }
  for (int hidden : {5, 50, 94}) {
    const std::string cell = std::string(" ").append(std::to_string(hidden)).append(" │");
    EXPECT_EQ(t.find(cell), std::string::npos) << hidden << "\n" << t;
  }
  EXPECT_NE(t.find("·"), std::string::npos);
  EXPECT_NE(t.find("100 rows (10 shown)"), std::string::npos) << t;
}

TEST(TableRenderer, ShowsAllRowsUpToTheLimit) {
  std::vector<std::optional<int64_t>> v;
  for (int i = 0; i < 40; ++i) v.push_back(i);
  ResultBuilder b;
  b.Int64s("v", v);
  std::string t = RenderTable(b.Build(), TableLayout{});
  EXPECT_EQ(t.find("·"), std::string::npos);
  EXPECT_EQ(t.find("rows"), std::string::npos);
  EXPECT_EQ(Lines(t).size(), 40u + 5u);
}

TEST(TableRenderer, HidesMiddleColumnsWhenTooWide) {
  ResultBuilder b;
  for (int c = 0; c < 30; ++c) b.Strings("column_" + std::to_string(c), {std::string("value")});
  TableLayout layout;
  layout.max_width = 60;
  std::string t = RenderTable(b.Build(), layout);
  ExpectRectangular(t, 60);
  EXPECT_NE(t.find("column_0"), std::string::npos) << t;
  EXPECT_NE(t.find("columns ("), std::string::npos) << t;
  EXPECT_NE(t.find("│ … │"), std::string::npos) << t;
}

TEST(TableRenderer, EscapesNewlinesInsideCells) {
  ResultBuilder b;
  b.Strings("s", {std::string("a\nb")});
  std::string t = RenderTable(b.Build(), TableLayout{});
  EXPECT_NE(t.find("a\\nb"), std::string::npos) << t;
  EXPECT_EQ(Lines(t).size(), 6u);
}

TEST(DisplayWidth, CountsWideCombiningAndInvalidBytes) {
  EXPECT_EQ(DisplayWidth("abc"), 3);
  EXPECT_EQ(DisplayWidth("日本"), 4);
  EXPECT_EQ(DisplayWidth("e\xCC\x81"), 1);  // e + combining acute
  EXPECT_EQ(DisplayWidth("\xFF\xFE"), 2);
  EXPECT_EQ(DisplayWidth(""), 0);
}

TEST(FitToWidth, KeepsFittingTextAndCutsAtCodePoints) {
  EXPECT_EQ(FitToWidth("hello", 5), "hello");
  EXPECT_EQ(FitToWidth("hello!", 5), "hell…");
  EXPECT_EQ(FitToWidth("日本語", 4), "日…");
  EXPECT_EQ(FitToWidth("ééé", 2), "é…");
}

}  // namespace
}  // namespace shoal::cli
