#include "cli/logic_test_expectation.h"

#include <gtest/gtest.h>

#include "cli/result_builder.h"

namespace shoal::cli {
namespace {

LogicTestRecord Query(std::string types, SortMode sort, std::vector<std::string> expected) {
  LogicTestRecord r;
  r.kind = LogicTestRecord::Kind::kQuery;
  r.types = std::move(types);
  r.sort = sort;
  r.expected = std::move(expected);
  return r;
}

QueryResult TwoColumns() {
  ResultBuilder b;
  b.Int64s("a", {3, 1, std::nullopt}).Strings("b", {std::string("z"), std::string(""), std::string("x y")});
  return b.Build(/*batch_rows=*/2);
}

TEST(LogicTestExpectation, RendersRowsWithNullAndEmptyMarkers) {
  EXPECT_EQ(ResultLines(TwoColumns()), (std::vector<std::string>{"3\tz", "1\t(empty)", "NULL\tx y"}));
}

TEST(LogicTestExpectation, NoSortComparesInOrder) {
  QueryResult r = TwoColumns();
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kNoSort, {"3\tz", "1\t(empty)", "NULL\tx y"}), r), "");
  std::string diff = CheckQueryResult(Query("IT", SortMode::kNoSort, {"1\t(empty)", "3\tz", "NULL\tx y"}), r);
  EXPECT_NE(diff.find("row 1"), std::string::npos) << diff;
  EXPECT_NE(diff.find("expected"), std::string::npos);
}

TEST(LogicTestExpectation, RowSortIgnoresRowOrder) {
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kRowSort, {"NULL\tx y", "1\t(empty)", "3\tz"}), TwoColumns()),
            "");
}

TEST(LogicTestExpectation, ValueSortComparesSortedValues) {
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kValueSort, {"1", "3", "NULL", "(empty)", "x y", "z"}),
                             TwoColumns()),
            "");
  EXPECT_NE(CheckQueryResult(Query("IT", SortMode::kValueSort, {"1", "3", "NULL", "(empty)", "x y", "y"}),
                             TwoColumns()),
            "");
}

TEST(LogicTestExpectation, AcceptsOneValuePerLine) {
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kNoSort, {"3", "z", "1", "(empty)", "NULL", "x y"}),
                             TwoColumns()),
            "");
}

TEST(LogicTestExpectation, ReportsColumnCountAndRowCountMismatches) {
  std::string cols = CheckQueryResult(Query("I", SortMode::kNoSort, {"3"}), TwoColumns());
  EXPECT_NE(cols.find("column"), std::string::npos) << cols;
  std::string rows = CheckQueryResult(Query("IT", SortMode::kNoSort, {"3\tz"}), TwoColumns());
  EXPECT_NE(rows.find("expected 1 row(s), got 3"), std::string::npos) << rows;
}

TEST(LogicTestExpectation, EmptyResultMatchesNoExpectedRows) {
  ResultBuilder b;
  b.Int64s("a", {});
  EXPECT_EQ(CheckQueryResult(Query("I", SortMode::kNoSort, {}), b.Build()), "");
  EXPECT_NE(CheckQueryResult(Query("I", SortMode::kNoSort, {"1"}), b.Build()), "");
}

}  // namespace
}  // namespace shoal::cli
